#!/bin/sh
# bpfperf run with kprobe/, kretprobe/, fentry/ and fexit/ programs
# (examples/probes.bpf.o, each counting do_nanosleep() calls of one command
# name, plus a sys_enter_clock_nanosleep tracepoint as the reference).
# Where the kernel has kprobes / BPF trampolines: exact counts for N sleeps.
# Where it lacks them (the 6.18 CI host has neither): the missing feature is
# named, and --skip-unsupported runs the rest. A kernel with them (Debian 6.1,
# 6.12 under scripts/test-kernels.sh) runs the counting part.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root; need_tracefs; need_examples; need_cmd python3
OBJ="$EX/probes.bpf.o"
[ -f "$OBJ" ] || fail "missing $OBJ (ninja -C $BUILD)"
# a copy of sleep with a name no other task has; each run calls do_nanosleep once
cp "$(command -v sleep)" "$TMP/bpfpslp$$" || fail "cannot copy sleep"
SLP="$TMP/bpfpslp$$"
COMM=$(basename "$SLP" | cut -c1-15)
N=7
cat >"$TMP/w.sh" <<EOF2
i=0
while [ \$i -lt $N ]; do "$SLP" 0.01; i=\$((i + 1)); done
EOF2

has_kprobes() { [ -e /sys/bus/event_source/devices/kprobe/type ] || [ -e /sys/kernel/tracing/kprobe_events ]; }
# fentry needs BPF trampolines: ask bpfperf itself (-v names what it finds missing)
has_fentry() { ! "$BPFPERF" run "$OBJ" --skip-unsupported --set target_comm=none -- true 2>&1 |
  grep -q "skipping program 'nanosleep_fentry'"; }

# counts FILE: the .bss counters of the last JSON dump as "k kr fe fx tp"
counts() {
  python3 - "$1" <<'PY'
import json, sys
maps = {m["name"]: m for m in json.loads(open(sys.argv[1]).read().splitlines()[-1])["maps"]}
v = maps[".bss"]["entries"][0]["value"]
print(v["kprobe_calls"], v["kretprobe_calls"], v["fentry_calls"], v["fexit_calls"], v["tracepoint_calls"])
PY
}

kp=no fe=no
has_kprobes && kp=yes
has_fentry && fe=yes
echo "kernel $(uname -r): kprobes $kp, fentry/fexit $fe"
[ $kp = yes ] && [ $fe = yes ] ||
  echo "note: the counting of the missing kinds runs on kernels that have them: sh scripts/test-kernels.sh (Debian 6.1, 6.12 under QEMU)"

if [ $kp = no ]; then
  expect_fail "kprobe without kprobes" "nanosleep_kprobe.*kprobes are not available" \
    "$BPFPERF" run "$OBJ" --set target_comm="$COMM" -- true
fi
if [ $fe = no ]; then
  expect_fail "fentry without trampolines" "nanosleep_fentry.*BPF tracing programs .*not supported" \
    "$BPFPERF" run "$OBJ" --set target_comm="$COMM" -- true
fi

# every program the kernel supports counts exactly N; the others are skipped and stay 0
"$BPFPERF" -v run "$OBJ" --skip-unsupported --set target_comm="$COMM" --json -- sh "$TMP/w.sh" \
  >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "run failed"; }
set -- $(counts "$TMP/out")
echo "counts for $N sleeps: kprobe $1 kretprobe $2 fentry $3 fexit $4 tracepoint $5"
[ "$5" = $N ] || fail "tracepoint counted $5 clock_nanosleep calls, expected $N"
# -v names the mechanism of each program attached
grep -q "program 'nanosleep_tracepoint' .* runs as a tracepoint program" "$TMP/err" || { cat "$TMP/err"; fail "-v does not name the tracepoint's mechanism"; }
if [ $kp = yes ]; then
  [ "$1" = $N ] && [ "$2" = $N ] || fail "kprobe/kretprobe counted $1/$2 do_nanosleep calls, expected $N"
  grep -q "skipping program 'nanosleep_kprobe'" "$TMP/err" && fail "kprobe skipped on a kernel with kprobes"
  grep -q "program 'nanosleep_kretprobe' .* runs as a kprobe program" "$TMP/err" || { cat "$TMP/err"; fail "-v does not name the kretprobe's mechanism"; }
  ok "kprobe and kretprobe: $N calls each"
else
  [ "$1" = 0 ] && [ "$2" = 0 ] || fail "skipped kprobes counted"
  grep -q "skipping program 'nanosleep_kprobe'.*kprobes are not available" "$TMP/err" || fail "no skip warning for the kprobe"
  ok "kprobes missing: named, skipped with --skip-unsupported"
fi
if [ $fe = yes ]; then
  [ "$3" = $N ] && [ "$4" = $N ] || fail "fentry/fexit counted $3/$4 do_nanosleep calls, expected $N"
  grep -q "program 'nanosleep_fexit' .* runs as a tracing program, attach type trace_fexit" "$TMP/err" || { cat "$TMP/err"; fail "-v does not name fexit's mechanism"; }
  ok "fentry and fexit: $N calls each"
else
  [ "$3" = 0 ] && [ "$4" = 0 ] || fail "skipped fentry/fexit counted"
  grep -q "skipping program 'nanosleep_fexit'.*BPF tracing programs" "$TMP/err" || fail "no skip warning for fexit"
  ok "fentry/fexit missing: named, skipped with --skip-unsupported"
fi
# REQUIRE_PROBES=1: the kernel is expected to have both (a guest run)
if [ -n "${REQUIRE_PROBES:-}" ] && { [ $kp = no ] || [ $fe = no ]; }; then
  fail "REQUIRE_PROBES is set but kprobes ($kp) or fentry ($fe) are missing"
fi
exit 0
