#!/bin/sh
# The file stays readable when the recorder is killed with SIGKILL; Ctrl-C
# (SIGINT), SIGTERM and --duration finish it; the command's exit status is
# propagated.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
cd "$TMP"
"$BPFPERF" record -o k.data -- "$DEMO" 3 >/dev/null 2>&1 &
rp=$!
# killed a second into the workload (its start takes seconds on an emulated
# CPU: a 6.12 guest's recorder had not started it after 1.5 s)
wait_until 30 pgrep -x bpfperf-demo >/dev/null
sleep 1
kill -9 $rp
wait $rp 2>/dev/null
pkill -f "bpfperf-demo 3" 2>/dev/null
"$BPFPERF" report -i k.data --json > k.json || fail "our report on a SIGKILLed file"
python3 -c "import json,sys; d=json.load(open('k.json')); assert d['total_samples']>100, d['total_samples']" \
  || fail "too few samples after SIGKILL"
perf report -i k.data --stdio > k.txt 2>&1 || fail "perf report on a SIGKILLed file"
grep -q '%' k.txt || fail "perf sees no samples in the SIGKILLed file"

for sig in INT TERM; do
  "$BPFPERF" record -a -o s$sig.data >/dev/null 2>s$sig.err &
  rp=$!
  sleep 1
  kill -$sig $rp
  wait $rp
  rc=$?
  [ $rc -eq 0 ] || { cat s$sig.err; fail "SIG$sig: exit $rc"; }
  grep -q "Captured and wrote" s$sig.err || fail "SIG$sig: no summary"
  perf report -i s$sig.data --stdio > /dev/null 2>&1 || fail "SIG$sig: perf cannot read the file"
done

start=$(date +%s)
"$BPFPERF" record -a --duration 1 -o d.data 2>/dev/null || fail "--duration exit"
[ $(( $(date +%s) - start )) -le 4 ] || fail "--duration 1 took too long"
"$BPFPERF" record -o d2.data --duration 0.5 -- sleep 5 2>/dev/null
el=$(( $(date +%s) - start ))
[ $el -le 8 ] || fail "--duration did not stop the command"

"$BPFPERF" record -o x.data -- sh -c 'exit 3' 2>/dev/null
[ $? -eq 3 ] || fail "exit status not propagated"
ok "robust"
