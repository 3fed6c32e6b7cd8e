#!/usr/bin/env bash
# "Same play": do two builds of village play exactly the same games? Run before and after a refactor
# (or a speed-up) that must not change play. It compares, byte for byte:
#   - the `village sim --json` report (its timing fields removed) of three settings: 30 Standard games
#     with the default party, 30 Intro games with Hedda, Roland, Wren and Grimm, 20 Siege games with two
#     heroes;
#   - two whole `village play --auto` games: the summary (--json) without --log, and with --log the
#     summary and the event log, its `decision` lines (the scripts' reasons, kept only where a log is
#     written) set aside and a Combat event's labels (`free_hack`, `reaction`) taken off: the rolls and
#     results must be the same whether or not decisions are kept;
#   - with NEW alone: `sim --decisions` gives the plain report plus its decision counts (the same
#     games whether or not the scripts explain themselves), and `--scenario rulebook` gives the report
#     and the play log of no `--scenario` (the default scenario is the rulebook's game).
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

# A written log's events as a build from before decisions and attack labels wrote them: its `decision`
# lines set aside, and the labels a Combat event gained (`"free_hack":true`, `"reaction":...`, last in
# the line) taken off. What remains is every roll and result, byte for byte.
events() {
    grep -v '^{"event":"decision"' "$1" | sed -e 's/,"free_hack":true//' -e 's/,"reaction":"[^"]*"//' || true
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
    "$bin" play --auto --length standard --seed 7 --json >"$dir/play-standard-nolog.json"
    "$bin" play --auto --length standard --seed 7 --json --log "$dir/log.jsonl" \
        >"$dir/play-standard.json"
    events "$dir/log.jsonl" >"$dir/play-standard.jsonl"
    "$bin" play --auto --length intro --seed 11 --json --log "$dir/log.jsonl" \
        --heroes "Sister Ilse,Hedda the Hedge Witch,Bram the Smith" >"$dir/play-intro.json"
    events "$dir/log.jsonl" >"$dir/play-intro.jsonl"
    rm -f "$dir/log.jsonl"
}

# The report without its decision counts (`sim --decisions` adds them).
strip_decisions() {
    python3 -c '
import json, sys
v = json.load(sys.stdin)
for k in ("decisions", "decision_games"):
    v.pop(k, None)
print(json.dumps(v, indent=1, sort_keys=True))'
}

run "$OLD" "$out/old"
run "$NEW" "$out/new"
"$NEW" sim --games 30 --seed 1 --json --decisions | strip_timing | strip_decisions \
    >"$out/new/sim-standard-decisions.json"
cp "$out/new/sim-standard.json" "$out/old/sim-standard-decisions.json"
# With NEW alone: `--scenario rulebook` is the game of no `--scenario` (the default), report and log.
"$NEW" sim --games 30 --seed 1 --json --scenario rulebook | strip_timing \
    >"$out/new/sim-standard-scenario.json"
cp "$out/new/sim-standard.json" "$out/old/sim-standard-scenario.json"
"$NEW" play --auto --length standard --seed 7 --json --scenario rulebook \
    --log "$out/new/log.jsonl" >/dev/null
events "$out/new/log.jsonl" >"$out/new/play-standard-scenario.jsonl"
cp "$out/new/play-standard.jsonl" "$out/old/play-standard-scenario.jsonl"
rm -f "$out/new/log.jsonl"
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
