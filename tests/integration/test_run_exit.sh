#!/bin/sh
# bpfperf run exits as soon as the command has exited and the final dump is
# printed: detaching a syscall tracepoint program makes close() wait for RCU
# grace periods (tens of ms), which a child process now does after we exit.
# Oracle: the same run with BPFPERF_SYNC_DETACH=1 (detach in the process, as
# before), interleaved, the fastest of 7 each (robust to a loaded machine);
# and the output must not change.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root
need_tracefs
need_examples
OBJ="$EX/tracex4.bpf.o"
ms() { python3 -c 'import sys,time,subprocess,os
t=time.monotonic(); r=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
print(int((time.monotonic()-t)*1e6) if r.returncode==0 else -1)' "$@"; }
fastest() { sort -n | head -1; }
: >"$TMP/async"; : >"$TMP/sync"
for i in 1 2 3 4 5 6 7; do
  ms "$BPFPERF" run "$OBJ" -- /bin/true >>"$TMP/async"
  BPFPERF_SYNC_DETACH=1 ms "$BPFPERF" run "$OBJ" -- /bin/true >>"$TMP/sync"
done
grep -q -- -1 "$TMP/async" "$TMP/sync" && fail "bpfperf run -- /bin/true failed"
a=$(fastest <"$TMP/async") s=$(fastest <"$TMP/sync")
echo "fastest exec-to-exit: $((a / 1000)) ms (detach in a child), $((s / 1000)) ms (detach in the process)"
[ "$s" -gt 25000 ] || skip "detaching takes no measurable time on this kernel ($((s / 1000)) ms)"
if [ "$(nproc)" -lt 2 ]; then
  # one CPU (the QEMU guests): the exiting process and its detaching child
  # take turns on it; the gain was 35-52 ms in 4 guest runs and 4 ms in one
  # whose host was loaded: not slower here, faster on the host
  [ "$a" -lt $((s + 15000)) ] || fail "exit slower with the background detach: $((a / 1000)) ms vs $((s / 1000)) ms"
  ok "exit after the command: $((a / 1000)) ms against $((s / 1000)) ms in-process (one CPU: not slower; the gain is checked on the host)"
else
  [ "$a" -lt $((s - 15000)) ] || fail "exit not faster with the background detach: $((a / 1000)) ms vs $((s / 1000)) ms"
  ok "exit after the command: $((a / 1000)) ms instead of $((s / 1000)) ms"
fi
# same dump either way (other processes may write to fd 1 meanwhile: compare
# the dump's shape, not its counts); stdout closed at exit (a pipe reader is
# not kept waiting)
"$BPFPERF" run "$OBJ" --set fd=1 -- /bin/echo hello >"$TMP/a.out" 2>&1 || fail "run failed"
BPFPERF_SYNC_DETACH=1 "$BPFPERF" run "$OBJ" --set fd=1 -- /bin/echo hello >"$TMP/s.out" 2>&1 || fail "sync run failed"
grep -q "write_hist" "$TMP/a.out" || { cat "$TMP/a.out"; fail "no final dump"; }
shape() { grep -v '[0-9]' "$1"; }	# map names and headers, not the rows
shape "$TMP/a.out" >"$TMP/a.shape"; shape "$TMP/s.out" >"$TMP/s.shape"
cmp -s "$TMP/a.shape" "$TMP/s.shape" || { diff "$TMP/s.out" "$TMP/a.out"; fail "output differs with the background detach"; }
# The reader of a pipe sees EOF when bpfperf exits, not when its detaching
# child is done: its fastest time is as much below that of a reader of the
# in-process detach as the exit is (no absolute margin: emulated CPUs are
# 10-50x slower and noisier).
: >"$TMP/pa"; : >"$TMP/ps"
for i in 1 2 3 4 5; do
  ms sh -c "\"$BPFPERF\" run \"$OBJ\" -- /bin/true | cat >/dev/null" >>"$TMP/pa"
  BPFPERF_SYNC_DETACH=1 ms sh -c "\"$BPFPERF\" run \"$OBJ\" -- /bin/true | cat >/dev/null" >>"$TMP/ps"
done
grep -q -- -1 "$TMP/pa" "$TMP/ps" && fail "bpfperf run -- /bin/true | cat failed"
t=$(fastest <"$TMP/pa") ts=$(fastest <"$TMP/ps")
# (with one CPU the reader and the detaching child take turns on it: no
# time to win, only the exit's own gain above, as in a 1-CPU QEMU guest)
if [ "$(nproc)" -lt 2 ]; then
  echo "note: one CPU: the pipe reader's gain needs two ($((t / 1000)) ms; $((ts / 1000)) ms in-process); checked on the host"
else
[ "$t" -lt $((ts - (s - a) / 2)) ] ||
  fail "a pipe reader waited for the detaching child ($((t / 1000)) ms; $((ts / 1000)) ms with the in-process detach)"
fi
ok "same output; a pipe reading the output sees EOF at exit ($((t / 1000)) ms instead of $((ts / 1000)) ms)"
# the links are gone shortly after: no bpfperf-owned tracepoint program left
sleep 1
if command -v bpftool >/dev/null && bpftool prog show 2>/dev/null | grep -q "name write_size"; then
  # another test may run tracex4 at the same time: only fail if no bpfperf runs
  pgrep -f "bpfperf.*tracex4" >/dev/null || fail "tracex4's program still loaded 1 s after exit"
fi
ok "programs detached after exit"
exit 0
