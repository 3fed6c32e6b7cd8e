#!/usr/bin/env bash
# Paired A/B of two builds of village on the same Standard games: is a change that alters play (a
# cached route that ends a ulp away from a searched one, say) neutral? Both builds play the same seeds
# (`sim --games N --seed S --out`); each game gives a paired difference (NEW − OLD) in the win (0 or 1)
# and in the waves won (`waves_won`; `waves_completed` in builds before issue 39). Prints each arm, how
# many games differ at all, and the mean difference with its 95% interval (mean ± 1.96 · sd / √n). Issue 38's bar for a play-changing speed
# step: both intervals contain 0, the win rate's lies within ±2.5 points and the waves' within ±0.15.
# Usage: tools/ab-builds.sh OLD NEW [GAMES (2000)] [SEED (1)]   (OLD: a commit or a binary, as
#        tools/same-play.sh takes; NEW: a binary). Exit status 0 when the bar is met, 1 otherwise.
set -euo pipefail
OLD=${1:?usage: tools/ab-builds.sh OLD NEW [GAMES] [SEED]}
NEW=${2:?usage: tools/ab-builds.sh OLD NEW [GAMES] [SEED]}
GAMES=${3:-2000}
SEED=${4:-1}
# shellcheck source=tools/ref-binary.sh
. "$(dirname "$0")/ref-binary.sh"
OLD=$(ref_binary "$OLD")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$OLD" sim --games "$GAMES" --seed "$SEED" --out "$out/old.json" >/dev/null
"$NEW" sim --games "$GAMES" --seed "$SEED" --out "$out/new.json" >/dev/null
python3 - "$out/old.json" "$out/new.json" <<'PY'
import json, math, sys
old = json.load(open(sys.argv[1]))["records"]
new = json.load(open(sys.argv[2]))["records"]
assert [r["seed"] for r in old] == [r["seed"] for r in new], "the arms played different seeds"
n = len(old)
def paired(f):
    d = [f(b) - f(a) for a, b in zip(old, new)]
    m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    h = 1.96 * sd / math.sqrt(n)
    return m, m - h, m + h
win = lambda r: 1.0 if r["result"] == "win" else 0.0
waves = lambda r: float(r.get("waves_won", r.get("waves_completed")))
differ = sum(a != b for a, b in zip(old, new))
print(f"games: {n}, seeds from {old[0]['seed']}; {differ} play differently")
for name, arm in (("old", old), ("new", new)):
    print(f"{name}: win rate {100 * sum(map(win, arm)) / n:.2f}%, mean waves won {sum(map(waves, arm)) / n:.3f}")
w = [100 * x for x in paired(win)]
v = paired(waves)
print(f"win rate, new − old: {w[0]:+.2f} points, 95% interval [{w[1]:+.2f}, {w[2]:+.2f}]")
print(f"waves won, new − old: {v[0]:+.3f}, 95% interval [{v[1]:+.3f}, {v[2]:+.3f}]")
ok = w[1] <= 0 <= w[2] and v[1] <= 0 <= v[2] and -2.5 <= w[1] and w[2] <= 2.5 and -0.15 <= v[1] and v[2] <= 0.15
print("neutral: both intervals contain 0 and lie within ±2.5 points and ±0.15 waves" if ok
      else "NOT shown neutral (issue 38's bar: intervals contain 0, within ±2.5 points and ±0.15 waves)")
sys.exit(0 if ok else 1)
PY
