#!/bin/sh
# Hardening (issue #13): -p '' / -p ',' / -t '' (which could mean "the whole
# system, for ever") and durations or intervals out of range (inf, 1e11, nan,
# negative: never a shorter time) are usage errors, exit 2.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root
need_tracefs
need_examples
need_cmd python3
need_cmd timeout coreutils
cd "$TMP"
track_pids

# ---- usage errors ----
OBJ="$EX/tracex4.bpf.o"
for c in "record -o x.data" "trace" "stat" "lock contention"; do
  for a in "-p ''" "-p ','" "-p ' '"; do
    eval "timeout 5 \"\$BPFPERF\" $c $a" >/dev/null 2>usage.err; rc=$?
    [ $rc = 2 ] || { cat usage.err; fail "$c $a: exit $rc, expected 2 (usage error)"; }
    grep -q "invalid --pid" usage.err || { cat usage.err; fail "$c $a: message"; }
  done
done
for c in "record -o x.data" "stat"; do
  timeout 5 "$BPFPERF" $c -t '' >/dev/null 2>usage.err; rc=$?
  [ $rc = 2 ] || { cat usage.err; fail "$c -t '': exit $rc, expected 2"; }
done
ok "-p '', -p ',', -t '': usage errors"
for v in inf 1e11 nan -1 0 1e300 -inf; do
  for c in "record -o x.data --duration" "lock contention --duration" "kwork report --duration" "latency -T syscall:read --duration" "latency -T syscall:read -i" "run $OBJ --duration" "run $OBJ -I"; do
    # shellcheck disable=SC2086
    timeout 5 "$BPFPERF" $c "$v" >/dev/null 2>usage.err; rc=$?
    [ $rc = 2 ] || { cat usage.err; fail "$c $v: exit $rc, expected 2 (rejected)"; }
    grep -q "invalid --" usage.err || { cat usage.err; fail "$c $v: message"; }
  done
  timeout 5 "$BPFPERF" stat -I "$v" -- true >/dev/null 2>usage.err; rc=$?
  [ $rc = 2 ] || fail "stat -I $v: exit $rc, expected 2"
  timeout 5 "$BPFPERF" trace --duration "$v" -- true >/dev/null 2>usage.err; rc=$?
  case $v in 0) ;; *) [ $rc = 2 ] || fail "trace --duration $v: exit $rc, expected 2";; esac
done
grep -q "from 0 to 1e9" usage.err || { cat usage.err; fail "trace --duration: the range is not given"; }
ok "--duration/-I inf, 1e11, nan, negative, huge: rejected with exit 2"
exit 0
