#!/bin/sh
# perf's pipe mode both ways, with perf 6.1 as the oracle:
#  - bpfperf record -o - | perf report -i -: the same top entries as our own
#    report of the same stream; perf inject turns the stream into a file
#    perf reads;
#  - perf record -o - | bpfperf report -i -: the same per-event top entries
#    as perf report of the same stream (tee'd to a file), with a tracepoint
#    event (the stream's tracing data);
#  - report -i - from a pipe and from a redirected file; the workload's
#    stdout does not mix with the stream.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_tracefs
cd "$TMP"
bid() { mktemp -d "$TMP/bid.XXXXXX"; }

# ours -> perf
"$BPFPERF" record -o - -- "$DEMO" 0.8 2>rec.err | tee ours.pipe |
  perf --buildid-dir "$(bid)" report -i - --stdio --no-children > perf.txt 2>perf.err ||
  { cat rec.err perf.err; fail "bpfperf record -o - | perf report -i -"; }
python3 -c 'import struct,sys; m,s=struct.unpack("<QQ",open("ours.pipe","rb").read(16)); sys.exit(not (m==0x32454c4946524550 and s==16))' ||
  fail "record -o - did not write perf's pipe header (16-byte header)"
[ ! -e ./- ] || fail "record -o - wrote a file named '-'"
grep -q 'to the standard output' rec.err || { cat rec.err; fail "summary does not say the standard output"; }
grep -q demo_hot_user_function perf.txt || { cat perf.txt perf.err; fail "perf report of our stream lacks the hot function"; }
"$BPFPERF" report -i - --no-children --json < ours.pipe > ours.json || fail "bpfperf report -i - < our stream"
python3 "$SRC/tests/integration/compare.py" perf.txt ours.json --min 2 ||
  fail "perf report and bpfperf report disagree on our stream"
ok "bpfperf record -o - | perf report -i -: same top entries as ours"

# report -i - from a pipe = from a redirection = from the file
cat ours.pipe | "$BPFPERF" report -i - --no-children > from_pipe.txt || fail "report -i - from a pipe"
"$BPFPERF" report -i - --no-children < ours.pipe > from_redir.txt || fail "report -i - from a redirected file"
"$BPFPERF" report -i ours.pipe --no-children > from_file.txt || fail "report -i FILE of a stream"
cmp -s from_pipe.txt from_file.txt && cmp -s from_redir.txt from_file.txt ||
  { diff from_pipe.txt from_file.txt | head; fail "report -i - differs from report -i FILE"; }
ok "report -i - reads a pipe and a redirected file"

# perf inject on our stream
"$BPFPERF" record -o - -- "$DEMO" 0.4 2>/dev/null |
  perf --buildid-dir "$(bid)" inject -o inj.data 2>inject.err || { cat inject.err; fail "perf inject on our stream"; }
[ -s inject.err ] && { cat inject.err; fail "perf inject complained"; }
perf --buildid-dir "$(bid)" report -i inj.data --stdio > inj.txt 2>inj.err || { cat inj.err; fail "perf report of perf inject's file"; }
grep -q demo_hot_user_function inj.txt || fail "perf inject's file lacks the hot function"
"$BPFPERF" report -i inj.data > inj_ours.txt || fail "bpfperf report of perf inject's file"
grep -q demo_hot_user_function inj_ours.txt || fail "our report of perf inject's file lacks the hot function"
ok "perf inject reads our stream"

# tracepoints: the stream carries their formats (HEADER_TRACING_DATA)
"$BPFPERF" record -e sched:sched_switch,cpu-clock -o - -- "$DEMO" 0.4 2>/dev/null |
  perf --buildid-dir "$(bid)" report -i - --stdio --no-children > tp.txt 2>tp.err || { cat tp.err; fail "perf report of our tracepoint stream"; }
# the samples' IP: __schedule, or the tracepoint's iterator when another
# probe is on sched_switch too (e.g. trace_printk's comm recording)
grep -q "of event 'sched:sched_switch'" tp.txt && grep -Eq "__schedule|__traceiter_sched_switch" tp.txt ||
  { cat tp.txt tp.err; fail "perf report of our stream lacks the sched_switch samples"; }
ok "perf reads the tracepoint events of our stream"

# perf -> ours, per event
perf --buildid-dir "$(bid)" record -e cpu-clock,sched:sched_switch -o - -- "$DEMO" 0.8 2>/dev/null |
  tee perf.pipe | "$BPFPERF" report -i - --no-children > ours2.txt 2>ours2.err ||
  { cat ours2.err; fail "perf record -o - | bpfperf report -i -"; }
[ -s ours2.err ] && { cat ours2.err; fail "bpfperf report -i - complained about perf's stream"; }
perf --buildid-dir "$(bid)" report -i perf.pipe --stdio --no-children > perf2.txt 2>/dev/null || fail "perf report of perf's stream"
# BPF programs of cpu-clock: checked by the kernel's rule replayed from the
# stream's KSYMBOL records (compare.py --bpf-script), as on perf's files
# (test_record_multi_event): perf 6.1's report may credit a freed program's
# range. The sched_switch samples in the script weigh a period of 1 each.
perf --buildid-dir "$(bid)" script -i perf.pipe --show-bpf-events -F comm,ip,period > bpf.script 2>/dev/null ||
  fail "perf script of perf's stream"
for ev in cpu-clock sched:sched_switch; do
  # perf 6.1 has no --event: its block of the text output
  awk -v ev="of event '$ev'" '/^# Samples: /{on = index($0, ev) > 0} on' perf2.txt > "perf2.$ev.txt"
  grep -q '%' "perf2.$ev.txt" || { cat perf2.txt; fail "perf report has no entries for $ev"; }
  "$BPFPERF" report -i - --no-children --json --event "$ev" < perf.pipe > "ours2.$ev.json" || fail "report --event $ev"
  oracle=""; [ "$ev" = cpu-clock ] && oracle="--bpf-script bpf.script"
  python3 "$SRC/tests/integration/compare.py" "perf2.$ev.txt" "ours2.$ev.json" --min 2 $oracle ||
    fail "perf and bpfperf disagree on event $ev of perf's stream"
  grep -q "of event '$ev'" ours2.txt || fail "our text report has no block for $ev"
done
ok "perf record -o - | bpfperf report -i -: same per-event top entries as perf"

# the workload's stdout goes to stderr, not into the stream
# (what it prints is not in its command line, which the stream holds)
"$BPFPERF" record -o - -- sh -c 'echo workload-says-$((40 + 2))' > echo.pipe 2>echo.err || fail "record -o - of echo"
grep -q workload-says-42 echo.err || fail "the workload's stdout is lost"
grep -q workload-says-42 echo.pipe && fail "the workload's stdout went into the stream"
perf --buildid-dir "$(bid)" report -i - --stdio < echo.pipe > /dev/null 2>echo_perf.err || { cat echo_perf.err; fail "stream with a noisy workload"; }
ok "the workload's stdout goes to stderr"

# a reader that goes away: a write error, not a hang or a silent success
"$BPFPERF" record -o - -- "$DEMO" 0.5 2>epipe.err | head -c 100 > /dev/null
grep -qi "standard output.*broken pipe\|broken pipe" epipe.err || { cat epipe.err; fail "no message when the reader goes away"; }
ok "a reader that goes away is reported"

# a terminal is refused both ways (script gives the command a terminal)
if command -v script >/dev/null 2>&1; then
  script -qec "\"$BPFPERF\" record -o - -- true" /dev/null > tty_rec.txt 2>&1
  grep -q "standard output, which is a terminal" tty_rec.txt || { cat tty_rec.txt; fail "record -o - to a terminal"; }
  script -qec "\"$BPFPERF\" report -i -" /dev/null > tty_rep.txt 2>&1
  grep -q "standard input is a terminal" tty_rep.txt || { cat tty_rep.txt; fail "report -i - from a terminal"; }
  ok "a terminal is refused (record -o -, report -i -)"
fi
