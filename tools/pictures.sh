#!/usr/bin/env bash
# The README's pictures, made with the project's own commands: `village render/sim/odds --svg`, then
# to PNG in docs/img/ with the in-process renderer the tests use (examples/svg_png.rs, resvg; text in
# DejaVu Sans). Deterministic: the same build gives the same pictures (the games are seeded).
#   cargo build --release && tools/pictures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/village}
OUT=docs/img
cargo build -q --release --example svg_png
SVG_PNG=${CARGO_TARGET_DIR:-target}/release/examples/svg_png
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT"
png() { "$SVG_PNG" "$tmp/$1.svg" "$OUT/$1.png"; }

# table.png: a Standard game in the REPL, played through wave 1 and two rounds into wave 2 (a building
# on fire, a Trap, an Opportunity token, a Wound, a Defenseless model), saved, then drawn from the save.
printf '%s\n' 'game:play_wave()' ':wave' ':enemies' ':heroes' ':enemies' ':heroes' ":save $tmp/game.json" |
    "$BIN" repl --seed 6 --heroes "Captain Maren,Hedda the Hedge Witch,Grimm the Trapper,Sister Ilse" >/dev/null
"$BIN" render --load "$tmp/game.json" --svg "$tmp/table.svg" >/dev/null
png table

# sim.png: 200 Standard games; ab.png: 200 Intro games, default rules against power_blow_lethal.
"$BIN" sim --games 200 --seed 1 --length standard --svg "$tmp/sim.svg" >/dev/null 2>&1
png sim
"$BIN" sim --games 200 --seed 1 --length intro --vs power_blow_lethal --svg "$tmp/ab.svg" >/dev/null 2>&1
png ab

# sweep.png: Captain Maren's Combat from 2 to 5, 500 Standard games a point; sweep-grid.png: the
# wave budget against her Combat, 200 games a point.
"$BIN" sweep --set 'heroes."Captain Maren".combat=2..5' --games 500 --svg "$tmp/sweep.svg" >/dev/null 2>&1
png sweep
"$BIN" sweep --set 'wave.budget_percent=40..100:20' --set 'heroes."Captain Maren".combat=3..5' \
    --games 200 --svg "$tmp/sweep-grid.svg" >/dev/null 2>&1
png sweep-grid

# odds.png: a Power Blow of Combat 4 against Combat 3.
"$BIN" odds melee --attacker 4 --defender 3 --power-blow --svg "$tmp/odds.svg" >/dev/null 2>&1
png odds

# viewer.png: the replay viewer at a combat, screenshotted by headless Chromium.
tools/viewer-png.sh "$BIN"
