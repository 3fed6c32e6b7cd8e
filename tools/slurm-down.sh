#!/usr/bin/env bash
# Stops the one-node test Slurm cluster that tools/slurm-up.sh DIR started: cancels its jobs, then stops
# slurmd, slurmctld and munged, found by their pid files in DIR, and waits for each to exit.
#
# Usage: tools/slurm-down.sh DIR
# Tests call it in their clean-up, then remove DIR themselves. Safe to call twice, on a DIR where up
# failed half way, or on one that never held a cluster: a missing pid file or a dead pid is skipped.
# It never signals a process by name: a pid is signalled only if /proc shows it is that daemon started
# with a path inside DIR, so a reused pid, a system munged or another cluster is never touched.
# SLURM_DOWN_TIMEOUT (default 20) bounds each wait, in seconds; past it the daemon gets SIGKILL.
set -euo pipefail

me=slurm-down
say() { echo "$me: $*" >&2; }

if [ $# -ne 1 ] || [ -z "$1" ]; then echo "usage: $0 DIR" >&2; exit 1; fi
timeout=${SLURM_DOWN_TIMEOUT:-20}
if [ ! -d "$1" ]; then
    say "$1 does not exist: nothing to stop"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    # The daemons are root's and munge's.
    sudo -n true 2>/dev/null || { say "must run as root, or as a user with password-less sudo"; exit 1; }
    exec sudo -n env SLURM_DOWN_TIMEOUT="$timeout" "$0" "$@"
fi
dir=$(cd "$1" && pwd -P)    # the same spelling as slurm-up.sh wrote into the daemons' command lines

# ours NAME PID: PID runs the program NAME with an argument naming a file inside DIR.
ours() {
    local name=$1 pid=$2 exe args
    [ -r "/proc/$pid/cmdline" ] || return 1
    args=$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
    exe=$(head -n 1 <<<"$args")
    [ "$(basename -- "$exe")" = "$name" ] || return 1
    grep -q -F -- "$dir/" <<<"$args"
}

# stop NAME PIDFILE: TERM, wait (bounded), KILL if still there.
stop() {
    local name=$1 pf=$2 pid
    [ -s "$pf" ] || { say "$name: no pid file $pf"; return 0; }
    pid=$(tr -dc '0-9' <"$pf")
    if [ -z "$pid" ] || ! ours "$name" "$pid"; then
        say "$name: pid ${pid:-?} from $pf is not running (or is not ours)"
        rm -f "$pf"
        return 0
    fi
    say "$name: stopping pid $pid"
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$(( SECONDS + timeout ))
    while ours "$name" "$pid"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            say "$name: pid $pid still there after ${timeout}s; sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
            sleep 1
            break
        fi
        sleep 0.2
    done
    rm -f "$pf"
}

# Jobs first, while slurmctld and slurmd still run: their processes (under slurmstepd) are not the
# daemons' children and would outlive them. Bounded; skipped when the cluster is not (fully) up.
conf=$dir/slurm.conf
pf=$dir/run/slurmctld.pid
if [ -f "$conf" ] && [ -s "$pf" ] && ours slurmctld "$(tr -dc '0-9' <"$pf")" && command -v squeue >/dev/null
then
    export SLURM_CONF=$conf
    jobs=$(timeout 10 squeue -h -o %A 2>/dev/null || true)
    if [ -n "$jobs" ]; then
        say "cancelling jobs: $(tr "\n" " " <<<"$jobs")"
        # shellcheck disable=SC2086  # one argument per job id
        timeout 10 scancel $jobs 2>/dev/null || true
        deadline=$(( SECONDS + timeout ))
        while [ -n "$(timeout 10 squeue -h -o %A 2>/dev/null || true)" ] && [ "$SECONDS" -lt "$deadline" ]; do
            sleep 0.5
        done
    fi
fi

# slurmd before slurmctld (it reports to it), munged last (both authenticate through it).
stop slurmd "$dir/run/slurmd.pid"
stop slurmctld "$dir/run/slurmctld.pid"
stop munged "$dir/munge/munged.pid"
say "stopped the cluster of $dir"
