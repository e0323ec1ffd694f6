#!/bin/sh
# Hardening (issue #13): SIGTERM/SIGINT to run/record/trace/stat/lock -- CMD
# stop them within 2 s (run dumps its maps) and the workload is gone; a
# SIGTERM while loading never leaves the workload running.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root
need_tracefs
need_examples
need_cmd python3
need_cmd timeout coreutils
cd "$TMP"
track_pids

# ---- SIGTERM / SIGINT to COMMAND -- CMD ----
# stop_after SIG DELAY CMD...: start CMD (stdout in sig.out), wait until its
# workload "sleep 30" runs (DELAY "run") or DELAY seconds, send SIG, check
# that it ends within 2 s and that no workload is left. A signal while
# loading waits for the load under way (the kernel's verifier, which libbpf
# retries once a signal interrupted it), so there the bound is 2 s more than
# twice the slowest start seen (max_start, in ms; seconds on an emulated CPU).
max_start=0
stop_after() {
  sig=$1 delay=$2; shift 2
  t0=$(date +%s%N)
  "$@" >sig.out 2>sig.err &
  p=$!; echo $p >>"$TMP/pids"
  child=
  limit=2000
  if [ "$delay" = run ]; then
    i=0
    while [ -z "$child" ]; do
      child=$(pgrep -P $p -x sleep)
      i=$((i + 1)); [ $i -gt 100 ] && { cat sig.err; fail "$*: the workload did not start within 10 s"; }
      [ -z "$child" ] && sleep 0.1
    done
    started=$(ms_since $t0)
    [ $started -gt $max_start ] && max_start=$started
  else
    sleep "$delay"
    child=$(pgrep -P $p)
    limit=$((2000 + 2 * max_start))
  fi
  t=$(date +%s%N)
  kill -$sig $p
  wait $p; rc=$?
  took=$(ms_since $t)
  [ $took -lt $limit ] || fail "$*: SIG$sig took $took ms (limit $limit ms)"
  sleep 0.2
  for w in $child; do
    if kill -0 "$w" 2>/dev/null; then
      ps -o pid,ppid,comm -p "$w"; kill -KILL "$w"; fail "$*: workload $w still running after SIG$sig"
    fi
  done
}
OBJ="$EX/tracex4.bpf.o"
stop_after TERM run "$BPFPERF" run "$OBJ" -- sleep 30
[ $rc = 143 ] || { cat sig.err; fail "run: exit status $rc after SIGTERM (expected 143, the workload's)"; }
grep -q "write_hist" sig.out || { cat sig.out sig.err; fail "run: no map dump after SIGTERM"; }
ok "SIGTERM to run -- sleep 30: ended in $took ms, maps dumped, workload gone"
stop_after INT run "$BPFPERF" run "$OBJ" -- sleep 30
[ $rc = 130 ] || fail "run: exit status $rc after SIGINT (expected 130)"
grep -q "write_hist" sig.out || fail "run: no map dump after SIGINT"
ok "SIGINT to run -- sleep 30: ended in $took ms, maps dumped, workload gone"
for c in "record -o rec.data" "trace" "stat -e cpu-clock" "lock contention" "kwork report" "latency -T syscall:getppid"; do
  for sig in TERM INT; do
    # shellcheck disable=SC2086
    stop_after $sig run "$BPFPERF" $c -- sleep 30
    [ $rc -ge 128 ] || { cat sig.err; fail "$c: exit status $rc after SIG$sig"; }
  done
  ok "SIGTERM, SIGINT to $c -- sleep 30: ended within 2 s, workload gone"
done
# a signal while loading (before the workload is released): it never runs
for c in "run $OBJ" "trace" "lock contention" "kwork top" "latency -T syscall:read" "record -o rec.data" "stat -e cpu-clock"; do
  for d in 0.02 0.1; do
    # shellcheck disable=SC2086
    stop_after TERM $d "$BPFPERF" $c -- sleep 30
  done
done
ok "SIGTERM while loading: ended within $((2000 + 2 * max_start)) ms, no workload left running"

exit 0
