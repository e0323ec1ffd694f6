#!/bin/sh
# bpfperf latency on kernel functions: getppid's implementation, called a
# known number of times by a workload (tests/helpers/uprobe_target getppid
# N), through fentry/fexit and through the kprobe fallback (forced with
# BPFPERF_FORCE_KPROBE=1, test only), alone and as part of a glob (one BPF
# object per function, sharing the histograms). On a kernel with neither
# mechanism (the 6.18 host) the message naming the kernel options, exit 1,
# instead of a skip. Runs in the Debian 6.1 / 6.12 guests (GUEST_TESTS).
. "$(dirname "$0")/lib.sh"
need_root; need_cmd python3
UT="$BUILD/tests/helpers/uprobe_target"
[ -x "$UT" ] || fail "missing $UT (ninja -C $BUILD)"
cd "$TMP" || exit 1
N=300

case $(uname -m) in
  x86_64) KF=__x64_sys_getppid PFX=__x64_sys_getp ;;
  aarch64) KF=__arm64_sys_getppid PFX=__arm64_sys_getp ;;
  *) skip "no getppid entry point known for $(uname -m)" ;;
esac
has_kprobes() { [ -e /sys/bus/event_source/devices/kprobe/type ] || [ -e /sys/kernel/tracing/kprobe_events ]; }
# js EXPR: over the JSON of out (d: the object; fn(name): that function's)
js() {
  python3 - "$1" <<'PY'
import json, sys
d = json.loads(open("out").read())
def fn(name):
    return [f for f in d["functions"] if f["name"] == name][0]
print(eval(sys.argv[1]))
PY
}
NEITHER="cannot attach to kernel function '$KF': this kernel has neither BPF trampolines for fentry/fexit \(.*\) nor kprobes \(CONFIG_KPROBES and CONFIG_KPROBE_EVENTS are off.*CONFIG_KPROBES=y.*CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y and CONFIG_DEBUG_INFO_BTF=y"

# case NAME MECH SPEC [ENV...]: N getppid calls by the workload, counted exactly
kcase() {
  name=$1 mech=$2 spec=$3; shift 3
  env "$@" "$BPFPERF" -v latency --json -T "$spec" -- "$UT" getppid $N >out 2>err ||
    { cat err; fail "$name: bpfperf latency failed"; }
  [ "$(js "fn('$KF')['stats']['count'], fn('$KF')['mechanism'], sum(x['count'] for x in fn('$KF')['buckets'])")" = "($N, '$mech', $N)" ] ||
    { cat out err; fail "$name: expected $N calls of $KF through $mech"; }
  grep -q "$KF: $mech" err || { cat err; fail "$name: -v does not name $mech"; }
  ok "$name: $N calls of $KF through $mech"
}

# the kernel's mechanisms, as the attach helper's trial finds them
if "$BPFPERF" latency -T "$KF" --duration 0.1 >/dev/null 2>err; then mech=yes; else mech=no; fi
kp=no; has_kprobes && kp=yes
echo "kernel $(uname -r): kprobes $kp, a kernel-function mechanism: $mech"
if [ $mech = no ] && [ "${REQUIRE_PROBES:-0}" != 1 ]; then
  # the host: neither fentry nor kprobes. The message and exit 1 (the
  # request is valid; the kernel lacks what it needs)
  for spec in "$KF" "${PFX}pid"; do
    "$BPFPERF" latency -T "$spec" -- "$UT" getppid 1 >out 2>err
    st=$?
    [ $st = 1 ] || { cat err; fail "$spec on a kernel without fentry and kprobes: exit $st, expected 1"; }
    grep -qE "cannot attach to kernel function '$spec': this kernel has neither BPF trampolines" err ||
      { cat err; fail "$spec: the message does not name what is missing"; }
  done
  grep -qE "$(echo "$NEITHER" | sed "s/$KF/${PFX}pid/")" err || { cat err; fail "the message lacks the kernel options"; }
  "$BPFPERF" latency -T "${PFX}*" --duration 0.1 >out 2>err
  st=$?
  [ $st = 1 ] && grep -q "this kernel has neither BPF trampolines" err || { cat err; fail "a glob: exit $st, expected 1 and the message"; }
  ok "no fentry, no kprobes: exit 1 and the message naming the kernel options (a function and a glob)"
  # a glob past the cap: the first 64 by name, and a warning saying so
  "$BPFPERF" latency -T '*sys_*' --duration 0.1 >out 2>err
  st=$?
  [ $st = 1 ] && grep -qE "warning: '\*sys_\*' matches [0-9]+ kernel functions: measuring the first 64 by name" err ||
    { cat err; fail "a glob past the cap: exit $st, expected 1 after the warning"; }
  ok "a glob past the cap: the warning ($(grep -oE 'matches [0-9]+' err))"
  # every text symbol (100k and more) matched and sorted in well under 10 s
  # (an insertion sort took minutes)
  timeout 10 "$BPFPERF" latency -T '*' --duration 0.1 >out 2>err
  st=$?
  [ $st = 1 ] && grep -qE "warning: '\*' matches [0-9]+ kernel functions: measuring the first 64 by name" err ||
    { cat err; fail "-T '*': exit $st, expected 1 after the warning, within 10 s"; }
  ok "-T '*': every kernel function matched, the first 64 kept ($(grep -oE 'matches [0-9]+' err))"
else
  kcase "fentry" fentry "$KF"
  kcase "kprobe (forced)" kprobe "$KF" BPFPERF_FORCE_KPROBE=1
  # a glob: one object per function, every function its block
  for m in fentry kprobe; do
    f=0; [ $m = kprobe ] && f=1
    BPFPERF_FORCE_KPROBE=$f "$BPFPERF" -v latency --json -T "${PFX}*" -- "$UT" getppid $N >out 2>err ||
      { cat err; fail "glob ${PFX}* ($m): bpfperf latency failed"; }
    [ "$(js "len(d['functions']) >= 2, all(f['name'].startswith('$PFX') for f in d['functions']), fn('$KF')['stats']['count'], all(f['mechanism'] == '$m' for f in d['functions'])")" = "(True, True, $N, True)" ] ||
      { cat out err; fail "glob ${PFX}* ($m): expected several functions, $N calls of $KF"; }
    ok "glob ${PFX}* ($m): $(js "len(d['functions'])") functions, $N calls of $KF"
  done
fi
# a name that is no kernel function is a usage error everywhere
"$BPFPERF" latency -T bpfperf_no_such_fn -- "$UT" getppid 1 >out 2>err
st=$?
[ $st = 2 ] && grep -q "unknown function 'bpfperf_no_such_fn'" err || { cat err; fail "unknown function: exit $st"; }
ok "unknown kernel function: exit 2"
