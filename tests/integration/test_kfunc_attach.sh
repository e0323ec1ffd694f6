#!/bin/sh
# The function attach helpers through their test driver (tests/helpers/
# func_count): a kernel function with fentry/fexit, with the kprobe fallback
# forced (BPFPERF_FORCE_KPROBE=1, test only), and, on a kernel with neither
# (the 6.18 host), the message that names what is missing; a user function
# as BINARY:FUNC and PID:FUNC (uprobes), with exact call counts.
# Runs on the host and in the Debian 6.1 / 6.12 guests (GUEST_TESTS).
. "$(dirname "$0")/lib.sh"
need_root; need_cmd python3
FC="$BUILD/tests/helpers/func_count"
UT="$BUILD/tests/helpers/uprobe_target"
[ -x "$FC" ] && [ -x "$UT" ] || fail "missing $FC or $UT (ninja -C $BUILD)"
track_pids
N=500

has_kprobes() { [ -e /sys/bus/event_source/devices/kprobe/type ] || [ -e /sys/kernel/tracing/kprobe_events ]; }
# field KEY FILE: the value of "KEY: value"
field() { sed -n "s/^$1: //p" "$2"; }

# ---- kernel function: getppid's implementation, N calls by the workload ----
case $(uname -m) in
  x86_64) KF=__x64_sys_getppid ;;
  aarch64) KF=__arm64_sys_getppid ;;
  *) KF=__do_sys_getppid ;;
esac
NEITHER="cannot attach to kernel function '$KF': this kernel has neither BPF trampolines for fentry/fexit \(.*\) nor kprobes \(CONFIG_KPROBES and CONFIG_KPROBE_EVENTS are off.*CONFIG_KPROBES=y.*CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y and CONFIG_DEBUG_INFO_BTF=y"

# kernel_case NAME EXPECTED_MECH [ENV...]: attach, N getppid calls, check
kernel_case() {
  name=$1 mech=$2; shift 2
  env "$@" "$FC" -v kernel "$KF" -- "$UT" getppid $N >"$TMP/out" 2>"$TMP/err" ||
    { cat "$TMP/err"; fail "$name: func_count failed"; }
  got=$(field mechanism "$TMP/out") calls=$(field calls "$TMP/out") ns=$(field total_ns "$TMP/out")
  [ "$got" = "$mech" ] || { cat "$TMP/out" "$TMP/err"; fail "$name: mechanism '$got', expected $mech"; }
  [ "$calls" -ge $N ] || { cat "$TMP/out"; fail "$name: $calls calls counted, expected >= $N"; }
  [ "$ns" -gt 0 ] || fail "$name: no time summed"
  grep -q "kernel function $KF: $mech" "$TMP/err" || { cat "$TMP/err"; fail "$name: -v does not name $mech"; }
  ok "$name: $mech, $calls calls (>= $N), $ns ns"
}

kp=no
has_kprobes && kp=yes
# Debian's kernels (the guests: REQUIRE_PROBES=1) have both mechanisms
if [ "${REQUIRE_PROBES:-0}" = 1 ] || "$FC" kernel "$KF" >/dev/null 2>&1; then fe=yes; else fe=no; fi
echo "kernel $(uname -r): kprobes $kp, fentry $fe (by the trial of func_count)"

if [ $fe = yes ]; then
  kernel_case "fentry" fentry
  grep -q "fentry/fexit (BPF trampolines)" "$TMP/err" || fail "-v does not say BPF trampolines"
else
  # the trial's reason in the message, and what to do
  expect_fail "no fentry, no kprobes: the message" "$NEITHER" "$FC" kernel "$KF" -- "$UT" getppid 1
  [ $kp = no ] || fail "the kernel has kprobes, yet func_count found neither mechanism"
fi
if [ $kp = yes ]; then
  kernel_case "kprobe (forced by BPFPERF_FORCE_KPROBE=1)" kprobe BPFPERF_FORCE_KPROBE=1
  grep -q "not tried: the kprobe fallback is forced" "$TMP/err" || fail "-v does not say why not fentry"
else
  expect_fail "forced kprobe without kprobes: the message" \
    "$NEITHER.*|not tried: the kprobe fallback is forced" \
    env BPFPERF_FORCE_KPROBE=1 "$FC" kernel "$KF"
  grep -q "not tried: the kprobe fallback is forced" "$TMP/err" || fail "the forced fallback is not named"
fi
expect_fail "no such kernel function" "kernel function 'bpfperf_no_such_fn': it is neither in the kernel's BTF nor a text symbol of /proc/kallsyms" \
  "$FC" kernel bpfperf_no_such_fn

# ---- user function: BINARY:FUNC, exact count ----
"$FC" -v user "$UT:ut_target_fn" -- "$UT" calls $N >"$TMP/out" 2>"$TMP/err" ||
  { cat "$TMP/err"; fail "BINARY:FUNC: func_count failed"; }
off=$(field offset "$TMP/out") calls=$(field calls "$TMP/out")
[ "$(field mechanism "$TMP/out")" = uprobe ] || fail "BINARY:FUNC: mechanism is not uprobe"
[ "$calls" = $N ] || { cat "$TMP/out"; fail "BINARY:FUNC: $calls calls, expected $N"; }
# the offset against readelf: the symbol's value through its PT_LOAD segment
if command -v readelf >/dev/null; then
  exp=$(python3 - "$UT" <<'PY'
import re, subprocess, sys
f = sys.argv[1]
sym = [l.split() for l in subprocess.run(["readelf", "-sW", f], capture_output=True, text=True).stdout.splitlines()]
v = [int(s[1], 16) for s in sym if len(s) >= 8 and s[7] == "ut_target_fn" and s[3] == "FUNC"][0]
for l in subprocess.run(["readelf", "-lW", f], capture_output=True, text=True).stdout.splitlines():
    s = l.split()
    if s and s[0] == "LOAD":
        off, va, fsz = int(s[1], 16), int(s[2], 16), int(s[4], 16)
        if va <= v < va + fsz:
            print(hex(v - va + off))
PY
)
  [ "$off" = "$exp" ] || fail "BINARY:FUNC: offset $off, readelf gives $exp"
fi
ok "BINARY:FUNC: uprobe at $off (as readelf), $calls calls"

# ---- PID:FUNC: a running process, waiting on a FIFO until attached ----
mkfifo "$TMP/go"
"$UT" calls $N "$TMP/go" >/dev/null &
pid=$!
echo $pid >>"$TMP/pids"
"$FC" --wait-pid $pid user "$pid:ut_target_fn" -- sh -c "echo go > '$TMP/go'" >"$TMP/out" 2>"$TMP/err" ||
  { cat "$TMP/err"; fail "PID:FUNC: func_count failed"; }
calls=$(field calls "$TMP/out")
[ "$calls" = $N ] || { cat "$TMP/out"; fail "PID:FUNC: $calls calls, expected $N"; }
[ "$(field offset "$TMP/out")" = "$off" ] || fail "PID:FUNC: another offset than BINARY:FUNC"
ok "PID:FUNC: $calls calls"

# ---- user function errors name the binary ----
expect_fail "not a function" "'ut_data_object' in .*uprobe_target is a data object, not a function" \
  "$FC" user "$UT:ut_data_object"
expect_fail "ambiguous" "'ut_dup' names 2 functions in .*uprobe_target" "$FC" user "$UT:ut_dup"
expect_fail "not found" "no function 'nope' in .*uprobe_target" "$FC" user "$UT:nope"
expect_fail "imported" "function 'puts' is not defined in .*uprobe_target: it is imported" "$FC" user "$UT:puts"
expect_fail "no such process" "cannot find the program of process 999999999" "$FC" user "999999999:main"
