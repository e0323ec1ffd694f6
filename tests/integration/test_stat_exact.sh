#!/bin/sh
# bpfperf stat counts as perf stat 6.1 does on deterministic workloads:
# page-faults of a program touching N fresh pages within 1%, context-switches
# of a program sleeping 100 times >= 100 and within 5%, task-clock of a loop
# within 5% (medians of 3 runs each). The host is shared and its speed
# varies from run to run, so task-clock is compared as a ratio to the
# workload's own CPU time in the same run (CLOCK_PROCESS_CPUTIME_ID). Both outputs (-x,) go through the
# same parser. STAT_MODE adds options (test_stat_bpf_exact.sh: --bpf-counters).
. "$(dirname "$0")/lib.sh"
need_root
. "$SRC/tests/integration/stat_lib.sh"
MODE=${STAT_MODE:-}

# median3 CMD...: the median of three values printed by CMD
median3() { { "$@"; "$@"; "$@"; } | sort -g | sed -n 2p; }
ours() {
  "$BPFPERF" stat $MODE -x, -o "$TMP/o.csv" -e "$1" -- "$TMP/work" "$2" "$3" >"$TMP/self" || fail "bpfperf stat $MODE exited $?"
  v=$(value csv "$TMP/o.csv" "$1"); [ "$2" = spin ] && v=$(python3 -c "print($v / $(cat "$TMP/self"))"); echo "$v"
}
theirs() {
  PERF stat -x, -o "$TMP/p.csv" -e "$1" -- "$TMP/work" "$2" "$3" >"$TMP/self" || fail "perf stat exited $?"
  v=$(value csv "$TMP/p.csv" "$1"); [ "$2" = spin ] && v=$(python3 -c "print($v / $(cat "$TMP/self"))"); echo "$v"
}

o=$(median3 ours page-faults pages 20000); p=$(median3 theirs page-faults pages 20000)
[ "${o%.*}" -ge 20000 ] || fail "page-faults $o < 20000 pages touched"
within "$o" "$p" 1 || fail "page-faults: ours $o, perf $p (more than 1% apart)"
ok "page-faults: ours $o, perf $p"

o=$(median3 ours context-switches sleeps 100); p=$(median3 theirs context-switches sleeps 100)
[ "${o%.*}" -ge 100 ] || fail "context-switches $o < 100 sleeps"
within "$o" "$p" 5 || fail "context-switches: ours $o, perf $p (more than 5% apart)"
ok "context-switches: ours $o, perf $p"

o=$(median3 ours task-clock spin 500); p=$(median3 theirs task-clock spin 500)
within "$o" "$p" 5 || fail "task-clock / own CPU time: ours $o, perf $p (more than 5% apart)"
ok "task-clock / the workload's own CPU time: ours $o, perf $p"
