#!/bin/sh
# An empty profile is explained, not shown silently: a workload killed in
# its first milliseconds ran less than one sample period; record says how
# long it ran and on CPU and that it was killed, report (of our file, of a
# stream, of perf's file) how long the recorded tasks ran against the period.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
cd "$TMP"
# -F 1: one sample per second of CPU; the shell kills itself after ~1 ms
# (~200 ms in a QEMU guest with an emulated CPU: no -F 10 there)
"$BPFPERF" record -F 1 -o k.data -- sh -c 'kill -9 $$' 2>rec.err
rc=$?
[ $rc -eq 137 ] || { cat rec.err; fail "record of a killed workload exited $rc, not 128 + 9"; }
grep -qE '\(0 samples\)' rec.err || { cat rec.err; fail "record did not take 0 samples (test premise)"; }
# (under an emulated CPU the shell may use more than 1000 ms: then no sample
# fell in that time, which is said instead)
grep -qE '0 samples: the workload ran for [0-9.]+ ms and used [0-9.]+ ms of CPU, (less than one sample period|and no sample fell in that time) \(one sample every 1000 ms on CPU at -F 1\); it was killed by signal 9' rec.err ||
  { cat rec.err; fail "record does not explain the empty profile"; }
ok "record explains 0 samples"

"$BPFPERF" report -i k.data > k.txt 2>k.err || { cat k.err; fail "report of an empty profile"; }
grep -q '# Samples: 0' k.txt || fail "report header"
grep -qE "0 samples of event 'cpu-clock' in k.data: the recorded tasks ran for [0-9.]+ ms .*(less than one sample period| and no sample fell in that time) \(one every 1000 ms on CPU at 1 Hz\)" k.err ||
  { cat k.err; fail "report does not explain the empty profile"; }
"$BPFPERF" report -i k.data --json > k.json 2>/dev/null || fail "JSON report of an empty profile"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' k.json || fail "the explanation broke the JSON output"
ok "report explains 0 samples"

"$BPFPERF" record -F 1 -o - -- sh -c 'kill -9 $$' 2>/dev/null | "$BPFPERF" report -i - > /dev/null 2>p.err
grep -qE "0 samples of event 'cpu-clock' in standard input: .*(less than one sample period|no sample fell in that time)" p.err ||
  { cat p.err; fail "report -i - does not explain the empty profile"; }
perf --buildid-dir "$(mktemp -d "$TMP/bid.XXXXXX")" record -e cpu-clock -F 1 -o perf.data -- sh -c 'kill -9 $$' 2>/dev/null
"$BPFPERF" report -i perf.data > /dev/null 2>perf.err
grep -qE "0 samples of event 'cpu-clock' in perf.data: .*less than one sample period" perf.err ||
  { cat perf.err; fail "report of perf's empty file does not explain it"; }
ok "a stream and perf's file are explained too"

# a profile with samples says nothing of the kind
"$BPFPERF" record -o full.data -- "$DEMO" 0.3 >/dev/null 2>full.err || fail "record of the demo"
"$BPFPERF" report -i full.data > /dev/null 2>>full.err || fail "report of the demo"
grep -qE '(^|[^0-9])0 samples' full.err && { cat full.err; fail "a message about 0 samples on a full profile"; }
ok "no message when there are samples"
