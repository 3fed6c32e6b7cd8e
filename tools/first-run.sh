#!/usr/bin/env bash
# How long a new user waits: the README's two set-up commands on a fresh clone, into an empty target
# folder (the crates already downloaded: Cargo's registry cache is kept, as after any earlier Rust work).
# Usage: tools/first-run.sh [REF]     (REF: the commit to clone, default HEAD)
# Prints the wall-clock seconds of `cargo build --release` (what `cargo run --release` builds before it
# opens the REPL) and of `cargo test --release` after it.
set -euo pipefail
ref=${1:-HEAD}
src=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$src" "$work/village"
cd "$work/village"
git checkout -q "$(git -C "$src" rev-parse "$ref")"
export CARGO_TARGET_DIR="$work/target"
t0=$(date +%s.%N)
cargo build --release -q
t1=$(date +%s.%N)
cargo run --release -q -- about >/dev/null
t2=$(date +%s.%N)
cargo test --release -q >"$work/test.log" 2>&1 || { tail -40 "$work/test.log"; exit 1; }
t3=$(date +%s.%N)
python3 - "$t0" "$t1" "$t2" "$t3" <<'PY'
import sys
t0, t1, t2, t3 = map(float, sys.argv[1:])
print(f"run command (cargo run --release: build): {t1 - t0:.0f} s")
print(f"test command (cargo test --release, after it): {t3 - t2:.0f} s")
PY
