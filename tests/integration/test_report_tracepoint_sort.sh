#!/bin/sh
# report's tracepoint sort keys against perf report 6.1 on the same files
# (perf's recording and ours) of sched:sched_switch (fixed-size fields: char
# arrays, ints, the long prev_state shown through __print_flags) and
# sched:sched_process_exec (a __data_loc string) around a shell that runs
# 30 short sleeps: -s FIELD, SYS:EVENT.FIELD, trace, trace_fields, the
# default (trace) of a recording of tracepoints only, --raw-trace, mixed
# with comm/pid; one block per event. The same header lines (column titles
# and widths) and entries (key text, percentages) are required
# (compare_table.py); --json carries each key's value; unknown fields are
# errors with the close matches.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd python3
need_tracefs
cd "$TMP"
PERF="perf --buildid-dir $TMP/bid"
CMP="python3 $SRC/tests/integration/compare_table.py"
cat > sleeper.sh <<'SH'
i=0; while [ $i -lt 30 ]; do sleep 0.002; i=$((i+1)); done
SH
EV=sched:sched_switch,sched:sched_process_exec
# perf 6.1 record sometimes aborts in its build-id code: tried three times
perf_rec() { for i in 1 2 3; do $PERF record "$@" >/dev/null 2>&1 && return 0; done; return 1; }
perf_rec --no-bpf-event -e "$EV" -o perf.data -- sh sleeper.sh || fail "perf record -e $EV"
"$BPFPERF" record -e "$EV" -o ours.data -- sh sleeper.sh >/dev/null 2>rec.err ||
  { cat rec.err; fail "bpfperf record -e $EV"; }

# same [ARGS...]: perf report and ours with ARGS on $F agree, every entry
same() {
  $PERF report -i "$F" --stdio "$@" > p.txt 2>p.err || { cat p.err; fail "perf report $* on $F"; }
  "$BPFPERF" report -i "$F" "$@" > o.txt 2>o.err || { cat o.err; fail "bpfperf report $* on $F"; }
  $CMP p.txt o.txt --min 0 > cmp.txt || { cat cmp.txt; fail "report $* on $F: not as perf"; }
  ok "$F: ${*:-(default)} ($(cat cmp.txt))"
}

for F in perf.data ours.data; do
  n=$($PERF script -i "$F" 2>/dev/null | grep -c 'sched:sched_process_exec:')
  [ "$n" -ge 30 ] || fail "$F: $n sched_process_exec samples (want >= 30: one per sleep)"
  same
  same -s prev_comm
  same -s comm,prev_comm
  same -s comm,sched:sched_switch.next_pid,prev_state
  same -s prev_state,next_comm
  same -s trace_fields
  same -s filename,comm
  same -s sched:sched_process_exec.old_pid,filename
  same -s trace,comm
  same --raw-trace
  same -s prev_comm,prev_state --raw-trace
  same -s trace --raw-trace
done

# JSON: the key's value per entry, as the text shows it
# sched_wakeup's target_cpu is printed "%03d" by its format; its raw value
# (--raw-trace, trace_fields) is 1 in perf 6.1, not libtraceevent 1.7's 001
perf_rec --no-bpf-event -e sched:sched_wakeup -o wake.data -- sh sleeper.sh || fail "perf record sched_wakeup"
F=wake.data
same -s target_cpu
same -s target_cpu,pid --raw-trace
same -s trace_fields --raw-trace

F=perf.data
"$BPFPERF" report -i $F -s prev_comm,prev_state,filename --json > o.json || fail "--json with tracepoint keys"
"$BPFPERF" report -i $F -s prev_comm,prev_state,filename > o.txt || fail "report with tracepoint keys"
python3 - o.json o.txt <<'PY' || fail "--json values differ from the text report"
import json, sys
d = json.load(open(sys.argv[1]))
sw = d["entries"]
ex = [e for e in d["events"] if e["name"] == "sched:sched_process_exec"][0]["entries"]
assert sw and all("prev_comm" in e and "prev_state" in e and "filename" not in e for e in sw), sw[:3]
assert ex and all("filename" in e and "prev_comm" not in e for e in ex), ex[:3]
assert any(e["filename"].endswith("/sleep") for e in ex), ex
text = [l.split() for l in open(sys.argv[2]) if l[:1] == " " and "%" in l]
want = [[e["prev_comm"], e["prev_state"]] for e in sw] + [[e["filename"]] for e in ex]
assert [t[1:] for t in text] == want, (text[:5], want[:5])
PY
ok "--json: prev_comm, prev_state and filename per entry, as in the text"

# unknown fields: perf refuses them; ours names the close matches
expect_fail "a misspelt field" "unknown sort key 'prev_comx'.*did you mean: prev_comm" \
  "$BPFPERF" report -i perf.data -s comm,prev_comx
expect_fail "a field of another event" "sched:sched_process_exec.prev_comm'.*did you mean: sched:sched_switch.prev_comm" \
  "$BPFPERF" report -i perf.data -s sched:sched_process_exec.prev_comm
$PERF report -i perf.data --stdio -s prev_comx 2>&1 | grep -q "Unknown --sort key: .prev_comx" ||
  fail "perf report -s prev_comx does not refuse the key (the oracle changed?)"
ok "unknown tracepoint fields are refused with the close matches"
