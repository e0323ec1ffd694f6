#!/bin/sh
# bpfperf stat --bpf-counters counts as perf stat 6.1 does: the exactness
# checks of test_stat_exact.sh with per-CPU events attributed to the
# workload by the BPF leader program at each context switch, with the tp_btf
# design and the raw_tp fallback; two concurrent runs on different
# workloads both exact.
. "$(dirname "$0")/lib.sh"
need_root
. "$SRC/tests/integration/stat_lib.sh"

"$BPFPERF" stat -v --bpf-counters -e page-faults -- true 2>"$TMP/err" || fail "--bpf-counters -v: $(cat "$TMP/err")"
grep -q "leader program on sched_switch is tp_btf" "$TMP/err" || fail "-v does not name the tp_btf design: $(cat "$TMP/err")"
"$BPFPERF" stat -v --bpf-counters --no-tp-btf -e page-faults -- true 2>"$TMP/err" || fail "--no-tp-btf: $(cat "$TMP/err")"
grep -q "leader program on sched_switch is raw_tp: tp_btf turned off" "$TMP/err" || fail "no raw_tp fallback: $(cat "$TMP/err")"
ok "designs: tp_btf, raw_tp fallback"

for m in "--bpf-counters" "--bpf-counters --no-tp-btf"; do
  STAT_MODE=$m sh "$SRC/tests/integration/test_stat_exact.sh" || fail "exactness with $m"
done

# Two concurrent runs: each counts its own workload only.
W1="$TMP/work pages 20000; $TMP/work sleeps 200"
W2="$TMP/work sleeps 100; $TMP/work pages 5000"
PERF stat -x, -o "$TMP/p1" -e page-faults -- sh -c "$W1" || fail "perf stat"
PERF stat -x, -o "$TMP/p2" -e page-faults -- sh -c "$W2" || fail "perf stat"
"$BPFPERF" stat --bpf-counters -x, -o "$TMP/o1" -e page-faults,context-switches -- sh -c "$W1" >/dev/null &
a=$!
"$BPFPERF" stat --bpf-counters -x, -o "$TMP/o2" -e page-faults,context-switches -- sh -c "$W2" >/dev/null &
b=$!
wait $a || fail "first concurrent run exited $?"
wait $b || fail "second concurrent run exited $?"
p1=$(value csv "$TMP/p1" page-faults); p2=$(value csv "$TMP/p2" page-faults)
o1=$(value csv "$TMP/o1" page-faults); o2=$(value csv "$TMP/o2" page-faults)
within "$o1" "$p1" 1 || fail "concurrent run 1: page-faults $o1, perf alone $p1"
within "$o2" "$p2" 1 || fail "concurrent run 2: page-faults $o2, perf alone $p2"
c1=$(value csv "$TMP/o1" context-switches); c2=$(value csv "$TMP/o2" context-switches)
[ "${c1%.*}" -ge 200 ] && [ "${c2%.*}" -ge 100 ] || fail "concurrent context-switches: $c1 (>= 200), $c2 (>= 100)"
ok "two concurrent runs: page-faults $o1 (perf alone $p1), $o2 (perf alone $p2); context-switches $c1, $c2"
