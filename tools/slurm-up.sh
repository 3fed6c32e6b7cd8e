#!/usr/bin/env bash
# Brings up a real one-node Slurm batch cluster whose every file lives inside DIR, for integration tests.
#
# Usage: tools/slurm-up.sh DIR        (DIR: a fresh folder, e.g. from mktemp -d; made if missing)
#   eval "$(tools/slurm-up.sh "$dir" | tail -1)"    # sets SLURM_CONF=DIR/slurm.conf in the caller
#   ... sbatch / squeue / scontrol with that SLURM_CONF ...
#   tools/slurm-down.sh "$dir"                      # stops the daemons; the caller removes DIR
# stdout is that one line and nothing else, so a test that wants the exit status (3 = skip) can take
# line=$(tools/slurm-up.sh "$dir") instead of the pipe, which hides it.
# Run as root (CI is), or by a user with password-less sudo: the script then re-runs itself with sudo.
# Two clusters at once need different ports (SLURM_UP_CTLD_PORT, SLURM_UP_SLURMD_PORT): tests that run
# in parallel should share one cluster, or give each its own ports.
#
# What it does:
#   - installs the Debian packages slurm-wlm and munge with apt-get if they are missing;
#   - makes a munge key and starts a private munged (as user munge) whose key, socket, pid, log and seed
#     files are in DIR/munge, so it never meets a system munged;
#   - writes DIR/slurm.conf (one node with this machine's CPUs, one default partition, no accounting,
#     ports 16817/16818 unless SLURM_UP_CTLD_PORT / SLURM_UP_SLURMD_PORT say otherwise) and starts
#     slurmctld and slurmd as root with their state, spool, pid and log files in DIR;
#   - waits (SLURM_UP_TIMEOUT seconds, default 60) until sinfo shows the node idle.
# The last line of stdout is `export SLURM_CONF=DIR/slurm.conf`; everything else goes to stderr.
#
# Exit status: 0 up; 3 the packages are missing and cannot be installed (tests treat it as "skip");
# 1 anything else (after stopping whatever this run had started, with the daemons' log tails shown).
set -euo pipefail

me=slurm-up
say() { echo "$me: $*" >&2; }
die() { say "$*"; exit 1; }

if [ $# -ne 1 ] || [ -z "$1" ]; then echo "usage: $0 DIR" >&2; exit 1; fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

ctld_port=${SLURM_UP_CTLD_PORT:-16817}
slurmd_port=${SLURM_UP_SLURMD_PORT:-16818}
timeout=${SLURM_UP_TIMEOUT:-60}

# --- packages ----------------------------------------------------------------------------------------
# sudo only when not root (root needs none, and a CI container often has no sudo at all).
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo -n)

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
missing=()
for p in slurm-wlm munge; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    # The lists may be stale or absent on a fresh machine; an update failure is not fatal by itself
    # (cached lists may still do), only a failed install is. The lock timeout rides out a concurrent apt.
    "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq >&2 ||
        say "apt-get update failed; trying the install anyway"
    if ! "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends \
            "${missing[@]}" >&2; then
        echo "slurm-up: cannot install ${missing[*]} (apt-get install failed)" >&2
        exit 3
    fi
    for p in "${missing[@]}"; do
        installed "$p" || { echo "slurm-up: cannot install $p (not installed after apt-get)" >&2; exit 3; }
    done
fi
for c in munged slurmctld slurmd sinfo; do
    command -v "$c" >/dev/null || die "$c not found on PATH although the packages are installed"
done
id munge >/dev/null 2>&1 || die "user munge does not exist (the munge package should have made it)"

# --- root from here on -------------------------------------------------------------------------------
# The daemons run as root (SlurmUser=root) and munged is started as munge via runuser: both need root.
if [ "$(id -u)" -ne 0 ]; then
    sudo -n true 2>/dev/null || die "must run as root, or as a user with password-less sudo"
    exec sudo -n env SLURM_UP_CTLD_PORT="$ctld_port" SLURM_UP_SLURMD_PORT="$slurmd_port" \
        SLURM_UP_TIMEOUT="$timeout" "$0" "$@"
fi

mkdir -p "$1"
dir=$(cd "$1" && pwd -P)    # absolute and without symlinks: it is matched in /proc by slurm-down.sh
case $dir in *[[:space:]]*) die "DIR must not contain white space (it goes into slurm.conf): $dir" ;; esac
conf=$dir/slurm.conf

# A second up on a DIR whose daemons still run would start duplicates fighting over the same files.
# (A pid counts only if /proc shows it names a file in DIR: a stale pid file's pid may be reused.)
for pf in "$dir/munge/munged.pid" "$dir/run/slurmctld.pid" "$dir/run/slurmd.pid"; do
    [ -s "$pf" ] || continue
    pid=$(tr -dc '0-9' <"$pf")
    if [ -n "$pid" ] && tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -F -- "$dir/"; then
        die "a daemon of $dir still runs (pid $pid, from $pf); run tools/slurm-down.sh $dir first"
    fi
done

# Something already listening on our ports (another cluster, a system slurmctld) would make the daemons
# fail in a way that only shows in their logs; say so up front.
for port in "$ctld_port" "$slurmd_port"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        die "port $port on 127.0.0.1 is in use; set SLURM_UP_CTLD_PORT / SLURM_UP_SLURMD_PORT"
    fi
done

# From here on, any failure stops what this run started, shows the logs and exits 1.
started=0
on_exit() {
    local rc=$?
    if [ "$rc" -ne 0 ] && [ "$started" -eq 1 ]; then
        for f in "$dir/munge/munged.log" "$dir/log/slurmctld.log" "$dir/log/slurmd.log"; do
            [ -f "$f" ] || continue
            echo "----- tail of $f -----" >&2
            tail -n 25 "$f" >&2 || true
        done
        "$here/slurm-down.sh" "$dir" >&2 || true
    fi
    exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT TERM    # a killed run (a test's timeout) still stops its daemons, through on_exit

# --- munge -------------------------------------------------------------------------------------------
# munged runs as munge, so DIR itself must be searchable by it (a mktemp -d folder is 0700).
# Its own folder is munge's and not group/other writable: munged refuses insecure socket/key folders.
# It stays world-searchable so that a non-root client could still reach the socket.
chmod 0755 "$dir"
runuser -u munge -- test -x "$dir" ||
    die "user munge cannot reach $dir (a parent folder is closed to it); use a DIR under /tmp"
mkdir -p "$dir/munge" "$dir/log" "$dir/run" "$dir/state" "$dir/spool"
chown munge:munge "$dir/munge"
chmod 0755 "$dir/munge"
key=$dir/munge/munge.key
socket=$dir/munge/munge.socket.2
if [ ! -s "$key" ]; then
    if command -v mungekey >/dev/null; then
        mungekey --create --keyfile="$key" --force >&2
    else
        dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
    fi
fi
chown munge:munge "$key"
chmod 0400 "$key"
rm -f "$socket" "$socket.lock"    # left by a munged that was killed; munged refuses a live-looking one

started=1
say "starting munged ($socket)"
runuser -u munge -- munged \
    --key-file="$key" \
    --socket="$socket" \
    --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" >&2 ||
    die "munged failed to start"
# munged has daemonised once it returns, but check it answers before Slurm depends on it.
munge -n -S "$socket" | unmunge -S "$socket" >/dev/null || die "munged does not answer on $socket"

# --- slurm.conf ----------------------------------------------------------------------------------------
node=$(hostname -s)
[ -n "$node" ] || die "hostname -s is empty"
# Slurm is told the address explicitly (127.0.0.1), so the name need not resolve, but say so if not.
getent hosts "$node" >/dev/null || say "note: $node does not resolve; using 127.0.0.1 explicitly"
cpus=$(nproc)
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
# A bit under the real memory: a node that reports less than its RealMemory is drained.
real_mb=$(( mem_mb * 95 / 100 ))

cat >"$conf" <<EOF
# Written by tools/slurm-up.sh: a one-node test cluster whose every file is under $dir.
ClusterName=testcluster
# The explicit address spares Slurm a name lookup and keeps all traffic on the loopback.
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
# Our private munged, not the system one at /run/munge (used by both auth/munge and cred/munge).
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
# No cgroups: works in containers and VMs whatever their cgroup set-up.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
# Consumable CPUs, so several 1-CPU tasks (an array's) run side by side on the one node (CR_CPU rather
# than CR_Core: on a machine with hyper-threads CR_Core would give each 1-CPU task a whole core).
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# By default a submission waits up to 3 s for the scheduler (batch_sched_delay=3), which made a 4-task
# array plus a dependent job take 8 s instead of 2-3 s here.
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
# A node that was down comes back by itself when its slurmd registers again.
ReturnToService=2
# No accounting daemon: job state is read with squeue/scontrol and output files.
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# Quick turnaround for tests.
KillWait=5
SlurmdTimeout=60
InactiveLimit=0
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$cpus RealMemory=$real_mb State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=UNLIMITED State=UP
EOF
say "wrote $conf (node $node: $cpus CPUs, RealMemory=$real_mb MB)"

# --- slurmctld and slurmd -------------------------------------------------------------------------------
# Both daemonise and write their pid files into DIR/run, which slurm-down.sh reads.
say "starting slurmctld"
# -c: no jobs or node states from an earlier cluster in the same DIR; the node then reads "idle" only
# once this slurmd has registered (job ids still go on from the earlier run).
slurmctld -c -f "$conf" >&2 || die "slurmctld failed to start"
say "starting slurmd"
# -N: the node name is given rather than guessed from the host name.
slurmd -f "$conf" -N "$node" >&2 || die "slurmd failed to start"

say "waiting up to ${timeout}s for node $node to be idle"
deadline=$(( SECONDS + timeout ))
state=
while :; do
    state=$(SLURM_CONF=$conf sinfo -h -n "$node" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    [ "$SECONDS" -lt "$deadline" ] || die "node $node not idle after ${timeout}s (state: '${state:-none}')"
    sleep 0.5
done
say "cluster up: node $node idle"
trap - EXIT
echo "export SLURM_CONF=$conf"
