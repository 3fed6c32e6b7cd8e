#!/usr/bin/env bash
# The release binary of a commit, for the tools that compare builds (same-play.sh, bench-in-turn.sh).
# Sourced, it defines `ref_binary REF`: REF is either an executable (printed as it is) or a commit, whose
# release build is made once in a worktree of its own (under $VILLAGE_SAME_PLAY, default
# ${TMPDIR:-/tmp}/village-same-play/<commit>) and kept for the next comparison; its path is printed. A
# binary reads the rosters and scripts of the checkout it was built in (the data path is compiled in), so
# comparing a change to the scripts needs the old binary built from the old checkout.
ref_binary() {
    local ref=$1
    if [ -x "$ref" ]; then
        echo "$ref"
        return
    fi
    local commit tree
    commit=$(git rev-parse --verify "$ref^{commit}")
    tree=${VILLAGE_SAME_PLAY:-${TMPDIR:-/tmp}/village-same-play}/$commit
    if [ ! -x "$tree/target/release/village" ]; then
        rm -rf "$tree"
        git worktree prune
        git worktree add --detach "$tree" "$commit" >/dev/null
        (cd "$tree" && cargo build --release --quiet) >&2
    fi
    echo "$tree/target/release/village"
}
