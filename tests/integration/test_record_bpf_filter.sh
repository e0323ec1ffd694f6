#!/bin/sh
# record --bpf-object: the object's perf_event program filters samples
# (return 0 drops); drops are counted and shown by report; perf reads the file.
. "$(dirname "$0")/lib.sh"
need_root
OBJ="$BUILD/examples/sample_filter.bpf.o"
[ -f "$OBJ" ] || fail "missing $OBJ"
cd "$TMP"
# Busy work in another process, so that there is something to drop.
( end=$(( $(date +%s) + 3 )); while [ "$(date +%s)" -lt "$end" ]; do :; done ) &
bp=$!
"$BPFPERF" record -a --bpf-object "$OBJ" --set target_comm=bpfperf-demo -o f.data -- "$DEMO" 1.2 \
  > rec.out 2> rec.err || { cat rec.err; fail "record --bpf-object"; }
kill $bp 2>/dev/null; wait $bp 2>/dev/null
dropped=$(sed -n 's/.*dropped \([0-9]*\) samples.*/\1/p' rec.err)
[ -n "$dropped" ] && [ "$dropped" -gt 0 ] || { cat rec.err; fail "no drops counted"; }
"$BPFPERF" report -i f.data --sort comm --json > f.json 2> f.err || fail "report"
python3 -c "
import json; d = json.load(open('f.json'))
comms = {e['comm'] for e in d['entries']}
assert comms == {'bpfperf-demo'}, comms
assert d['total_samples'] > 100, d['total_samples']
" || fail "samples of other tasks were kept"
"$BPFPERF" report -i f.data > f.txt 2> f.err
grep -q "$dropped samples were dropped by the BPF filter" f.err || { cat f.err; fail "report does not show the drops"; }
if command -v perf >/dev/null; then perf report -i f.data --stdio >/dev/null 2>&1 || fail "perf cannot read the filtered file"; fi
# Without the filter the busy loop is sampled too (the test is meaningful).
expect_fail "object without perf_event program" "no SEC.*perf_event.* program" \
  "$BPFPERF" record -a --bpf-object "$BUILD/examples/tracex1.bpf.o" -o g.data -- true
expect_fail "--set without object" "--set needs --bpf-object" "$BPFPERF" record --set a=1 -- true
ok "bpf filter"
