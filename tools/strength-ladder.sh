#!/usr/bin/env bash
# The strength ladder (README, "Strength"): the random, default and planner hero policies over Intro,
# Standard and Siege with 2, 3 and 4 heroes, each cell SEEDS games on the same seeds (`--seed 1`), so
# the policies are compared game by game. Prints a Markdown table: per policy the win rate and the mean
# waves won, each with its 95% interval, the games a second, then the paired difference planner − default
# and default − random in mean waves won with its 95% interval (`village sim --vs-policy`).
#   cargo build --release && tools/strength-ladder.sh 100
# Needs python3. The planner's cells take most of the time (about a second a game on one thread).
set -euo pipefail
SEEDS=${1:-100}
BIN=${BIN:-target/release/village}
parties=("Captain Maren,Tobin the Marksman"
    "Captain Maren,Tobin the Marksman,Sister Ilse"
    "Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith")
summary='
import json, sys
d = json.load(sys.stdin)
a, b, diff = d["a"]["report"], d["b"]["report"], d["difference"]
def arm(r):
    return "%.0f%% (%.0f–%.0f%%); %.2f (%.2f–%.2f)" % (
        100 * r["win_rate"], 100 * r["ci95"][0], 100 * r["ci95"][1],
        r["waves_won_mean"], r["waves_won_ci95"][0], r["waves_won_ci95"][1])
lo, hi = diff["waves_won_ci95"]
print("%s|%s|%+.2f (%+.2f to %+.2f)|%.1f" % (arm(a), arm(b), diff["waves_won"], lo, hi, d["games_per_sec"]))
'
echo "| length | heroes | planner: win rate; waves won | default | random | planner − default, waves (paired 95% CI) | default − random | games/s (planner, default pair) |"
echo "|---|---|---|---|---|---|---|---|"
for length in intro standard siege; do
    for i in 0 1 2; do
        party=${parties[$i]}
        pd=$("$BIN" sim --json --games "$SEEDS" --seed 1 --length "$length" --heroes "$party" --policy planner --vs-policy default | python3 -c "$summary")
        dr=$("$BIN" sim --json --games "$SEEDS" --seed 1 --length "$length" --heroes "$party" --policy default --vs-policy random | python3 -c "$summary")
        IFS='|' read -r planner default pdiff pspeed <<<"$pd"
        IFS='|' read -r _ random ddiff _ <<<"$dr"
        echo "| $length | $((i + 2)) | $planner | $default | $random | $pdiff | $ddiff | $pspeed |"
    done
done
