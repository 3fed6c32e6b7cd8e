#!/usr/bin/env bash
# Outcomes of `village play --auto` (the default hero policy against the Behaviour scripts) for every
# length and party size: SEEDS games per cell, seeds 1..SEEDS. Prints a Markdown table.
#   cargo build --release && tools/play-outcomes.sh 200
set -euo pipefail
SEEDS=${1:-100}
BIN=${BIN:-target/release/village}
parties=("Captain Maren,Tobin the Marksman"
    "Captain Maren,Tobin the Marksman,Sister Ilse"
    "Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith")
echo "| length | heroes | games | win | loss | stalled | win rate |"
echo "|---|---|---|---|---|---|---|"
for length in intro standard siege; do
    for i in 0 1 2; do
        w=0 l=0 s=0
        for seed in $(seq 1 "$SEEDS"); do
            r=$("$BIN" play --auto --json --length "$length" --heroes "${parties[$i]}" --seed "$seed" |
                grep -o '"result": "[a-z]*"' | head -1)
            case $r in
            *win*) w=$((w + 1)) ;;
            *loss*) l=$((l + 1)) ;;
            *) s=$((s + 1)) ;;
            esac
        done
        echo "| $length | $((i + 2)) | $SEEDS | $w | $l | $s | $((100 * w / SEEDS))% |"
    done
done
