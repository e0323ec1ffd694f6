#!/bin/sh
# report views against perf report 6.1 on the same files (perf's recording and
# ours): --comm/--pid/--tid/--dsos/-S/--cpu/--time filters, -n, -F,
# --percentage, sort keys pid and period, --stats, -D (raw blocks; the
# decoded lines: test_report_dump.sh), call-graph options
# (-g graph,T,caller|callee, -G, --max-stack), samples of pid -1; errors for
# what we do not support; record --call-graph fp,N.
# The same entries (keys, percentages to 0.1, sample counts and periods) and
# header lines are required (compare_table.py). BPF programs are left out of
# the comparison: perf 6.1 attributes their samples wrongly (see compare.py).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd python3
cd "$TMP"
PERF="perf --buildid-dir $TMP/bid"
CMP="python3 $SRC/tests/integration/compare_table.py"
CMPX=
# an ASan build's demo may be sampled in its runtime, whose C++ clones perf
# 6.1 names without their " [clone .isra.0]": such an entry sets our Symbol
# column wider than perf's even where a limit hides it (seen once, under
# --percent-limit 30: 89 against 74), so widths are compared in the plain
# build only
LOOSE=
if ldd "$DEMO" 2>/dev/null | grep -q libasan; then LOOSE=--loose-header; fi
# unresolved kernel addresses are left out, in either of perf's spellings
# (a 6.12 guest's perf wrote 0x00ffffffc02cb6b0 for one in a --time window)
IGN='bpf_prog|\[unknown\]|0x(00)?ffff| 0{16}$'
perf_rec -g --sample-cpu -o perf.data -- "$DEMO" 1.5 || fail "perf record"
"$BPFPERF" record -g -o ours.data -- "$DEMO" 1.5 >/dev/null 2>&1 || fail "bpfperf record"

# same [ARGS...]: perf report and ours with ARGS on $F agree
same() {
  $PERF report -i "$F" --stdio "$@" > p.txt 2>p.err || { cat p.err; fail "perf report $* on $F"; }
  "$BPFPERF" report -i "$F" "$@" > o.txt 2>o.err || { cat o.err; fail "bpfperf report $* on $F"; }
  $CMP p.txt o.txt --min 0.1 --ignore "$IGN" ${GRAPH:+--graph-of "$GRAPH"} $CMPX $LOOSE > cmp.txt ||
    { cat cmp.txt; fail "report $* on $F: not as perf"; }
  ok "$F: $* ($(cat cmp.txt))"
}

# the levels ([k] or [.]) of the [unknown] entries at address 0, counted
unknown_levels() { grep -E '\[unknown\] +\[[.k]\] 0{16}$' "$1" | grep -oE '\[[.k]\]' | sort | uniq -c; }

for F in perf.data ours.data; do
  pid=$($PERF script -i $F -F pid,comm 2>/dev/null | awk '$1 == "bpfperf-demo" { print $2; exit }')
  [ -n "$pid" ] || fail "$F: no sample of the demo"
  same --no-children -g none -n --comm bpfperf-demo
  same --no-children -g none --comm bpfperf-demo,perf-exec -S demo_hot_user_function,read_zero
  same --no-children -g none --pid "$pid" -F overhead,sample,period,dso,sym
  same --no-children -g none --tid "$pid",1 -s pid,period
  same --children -g none -F overhead_children,overhead,comm,sym
  same --children -g none -F sample,overhead,sym
  same --children -g none -n
  # a caller outside every map (address 0, a frame the IGN above leaves out)
  # takes the sampled frame's level, as in perf, whichever thread resolved it
  [ "$(unknown_levels p.txt)" = "$(unknown_levels o.txt)" ] ||
    { unknown_levels p.txt; unknown_levels o.txt; fail "$F: levels of [unknown] entries differ from perf's"; }
  # perf (through /proc/kcore) names module code [kernel.kallsyms] and keeps
  # it here; we name the module ([9pnet]): module entries are left out on
  # both sides where modules are loaded (the guests)
  CMPX=--drop-modules
  same --no-children -g none --dsos '[kernel.kallsyms]' -n
  CMPX=
  same --no-children -g none --percentage relative -S demo_hot_user_function,read_zero
  cpu=$($PERF script -i $F -F cpu 2>/dev/null | tr -d '[]' | sort | uniq -c | sort -n | awk 'END { print $2 + 0 }')
  same --no-children -g none --cpu "$cpu" -s cpu,sym
  # a CPU range (0-1, or 0 on a one-CPU guest: perf refuses a CPU the file lacks)
  if [ "$(nproc)" -ge 2 ]; then same --no-children -g none --cpu 0-1 -n; else same --no-children -g none --cpu 0 -n; fi
  # absolute times: the middle of the recording, as perf script shows them
  $PERF script -i $F -F time 2>/dev/null | tr -d ' :' > times.txt
  n=$(wc -l < times.txt)
  t1=$(sed -n "$((n / 4))p" times.txt); t2=$(sed -n "$((n / 2))p" times.txt); t3=$(sed -n "$((n * 3 / 4))p" times.txt)
  same --no-children -g none --time "$t1,$t2"
  same --no-children -g none --time "$t1,$t2 $t3,"
  same --no-children -g none --time ",$t1" -n
  GRAPH='read_zero|demo_hot_user_function'
  same --no-children -G
  same --no-children -g graph,1,callee
  same --no-children -g caller,2
  same --children -g graph,5,caller
  same --no-children --max-stack 3 -g callee
  # caller order: perf's chain is the N outermost frames; the sampled
  # function makes the entry but is not in the chain unless among them
  GRAPH='read_zero|demo_hot_user_function|\] main$'
  same --children --max-stack 3 -g caller
  same --no-children --max-stack 3 -g caller
  same --children --max-stack 2
  same --no-children -G --max-stack 4
  unset GRAPH
  same --children --max-stack 3 -g none
  # --percent-limit: of the children column with --children (call graphs too)
  same --children --percent-limit 30 -g none
  GRAPH='read_zero'
  same --children --percent-limit 5
  unset GRAPH
  # the sort key parent: perf's default regex, and others (-p)
  same --no-children -g none -s parent
  same --no-children -g none -s parent -p '^read|^__GI'
  same --no-children -g none -s comm,parent -p 'vfs_|ksys_' -n
  same --children -g none -s parent,sym -p '^main$|read'
  same --no-children -g none -s sym,parent -p '^do_'
  $PERF report -i $F --stats > p.txt 2>/dev/null
  "$BPFPERF" report -i $F --stats > o.txt || fail "--stats on $F"
  cmp -s p.txt o.txt || { diff p.txt o.txt; fail "--stats on $F: not as perf"; }
  ok "$F: --stats as perf"
done
# percent slices: perf needs the first/last sample times of its own header
F=perf.data
same --no-children -g none --time 10%/3
same --no-children -g none --time 0%-10%,30%-40%

# -D: every record's raw dump as perf shows it (perf interleaves its
# decoded samples, in time order: compared as sets of blocks)
dump_blocks() { awk '/@/ && /: event: / { if (b != "") print b; b = $0; next }
  /^\.  [0-9a-f]{4}:/ { b = b "|" $0 } END { print b }' "$1" | sort; }
$PERF report -i perf.data -D > p.txt 2>/dev/null
"$BPFPERF" report -i perf.data -D > o.txt || fail "-D"
dump_blocks p.txt > pb.txt; dump_blocks o.txt > ob.txt
[ "$(wc -l < pb.txt)" -gt 1000 ] || fail "-D: perf dumped $(wc -l < pb.txt) records"
cmp -s pb.txt ob.txt || { diff pb.txt ob.txt | head; fail "-D: records differ from perf's"; }
ok "-D: $(wc -l < ob.txt) records dumped as perf does"

# samples of pid -1: shown as the thread ":-1" and counted, as perf does
n=$(python3 "$SRC/tests/integration/perf_set_pid.py" perf.data pm.data 5) || fail "perf_set_pid.py"
F=pm.data
same --no-children -g none -s pid
same --no-children -g none
grep -q -- '-1::-1' o.txt || grep -q ':-1 ' o.txt || fail "pid -1 samples not shown as :-1"
"$BPFPERF" report -i pm.data --no-children -g none 2>&1 >/dev/null | grep -q "^$n samples have no task" ||
  fail "the $n samples of pid -1 are not counted"
ok "pid -1: $n samples counted"

# srcline (DWARF line tables): a program with debug info and no BPF (perf
# 6.1 dies on BPF programs' srclines: its addr2line cannot read them).
# On one CPU (the emulated guests) user space only: there perf 6.1's report
# failed three times in a row running addr2line on /proc/kcore for the
# kernel samples ("could not read first record").
CWEV=cpu-clock
if [ "$(nproc)" -lt 2 ]; then
  CWEV=cpu-clock:u
  echo "one CPU: srclines of user-space samples only (perf's addr2line on /proc/kcore fails there)"
fi
perf_rec -e $CWEV -o cw.data -- "$BUILD/bench/cpu_work" 3000000 2 || fail "perf record cpu_work"
"$BPFPERF" record -e $CWEV -o cwo.data -- "$BUILD/bench/cpu_work" 3000000 2 >/dev/null 2>&1 ||
  fail "record cpu_work"
for F in cw.data cwo.data; do
  for o in "-s srcline" "-s sym,srcline" "-s comm,srcline -n"; do
    # perf 6.1's srcline failed once in a 6.1 guest: tried three times, its
    # last messages shown
    for i in 1 2 3; do
      $PERF report -i $F --stdio --no-children -g none $o > p.txt 2>p.err && break
      [ $i = 3 ] && { tail -5 p.err; fail "perf report $o on $F failed three times"; }
    done
    "$BPFPERF" report -i $F --no-children -g none $o > o.txt || fail "report $o"
    $CMP p.txt o.txt --min 0.2 --loose-header --ignore "$IGN" > cmp.txt || { cat cmp.txt; fail "$F $o: not as perf"; }
    grep -q 'cpu_work.c:1[67]' o.txt || fail "$F $o: no line of cpu_work.c's leaf()"
    ok "$F: $o ($(cat cmp.txt))"
  done
done

# --max-stack in caller order on threads' chains (leaf <- worker <- start_thread)
perf_rec -g -o cwg.data -- "$BUILD/bench/cpu_work" 2000000 2 || fail "perf record -g cpu_work"
F=cwg.data
GRAPH='leaf|worker|start_thread'
# an ASan build's cpu_work may be sampled in its runtime, whose C++ clones
# perf names without their " [clone .isra.0]" (not compared here)
IGN0=$IGN IGN="$IGN|libasan|libubsan"
same --children --max-stack 2 -g caller
same --no-children --max-stack 2 -g caller
same --children --max-stack 1
IGN=$IGN0
unset GRAPH

# what we do not support is named, never replaced by a default
perf_rec -o nocpu.data -- "$DEMO" 0.2 || fail "perf record"
expect_fail "sort key srcfile" "sort key 'srcfile' in --sort is not supported" \
  "$BPFPERF" report -i perf.data -s sym,srcfile
expect_fail "parent without call graphs" "sort key parent needs call graphs" \
  "$BPFPERF" report -i nocpu.data -s parent
expect_fail "bad --parent" "invalid --parent '\\(': expected" "$BPFPERF" report -i perf.data -s parent -p '('
expect_fail "unknown sort key" "unknown sort key 'bogus'" "$BPFPERF" report -i perf.data -s bogus
expect_fail "-F unknown field" "unknown sort key 'nope' in -F" "$BPFPERF" report -i perf.data -F overhead,nope
expect_fail "-g srcline" "'srcline' is not supported" "$BPFPERF" report -i perf.data -g graph,srcline
expect_fail "bad --time" "invalid --time '5,4'" "$BPFPERF" report -i perf.data --time 5,4
expect_fail "bad --pid" "invalid --pid 'x': expected" "$BPFPERF" report -i perf.data --pid x
expect_fail "--cpu without CPUs" "carry no CPU" "$BPFPERF" report -i nocpu.data --cpu 0
# CPU 0 is in every recording (one CPU in the guests), CPU 7 in none of ours
expect_fail "--cpu not recorded" "CPU 7 is not in perf.data, recorded on" "$BPFPERF" report -i perf.data --cpu 0,7
"$BPFPERF" report -i perf.data -g caller > /dev/null 2>err.txt || { cat err.txt; fail "-g caller"; }
[ ! -s err.txt ] || { cat err.txt; fail "-g caller printed a message"; }
ok "-g caller accepted without a word"

# perf files recorded with DWARF call graphs: a warning, not silence
perf_rec --call-graph dwarf,4096 -o dwarf.data -- "$DEMO" 0.3 || fail "perf record dwarf"
"$BPFPERF" report -i dwarf.data --no-children > /dev/null 2>err.txt || fail "report on a dwarf file"
grep -q "recorded with --call-graph dwarf" err.txt || { cat err.txt; fail "no warning on a dwarf file"; }
ok "dwarf call graphs: warned"

# record --call-graph fp,N: attr.sample_max_stack, and no deeper chain
"$BPFPERF" record --call-graph fp,3 -o fp3.data -- "$DEMO" 0.5 >/dev/null 2>&1 || fail "record fp,3"
$PERF report -i fp3.data --header-only 2>/dev/null | grep -q "sample_max_stack = 3" ||
  fail "fp,3: sample_max_stack is not 3"
deep=$($PERF script -i fp3.data -F ip 2>/dev/null | awk 'NF == 0 { if (n > m) m = n; n = 0; next } { n++ }
  END { if (n > m) m = n; print m + 0 }')
[ "$deep" -le 3 ] && [ "$deep" -ge 1 ] || fail "fp,3: chains of $deep frames"
ok "record --call-graph fp,3: chains of at most 3 frames"
expect_fail "record --call-graph dwarf" "DWARF and LBR unwinding are not supported" \
  "$BPFPERF" record --call-graph dwarf -o x.data -- true
