#!/bin/sh
# The same command-line rules in every command (one CLI table each):
# --help exits 0 and lists -v; an unknown option exits 2 with our message;
# -v/-vv are accepted; a bad value exits 2 in the common shape; a pid that
# does not exist exits 2; a command that does not exist exits 127.
. "$(dirname "$0")/lib.sh"
need_root
cd "$TMP"

# rc CMD...: the exit status of CMD (stdout/stderr kept in $TMP/out, $TMP/err)
rc() { "$@" >"$TMP/out" 2>"$TMP/err"; echo $?; }

for c in record report run stat trace "lock contention" latency "kwork report" "kwork top"; do
  [ "$(rc "$BPFPERF" $c --help)" = 0 ] || fail "$c --help: exit not 0"
  grep -q -- "-v, --verbose" "$TMP/out" || fail "$c --help does not list -v"
  grep -q "^usage: bpfperf $c" "$TMP/out" || fail "$c --help: no usage line"
  [ "$(rc "$BPFPERF" $c --bogus)" = 2 ] || { cat "$TMP/err"; fail "$c --bogus: exit not 2"; }
  grep -q "unknown option '--bogus'; see 'bpfperf $c --help'" "$TMP/err" || { cat "$TMP/err"; fail "$c --bogus: message"; }
  [ "$(rc "$BPFPERF" $c -Z)" = 2 ] || fail "$c -Z: exit not 2"
  grep -q "unknown option '-Z'" "$TMP/err" || { cat "$TMP/err"; fail "$c -Z: message"; }
done
ok "--help, unknown options"

# A bad value: exit 2, "invalid --OPT 'VALUE': expected ..."
bad() {  # OPTION-NAME CMD...
  opt=$1; shift
  [ "$(rc "$@")" = 2 ] || { cat "$TMP/err"; fail "$*: exit not 2"; }
  grep -q "invalid $opt '.*': expected" "$TMP/err" || { cat "$TMP/err"; fail "$*: message shape"; }
}
bad --duration "$BPFPERF" trace --duration abc -- true
bad --duration "$BPFPERF" kwork report --duration abc -- true
bad --kwork "$BPFPERF" kwork latency -k nosuch -- true
bad --sort "$BPFPERF" kwork top -s avg -- true
bad --cpu "$BPFPERF" kwork timehist -C 99999 -- true
bad --duration "$BPFPERF" run "$BUILD/examples/tracex4.bpf.o" -d abc
bad --duration "$BPFPERF" record --duration abc -o x.data -- true
bad --freq "$BPFPERF" record -F abc -o x.data -- true
bad --percent-limit "$BPFPERF" report --percent-limit abc
bad --pid "$BPFPERF" trace -p '' 
bad --pid "$BPFPERF" trace -p ','
bad --pid "$BPFPERF" stat -p ','
bad --repeat "$BPFPERF" stat -r abc -- true
bad --pid "$BPFPERF" record -p '' -o x.data
bad --pid "$BPFPERF" record -p ',' -o x.data
bad --bucket-range "$BPFPERF" latency --bucket-range abc -T syscall:read
bad --interval "$BPFPERF" latency -i 0 -T syscall:read
bad --core-btf "$BPFPERF" run "$BUILD/examples/tracex4.bpf.o" --core-btf bad
ok "bad values exit 2 in one shape"

# A pid that does not exist: exit 2 everywhere.
for c in "record -o x.data" "stat" "trace" "run $BUILD/examples/tracex4.bpf.o" "latency -T syscall:read"; do
  [ "$(rc "$BPFPERF" $c -p 999999999)" = 2 ] || { cat "$TMP/err"; fail "$c -p missing: exit not 2"; }
  grep -q "no such process" "$TMP/err" || { cat "$TMP/err"; fail "$c -p missing: message"; }
done
ok "a missing pid exits 2"

# A command that does not exist: 127 everywhere, one message.
for c in "record -o x.data" "stat" "trace" "run $BUILD/examples/tracex4.bpf.o" "latency -T syscall:read" "kwork report"; do
  [ "$(rc "$BPFPERF" $c -- no-such-command-xyz)" = 127 ] || { cat "$TMP/err"; fail "$c no command: exit not 127"; }
  grep -q "cannot run 'no-such-command-xyz': No such file or directory" "$TMP/err" || { cat "$TMP/err"; fail "$c no command: message"; }
done
ok "a missing command exits 127"

# -v and -vv anywhere the command takes options, and before the command.
[ "$(rc "$BPFPERF" trace -v -s -- true)" = 0 ] || { cat "$TMP/err"; fail "trace -v"; }
grep -q "tracing started" "$TMP/err" || fail "trace -v printed no info"
[ "$(rc "$BPFPERF" run -vv "$BUILD/examples/tracex4.bpf.o" -- true)" = 0 ] || { cat "$TMP/err"; fail "run -vv"; }
grep -q "debug:" "$TMP/err" || fail "run -vv printed no debug lines"
[ "$(rc "$BPFPERF" record -v -o v.data -- true)" = 0 ] || { cat "$TMP/err"; fail "record -v"; }
[ "$(rc "$BPFPERF" -v report -i v.data)" = 0 ] || { cat "$TMP/err"; fail "-v report"; }
ok "-v/-vv accepted by every command"
