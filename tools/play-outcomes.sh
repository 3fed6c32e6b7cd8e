#!/usr/bin/env bash
# Outcomes of whole games under the default hero policy against the Behaviour scripts, for every length
# and party size: SEEDS games per cell (`village sim --games SEEDS --seed 1`, the same games whatever
# --jobs is), with the cause each game ended by (SUPPLEMENT §10). Prints a Markdown table.
#   cargo build --release && tools/play-outcomes.sh 200
# VARIANT=NAME plays every game with that rule variant (e.g. enemy_groups_activate_once).
# Every game is also checked by `village audit` (`sim --audit`): the last column counts its breaches.
# The endless length (Defender mode) has no win: its rows give the mean waves won instead of the win
# rate and the most waves a game won, which must stay below the length's safety cap (100): a stall there
# is a wave that ran out of rounds, as in the other lengths.
set -euo pipefail
SEEDS=${1:-100}
BIN=${BIN:-target/release/village}
variant=()
if [ -n "${VARIANT:-}" ]; then
    variant=(--variant "$VARIANT")
fi
parties=("Captain Maren,Tobin the Marksman"
    "Captain Maren,Tobin the Marksman,Sister Ilse"
    "Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith")
echo "| length | heroes | games | win | loss | stalled | win rate (endless: mean waves won) | Town Hall Destroyed | overrun | party defeated | audit breaches |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for length in intro standard siege endless; do
    for i in 0 1 2; do
        # sim exits 1 when the audit finds a breach: the row still reports them.
        { "$BIN" sim --json --audit --games "$SEEDS" --seed 1 --length "$length" --heroes "${parties[$i]}" "${variant[@]}" || [ $? -eq 1 ]; } |
            python3 -c '
import json, sys
d = json.load(sys.stdin)
c, n, w = d["causes"], d["games"], d["wins"]
most = max(int(k) for k in d["waves_won_games"])
score = "%.2f waves (most %d)" % (d["waves_won_mean"], most) if d.get("endless") else "%d%%" % (100 * w // n)
row = [sys.argv[1], sys.argv[2], n, w, d["losses"], d["stalled"], score,
       c["town_hall_destroyed"], c["overrun"], c["party_defeated"], d["audit"]["breaches"]]
print("| " + " | ".join(str(x) for x in row) + " |")
' "$length" "$((i + 2))"
    done
done
