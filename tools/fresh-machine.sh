#!/usr/bin/env bash
# The README's two commands on a fresh machine: a Debian bookworm chroot that has only what the README's
# Set up names (build-essential, chromium, fonts-dejavu-core; git and ca-certificates to clone and fetch),
# Rust from this machine's rustup (read-only), an empty Cargo registry and target folder. No stylua, no
# rsvg-convert, nothing installed by hand. Issue 35's check; run it as root (debootstrap, chroot, mount).
#
# Usage: sudo tools/fresh-machine.sh [REF] [DIR]   (REF: the commit to test, default HEAD;
#                                                    DIR: the chroot, default /var/tmp/village-fresh)
# Prints what is absent, each command's exit status and wall-clock seconds, and the test counts.
# Needs: debootstrap. Reuses DIR's chroot when it exists (delete DIR for a new one).
set -euo pipefail
ref=${1:-HEAD}
root=${2:-/var/tmp/village-fresh}
src=$(git rev-parse --show-toplevel)
rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
cargo_bin=${CARGO_HOME:-$HOME/.cargo}/bin

if [ ! -x "$root/usr/bin/apt-get" ]; then
  debootstrap --variant=minbase \
    --include=build-essential,chromium,fonts-dejavu-core,ca-certificates,git \
    bookworm "$root" http://deb.debian.org/debian
fi
# The network as this machine sees it: its resolver, and its CA bundle (an egress proxy may sign TLS).
cp /etc/resolv.conf /etc/hosts "$root/etc/"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
bind() { # bind SRC DST [ro]
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounted+=("$2")
  if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$2"; fi
}
mount -t proc proc "$root/proc" && mounted+=("$root/proc")
bind /dev "$root/dev"
bind /dev/pts "$root/dev/pts"
bind /sys "$root/sys"
bind "$rustup_home" "$root/root/.rustup" ro
mkdir -p "$root/root/.cargo"
cp -a "$cargo_bin" "$root/root/.cargo/"

rm -rf "$root/root/village" "$root/root/cargo-home"
git clone -q "$src" "$root/root/village"
git -C "$root/root/village" checkout -q "$(git -C "$src" rev-parse "$ref")"

chroot "$root" /usr/bin/env -i HOME=/root PATH=/root/.cargo/bin:/usr/local/bin:/usr/bin:/bin \
  RUSTUP_HOME=/root/.rustup CARGO_HOME=/root/cargo-home /bin/bash -c '
  set -u
  mkdir -p "$CARGO_HOME" && cp -a /root/.cargo/bin "$CARGO_HOME/"
  cd /root/village
  echo "stylua: $(command -v stylua || echo absent); rsvg-convert: $(command -v rsvg-convert || echo absent)"
  t0=$(date +%s)
  cargo run --release -- about >/tmp/run.out 2>/tmp/run.err
  echo "cargo run --release -- about: exit $? in $(($(date +%s) - t0)) s"
  t1=$(date +%s)
  cargo test --release >/tmp/test.out 2>&1
  status=$?
  echo "cargo test --release: exit $status in $(($(date +%s) - t1)) s"
  grep "^test result" /tmp/test.out |
    awk "{p += \$4; f += \$6; i += \$8; n++} END {print n \" test programs: \" p \" passed, \" f \" failed, \" i \" ignored\"}"
  grep -E "^(failures:|---- )|panicked" /tmp/test.out | head -20
  exit $status
'
