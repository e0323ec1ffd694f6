#!/bin/sh
# bpfperf stat counts as perf stat 6.1 does on deterministic workloads:
# page-faults of a program touching N fresh pages within 1%, context-switches
# of a program sleeping 100 times >= 100 and within 5%, task-clock of a fixed
# loop within 5% (medians of 3 runs each). Both outputs (-x,) go through the
# same parser. STAT_MODE adds options (test_stat_bpf_exact.sh: --bpf-counters).
. "$(dirname "$0")/lib.sh"
need_root
. "$SRC/tests/integration/stat_lib.sh"
MODE=${STAT_MODE:-}

# median3 CMD...: the median of three values printed by CMD
median3() { { "$@"; "$@"; "$@"; } | sort -g | sed -n 2p; }
ours() { "$BPFPERF" stat $MODE -x, -o "$TMP/o.csv" -e "$1" -- "$TMP/work" "$2" "$3" || fail "bpfperf stat $MODE exited $?"; value csv "$TMP/o.csv" "$1"; }
theirs() { PERF stat -x, -o "$TMP/p.csv" -e "$1" -- "$TMP/work" "$2" "$3" || fail "perf stat exited $?"; value csv "$TMP/p.csv" "$1"; }

o=$(median3 ours page-faults pages 20000); p=$(median3 theirs page-faults pages 20000)
[ "${o%.*}" -ge 20000 ] || fail "page-faults $o < 20000 pages touched"
within "$o" "$p" 1 || fail "page-faults: ours $o, perf $p (more than 1% apart)"
ok "page-faults: ours $o, perf $p"

o=$(median3 ours context-switches sleeps 100); p=$(median3 theirs context-switches sleeps 100)
[ "${o%.*}" -ge 100 ] || fail "context-switches $o < 100 sleeps"
within "$o" "$p" 5 || fail "context-switches: ours $o, perf $p (more than 5% apart)"
ok "context-switches: ours $o, perf $p"

o=$(median3 ours task-clock spin 300); p=$(median3 theirs task-clock spin 300)
within "$o" "$p" 5 || fail "task-clock: ours $o ms, perf $p ms (more than 5% apart)"
ok "task-clock: ours $o ms, perf $p ms"
