#!/usr/bin/env bash
# Writes a --mod folder whose rosters/heroes.toml adds N generated [[hero]] entries, for timing
# `village check` on a large roster (issue 16, defect 11: roster loading must be linear).
#   tools/gen-heroes.sh N DIR        then: time village check --mod DIR
set -euo pipefail
n=${1:?usage: gen-heroes.sh N DIR}
dir=${2:?usage: gen-heroes.sh N DIR}
mkdir -p "$dir/rosters"
out="$dir/rosters/heroes.toml"
: >"$out"
for ((i = 1; i <= n; i++)); do
	cat >>"$out" <<HERO
[[hero]]
name = "Generated Hero $i"
quality = 3
combat = 3
traits = ["Hero", "Leader", "Tough"]

[hero.signature]
name = "Hold the Line"
script = "signatures/hold_the_line.lua"
text = "Generated for timing."
params = { per_wave = 1, within = "medium", modifier = 1 }

HERO
done
