#!/usr/bin/env bash
# What the planner costs (README, "Strength"): N whole Standard games of the 4-hero party played by the
# planner on one thread (`village play --auto --policy planner`, seeds 1..N), each timed alone: the mean
# and the slowest game in seconds, the decisions it played out (`ctx:rollouts` calls, from `village bench
# --profile` over the first 2 games) and the time per decision. Run it on an idle machine.
#   cargo build --release && tools/planner-cost.sh 10
set -euo pipefail
N=${1:-10}
BIN=${BIN:-target/release/village}
party="Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith"
times=()
for seed in $(seq 1 "$N"); do
    start=$(date +%s.%N)
    "$BIN" play --auto --policy planner --length standard --heroes "$party" --seed "$seed" >/dev/null
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
done
calls=$("$BIN" bench --games 2 --repeat 1 --length standard --heroes "$party" --policy planner --profile --json |
    python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["profile"]:
    if r.get("function") == "ctx:rollouts":
        print(r.get("calls_per_game"))
        break
')
printf '%s\n' "${times[@]}" | python3 -c '
import sys
t = [float(x) for x in sys.stdin if x.strip()]
calls = float(sys.argv[1]) if sys.argv[1] not in ("", "None") else float("nan")
mean = sum(t) / len(t)
print("%d Standard planner games on one thread: mean %.2f s, slowest %.2f s; %.0f decisions played out a game, %.1f ms each"
      % (len(t), mean, max(t), calls, 1000 * mean / calls))
' "$calls"
