#!/bin/sh
# Side-by-side benchmark of syscall tracing on a syscall-heavy workload:
#   dd if=/dev/zero of=/dev/null count=N   (2 syscalls per block: ~2N syscalls)
# Setups, in the same session (the four fast ones REPS times interleaved,
# median; the others once):
#   no tracing; the floor (empty BPF programs on raw_tp sys_enter/sys_exit,
#   `bpfperf trace --bench-floor`); `bpfperf trace -s`; streaming `bpfperf trace`
#   to a file; bpftrace counting per comm; `perf trace -s`; `strace -c`.
# perf trace and strace are 100-500x slower: they run on N/10 blocks (SLOW_N) and
# their time is scaled per syscall (x N/SLOW_N), with a time limit; this is said
# in the output. Ratios are against the floor's time.
# Usage: sh bench/bench_trace.sh [N]    (as root; BPFPERF=path/to/bpfperf)
set -u
N=${1:-2000000}
SLOW_N=${SLOW_N:-$((N / 10))}
LIMIT=${LIMIT:-240}
cd "$(dirname "$0")/.."
BPFPERF=${BPFPERF:-$PWD/build/bpfperf}
[ "$(id -u)" = 0 ] || { echo "bench_trace: run as root" >&2; exit 1; }
[ -x "$BPFPERF" ] || { echo "bench_trace: $BPFPERF not built (ninja -C build)" >&2; exit 1; }
TMP=$(mktemp -d /tmp/bench-trace.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
DD="dd if=/dev/zero of=/dev/null count"

# once NAME BLOCKS CMD...: one timed run, prints its seconds (or "timeout")
once() {
  name=$1; shift 2
  start=$(date +%s%N)
  timeout "$LIMIT" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
  end=$(date +%s%N)
  if [ $rc -eq 124 ]; then echo timeout; else echo "$start $end" | awk '{printf "%.3f\n", ($2 - $1) / 1e9}'; fi
}

# run NAME BLOCKS CMD...: prints "NAME BLOCKS SECONDS" into $TMP/results
run() {
  secs=$(once "$@")
  echo "$1 $2 $secs" >> "$TMP/results"
  echo "  $1: $secs s ($2 blocks)" >&2
}

# The fast setups differ by a few tens of percent, as much as one run varies
# on a VM: they run REPS times, interleaved, and the median counts.
REPS=${REPS:-5}
run_interleaved() {
  for i in $(seq "$REPS"); do
    for name in none floor trace_s trace_stream; do
      case $name in
      none) once none "$N" sh "$TMP/work.sh" ;;
      floor) once floor "$N" "$BPFPERF" trace --bench-floor -s -o /dev/null -- sh "$TMP/work.sh" ;;
      trace_s) once trace_s "$N" "$BPFPERF" trace -s -o "$TMP/summary.txt" -- sh "$TMP/work.sh" ;;
      trace_stream) once trace_stream "$N" "$BPFPERF" trace -o "$TMP/stream.txt" -- sh "$TMP/work.sh"
        lines=$(wc -l < "$TMP/stream.txt")
        lost=$(grep -o '[0-9]* events lost' "$TMP/trace_stream.err" | awk '{s += $1} END {print s + 0}')
        echo "$lines $lost" >> "$TMP/stream_counts" ;;
      esac | sed "s/^/$name /" >> "$TMP/reps"
    done
  done
  for name in none floor trace_s trace_stream; do
    med=$(awk -v n="$name" '$1 == n { print $2 }' "$TMP/reps" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
    echo "$name $N $med" >> "$TMP/results"
    echo "  $name: median $med s of $REPS ($(awk -v n="$name" '$1 == n { printf "%s ", $2 }' "$TMP/reps"))" >&2
  done
}

# bpftrace -c does not honour shell quoting: the workload is a script.
printf 'exec %s=%s 2>/dev/null\n' "$DD" "$N" > "$TMP/work.sh"
printf 'exec %s=%s 2>/dev/null\n' "$DD" "$SLOW_N" > "$TMP/work_slow.sh"

echo "bench_trace: $DD=$N (slow tools: $SLOW_N), $(nproc) CPUs, kernel $(uname -r)" >&2
run_interleaved
lines=$(awk '{print $1}' "$TMP/stream_counts" | sort -n | head -1)
lost=$(awk '{s += $2} END {print s + 0}' "$TMP/stream_counts")
if command -v bpftrace >/dev/null 2>&1; then
  run bpftrace "$N" bpftrace -e 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }' -c "/bin/sh $TMP/work.sh"
fi
if command -v perf >/dev/null 2>&1; then
  run perf_trace_s "$SLOW_N" perf trace -s -o "$TMP/perf.txt" -- sh "$TMP/work_slow.sh"
fi
if command -v strace >/dev/null 2>&1; then
  run strace_c "$SLOW_N" strace -c -o "$TMP/strace.txt" -- sh "$TMP/work_slow.sh"
fi

echo
echo "Workload: $DD=$N (~$((2 * N)) syscalls); $(nproc) CPUs; kernel $(uname -r)"
echo "Streaming trace: at least $lines lines written per run, ${lost:-0} events lost in $REPS runs (default buffer)"
echo "none, floor, trace_s, trace_stream: median of $REPS interleaved runs; the others: one run"
printf '%-14s %10s %10s %12s %14s\n' setup blocks seconds "ns/syscall" "x floor"
awk -v N="$N" '
  { name[NR] = $1; blocks[NR] = $2; secs[NR] = $3 }
  $1 == "floor" { floor = $3 }
  END {
    for (i = 1; i <= NR; i++) {
      if (secs[i] == "timeout") { printf "%-14s %10d %10s %12s %14s\n", name[i], blocks[i], "timeout", "-", "-"; continue }
      scaled = secs[i] * N / blocks[i]
      per = secs[i] * 1e9 / (2 * blocks[i])
      note = blocks[i] != N ? sprintf(" (scaled x%d)", N / blocks[i]) : ""
      printf "%-14s %10d %10.3f %12.1f %14s\n", name[i], blocks[i], secs[i], per, \
        (floor > 0 ? sprintf("%.2f", scaled / floor) : "-") note
    }
  }' "$TMP/results"
