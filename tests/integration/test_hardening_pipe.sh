#!/bin/sh
# Hardening (issue #13): trace -a | head -1 exits once head has gone, also
# when it writes nothing more (the summary of -S then goes to stderr).
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root
need_tracefs
need_examples
need_cmd python3
need_cmd timeout coreutils
cd "$TMP"
track_pids

# ---- trace -a | head -1 ----
# some system calls to trace (not from an ancestor of bpfperf: those are excluded)
( while :; do cat /etc/hostname >/dev/null; sleep 0.02; done ) &
busy=$!; echo $busy >>"$TMP/pids"
for s in "" "-S"; do
  timeout 10 "$BPFPERF" trace -a $s 2>trace.err | { head -1 >line.txt; date +%s%N >head.t; }
  end=$(date +%s%N)
  [ -s line.txt ] || { cat trace.err; fail "trace -a $s printed nothing"; }
  waited=$(( (end - $(cat head.t)) / 1000000 ))
  [ $waited -lt 2000 ] || { cat trace.err; fail "trace -a $s | head -1: still running $waited ms after head exited"; }
  if [ "$s" = -S ]; then
    grep -q "Summary of events" trace.err || { cat trace.err; fail "-S: no summary on stderr after the pipe closed"; }
  fi
  grep -q "error:" trace.err && { cat trace.err; fail "trace -a $s | head -1: an error"; }
  ok "trace -a $s | head -1: exited $waited ms after head"
done
kill $busy; wait $busy 2>/dev/null
# a slow process: its few events reach the pipe's reader as they come (as
# strace's), not when a buffer fills or tracing ends
# (the interpreter itself: python3 may be a wrapper that runs it as a child)
"$(python3 -c 'import sys; print(sys.executable)')" -c 'import time
while True:
    open("/etc/hostname").close(); time.sleep(0.5)' &
slow=$!; echo $slow >>"$TMP/pids"
sleep 0.3
t=$(date +%s%N)
timeout 10 "$BPFPERF" trace -p $slow -e openat 2>slow.err | head -1 >slow.txt
took=$(ms_since $t)
kill $slow; wait $slow 2>/dev/null
grep -q openat slow.txt || { cat slow.err; fail "trace -p (slow process) | head -1: no line"; }
[ $took -lt 5000 ] || fail "trace -p (slow process) | head -1: the first line after $took ms (buffered)"
ok "trace -p (one call per 0.5 s) | head -1: the first line after $took ms"
# report | head -1: ends at once too (SIGPIPE)
"$BPFPERF" record -e cpu-clock -o r.data -- "$DEMO" 0.3 >/dev/null 2>&1 || fail "record of the demo"
t=$(date +%s%N)
timeout 10 "$BPFPERF" report -i r.data 2>/dev/null | head -1 >/dev/null
took=$(ms_since $t)
[ $took -lt 5000 ] || fail "report | head -1 took $took ms"
ok "report | head -1: $took ms"

exit 0
