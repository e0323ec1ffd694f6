#!/bin/sh
# Hardening (issue #13): report on a recording whose DSO path, or whose
# /tmp/perf-PID.map, has become a FIFO since finishes with a warning instead
# of blocking in open() for ever; report -i FIFO is refused at once.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root
need_tracefs
need_examples
need_cmd python3
need_cmd timeout coreutils
cd "$TMP"
track_pids

# ---- report: a FIFO planted in an MMAP path ----
# -N: no build-id cache copy, which report would read instead of the planted path
cp "$DEMO" "$TMP/hangdemo" || fail "cannot copy the demo"
"$BPFPERF" record -N -e cpu-clock -o dso.data -- "$TMP/hangdemo" 0.3 >/dev/null 2>rec.err ||
  { cat rec.err; fail "record of the demo failed"; }
"$BPFPERF" report -i dso.data --sort sym >before.txt 2>&1 || fail "report before the FIFO"
grep -q demo_hot_user_function before.txt || { cat before.txt; fail "demo symbols not resolved"; }
rm "$TMP/hangdemo" && mkfifo "$TMP/hangdemo"
t=$(date +%s%N)
timeout 10 "$BPFPERF" report -i dso.data --sort sym >after.txt 2>after.err
rc=$?
[ $rc = 124 ] && fail "report blocked on the FIFO planted at the DSO path (killed after 10 s)"
[ $rc = 0 ] || { cat after.err; fail "report failed ($rc) with a FIFO at the DSO path"; }
grep -q "hangdemo is a FIFO, not a regular file" after.err || { cat after.err; fail "no warning naming the FIFO"; }
grep -q "Samples" after.txt || fail "no report with a FIFO at the DSO path"
ok "FIFO at a DSO path: report done in $(ms_since $t) ms, with a warning"
# the input itself a FIFO: refused at once
mkfifo in.fifo
expect_fail "report -i FIFO" "is a FIFO, not a regular file" timeout 10 "$BPFPERF" report -i in.fifo
# --kallsyms FIFO: kernel addresses unresolved, with a warning, no wait
timeout 10 "$BPFPERF" report -i dso.data --kallsyms in.fifo >/dev/null 2>ks.err
rc=$?
[ $rc = 124 ] && fail "report blocked on --kallsyms FIFO (killed after 10 s)"
[ $rc = 0 ] || { cat ks.err; fail "report --kallsyms FIFO failed ($rc)"; }
grep -q "in.fifo: not a regular file" ks.err || { cat ks.err; fail "--kallsyms FIFO: no warning"; }
ok "report --kallsyms FIFO: done, with a warning"

# ---- report: a FIFO as /tmp/perf-PID.map of a JIT ----
# A process running code in a private anonymous executable mapping (//anon),
# as a JIT does, until its timer kills it.
case "$(uname -m)" in x86_64|aarch64) ;; *) skip "no JIT loop for $(uname -m)";; esac
"$BPFPERF" record -e cpu-clock -o jit.data -- python3 "$SRC/tests/workloads/jit_loop.py" 0.4 jit.pid >/dev/null 2>jit.err
[ -s jit.data ] || { cat jit.err; fail "record of the JIT process failed"; }
pid=$(cat jit.pid)
addr=$("$BPFPERF" report -i jit.data --sort dso,sym 2>/dev/null | awk '$2 == "[JIT]" && $3 == "tid" { print $6; exit }')
[ -n "$addr" ] || fail "no sample in the JIT's anonymous mapping"
PERFMAP=/tmp/perf-$pid.map
# first a real map: proves that report reads it for these samples
printf '%x 10 bpfperf_test_jit_loop\n' "$addr" >"$PERFMAP"
"$BPFPERF" report -i jit.data --sort sym 2>/dev/null | grep -q bpfperf_test_jit_loop ||
  fail "report did not read $PERFMAP"
rm -f "$PERFMAP" && mkfifo "$PERFMAP"
t=$(date +%s%N)
timeout 10 "$BPFPERF" report -i jit.data --sort sym >map.txt 2>map.err
rc=$?
[ $rc = 124 ] && fail "report blocked on the FIFO planted at $PERFMAP (killed after 10 s)"
[ $rc = 0 ] || { cat map.err; fail "report failed ($rc) with a FIFO at $PERFMAP"; }
grep -q "perf-$pid.map: not a regular file" map.err || { cat map.err; fail "no warning naming $PERFMAP"; }
ok "FIFO at $PERFMAP: report done in $(ms_since $t) ms, with a warning"
rm -f "$PERFMAP"; PERFMAP=

exit 0
