#!/bin/sh
# record -C CPUS -- CMD means what it means in perf: every task on those
# CPUs while CMD runs (not CMD alone, not the other CPUs). On one CPU (the
# QEMU guests of scripts/test-kernels.sh) the other tasks of CPU 0 are
# checked; that no other CPU's are there is checked where there are two.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd taskset util-linux
need_cmd python3
two=1; [ "$(nproc)" -ge 2 ] || two=0
cd "$TMP"
# a spinner on CPU 1 (with two CPUs) and one on CPU 0, other than the command
# exec: $! is the spinner itself (taskset execs python), so kill stops it
spin() { exec taskset -c "$1" python3 -c 'import ctypes, sys
ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)
while True: pass' "$2"; }
s1=""
[ $two = 1 ] && { (spin 1 spin1) & s1=$!; }
(spin 0 spin0) & s0=$!
trap 'kill $s0 $s1 2>/dev/null; rm -rf "$TMP"' EXIT
# spinning once they have their names (the interpreter may take long to
# start on a loaded machine)
i=0
until [ "$(cat /proc/$s0/comm 2>/dev/null)" = spin0 ] &&
      { [ $two = 0 ] || [ "$(cat /proc/$s1/comm 2>/dev/null)" = spin1 ]; }; do
  i=$((i + 1)); [ $i -gt 300 ] && fail "the spinners did not start within 30 s"; sleep 0.1
done
"$BPFPERF" record -C 0 -o c0.data -- sleep 1 >/dev/null 2>rec.err || { cat rec.err; fail "record -C 0 -- sleep 1"; }
perf --buildid-dir "$TMP/bid" record -C 0 -o perf.data -- sleep 1 >/dev/null 2>&1 || fail "perf record -C 0"
kill $s0 $s1 2>/dev/null
for f in c0.data perf.data; do
  "$BPFPERF" report -i $f --sort cpu --json > cpu.json || fail "report --sort cpu of $f"
  python3 - cpu.json "$f" <<'PY' || fail "record -C 0 -- CMD ($f)"
import json, sys
d = json.load(open(sys.argv[1]))
cpus = {e['cpu'] for e in d['entries']}
assert cpus == {0}, f"{sys.argv[2]}: samples on CPUs {cpus}, want only 0"
assert d['total_samples'] > 1000, f"{sys.argv[2]}: only {d['total_samples']} samples in 1 s at 4000 Hz"
PY
  "$BPFPERF" report -i $f --sort comm --json > comm.json
  python3 - comm.json "$f" $two <<'PY' || fail "record -C 0 -- CMD: the spinner on CPU 0 is missing ($f)"
import json, sys
d = json.load(open(sys.argv[1]))
comms = {e['comm']: e['self'] for e in d['entries']}
# CPU-wide: the spinner on CPU 0 (not the command) is there, the one on CPU 1 is not
assert comms.get('spin0', 0) > 10, f"{sys.argv[2]}: spin0 has {comms.get('spin0', 0)}%: {comms}"
assert sys.argv[3] == '0' or 'spin1' not in comms, f"{sys.argv[2]}: spin1 (CPU 1) is in the profile"
PY
done
if [ $two = 1 ]; then
  ok "record -C 0 -- CMD is CPU-wide on CPU 0 while CMD runs, as perf's"
else
  ok "record -C 0 -- CMD is CPU-wide on CPU 0 while CMD runs, as perf's (one CPU here: that CPU 1 is left out is checked on the host)"
fi
