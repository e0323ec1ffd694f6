#!/bin/sh
# bench/bench_record_off_cpu.sh: the cost of `record --off-cpu` on a
# context-switch-heavy workload (`perf bench sched pipe`: two tasks passing a
# token through pipes, every exchange two context switches), side by side in
# one run with no recorder, `bpfperf record` without off-CPU and `perf
# record`, all recording the workload (-g) at the same frequency. perf 6.1
# has no --off-cpu (Debian builds it without BPF skeletons).
# Not a test: figures vary with the machine. Environment: LOOPS (pipe
# exchanges), REPS (runs, median), FREQ (-F), B (the bpfperf binary).
set -eu
cd "$(dirname "$0")/.."
B=${B:-$PWD/build/bpfperf}
LOOPS=${LOOPS:-200000}
REPS=${REPS:-5}
FREQ=${FREQ:-999}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
W="perf bench sched pipe -l $LOOPS"

# median wall seconds of a command (the workload's own "Total time")
measure() {
  for i in $(seq "$REPS"); do
    "$@" 2>/dev/null | sed -n 's/.*Total time: *\([0-9.]*\).*/\1/p'
  done | sort -n | awk -v n="$REPS" 'NR == int((n + 1) / 2) { print $1 }'
}
ratio() { echo "$1 $2" | awk '{ printf "%.2fx", $1 / $2 }'; }

# interleave the setups so that a drifting machine blurs them all alike
for i in $(seq "$REPS"); do
  echo "base $(measure $W)"
  echo "plain $(REPS=1 measure "$B" record -g -F "$FREQ" -o "$OUT/p.data" -- $W)"
  echo "offcpu $(REPS=1 measure "$B" record -g -F "$FREQ" --off-cpu -o "$OUT/o.data" -- $W)"
  echo "perf $(REPS=1 measure perf --buildid-dir "$OUT/bid" record -q -g -F "$FREQ" -o "$OUT/f.data" -- $W)"
done > "$OUT/all"
med() { awk -v k="$1" '$1 == k { print $2 }' "$OUT/all" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
base=$(med base) plain=$(med plain) offcpu=$(med offcpu) perfr=$(med perf)
"$B" record -g -F "$FREQ" --off-cpu -o "$OUT/o.data" -- $W 2>"$OUT/err" >/dev/null
waits=$(sed -n 's/.*off-CPU: \([0-9]*\) waits.*/\1/p' "$OUT/err")
echo "| \`perf bench sched pipe -l $LOOPS\`, -g -F $FREQ, median of $REPS (interleaved) | seconds | x no recorder |"
echo "|---|---|---|"
echo "| no recorder | $base | 1.00x |"
echo "| \`perf record -g\` (6.1) | $perfr | $(ratio "$perfr" "$base") |"
echo "| \`bpfperf record -g\` | $plain | $(ratio "$plain" "$base") |"
echo "| \`bpfperf record -g --off-cpu\` ($waits waits measured) | $offcpu | $(ratio "$offcpu" "$base") |"
echo
echo "--off-cpu vs plain bpfperf record: $(ratio "$offcpu" "$plain")"
