#!/usr/bin/env bash
# "Same play": do two builds of village play exactly the same games? Run before and after a refactor
# (or a speed-up) that must not change play. It compares, byte for byte:
#   - the `village sim --json` report (its timing fields removed) of three settings: 30 Standard games
#     with the default party, 30 Intro games with Hedda, Roland, Wren and Grimm, 20 Siege games with two
#     heroes;
#   - two whole `village play --auto` games: the event log (--log) and the summary (--json).
# Usage:
#   tools/same-play.sh REF [NEW_BINARY]          # REF: a commit (main, HEAD~3, 983f3f4 ...)
#   tools/same-play.sh OLD_BINARY [NEW_BINARY]
# A binary reads the rosters and scripts of the checkout it was built in (the data path is compiled in),
# so comparing a change to the scripts needs the old binary built from the old checkout: given a commit,
# the script builds it once in a worktree of its own (under $VILLAGE_SAME_PLAY, default
# ${TMPDIR:-/tmp}/village-same-play/<commit>) and keeps it for the next comparison. A copied binary is
# enough when only Rust code changed. NEW_BINARY defaults to target/release/village.
# Exit status 0 when every output is identical, 1 otherwise (the differing files are named). Needs python3.
set -euo pipefail
OLD=${1:?usage: tools/same-play.sh REF|OLD_BINARY [NEW_BINARY]}
NEW=${2:-target/release/village}
# shellcheck source=tools/ref-binary.sh
. "$(dirname "$0")/ref-binary.sh"
OLD=$(ref_binary "$OLD")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

strip_timing() {
    python3 -c '
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in ("games_per_sec", "seconds")}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
print(json.dumps(strip(json.load(sys.stdin)), indent=1, sort_keys=True))'
}

run() {
    local bin=$1 dir=$2
    mkdir -p "$dir"
    "$bin" sim --games 30 --seed 1 --json | strip_timing >"$dir/sim-standard.json"
    "$bin" sim --games 30 --seed 2 --length intro --json \
        --heroes "Hedda the Hedge Witch,Sir Roland,Wren the Scout,Grimm the Trapper" |
        strip_timing >"$dir/sim-intro.json"
    "$bin" sim --games 20 --seed 3 --length siege --json \
        --heroes "Captain Maren,Tobin the Marksman" | strip_timing >"$dir/sim-siege.json"
    "$bin" play --auto --length standard --seed 7 --json --log "$dir/play-standard.jsonl" \
        >"$dir/play-standard.json"
    "$bin" play --auto --length intro --seed 11 --json --log "$dir/play-intro.jsonl" \
        --heroes "Sister Ilse,Hedda the Hedge Witch,Bram the Smith" >"$dir/play-intro.json"
}

run "$OLD" "$out/old"
run "$NEW" "$out/new"
status=0
for f in "$out"/old/*; do
    name=$(basename "$f")
    if cmp -s "$f" "$out/new/$name"; then
        echo "same      $name"
    else
        echo "DIFFERENT $name"
        status=1
    fi
done
exit $status
