#!/usr/bin/env bash
# Games per second of this build and of other commits, measured in turn: each round runs
# `village bench --games GAMES` once with every binary, one after the other, so a slow spell of the
# (shared, noisy) machine hits them all alike. Prints every pass, then each binary's median and range
# over the rounds and its median against the first's. Use it before quoting a speed: the machine's
# speed wanders by 10-20% within an hour and by 2x between the machines a session may be given.
# Usage:
#   tools/bench-in-turn.sh [-r ROUNDS] [-g GAMES] [NEW_BINARY] REF...
# REF is a commit (built once under $VILLAGE_SAME_PLAY, as tools/same-play.sh does) or a binary.
# NEW_BINARY defaults to target/release/village (given only when it is an executable file). ROUNDS
# defaults to 3, GAMES to 60. Needs python3.
set -euo pipefail
ROUNDS=3
GAMES=60
while getopts "r:g:" opt; do
    case $opt in
    r) ROUNDS=$OPTARG ;;
    g) GAMES=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
NEW=target/release/village
if [ $# -gt 0 ] && [ -x "$1" ] && [ -f "$1" ]; then
    NEW=$1
    shift
fi
[ $# -gt 0 ] || { echo "usage: tools/bench-in-turn.sh [-r ROUNDS] [-g GAMES] [NEW_BINARY] REF..." >&2; exit 2; }
# shellcheck source=tools/ref-binary.sh
. "$(dirname "$0")/ref-binary.sh"
names=("this build")
bins=("$NEW")
for ref in "$@"; do
    names+=("$ref")
    bins+=("$(ref_binary "$ref")")
done
passes=$(mktemp)
trap 'rm -f "$passes"' EXIT
for round in $(seq "$ROUNDS"); do
    for i in "${!bins[@]}"; do
        json=$("${bins[$i]}" bench --games "$GAMES" --json)
        python3 - "$round" "${names[$i]}" "$json" <<'PY' | tee -a "$passes"
import json, sys
r = json.loads(sys.argv[3])
print(f"{sys.argv[1]}\t{sys.argv[2]}\t{r['games_per_sec_1']:.2f}\t{r['games_per_sec_2']:.2f}")
PY
    done
done
python3 - "$passes" <<'PY'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
order = []
for _, name, _, _ in rows:
    if name not in order:
        order.append(name)
def figures(name, col):
    return [float(r[col]) for r in rows if r[1] == name]
base = statistics.median(figures(order[0], 2))
print()
print("| build | one thread: median (range) | two threads: median (range) | one thread against this build |")
print("|---|---|---|---|")
for name in order:
    one, two = figures(name, 2), figures(name, 3)
    m1, m2 = statistics.median(one), statistics.median(two)
    print(f"| {name} | {m1:.1f} ({min(one):.1f}-{max(one):.1f}) | {m2:.1f} ({min(two):.1f}-{max(two):.1f}) "
          f"| {m1 / base:.2f} |")
PY
