#!/bin/sh
# Targets: -p PID (existing process), -a (system wide, not tracing bpfperf
# itself), and bad input (unknown pid, command, syscall name; bad options).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd python3
need_tracefs

# -p: a loop opening a known file.
sh -c 'while :; do cat /etc/hostname >/dev/null; sleep 0.05; done' &
loop=$!
sleep 0.2
# until the loop's wait4 is seen (or 30 s: attaching takes seconds on an
# emulated CPU), then ^C (standard output: -o FILE appears at the end)
"$BPFPERF" trace -p "$loop" -e 'vfork,clone*,wait4' > "$TMP/p.txt" &
tp=$!
wait_until 30 grep -q "sh/$loop wait4(" "$TMP/p.txt" 2>/dev/null
kill -INT $tp 2>/dev/null; wait $tp
rc=$?
kill "$loop" 2>/dev/null; wait "$loop" 2>/dev/null
[ $rc -eq 0 ] || fail "trace -p exited $rc"
grep -q "sh/$loop wait4(" "$TMP/p.txt" || { head "$TMP/p.txt"; fail "-p $loop: no wait4 of the loop"; }
if grep -v "/$loop " "$TMP/p.txt" | grep -q .; then fail "-p traced another process"; fi
ok "-p PID"

# -a: a workload started after tracing began is seen; bpfperf itself is not.
# The workload starts once -v says "tracing started" (attaching takes
# seconds on an emulated CPU), then ^C.
"$BPFPERF" -v trace -a -s --json -o "$TMP/a.json" 2>"$TMP/a.err" &
tr=$!
wait_until 30 grep -q "tracing started" "$TMP/a.err" ||
  { kill -INT $tr; cat "$TMP/a.err"; fail "trace -a did not start in 30 s"; }
for i in 1 2 3; do cat /nonexistent_bpfperf_all 2>/dev/null; done
sleep 0.3
kill -INT $tr
wait $tr || { cat "$TMP/a.err"; fail "trace -a exited $?"; }
python3 - "$TMP/a.json" "$tr" <<'PY' || fail "-a summary wrong"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["syscalls"]
cats = [r for r in rows if r["comm"] == "cat" and r["syscall"] == "openat" and r["errors"] > 0]
assert len({r["pid"] for r in cats}) >= 3, "the 3 cat processes were not traced"
me = int(sys.argv[2])
assert not [r for r in rows if r["pid"] == me], "bpfperf traced itself"
assert d["lost_events"] == 0
PY
ok "-a system wide, excluding bpfperf"

# -a -- CMD (perf trace's habit): the whole system while CMD runs, then stop.
sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do cat /nonexistent_bpfperf_aw 2>/dev/null; sleep 0.1; done' &
loop=$!
timeout 20 "$BPFPERF" trace -a -s --json -o "$TMP/aw.json" -- sleep 0.6 || fail "trace -a -- CMD exited $?"
kill "$loop" 2>/dev/null; wait "$loop" 2>/dev/null
python3 - "$TMP/aw.json" <<'PY' || fail "-a -- CMD summary wrong"
import json, sys
rows = json.load(open(sys.argv[1]))["syscalls"]
assert [r for r in rows if r["comm"] == "sleep" and r["syscall"] == "clock_nanosleep"], "CMD not traced"
cats = {r["pid"] for r in rows if r["comm"] == "cat" and r["syscall"] == "openat" and r["errors"] > 0}
assert len(cats) >= 2, "other processes were not traced while CMD ran: %d cat" % len(cats)
PY
ok "-a -- CMD: system wide while CMD runs"

# Bad input: clear errors, non-zero exit, no crash.
expect_fail "nonexistent pid" 'no such process' "$BPFPERF" trace -p 999999999
expect_fail "malformed pid" 'invalid pid' "$BPFPERF" trace -p 12abc
expect_fail "command not found" 'command not found' "$BPFPERF" trace -- /nonexistent/bpfperf_cmd
expect_fail "unknown syscall" "unknown syscall 'opnat'.*openat" "$BPFPERF" trace -e opnat -- true
expect_fail "no target" 'nothing to trace' "$BPFPERF" trace -s
expect_fail "two targets" 'exclude each other' "$BPFPERF" trace -a -p 1
expect_fail "-s with -S" 'exclude each other' "$BPFPERF" trace -s -S -- true
expect_fail "bad duration" 'invalid --duration' "$BPFPERF" trace --duration abc -- true
expect_fail "bad buffer size" 'invalid --buffer-size' "$BPFPERF" trace -m 12Q -- true
"$BPFPERF" trace -- /nonexistent/bpfperf_cmd 2>/dev/null
[ $? -eq 127 ] || fail "command not found should exit 127"
if command -v setpriv >/dev/null 2>&1; then
  expect_fail "no permission" 'permission|root|CAP_BPF' \
    setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
    "$BPFPERF" trace -s -- true
fi
ok "bad input"
