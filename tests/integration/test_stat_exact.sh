#!/bin/sh
# bpfperf stat counts as perf stat 6.1 does on deterministic workloads:
# page-faults of a program touching N fresh pages within 1%, context-switches
# of a program sleeping 100 times >= 100 and within 5%, task-clock of a loop
# within 5% (medians of 3 runs each). The host is shared and its load varies
# from run to run (preemptions add context switches, contention stretches
# CPU time), so these two are compared as ratios to what the workload
# measures itself in the same run (getrusage's nvcsw + nivcsw,
# CLOCK_PROCESS_CPUTIME_ID around a loop long enough that start-up is noise). Both outputs (-x,) go through the
# same parser. STAT_MODE adds options (test_stat_bpf_exact.sh: --bpf-counters).
. "$(dirname "$0")/lib.sh"
need_root
. "$SRC/tests/integration/stat_lib.sh"
MODE=${STAT_MODE:-}

# median3 CMD...: the median of three values printed by CMD
median3() { { "$@"; "$@"; "$@"; } | sort -g | sed -n 2p; }
ours() {
  "$BPFPERF" stat $MODE -x, -o "$TMP/o.csv" -e "$1" -- "$TMP/work" "$2" "$3" >"$TMP/self" || fail "bpfperf stat $MODE exited $?"
  v=$(value csv "$TMP/o.csv" "$1"); [ "$2" != pages ] && v=$(python3 -c "print($v / $(cat "$TMP/self"))"); echo "$v"
}
theirs() {
  PERF stat -x, -o "$TMP/p.csv" -e "$1" -- "$TMP/work" "$2" "$3" >"$TMP/self" || fail "perf stat exited $?"
  v=$(value csv "$TMP/p.csv" "$1"); [ "$2" != pages ] && v=$(python3 -c "print($v / $(cat "$TMP/self"))"); echo "$v"
}

o=$(median3 ours page-faults pages 20000); p=$(median3 theirs page-faults pages 20000)
[ "${o%.*}" -ge 20000 ] || fail "page-faults $o < 20000 pages touched"
within "$o" "$p" 1 || fail "page-faults: ours $o, perf $p (more than 1% apart)"
ok "page-faults: ours $o, perf $p"

"$BPFPERF" stat $MODE -x, -o "$TMP/o.csv" -e context-switches -- "$TMP/work" sleeps 100 >/dev/null || fail "bpfperf stat exited $?"
n=$(value csv "$TMP/o.csv" context-switches)
[ "${n%.*}" -ge 100 ] || fail "context-switches $n < 100 sleeps"
o=$(median3 ours context-switches sleeps 100); p=$(median3 theirs context-switches sleeps 100)
within "$o" "$p" 5 || fail "context-switches / own count: ours $o, perf $p (more than 5% apart)"
ok "context-switches: $n >= 100; / the workload's own count (getrusage): ours $o, perf $p"

o=$(median3 ours task-clock spin 1000); p=$(median3 theirs task-clock spin 1000)
within "$o" "$p" 5 || fail "task-clock / own CPU time: ours $o, perf $p (more than 5% apart)"
ok "task-clock / the loop's own CPU time: ours $o, perf $p"
