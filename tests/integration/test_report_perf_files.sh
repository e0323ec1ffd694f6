#!/bin/sh
# bpfperf report reads files written by Linux perf record (with and without
# -g) and names the same top functions with the same overhead.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
cd "$TMP"
for g in "" "-g"; do
  perf --buildid-dir "$TMP/bid" record $g -o perf$g.data -- "$DEMO" 1.5 >/dev/null 2>&1 || fail "perf record $g"
  perf --buildid-dir "$TMP/bid" report -i perf$g.data --stdio --no-children > perf$g.txt 2>/dev/null || fail "perf report"
  "$BPFPERF" report -i perf$g.data --no-children --json > ours$g.json || fail "bpfperf report on perf's file ($g)"
  # BPF programs: checked against perf's KSYMBOL records replayed by the kernel's rules (compare.py)
  perf --buildid-dir "$TMP/bid" script -i perf$g.data --show-bpf-events -F comm,ip,period > script$g.txt 2>/dev/null || fail "perf script"
  python3 "$SRC/tests/integration/compare.py" perf$g.txt ours$g.json --bpf-script script$g.txt ||
    fail "disagree on perf's file ($g)"
  grep -q '_demo_bpf_mix' ours$g.json || fail "the demo's BPF program is missing from the report ($g)"
  "$BPFPERF" report -i perf$g.data > ours$g.txt || fail "text report"
  grep -q "demo_hot_user_function" ours$g.txt || fail "text report lacks the hot function"
done
# Pipe-mode files (perf record -o -).
perf --buildid-dir "$TMP/bid" record -o - -- "$DEMO" 0.6 2>/dev/null > pipe.data
"$BPFPERF" report -i pipe.data --json > pipe.json || fail "pipe-mode file"
grep -q demo_hot_user_function pipe.json || fail "pipe-mode report lacks the hot function"
ok "perf files read"
