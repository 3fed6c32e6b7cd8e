#!/usr/bin/env bash
# Regenerate docs/img/viewer.png: the replay viewer (`village play --auto --html`) at a melee in the
# middle of a Standard game, with the attacking model's profile open, screenshotted by headless Chromium.
# Usage: tools/viewer-png.sh [VILLAGE_BINARY] [SEED]   (default: target/release/village, seed 12)
# Needs chromium (Debian: apt-get install -y chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
VILLAGE=${1:-${CARGO_TARGET_DIR:-target}/release/village}
SEED=${2:-12}
CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null || { echo "needs $CHROMIUM (apt-get install -y chromium)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$VILLAGE" play --auto --seed "$SEED" --log "$work/written.jsonl" --html "$work/viewer.html" >/dev/null 2>&1
# The events alone, one a line (event N on line N + 1): the log's `decision` lines set aside.
grep -v '^{"event":"decision"' "$work/written.jsonl" >"$work/log.jsonl"
# The middle melee of the game (a log line is event number line − 1), and its attacker.
melee=$(grep -n '"event":"combat","kind":"melee"' "$work/log.jsonl" | awk -F: '{print $1 - 1}')
count=$(echo "$melee" | wc -l)
event=$(echo "$melee" | sed -n "$(( (count + 1) / 2 ))p")
attacker=$(sed -n "$((event + 1))p" "$work/log.jsonl" | sed 's/.*"attacker":\([0-9]*\).*/\1/')
"$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" \
  --window-size=1500,1000 --virtual-time-budget=4000 --hide-scrollbars \
  --screenshot="$PWD/docs/img/viewer.png" \
  "file://$work/viewer.html#event=$event&model=$attacker" 2>/dev/null
echo "docs/img/viewer.png: seed $SEED, event #$event (a melee by model $attacker)"
