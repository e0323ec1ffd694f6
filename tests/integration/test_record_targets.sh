#!/bin/sh
# Targets and events: -p PID, -a, -C, a software event and a tracepoint;
# perf reads every file (a tracepoint needs the TRACING_DATA section).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_tracefs
cd "$TMP"
# phases of 3 s of the demo's CPU time: the user phase outlasts record -p's
# start-up and 0.8 s (on one emulated CPU the two share it; with 1.3 s
# phases a guest's recording fell into the kernel phase)
"$DEMO" 9 >demo.out 2>&1 &
dp=$!
# past the BPF phase (the demo says when it unloads its program): the user phase runs now
wait_until 30 grep -q "now unloading" demo.out || { cat demo.out; fail "the demo did not reach its user phase in 30 s"; }
"$BPFPERF" record -g -p $dp -o p.data --duration 0.8 2>p.err || { cat p.err; fail "record -p"; }
"$BPFPERF" report -i p.data --no-children --json > p.json || fail "report -p"
python3 - p.json $dp <<'PY' || fail "-p profile"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["total_samples"] > 50, d["total_samples"]
assert all(e["comm"] == "bpfperf-demo" for e in d["entries"]), "only the target process"
assert any(e["symbol"] == "demo_hot_user_function" for e in d["entries"])
PY
"$BPFPERF" record -a -C 0 -o c.data --duration 0.5 2>/dev/null || fail "record -a -C 0"
perf report -i c.data --stdio --sort cpu 2>/dev/null | grep -E '^ +[0-9.]+%' > cpus.txt
[ "$(wc -l < cpus.txt)" -eq 1 ] && grep -q ' 000$' cpus.txt || { cat cpus.txt; fail "-C 0 sampled other CPUs"; }
kill $dp 2>/dev/null; wait $dp

"$BPFPERF" record -e page-faults -o pf.data -- "$DEMO" 0.3 >/dev/null 2>&1 || fail "page-faults"
perf report -i pf.data --stdio 2>/dev/null | grep -q "of event 'page-faults'" || fail "perf: page-faults file"

"$BPFPERF" record -e sched:sched_switch -a -o tp.data -- sleep 0.3 2>/dev/null || fail "tracepoint"
perf report -i tp.data --stdio > tp.txt 2> tp.err || { cat tp.err; fail "perf cannot read a tracepoint file"; }
grep -q "of event 'sched:sched_switch'" tp.txt || fail "perf: tracepoint event name"
# __schedule, or the tracepoint's iterator when another probe is on
# sched_switch too (e.g. trace_printk's comm recording)
grep -Eq "__schedule|__traceiter_sched_switch" tp.txt || fail "perf: sched_switch samples in __schedule"
"$BPFPERF" report -i tp.data --json > tp.json 2> tp.err || { cat tp.err; fail "our report of the tracepoint file"; }
grep -q '"__schedule"' tp.json || { head -c 600 tp.json; fail "our report of the tracepoint file lacks __schedule"; }
# Another profiler listening for KSYMBOL/BPF_EVENT at the same time makes
# the kernel inflate those records' sizes; our file must stay readable.
perf record -a -o other.data -- sleep 3 >/dev/null 2>&1 &
op=$!
sleep 0.3
"$BPFPERF" record -a -o conc.data -- "$DEMO" 1.2 >/dev/null 2>&1 || fail "record next to perf"
wait $op
perf report -i conc.data --stdio > conc.txt 2> conc.err || { cat conc.err; fail "perf cannot read a file recorded next to another profiler"; }
grep -q "_demo_bpf_mix" conc.txt || fail "perf: BPF program not named in the concurrent recording"
"$BPFPERF" report -i conc.data --json | grep -q "_demo_bpf_mix" || fail "ours: BPF program not named"
"$BPFPERF" report -i other.data --json > /dev/null || fail "our report of perf's concurrent file"
ok "targets and events"
