#!/bin/sh
# record --filter EXPR (perf's BPF sample filter): the kernel drops the samples
# that do not match, counts them, and the file says how many. Checked with
# perf 6.1 (script/report on our file) and our report, for both designs
# (bpf_cast_to_kern_ctx, and the fallback without it: --filter-no-kfunc).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
WORK="$BUILD/bench/cpu_work"
[ -x "$WORK" ] || fail "missing $WORK"
ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || echo "note: one CPU: the 'cpu == 0' cases need 2 (the filter must drop something); they run on the host"
cd "$TMP"
PERF() { perf --buildid-dir "$TMP/buildid" "$@"; }

# Busy threads on every CPU for the system-wide cases (killed at the end).
"$WORK" 4000000000 2 >/dev/null &
busy=$!
trap 'kill $busy 2>/dev/null; rm -rf "$TMP"' EXIT

dropped_of() { sed -n "s/.*the BPF filter .* dropped \([0-9]*\) samples.*/\1/p" "$1" | head -1; }

# The first pass takes the design the kernel allows (bpf_cast_to_kern_ctx on
# 6.2+, the fallback on 6.1), the second forces the fallback.
for design in default fallback; do
  D=""; [ $design = fallback ] && D=--filter-no-kfunc

  # 1. -a --filter 'cpu == 0': only CPU 0 samples (perf's and our report agree).
  if [ "$ncpu" -ge 2 ]; then
    "$BPFPERF" record $D -a -e cpu-clock --filter 'cpu == 0' --duration 1.5 -o cpu.data \
      > rec.out 2> rec.err || { cat rec.err; fail "$design: record cpu == 0"; }
    d=$(dropped_of rec.err)
    [ -n "$d" ] && [ "$d" -gt 0 ] || { cat rec.err; fail "$design: no drops printed for cpu == 0"; }
    PERF script -i cpu.data -F cpu > cpu.txt 2>/dev/null || fail "$design: perf script"
    n=$(wc -l < cpu.txt)
    [ "$n" -gt 100 ] || fail "$design: only $n samples kept"
    grep -v '\[000\]' cpu.txt | head -3 | grep . && fail "$design: perf script shows samples off CPU 0"
    PERF report -i cpu.data --sort cpu --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' > cpu.rep
    [ "$(awk '{print $2}' cpu.rep | sort -u)" = "000" ] || { cat cpu.rep; fail "$design: perf report --sort cpu"; }
    grep -q "Total Lost Samples: $d" cpu.rep 2>/dev/null ||
      PERF report -i cpu.data --stdio 2>/dev/null | grep -q "Total Lost Samples: $d" ||
      fail "$design: perf does not see the $d dropped samples in the file"
    "$BPFPERF" report -i cpu.data --sort cpu --json > cpu.json 2> cpu.rerr || fail "$design: report"
    python3 -c "
import json; d = json.load(open('cpu.json'))
assert {e['cpu'] for e in d['entries']} == {0}, d['entries']
" || fail "$design: our report shows samples off CPU 0"
    grep -q "^$d samples were dropped by the BPF filter" cpu.rerr || { cat cpu.rerr; fail "$design: report lacks the drops"; }
    ok "$design: cpu == 0 kept $n samples, dropped $d"
  fi

  # 2. ip < 0x8000000000000000: user-space samples only (a syscall-heavy command).
  "$BPFPERF" record $D --filter 'ip < 0x8000000000000000' -o user.data -- \
    dd if=/dev/zero of=/dev/null bs=16 count=1500000 > rec.out 2> rec.err ||
    { cat rec.err; fail "$design: record ip filter"; }
  d=$(dropped_of rec.err)
  [ -n "$d" ] && [ "$d" -gt 0 ] || { cat rec.err; fail "$design: no kernel samples dropped"; }
  PERF script -i user.data -F ip > ip.txt 2>/dev/null || fail "$design: perf script ip"
  [ "$(wc -l < ip.txt)" -gt 10 ] || fail "$design: too few user samples kept"
  awk '{ if (length($1) >= 16 && substr($1, 1, 1) >= "8") { print; exit 1 } }' ip.txt ||
    fail "$design: a kernel ip was kept"
  ok "$design: ip < 0x8000000000000000 kept $(wc -l < ip.txt) user samples, dropped $d"

  # 3. tid == T on a two-thread process (-p): only T.
  "$WORK" 4000000000 2 >/dev/null &
  wp=$!
  sleep 0.3
  T=$(ls /proc/$wp/task | sort -n | tail -1)
  [ "$T" != "$wp" ] || fail "the workload has one thread"
  "$BPFPERF" record $D -p $wp --filter "tid == $T" --duration 1.5 -o tid.data > rec.out 2> rec.err ||
    { cat rec.err; kill $wp; fail "$design: record tid filter"; }
  kill $wp; wait $wp 2>/dev/null
  d=$(dropped_of rec.err)
  [ -n "$d" ] && [ "$d" -gt 0 ] || { cat rec.err; fail "$design: the other thread's samples were not dropped"; }
  PERF script -i tid.data -F tid > tid.txt 2>/dev/null
  [ "$(wc -l < tid.txt)" -gt 100 ] || fail "$design: too few samples of $T"
  [ "$(sort -u tid.txt | tr -d ' ')" = "$T" ] || { sort | uniq -c < tid.txt; fail "$design: tids other than $T"; }
  ok "$design: tid == $T with -p kept $(wc -l < tid.txt) samples, dropped $d"
done

# 4. Two events: the filter after -e applies to that event only (on one CPU
# 'cpu == 1', which drops every sample of the filtered event).
C=0; [ "$ncpu" -ge 2 ] || C=1
"$BPFPERF" record -a -e cpu-clock --filter "cpu == $C" -e task-clock --duration 1.5 -o two.data \
  > rec.out 2> rec.err || { cat rec.err; fail "record two events"; }
grep -q "the BPF filter 'cpu == $C' on cpu-clock dropped" rec.err || { cat rec.err; fail "two events: summary"; }
PERF script -i two.data -F event,cpu > two.txt 2>/dev/null || fail "perf script two events"
grep 'cpu-clock' two.txt | grep -qv "\[00$C\]" && fail "two events: cpu-clock kept samples off CPU $C"
grep 'task-clock' two.txt | grep -qv "\[00$C\]" || fail "two events: task-clock was filtered too"
ok "two events: only the one before --filter is filtered"

# A filter before any -e applies to every event; two filters are joined (and).
"$BPFPERF" record -a --filter 'cpu == 0' -e cpu-clock,task-clock --filter 'tid != 0' --duration 1 \
  -o both.data > rec.out 2> rec.err || { cat rec.err; fail "record both"; }
PERF script -i both.data -F event,cpu,tid > both.txt 2>/dev/null
grep -qv '\[000\]' both.txt && fail "a filter before -e did not apply to every event"
awk '$1 == 0' both.txt | grep -q . && fail "two filters for one event were not joined"
[ "$(awk '{print $3}' both.txt | sort -u | wc -l)" -eq 2 ] || fail "both events should have samples"
ok "filters before -e and joined filters"

# 5. Terms read from the sample itself (bpf_cast_to_kern_ctx design): a
# software event's data_src is "not available" (mem_op == na), its weight 0;
# the fields are added to the recorded samples. Without the kfunc (6.1) they
# are refused instead.
count_kept() {  # EXPR: prints "kept dropped"
  "$BPFPERF" record -a -e cpu-clock --filter "$1" --duration 0.5 -o k.data > rec.out 2> rec.err ||
    { cat rec.err; fail "record --filter '$1'"; }
  echo "$(PERF script -i k.data -F cpu 2>/dev/null | wc -l) $(dropped_of rec.err)"
}
if ! grep -qw bpf_cast_to_kern_ctx /proc/kallsyms; then
  "$BPFPERF" record -a --filter 'mem_op == na' --duration 0.2 -o k.data > rec.out 2> rec.err
  [ $? -eq 2 ] && grep -q "cannot filter on 'mem_op'.*no bpf_cast_to_kern_ctx" rec.err ||
    { cat rec.err; fail "without the kfunc, mem_op is not refused"; }
  ok "no bpf_cast_to_kern_ctx here: data_src terms refused"
else
set -- $(count_kept 'mem_op == na, mem_lvl == na, weight == 0, time > 0, phys_addr == 0')
[ "$1" -gt 100 ] && [ "$2" -eq 0 ] || fail "data_src/weight/time: kept $1 dropped $2, want all kept"
set -- $(count_kept 'mem_op == load || mem_op == store')
[ "$1" -eq 0 ] && [ "$2" -gt 100 ] || fail "mem_op == load: kept $1 dropped $2, want all dropped"
set -- $(count_kept 'time < 1000')
[ "$1" -eq 0 ] && [ "$2" -gt 100 ] || fail "time < 1000: kept $1 dropped $2, want all dropped"
ok "data_src, weight, phys_addr and time terms"
fi

# cgroup and uid: a process in a cgroup of its own, running as nobody.
CG2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
CG=$CG2/bpfperf-filter-$$
if [ -n "$CG2" ] && mkdir "$CG" 2>/dev/null; then
  sh -c "echo \$\$ > $CG/cgroup.procs; exec setpriv --reuid=65534 --regid=65534 --clear-groups \
    $WORK 4000000000 1" >/dev/null 2>&1 &
  cp=$!
  sleep 0.3
  for f in "cgroup == /bpfperf-filter-$$" "uid == 65534, gid == 65534"; do
    "$BPFPERF" record -a -e cpu-clock --filter "$f" --duration 1 -o cg.data > rec.out 2> rec.err ||
      { cat rec.err; kill $cp; sleep 0.5; rmdir "$CG"; fail "record --filter '$f'"; }
    PERF script -i cg.data -F pid > cg.txt 2>/dev/null
    [ "$(wc -l < cg.txt)" -gt 100 ] && [ "$(sort -u cg.txt | tr -d ' ')" = "$cp" ] ||
      { sort cg.txt | uniq -c; kill $cp; sleep 0.5; rmdir "$CG"; fail "'$f' kept other processes than $cp"; }
    ok "'$f' kept only pid $cp ($(wc -l < cg.txt) samples)"
  done
  kill $cp; wait $cp 2>/dev/null
  for i in 1 2 3 4 5 6 7 8 9 10; do rmdir "$CG" 2>/dev/null && break; sleep 0.2; done
else
  echo "no cgroup test: cannot create a cgroup under the cgroup v2 mount"
fi

# 6. Bad input: a usage error (exit 2) naming the column, and nothing recorded.
echo keep > old.data
bad() {
  desc=$1; pat=$2; shift 2
  "$BPFPERF" record -o old.data "$@" -- true > out 2> err
  rc=$?
  [ $rc -eq 2 ] || { cat err; fail "$desc: exit $rc, not 2"; }
  grep -qE -e "$pat" err || { cat err; fail "$desc: stderr lacks /$pat/"; }
  [ "$(cat old.data)" = keep ] && [ ! -e old.data.old ] || fail "$desc: the output file was touched"
  ok "$desc"
}
bad "syntax error" "expected an operator .* \(column 5\)" --filter 'tid 1'
grep -q '^      \^$' err || { cat err; fail "no caret under the column"; }
bad "unknown term" "unknown term 'bogus'.*column 11" --filter 'cpu == 0, bogus == 1'
bad "term the kernel cannot filter on" "cannot filter on 'time'.*bpf_cast_to_kern_ctx" \
  --filter-no-kfunc --filter 'time > 0'
bad "with --bpf-object" "--filter and --bpf-object" --filter 'cpu == 0' \
  --bpf-object "$BUILD/examples/sample_filter.bpf.o"
ok "record --filter"
