#!/bin/sh
# bench/bench_latency.sh: the per-call cost of measuring a function's
# latency, bpfperf latency against bpftrace's classic histogram
# (@start[tid] = nsecs at entry, @ = hist(nsecs - @start[tid]) at return),
# in the same run: a user function through a uprobe/uretprobe pair
# (latency_target spin: an empty function) and a system call through
# raw_syscalls sys_enter/sys_exit (latency_target getppid). The workload
# measures the CPU time its loop used (user + system, where the probes run),
# so the tools' start-up and the other load of a shared machine are left out:
#   cost per call = (loop CPU time traced - untraced) / calls
# Median of REPS interleaved runs; prints a markdown table. Not a test:
# figures vary with the machine. Needs root and bpftrace.
#   BPFPERF=build/bpfperf BUILD=build REPS=3 NU=100000 NS=500000 sh bench/bench_latency.sh
set -eu
cd "$(dirname "$0")/.."
B=${BPFPERF:-$PWD/build/bpfperf}
BUILD=${BUILD:-$PWD/build}
LT=$BUILD/tests/helpers/latency_target
REPS=${REPS:-3}
NU=${NU:-100000}
NS=${NS:-500000}
OUT=${OUT:-/tmp/bpfperf-bench-latency}
mkdir -p "$OUT"
cd "$OUT"
command -v bpftrace >/dev/null || { echo "needs bpftrace" >&2; exit 2; }
NR=$(printf '#include <sys/syscall.h>\nSYS_getppid\n' | cc -E -P - | tail -1)

# the CPU time of the workload's loop in ns, from its "cpu_ns:" line
loop() { "$@" 2>/dev/null | sed -n 's/^cpu_ns: //p' | tail -1; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

UPROG="uprobe:$LT:lt_empty /pid == cpid/ { @start[tid] = nsecs; }
uretprobe:$LT:lt_empty /@start[tid]/ { @ = hist(nsecs - @start[tid]); delete(@start[tid]); }"
SPROG="tracepoint:raw_syscalls:sys_enter /pid == cpid && args->id == $NR/ { @start[tid] = nsecs; }
tracepoint:raw_syscalls:sys_exit /@start[tid]/ { @ = hist(nsecs - @start[tid]); delete(@start[tid]); }"

: >u0; : >uo; : >ub; : >s0; : >so; : >sb
for i in $(seq "$REPS"); do
  loop "$LT" spin "$NU" >>u0
  loop "$B" latency -T "$LT:lt_empty" -- "$LT" spin "$NU" >>uo
  loop bpftrace -e "$UPROG" -c "$LT spin $NU" >>ub
  loop "$LT" getppid "$NS" >>s0
  loop "$B" latency -T syscall:getppid -- "$LT" getppid "$NS" >>so
  loop bpftrace -e "$SPROG" -c "$LT getppid $NS" >>sb
done
per() { echo "$1 $2 $3" | awk '{ printf "%.0f", ($1 - $2) / $3 }'; }
u0=$(median <u0) uo=$(median <uo) ub=$(median <ub) s0=$(median <s0) so=$(median <so) sb=$(median <sb)
cuo=$(per "$uo" "$u0" "$NU") cub=$(per "$ub" "$u0" "$NU") cso=$(per "$so" "$s0" "$NS") csb=$(per "$sb" "$s0" "$NS")
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }
echo "| per call (median of $REPS runs) | untraced | bpfperf latency | bpftrace hist | bpfperf / bpftrace |"
echo "|---|---|---|---|---|"
echo "| user function, uprobe+uretprobe ($NU calls) | $(echo "$u0 $NU" | awk '{ printf "%.0f", $1 / $2 }') ns | +$cuo ns | +$cub ns | $(ratio "$cuo" "$cub") |"
echo "| system call getppid, raw_syscalls ($NS calls) | $(echo "$s0 $NS" | awk '{ printf "%.0f", $1 / $2 }') ns | +$cso ns | +$csb ns | $(ratio "$cso" "$csb") |"
