#!/bin/sh
# File descriptors and start-up time of counting N cgroups x 4 events on all
# CPUs: perf stat 6.1 (one perf event per event per cgroup per CPU),
# bpfperf stat (the same, plain perf cgroup events) and bpfperf stat
# --bpf-counters (one event per event per CPU; a BPF program attributes the
# counts to the cgroups at context switches); with --for-each-cgroup and with
# -G (the 4 events repeated for each cgroup, perf's one cgroup per event).
#   fds:     perf event fds of the running counter (ls -l /proc/PID/fd)
#   startup: wall time of `stat ... -- true` (open, load, attach, read, close),
#            median of REPS runs
# Usage: sh bench/bench_stat_cgroups.sh [N]   (as root; BPFPERF=path/to/bpfperf)
set -u
N=${1:-100}
REPS=${REPS:-5}
cd "$(dirname "$0")/.."
BPFPERF=${BPFPERF:-$PWD/build/bpfperf}
[ "$(id -u)" = 0 ] || { echo "bench_stat_cgroups: run as root" >&2; exit 1; }
CG=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$CG" ] || { echo "bench_stat_cgroups: cgroup v2 is not mounted" >&2; exit 1; }
TMP=$(mktemp -d /tmp/bench-stat.XXXXXX)
P=bpfperf-bench-$$
LIST=""
for i in $(seq 1 "$N"); do mkdir "$CG/$P-$i" && LIST="$LIST${LIST:+,}$P-$i"; done
cleanup() { for i in $(seq 1 "$N"); do rmdir "$CG/$P-$i" 2>/dev/null; done; rm -rf "$TMP"; }
trap cleanup EXIT
EV=cpu-clock,page-faults,context-switches,cpu-migrations
# -G: the events once per cgroup, each -G entry for the event at its place
GEV="" GLIST=""
for i in $(seq 1 "$N"); do
  GEV="$GEV${GEV:+,}$EV"
  GLIST="$GLIST${GLIST:+,}$P-$i,$P-$i,$P-$i,$P-$i"
done

# fds CMD...: perf event fds held by CMD while it counts (its command sleeps)
fds() {
  "$@" -- sleep 3 2>/dev/null &
  pid=$!
  sleep 2
  n=$(ls -l /proc/$pid/fd 2>/dev/null | grep -c 'perf_event')
  wait $pid
  echo "$n"
}
# startup CMD...: median wall ms of CMD -- true
startup() {
  for r in $(seq 1 "$REPS"); do
    s=$(date +%s%N); "$@" -- true 2>/dev/null; e=$(date +%s%N)
    echo $(( (e - s) / 1000000 ))
  done | sort -n | sed -n "$(( (REPS + 1) / 2 ))p"
}
printf '%-38s %8s %12s\n' "$N cgroups x 4 events, $(nproc) CPUs" "fds" "startup ms"
for setup in perf plain bpf perf-G plain-G bpf-G; do
  case $setup in
    perf-G) set -- perf --buildid-dir "$TMP/b" stat -a -e "$GEV" -G "$GLIST"; name="perf stat 6.1 -G" ;;
    plain-G) set -- "$BPFPERF" stat -a -e "$GEV" -G "$GLIST"; name="bpfperf stat -G" ;;
    bpf-G) set -- "$BPFPERF" stat --bpf-counters -a -e "$GEV" -G "$GLIST"; name="bpfperf stat --bpf-counters -G" ;;
    perf) set -- perf --buildid-dir "$TMP/b" stat -a --for-each-cgroup "$LIST" -e "$EV"; name="perf stat 6.1" ;;
    plain) set -- "$BPFPERF" stat -a --for-each-cgroup "$LIST" -e "$EV"; name="bpfperf stat" ;;
    bpf) set -- "$BPFPERF" stat --bpf-counters -a --for-each-cgroup "$LIST" -e "$EV"; name="bpfperf stat --bpf-counters" ;;
  esac
  printf '%-38s %8s %12s\n' "$name" "$(fds "$@")" "$(startup "$@")"
done
