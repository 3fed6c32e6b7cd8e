#!/usr/bin/env bash
# How the cost of a game grows with the work: for Intro, Standard and Siege with 2 and 4 heroes, games per
# second on one thread and on two (`village bench`) and the peak memory of one worker (`village sim
# --jobs 1` under GNU time's maximum resident set size). Prints a Markdown table.
#   cargo build --release && tools/cost-table.sh 60
# GAMES (the first argument, default 60) is the games per measurement. Needs /usr/bin/time (GNU time).
set -euo pipefail
GAMES=${1:-60}
BIN=${BIN:-target/release/village}
TWO="Captain Maren,Tobin the Marksman"
FOUR="Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith"
echo "| length | heroes | games/s, one thread | games/s, two threads | scaling | events a game | peak RSS, one worker |"
echo "|---|---|---|---|---|---|---|"
for length in intro standard siege; do
    for party in "$TWO" "$FOUR"; do
        heroes=$(awk -F, '{print NF}' <<<"$party")
        json=$("$BIN" bench --games "$GAMES" --length "$length" --heroes "$party" --json)
        rss=$( { /usr/bin/time -f '%M' "$BIN" sim --games "$GAMES" --length "$length" --heroes "$party" \
            --jobs 1 --json >/dev/null; } 2>&1 | tail -n 1)
        python3 - "$length" "$heroes" "$rss" "$json" <<'EOF'
import json, sys
length, heroes, rss, report = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
one, two = report["games_per_sec_1"], report["games_per_sec_2"]
print(f"| {length} | {heroes} | {one:.1f} | {two:.1f} | {two / one:.2f}x | "
      f"{report['events_per_game']:.0f} | {rss / 1024:.0f} MiB |")
EOF
    done
done
