#!/bin/sh
# bpfperf stat --bpf-counters: concurrent runs of the same events share one
# set of perf events (pinned under /sys/fs/bpf/bpfperf, reference-counted by
# flocks under /run/bpfperf), in a private mount namespace with its own BPF
# file system and /run so that nothing outside the test sees them:
# - the second run opens no perf event of its own, one pin exists while both
#   run, and each count is exact (page-faults within 1% of perf stat's on the
#   same command), the second's also after the first (which opened the
#   events) has exited;
# - the last run removes the pin and its reference file;
# - a run killed with SIGKILL leaves its pin: the next run removes it,
#   counts exactly, and leaves nothing;
# - without a BPF file system each run counts with its own events (-v says
#   they are not shared).
. "$(dirname "$0")/lib.sh"
need_root
. "$SRC/tests/integration/stat_lib.sh"
need_cmd unshare util-linux
unshare -m true 2>/dev/null || skip "cannot create a mount namespace (unshare -m)"
EV=page-faults,context-switches
A="sh -c 'sleep 0.6; exec $TMP/work pages 20000'"
B="sh -c 'sleep 1.5; exec $TMP/work pages 60000'"
PERF stat -x, -o "$TMP/pa" -e page-faults -- sh -c "$A" || fail "perf stat A"
PERF stat -x, -o "$TMP/pb" -e page-faults -- sh -c "$B" || fail "perf stat B"
export BPFPERF TMP A B EV

unshare -m sh -ec '
mount --make-rprivate /
mount -t bpf bpf /sys/fs/bpf
mount -t tmpfs tmpfs /run
"$BPFPERF" stat --bpf-counters -x, -o "$TMP/a" -e $EV -- sh -c "$A" & a=$!
sleep 0.3
"$BPFPERF" stat --bpf-counters -vv -x, -o "$TMP/b" -e $EV -- sh -c "$B" 2>"$TMP/b.log" & b=$!
sleep 0.3
ls /sys/fs/bpf/bpfperf >"$TMP/pins" 2>&1 || true
ls -l /proc/$a/fd | grep -c perf_event >"$TMP/fds_a" || true
ls -l /proc/$b/fd | grep -c perf_event >"$TMP/fds_b" || true
wait $a; wait $b
ls /sys/fs/bpf/bpfperf /run/bpfperf >"$TMP/after" 2>&1 || true
# SIGKILL: the pin stays; the next run removes it
"$BPFPERF" stat --bpf-counters -x, -o "$TMP/c" -e $EV -- sleep 3 & c=$!
sleep 0.5
{ kill -KILL $c; wait $c; } 2>/dev/null || true
ls /sys/fs/bpf/bpfperf >"$TMP/killed" 2>&1 || true
"$BPFPERF" stat --bpf-counters -vv -x, -o "$TMP/d" -e $EV -- sh -c "$A" 2>"$TMP/d.log"
ls /sys/fs/bpf/bpfperf /run/bpfperf >"$TMP/after2" 2>&1 || true
' || fail "the runs in a private mount namespace failed"

pa=$(value csv "$TMP/pa" page-faults) pb=$(value csv "$TMP/pb" page-faults)
a=$(value csv "$TMP/a" page-faults) b=$(value csv "$TMP/b" page-faults) d=$(value csv "$TMP/d" page-faults)
[ "$(wc -l <"$TMP/pins")" = 1 ] || fail "pins while both run: $(cat "$TMP/pins")"
[ "$(cat "$TMP/fds_a")" -gt 0 ] && [ "$(cat "$TMP/fds_b")" = 0 ] ||
  fail "perf event fds: the first run $(cat "$TMP/fds_a"), the second $(cat "$TMP/fds_b") (want > 0 and 0)"
grep -q "sharing the perf events pinned at" "$TMP/b.log" || fail "the second run did not share: $(grep -v libbpf "$TMP/b.log")"
within "$a" "$pa" 1 || fail "page-faults of the first run: $a, perf $pa"
within "$b" "$pb" 1 || fail "page-faults of the second run (after the first exited): $b, perf $pb"
ok "two concurrent runs share the events: fds $(cat "$TMP/fds_a") and 0, page-faults $a (perf $pa), $b (perf $pb)"
grep -v ':$' "$TMP/after" | grep -v '^stat.lock$' | grep -q . && fail "left after the last run: $(cat "$TMP/after")"
ok "the last run removed the pin and its reference file (stat.lock stays)"
[ "$(wc -l <"$TMP/killed")" = 1 ] || fail "a killed run's pin: $(cat "$TMP/killed")"
grep -q "left by a run that is gone" "$TMP/d.log" || fail "the stale pin was not noticed: $(grep -v libbpf "$TMP/d.log")"
within "$d" "$pa" 1 || fail "page-faults after a stale pin: $d, perf $pa"
grep -v ':$' "$TMP/after2" | grep -v '^stat.lock$' | grep -q . && fail "left after the run: $(cat "$TMP/after2")"
ok "a killed run's pin removed by the next run, which counts exactly ($d)"

unshare -m sh -ec '
mount --make-rprivate /
mount -t tmpfs tmpfs /sys/fs/bpf
"$BPFPERF" stat --bpf-counters -v -x, -o "$TMP/e" -e $EV -- sh -c "$A" 2>"$TMP/e.log"
' || fail "the run without a BPF file system failed: $(cat "$TMP/e.log")"
grep -q "not shared with concurrent runs: no BPF file system" "$TMP/e.log" || fail "no message: $(cat "$TMP/e.log")"
e=$(value csv "$TMP/e" page-faults)
within "$e" "$pa" 1 || fail "page-faults without sharing: $e, perf $pa"
ok "without a BPF file system: not shared (said with -v), exact ($e)"
