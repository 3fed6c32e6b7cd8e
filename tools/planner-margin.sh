#!/usr/bin/env bash
# The planner's margin (issue 41's first "Done when"; README, "Strength"): with the 4-hero party on
# Intro and Standard, GAMES paired games (the same seeds) of planner against default and of default
# against random (`village sim --vs-policy`), each line the paired difference in mean waves won and in
# win rate with their 95% intervals, and each arm's figures.
#   cargo build --release && tools/planner-margin.sh 1000 7
# Needs python3. The planner's arm is most of the time: about 0.8 s an Intro game and 2.5 s a Standard
# game on one thread (it uses every core).
set -euo pipefail
GAMES=${1:-500}
SEED=${2:-7}
BIN=${BIN:-target/release/village}
party="Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith"
summary='
import json, sys
d = json.load(sys.stdin)
a, b, diff = d["a"]["report"], d["b"]["report"], d["difference"]
def arm(r):
    return "%.1f%% win, %.3f waves (%.3f to %.3f)" % (
        100 * r["win_rate"], r["waves_won_mean"], r["waves_won_ci95"][0], r["waves_won_ci95"][1])
lo, hi = diff["waves_won_ci95"]
wlo, whi = diff["ci95"]
print("%s − %s: %+.3f waves (%+.3f to %+.3f), win rate %+.1f points (%+.1f to %+.1f); %s: %s; %s: %s" % (
    d["a"]["name"], d["b"]["name"], diff["waves_won"], lo, hi,
    100 * diff["win_rate"], 100 * wlo, 100 * whi, d["a"]["name"], arm(a), d["b"]["name"], arm(b)))
'
for length in intro standard; do
    for pair in "planner default" "default random"; do
        read -r a b <<<"$pair"
        printf '%s, %s games (seed %s): ' "$length" "$GAMES" "$SEED"
        "$BIN" sim --json --games "$GAMES" --seed "$SEED" --length "$length" --heroes "$party" \
            --policy "$a" --vs-policy "$b" | python3 -c "$summary"
    done
done
