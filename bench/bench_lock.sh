#!/bin/sh
# bench/bench_lock.sh: overhead of lock contention tracing on a workload of
# 4 threads doing mmap/munmap in a loop (tests/workloads/mmap_threads.c):
# no tracing vs `bpfperf lock contention -- W` (in-kernel aggregation) vs
# `perf lock record -- W` + `perf lock contention -i` (every tracepoint hit
# recorded to a file, then read). Median of REPS interleaved runs; prints a
# markdown table. Not a test: figures vary with the machine. Needs root.
#   BPFPERF=build/bpfperf ITERS=5000 REPS=5 sh bench/bench_lock.sh
set -eu
cd "$(dirname "$0")/.."
B=${BPFPERF:-$PWD/build/bpfperf}
ITERS=${ITERS:-5000}
REPS=${REPS:-5}
OUT=${OUT:-/tmp/bpfperf-bench-lock}
mkdir -p "$OUT"
cc -O2 -pthread -o "$OUT/mmapw" tests/workloads/mmap_threads.c
W="$OUT/mmapw"
PD=$(mktemp -d)
cd "$OUT"

# seconds of wall-clock time of a command
secs() {
  /usr/bin/time -f '%e' -o t.$$ "$@" >/dev/null 2>&1 || true
  tail -1 t.$$
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >none; : >ours; : >oursl; : >prec; : >prep
for i in $(seq "$REPS"); do
  secs "$W" "$ITERS" >>none
  secs "$B" lock contention -- "$W" "$ITERS" >>ours
  secs "$B" lock contention -l -- "$W" "$ITERS" >>oursl
  secs perf --buildid-dir "$PD" lock record -o perf.data -- "$W" "$ITERS" >>prec
  secs perf --buildid-dir "$PD" lock contention -i perf.data >>prep
done
n=$(median <none); o=$(median <ours); ol=$(median <oursl); r=$(median <prec); p=$(median <prep)
size=$(stat -c %s perf.data)
rm -rf "$PD"
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }
echo "| setup (mmap_threads $ITERS x 4 threads, median of $REPS) | seconds | x no tracing |"
echo "|---|---|---|"
echo "| no tracing | $n | 1.00 |"
echo "| \`bpfperf lock contention -- W\` (by caller) | $o | $(ratio "$o" "$n") |"
echo "| \`bpfperf lock contention -l -- W\` (by lock, named) | $ol | $(ratio "$ol" "$n") |"
echo "| \`perf lock record -- W\` ($size bytes of perf.data) | $r | $(ratio "$r" "$n") |"
echo "| + \`perf lock contention -i perf.data\` | $p | $(echo "$r $p $n" | awk '{ printf "%.2f", ($1 + $2) / $3 }') (record + report) |"
