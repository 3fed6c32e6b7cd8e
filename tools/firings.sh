#!/usr/bin/env bash
# How often each signature, Alpha Rule and Opportunity script acted in `village play --auto` games: the
# number of logged events that name the script as their source (a modifier, a changed result, a spent
# use, a granted effect, a reroll, a scripted action, a fire, a summoning, a claim...), summed over
# SEEDS seeds of each party below, Standard and Siege. Needs python3.
#   cargo build --release && tools/firings.sh 50
set -euo pipefail
SEEDS=${1:-50}
BIN=${BIN:-target/release/village}
parties=("Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith"
    "Hedda the Hedge Witch,Sir Roland,Wren the Scout,Grimm the Trapper")
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
n=0
for length in standard siege; do
    for party in "${parties[@]}"; do
        for seed in $(seq 1 "$SEEDS"); do
            n=$((n + 1))
            "$BIN" play --auto --length "$length" --heroes "$party" --seed "$seed" \
                --log "$logs/$n.jsonl" >/dev/null
        done
    done
done
python3 - "$logs" "$n" <<'PY'
import collections, json, os, sys
folder, games = sys.argv[1], int(sys.argv[2])
kinds = ("scripts/signatures/", "scripts/alpha/", "scripts/opportunities/")
count, in_games = collections.Counter(), collections.Counter()
def scripts_in(v, found):
    if isinstance(v, str):
        for k in kinds:
            i = v.find(k)
            if i >= 0:
                found.add(v[i:].split()[0].rstrip(")"))
    elif isinstance(v, dict):
        for x in v.values():
            scripts_in(x, found)
    elif isinstance(v, list):
        for x in v:
            scripts_in(x, found)
for name in os.listdir(folder):
    seen = set()
    for line in open(os.path.join(folder, name)):
        found = set()
        scripts_in(json.loads(line), found)
        count.update(found)
        seen |= found
    in_games.update(seen)
print(f"{games} games (Standard and Siege; two parties)")
print("| script | events | games |")
print("|---|---|---|")
for s in sorted(count):
    print(f"| {s} | {count[s]} | {in_games[s]} |")
PY
