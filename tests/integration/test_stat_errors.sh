#!/bin/sh
# bpfperf stat: bad input exits 2 with a message saying what to do (unknown
# event with its close match, bad options and combinations); the command's
# exit status is returned (127 when it cannot be found); Ctrl-C prints the
# counts so far.
. "$(dirname "$0")/lib.sh"
need_root

# expect RC DESCRIPTION PATTERN CMD...: CMD exits RC and says PATTERN on stderr
expect() {
  want=$1 desc=$2 pat=$3; shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?
  [ $rc = "$want" ] || { cat "$TMP/err"; fail "$desc: exit $rc, not $want"; }
  grep -qiE -e "$pat" "$TMP/err" || { cat "$TMP/err"; fail "$desc: stderr lacks /$pat/"; }
  ok "$desc"
}

expect 2 "unknown event" "unknown event 'pagefaults'.*did you mean: page-faults" "$BPFPERF" stat -e pagefaults -- true
expect 2 "unknown option" "unknown option '--bogus'" "$BPFPERF" stat --bogus -- true
expect 2 "-x with -j" "exclude each other" "$BPFPERF" stat -x, -j -- true
expect 2 "-A without CPUs" "-A .*needs" "$BPFPERF" stat -A -- true
expect 2 "no target" "nothing to count" "$BPFPERF" stat
expect 2 "-r without a command" "-r repeats a command" "$BPFPERF" stat -r 3 -a
expect 2 "bad -I" "invalid (-I|--interval-print)" "$BPFPERF" stat -I 1 -- true
expect 2 "a pid that does not exist" "." "$BPFPERF" stat -p 999999999
expect 127 "command not found" "cannot run" "$BPFPERF" stat -- /nonexistent/bpfperf-cmd

"$BPFPERF" stat -e task-clock -- sh -c 'exit 7' 2>"$TMP/err"; rc=$?
[ $rc = 7 ] || fail "exit status: $rc, not the command's 7"
grep -q "task-clock" "$TMP/err" || fail "no counts after a failing command"
ok "the command's exit status (7) is returned, counts printed"

# Ctrl-C: the counts so far, the workload's status (130)
"$BPFPERF" stat -e task-clock,context-switches -- sleep 30 2>"$TMP/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid; rc=$?
[ $rc = 130 ] || fail "Ctrl-C: exit $rc, not 130"
grep -q "context-switches" "$TMP/err" && grep -q "seconds time elapsed" "$TMP/err" ||
  fail "Ctrl-C: no counts: $(cat "$TMP/err")"
ok "Ctrl-C prints the counts so far"
