#!/bin/sh
# record --off-cpu: blocked time attributed to the blocking function's stack
# in our report and in perf 6.1's (the oracle reads our offcpu-time samples),
# kernel stacks that start at the scheduler (tracing machinery skipped), the
# pipe wait, 4096 distinct stacks none of which is lost, the threshold's
# individual samples, both BPF designs, --sort state, the folded on-/off-CPU
# picture, --filter on off-CPU samples, -a -G CGROUP, and bad input.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd python3
PERF="perf --buildid-dir $TMP/buildid"
W="$TMP/ocw"
cc -O2 -g -fno-omit-frame-pointer -o "$W" "$SRC/tests/workloads/off_cpu_waits.c" || fail "cannot build the workload"
cd "$TMP"

# Sum of the off-CPU ns whose stack holds FUNC, from our folded output.
ours_ns() {  # file func
  "$BPFPERF" report -i "$1" --event offcpu-time --folded | \
    awk -v f=";$2;" '{ n = $NF; $NF = ""; if (index(";" $0, f)) s += n } END { printf "%d\n", s }'
}
# The waits record -vv counts as lost because no sched_switch event showed
# their end (the task ran again unseen; docs/bpfperf-record.md).
unseen_waits() {  # record's stderr
  sed -n 's/.* \([0-9]*\) waits lost (switch-in unseen).*/\1/p' "$1"
}
# The same from perf script 6.1, and checks on every offcpu-time sample:
# its first frame is the scheduler, no frame is tracing machinery.
perf_check() {  # file func -> prints ns; exits non-zero on a bad stack
  $PERF script -i "$1" -F event,period,ip,sym 2>"$TMP/perf.err" | python3 -c '
import re, sys
func = sys.argv[1]
total = 0; samples = []; cur = None
for line in sys.stdin:
    if not line.strip():
        continue
    if not line.startswith(("\t", " " * 8)) or "offcpu-time" in line or "cpu-clock" in line:
        m = re.search(r"(\d+)\s+(offcpu-time|cpu-clock)", line)
        cur = [m.group(2), int(m.group(1)), []] if m else None
        if cur: samples.append(cur)
    elif cur:
        parts = line.split()
        cur[2].append(parts[1] if len(parts) > 1 else "?")
oc = [s for s in samples if s[0] == "offcpu-time"]
if not oc:
    sys.exit("no offcpu-time samples in perf script")
for ev, period, syms in oc:
    if any(re.match(r"(bpf_|__bpf_|__traceiter_|perf_trace_|trace_call_bpf)", x) for x in syms):
        sys.exit("tracing frame in an off-CPU stack: " + " ".join(syms))
    if syms and not re.search(r"schedule", syms[0]):
        sys.exit("first frame " + syms[0] + " is not the scheduler: " + " ".join(syms))
    if func in [re.sub(r"\+0x.*", "", x) for x in syms]:
        total += period
print(total)
' "$2"
}
within() {  # value lo hi what
  python3 -c "import sys; v=float(sys.argv[1]); sys.exit(0 if float(sys.argv[2]) <= v <= float(sys.argv[3]) else 1)" "$1" "$2" "$3" \
    || fail "$4: $1 not in [$2, $3]"
}

# 10 x 200 ms in offcpu_sleeper: the time the sleeps took as the workload
# measured it (wake-up delays on a loaded machine included) +- 2%, and at
# least the 2.00 s asked for, in every design (less a 200 ms sleep that record
# reports LOST because no sched_switch event showed its end: see the 4096
# stacks below)
for d in 0 1; do
  "$BPFPERF" -vv record --off-cpu --off-cpu-min-design $d -g -o sleep$d.data -- "$W" sleep 10 200 \
    2>rec$d.err >wl$d.out || { cat rec$d.err; fail "record --off-cpu (design $d)"; }
  # -v names the mechanism chosen (the best one the kernel allows for 0)
  want="raw tracepoint sched_switch with a hash map"; [ $d = 0 ] && want="tp_btf sched_switch with task storage\|$want"
  grep -q "off-CPU: \($want\)" rec$d.err || { cat rec$d.err; fail "design $d: -v does not name the design"; }
  # the 10 sleeps, and any real wait of the workload's own start-up (paging
  # its binary in over 9p takes longer than the threshold in the QEMU guests)
  nw=$(sed -n 's/.*off-CPU: \([0-9]*\) waits.*/\1/p' rec$d.err)
  unseen=$(unseen_waits rec$d.err)
  [ -n "$unseen" ] && [ "$unseen" -le 1 ] || { cat rec$d.err; fail "design $d: $unseen waits lost (switch-in unseen)"; }
  [ "$unseen" = 0 ] || echo "NOTE: design $d: 1 wait lost by the kernel's tracepoint (counted and reported by record)"
  [ -n "$nw" ] && [ $((nw + unseen)) -ge 10 ] && [ "$nw" -le 20 ] || { cat rec$d.err; fail "design $d: $nw waits, not 10 (to 20)"; }
  slept=$(sed -n 's/^slept_ns //p' wl$d.out)
  lo=$(python3 -c "print(max(1.96e9, $slept * 0.98) - $unseen * 0.21e9)"); hi=$(python3 -c "print($slept * 1.02)")
  [ $d = 0 ] && { lo0=$lo; hi0=$hi; }
  ns=$(ours_ns sleep$d.data offcpu_sleeper)
  within "$ns" "$lo" "$hi" "design $d: our off-CPU ns in offcpu_sleeper (the workload slept $slept ns)"
  pns=$(perf_check sleep$d.data offcpu_sleeper) || fail "design $d: perf script: $pns"
  within "$pns" "$lo" "$hi" "design $d: perf's off-CPU ns in offcpu_sleeper (the workload slept $slept ns)"
  ok "design $d: offcpu_sleeper blocked $ns ns (ours) / $pns ns (perf script)"
done
[ -s "$TMP/perf.err" ] && grep -iE "error|fail|corrupt" "$TMP/perf.err" && fail "perf script complained"

# perf report 6.1 shows the event of its own, with the same total
$PERF report -i sleep0.data --stdio --no-children --sort sym 2>/dev/null > perf_report.txt
grep -q "of event 'offcpu-time'" perf_report.txt || fail "perf report has no offcpu-time block"
tot=$(sed -n "/of event 'offcpu-time'/,/^# Event count/p" perf_report.txt | sed -n 's/^# Event count (approx.): //p')
# our report: a block per event, the same total (the sleeps and any other
# wait over the threshold: the start-up's page-ins in the guests)
"$BPFPERF" report -i sleep0.data --stdio --no-children --sort sym > ours.txt
grep -q "of event 'cpu-clock'" ours.txt && grep -q "of event 'offcpu-time'" ours.txt || fail "our report lacks a block per event"
otot=$(sed -n "/of event 'offcpu-time'/,/^# Event count/p" ours.txt | sed -n 's/^# Event count (approx.): //p')
[ -n "$tot" ] && [ "$tot" = "$otot" ] || fail "offcpu-time event count: perf report $tot, ours $otot"
within "$tot" "$lo0" "$(python3 -c "print($hi0 + 0.5e9)")" "perf report's offcpu-time event count (the sleeps, at most 0.5 s of other waits)"
ok "perf report and ours show offcpu-time as its own event"

# the blocking reason as a sort key: nanosleep sleeps interruptibly (S)
"$BPFPERF" report -i sleep0.data --event offcpu-time --sort state --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
st = {e["state"]: e["self"] for e in d["entries"]}
# (D: the start-up paging its binary in, e.g. over 9p in the QEMU guests)
if st.get("S", 0) < 99.0 or set(st) - {"S", "D"}: sys.exit("states %s, want S (and D below 1%%)" % st)
' || fail "--sort state"
ok "--sort state: the sleeps are S"

# one picture: on-CPU and off-CPU stacks, the off-CPU ones under [off-cpu]
"$BPFPERF" report -i sleep0.data --folded > both.folded
grep -q '^ocw;\[off-cpu\];.*offcpu_sleeper' both.folded || fail "--folded lacks the [off-cpu] stacks"
grep -v '\[off-cpu\]' both.folded | grep -q . || fail "--folded lacks the on-CPU stacks"
ok "folded: on- and off-CPU in one picture"
"$BPFPERF" report -i sleep0.data --flamegraph both.html 2>/dev/null || fail "--flamegraph"
python3 - both.html "$lo0" "$hi0" <<'PY' || fail "--flamegraph: no [off-cpu] part of 2.00 s"
import json, re, sys
d = json.loads(re.search(r"var D=(\{.*?\});\n", open(sys.argv[1]).read(), re.S).group(1))
assert d["unit"] == "ns", d["unit"]
i = d["names"].index("[off-cpu]")
assert d["kinds"][i] == "o"
v = [d["v"][k] for k, x in enumerate(d["n"]) if x == i and d["d"][k] == 1]
assert len(v) == 1 and float(sys.argv[2]) <= v[0] <= float(sys.argv[3]), v
assert d["v"][0] > v[0], "the on-CPU part is missing"
PY
ok "flame graph: on- and off-CPU in one page, off-CPU under [off-cpu], in ns"

# the pipe wait: pipe_read in the kernel stack under offcpu_pipe_reader
"$BPFPERF" -vv record --off-cpu -g -o pipe.data -- "$W" pipe 300 2>pipe.err || { cat pipe.err; fail "record --off-cpu (pipe)"; }
"$BPFPERF" report -i pipe.data --event offcpu-time --folded > pipe.folded
# (a 6.1 guest once kept the wait with its user stack only, its kernel stack
# lost to a stack map bucket held by another; record's counts now say whether
# the stack store or the unwinder lost one)
grep -q 'offcpu_pipe_reader;.*pipe_read' pipe.folded ||
  { cat pipe.folded; grep -i 'off-CPU' pipe.err; fail "no pipe_read under offcpu_pipe_reader"; }
ns=$(ours_ns pipe.data offcpu_pipe_reader)
within "$ns" 0.28e9 1.5e9 "pipe wait"
ok "the pipe wait is in the kernel stack ($ns ns)"

# many distinct stacks: 4096 naps, each under a user stack of its own (the
# bits of its number as 12 calls of offcpu_left/offcpu_right); every one is
# kept (a stack map of 16384 buckets lost about 500 of them to buckets that
# held another stack)
"$BPFPERF" -vv record --off-cpu -g -o paths.data -- "$W" paths 12 >paths.out 2>paths.err ||
  { cat paths.err; fail "record --off-cpu (paths)"; }
grep 'warning' paths.err | grep -q 'stacks lost\|without a stack\|without their kernel stack' &&
  { grep -i 'off-CPU' paths.err; fail "record --off-cpu lost stacks of 4096 distinct ones"; }
grep -q ' 0 stacks lost (store full), 0 stacks lost (ids taken)' paths.err ||
  { grep -i 'off-CPU' paths.err; fail "-vv does not count the stacks lost (0)"; }
# a wait whose switch-in no sched_switch event showed is lost and counted as
# such (on this CI machine's 6.18, about 1 in 1000-4000 waits here: no
# sched_switch event, for BPF or for perf record -e sched:sched_switch -a,
# while a thread of the sandbox's agent is current; docs/bpfperf-record.md);
# such a wait has no sample, and every other one must be there
unseen=$(unseen_waits paths.err)
[ -n "$unseen" ] || { grep -i 'off-CPU' paths.err; fail "-vv does not count the waits whose switch-in was unseen"; }
if [ "$unseen" -gt 0 ]; then
  grep -q "LOST $unseen waits: the kernel ran their task again without a sched_switch event" paths.err ||
    { grep -i 'off-CPU' paths.err; fail "$unseen waits lost without the LOST line"; }
  echo "NOTE: $unseen of 4096 waits lost by the kernel's tracepoint (counted and reported by record)"
fi
[ "$unseen" -le 40 ] || fail "$unseen of 4096 waits lost to unseen switch-ins (more than 1%)"
# the naps that left the CPU (under QEMU a nap's timer may expire before the
# task blocks: it has no wait)
blocked=$(sed -n 's/^naps 4096 blocked \([0-9]*\)$/\1/p' paths.out)
[ -n "$blocked" ] && [ "$blocked" -ge 3686 ] || { cat paths.out; fail "the workload's naps did not block (90% at least)"; }
"$BPFPERF" report -i paths.data --event offcpu-time --folded | python3 -c '
import sys
paths = set()
for line in sys.stdin:
    frames = line.rsplit(" ", 1)[0].split(";")
    if "offcpu_nap" not in frames:
        continue
    i = frames.index("offcpu_nap")
    walk = []
    for f in reversed(frames[:i]):
        if f not in ("offcpu_left", "offcpu_right"):
            break
        walk.append(f)
    paths.add(tuple(walk))
blocked, unseen = int(sys.argv[1]), int(sys.argv[2])
full = [p for p in paths if len(p) == 12]
if len(full) != len(paths) or not blocked - unseen <= len(paths) <= blocked:
    sys.exit("%d distinct nap stacks (%d of 12 calls), want the %d naps that blocked (less %d waits lost)" %
             (len(paths), len(full), blocked, unseen))
' "$blocked" "$unseen" || fail "the distinct user stacks are not all in the report"
ok "$blocked distinct user stacks of naps that blocked, none lost ($unseen waits whose end the kernel did not show, reported)"

# --off-cpu-thresh: each long wait a sample with its own time, inside the recording
# (a sleep whose switch-in the kernel did not show is lost, and record says
# so: one fewer sample then, see the 4096 stacks above)
"$BPFPERF" -vv record --off-cpu --off-cpu-thresh 100 -g -o thr.data -- "$W" sleep 5 200 2>thr.err ||
  { cat thr.err; fail "record --off-cpu-thresh"; }
unseen=$(unseen_waits thr.err)
[ -n "$unseen" ] && [ "$unseen" -le 1 ] || { grep -i 'off-CPU' thr.err; fail "--off-cpu-thresh: $unseen waits lost"; }
[ "$unseen" = 0 ] || echo "NOTE: 1 of the 5 sleeps lost by the kernel's tracepoint (counted and reported by record)"
$PERF script -i thr.data -F event,time,period 2>/dev/null | python3 -c '
import sys, re
want = 5 - int(sys.argv[1])
rows = [l for l in sys.stdin if "offcpu-time" in l]
big = [l for l in rows if int(re.search(r"(\d+)\s+offcpu-time", l).group(1)) >= 190000000]
times = [float(re.search(r"(\d+\.\d+):", l).group(1)) for l in big]
if len(big) != want: sys.exit("%d samples of >= 190 ms, want %d" % (len(big), want))
if max(times) > 1e9 or len(set(times)) != want: sys.exit("times are not the waits own: %s" % times)
' "$unseen" || fail "--off-cpu-thresh samples"
ok "--off-cpu-thresh: 5 samples with their own times"

# --filter before any -e applies to the off-CPU samples too
"$BPFPERF" record --off-cpu --off-cpu-thresh 100 --filter 'period > 1000000000' -g -o flt.data \
  -- "$W" sleep 5 200 2>flt.err || { cat flt.err; fail "record --off-cpu --filter"; }
# every off-CPU sample is dropped (none kept, below): the 5 sleeps', and in
# the QEMU guests those of the workload's start-up waits (its pages read over
# 9p); short waits of one stack share a sample, so there may be fewer
# samples than waits
nw=$(sed -n 's/.*off-CPU: \([0-9]*\) waits.*/\1/p' flt.err)
nd=$(sed -n 's/.*the filter dropped \([0-9]*\) samples of offcpu-time.*/\1/p' flt.err)
[ -n "$nw" ] && [ -n "$nd" ] && [ "$nd" -ge 5 ] && [ "$nd" -le "$nw" ] ||
  { cat flt.err; fail "the filter dropped $nd off-CPU samples of $nw waits (the 5 sleeps at least)"; }
n=$($PERF script -i flt.data -F event 2>/dev/null | grep -c offcpu-time || true)
[ "$n" = 0 ] || fail "$n offcpu-time samples kept by 'period > 1000000000'"
ok "--filter drops off-CPU samples (dropped count printed)"

# -a -G CGROUP: only the cgroup's tasks, off-CPU filtered in the kernel too
CGM=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
CG="bpfperf-offcpu-test-$$"
if [ -n "$CGM" ] && mkdir "$CGM/$CG" 2>/dev/null; then
  "$BPFPERF" record -a -G "$CG" --off-cpu -g -o cg.data -- \
    sh -c "echo \$\$ > $CGM/$CG/cgroup.procs && exec $W sleep 5 100" 2>cg.err; rc=$?
  # a kernel that has no perf events in this cgroup (the QEMU guests: perf
  # stat -G fails there too) is named as the cause, not the event
  cg_refused=no
  if [ $rc != 0 ] && grep -q "for the cgroup (-G): the kernel has no perf_event controller.*--filter .cgroup == /PATH." cg.err &&
     ! $PERF stat -a -G "$CG" -e cpu-clock -- true >/dev/null 2>&1; then
    cg_refused=yes
  fi
  rmdir "$CGM/$CG" 2>/dev/null
  if [ $cg_refused = yes ]; then
    echo "note: this kernel refuses perf events in a cgroup (perf stat -G too): the cause is named; -G is checked on the host"
  else
  [ $rc = 0 ] || { cat cg.err; fail "record -a -G"; }
  $PERF script -i cg.data -F comm,event 2>/dev/null | python3 -c '
import sys
rows = [l.split() for l in sys.stdin if l.strip()]
oc = [r for r in rows if r[-1] == "offcpu-time:"]
others = {r[0] for r in rows if r[0] != "ocw" and not r[0].startswith(":") and r[0] != "sh"}
if not oc or any(r[0] != "ocw" for r in oc): sys.exit("off-CPU samples of other tasks: %s" % oc)
if others: sys.exit("samples of tasks outside the cgroup: %s" % others)
' || fail "-G: samples outside the cgroup"
  ns=$(ours_ns cg.data offcpu_sleeper)
  within "$ns" 0.49e9 0.52e9 "-G: off-CPU ns in offcpu_sleeper"
  ok "-a -G: only the cgroup's samples, on and off CPU ($ns ns blocked)"
  fi
else
  echo "note: cannot create a cgroup under the cgroup2 mount: -G not tested"
fi

# bad input
expect_fail "-G without -a" "needs -a" "$BPFPERF" record -G / -o bad.data -- true
expect_fail "-G of a cgroup that is not there" "invalid -G 'nope'" "$BPFPERF" record -a -G nope -o bad.data -- true
expect_fail "--filter on a term off-CPU samples lack" "off-CPU samples have no 'uid'" \
  "$BPFPERF" record --off-cpu --filter 'uid == 0' -o bad.data -- true
expect_fail "--off-cpu-thresh abc" "invalid --off-cpu-thresh" "$BPFPERF" record --off-cpu --off-cpu-thresh abc -- true
expect_fail "--off-cpu-thresh without --off-cpu" "need --off-cpu" "$BPFPERF" record --off-cpu-thresh 5 -- true
expect_fail "report --event that is not there" "no event 'nope'" "$BPFPERF" report -i sleep0.data --event nope
echo "PASS"
