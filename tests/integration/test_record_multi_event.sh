#!/bin/sh
# Several events in one recording, ours and perf's: one block per event in
# the text report with perf report's counts and top entries, a JSON "events"
# array, event groups {a,b} (opened as a group, described in the header as
# perf does), and hotspot's perfparser reading every sample of our file.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
P() { perf --buildid-dir "$TMP/bid" "$@"; }
cd "$TMP"

# per_event FILE LABEL: our report and perf's agree event by event.
per_event() {
  f=$1; label=$2
  P report -i "$f" --stdio --no-children > perf.txt 2>/dev/null || fail "$label: perf report"
  "$BPFPERF" report -i "$f" --no-children > ours.txt 2>ours.err || { cat ours.err; fail "$label: our report"; }
  grep '^# Samples:' perf.txt > perf.blocks
  grep '^# Samples:' ours.txt > ours.blocks
  [ "$(wc -l < ours.blocks)" = 2 ] || { cat ours.blocks; fail "$label: want 2 blocks"; }
  cmp -s perf.blocks ours.blocks || { cat perf.blocks ours.blocks; fail "$label: the blocks differ from perf report's"; }
  # exact per-event sample counts: perf script against our JSON "events"
  P script -i "$f" -F event 2>/dev/null | sed 's/: *$//' | sort | uniq -c | awk '{print $2, $1}' > script.counts
  "$BPFPERF" report -i "$f" --no-children --json > ours.json || fail "$label: --json"
  python3 - ours.json script.counts <<'PY' || fail "$label: JSON events disagree with perf script"
import json, sys
d = json.load(open(sys.argv[1]))
want = dict(l.split() for l in open(sys.argv[2]))
got = {e['name']: e['samples'] for e in d['events']}
assert got == {k: int(v) for k, v in want.items()}, (got, want)
ev0 = d['events'][0]
assert d['event'] == ev0['name'] and d['total_samples'] == ev0['samples'] and d['entries'] == ev0['entries']
assert all(e['period'] > 0 and e['entries'] for e in d['events'])
print('events:', got)
PY
  # each event's top entries: perf's block against our --event NAME
  awk '/^# Samples:/ { n++ } n { print > ("perf.block" n) }' perf.txt
  # BPF programs: checked by the kernel's rule replayed from perf script's
  # KSYMBOL records (compare.py --bpf-script): perf 6.1's report credits a
  # freed program's range on its own files (see test_report_perf_files)
  P script -i "$f" --show-bpf-events -F comm,ip,period > bpf.script 2>/dev/null || fail "$label: perf script"
  n=0
  for ev in cpu-clock page-faults; do
    n=$((n + 1))
    grep -q "of event '$ev'" perf.block$n || fail "$label: perf's block $n is not $ev"
    "$BPFPERF" report -i "$f" --no-children --json --event "$ev" > ev.json || fail "$label: --event $ev"
    oracle=""; [ "$ev" = cpu-clock ] && oracle="--bpf-script bpf.script"   # the script's samples are cpu-clock's
    python3 "$SRC/tests/integration/compare.py" perf.block$n ev.json --min 5 $oracle ||
      fail "$label: $ev's entries differ from perf's"
  done
  ok "$label: per-event blocks, counts and top entries as perf's"
}

"$BPFPERF" record -e cpu-clock,page-faults -g -o ours.data -- "$DEMO" 1 >/dev/null 2>rec.err ||
  { cat rec.err; fail "record -e cpu-clock,page-faults"; }
per_event ours.data "our file"
P record -e cpu-clock,page-faults -g -o perf.data -- "$DEMO" 1 >/dev/null 2>&1 || fail "perf record"
per_event perf.data "perf's file"

# Groups: the header says so, perf report --group reads it, members have their own samples.
"$BPFPERF" record -e '{cpu-clock,page-faults}' -o group.data -- "$DEMO" 0.5 >/dev/null 2>rec.err ||
  { cat rec.err; fail "record -e {cpu-clock,page-faults}"; }
P report -i group.data --header-only 2>/dev/null | grep -q '^# group: {cpu-clock,page-faults}' ||
  fail "perf report --header-only shows no group"
P report -i group.data --stdio --group 2>/dev/null | grep -q "of events 'anon group { cpu-clock, page-faults }'" ||
  fail "perf report --group does not show the group"
P report -i group.data --header-only 2>/dev/null | grep "name = page-faults" | grep -q "disabled = 1" &&
  fail "the group member is disabled on its own (it follows its leader)"
"$BPFPERF" report -i group.data --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [e["name"] for e in d["events"]] == ["cpu-clock", "page-faults"], d["events"]
assert all(e["samples"] > 0 for e in d["events"])' || fail "the group's events in our report"
"$BPFPERF" record -e '{cpu-clock,page-faults}:u' -o groupu.data -- "$DEMO" 0.3 >/dev/null 2>rec.err ||
  { cat rec.err; fail "record -e {..}:u"; }
[ "$(P report -i groupu.data --header-only 2>/dev/null | grep -E 'name = (cpu-clock|page-faults)' | grep -c 'exclude_kernel = 1')" = 2 ] ||
  fail "the group modifier :u is not on both members"
ok "event groups"
for bad in '{cpu-clock' '{}' '{cpu-clock,{page-faults}}' 'cpu-clock}' '{cpu-clock}:z' '{cpu-clock}x'; do
  expect_fail "-e '$bad'" "invalid -e" "$BPFPERF" record -e "$bad" -o bad.data -- true
done

# hotspot's parser reads our multi-event file: every sample, no error.
if [ -x /usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser ]; then
  timeout 120 /usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser --input ours.data --output ours.b2qt \
    2>pp.err || { cat pp.err; fail "hotspot-perfparser on our file"; }
  # "feature not properly read": a header section perfparser does not decode
  # (it says the same of perf's own files: CPU_TOPOLOGY, SAMPLE_TIME, ...)
  bad=$(grep -vE 'unhandled event type|FINISHED_ROUND|feature not properly read PerfHeader::' pp.err)
  [ -z "$bad" ] || { echo "$bad"; fail "hotspot-perfparser complained"; }
  "$BPFPERF" report -i ours.data --json > ours.json
  want=$(python3 -c 'import json; print(sum(e["samples"] for e in json.load(open("ours.json"))["events"]))')
  python3 - ours.b2qt "$want" <<'PY' || fail "hotspot-perfparser's stream"
import collections, struct, sys
d = open(sys.argv[1], 'rb').read()
assert d[:12] == b'QPERFSTREAM\0', 'not a perfparser stream'
off, c = 16, collections.Counter()
while off + 4 <= len(d):
    size = struct.unpack_from('<I', d, off)[0]
    c[d[off + 4]] += 1
    off += 4 + size
assert off == len(d), 'truncated stream'
assert b'cpu-clock' in d and b'page-faults' in d, 'an event is missing'
# the most frequent message is the sample; one per sample of the file
kind, n = c.most_common(1)[0]
assert n == int(sys.argv[2]), f'{n} sample messages, our report counts {sys.argv[2]}'
print(f'hotspot-perfparser: {n} samples')
PY
  ok "hotspot-perfparser reads our multi-event file"
else
  echo "SKIP-PART: hotspot-perfparser is missing (apt-get install hotspot; scripts/deps.sh --test does)"
  exit 77
fi
