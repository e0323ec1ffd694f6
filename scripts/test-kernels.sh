#!/bin/sh
# Run the integration tests (tests/integration) on other kernels, each booted
# under QEMU by run-on-kernel.sh (see its README.md), against the existing
# build/ (built here once if missing). One boot per kernel, as many at once
# as the host has CPUs (JOBS).
#
#   sh scripts/test-kernels.sh [VERSION...]     default: 6.1 6.12 (newest of each)
#
# Environment: KERNELS_DIR (where run-on-kernel.sh and integration-tests.sh
# live; default ../shared/kernels, then /work/shared/kernels), JOBS (kernels
# booted at once, default the host's CPUs), TESTS (names of
# the tests to run, default all), TEST_TIMEOUT (per test, default 600 s:
# QEMU emulates the CPU, 10-50x slower), GUEST_TIMEOUT (per kernel, default
# 7200 s: the whole suite takes about an hour on one emulated CPU), GUEST_CPUS (the guests' CPUs, default 1: see below), OUT (keep
# each kernel's logs in $OUT/<version>/, and a failed test's files in
# $OUT/<version>/failed/<test>/).
#
# One CPU: with two, the guests broke under QEMU's multi-threaded TCG (the
# harness's; no KVM here). 6.12 died twice with "Oops: int3" at
# __schedule+0x407, inside a static key's 5-byte NOP: a CPU ran the int3 of
# a text_poke after the patch was done, i.e. a stale translation of code
# another CPU had changed. 6.1 locked up on both CPUs (soft lockups of 775 s
# and more in perf and bpfperf-demo, both loading BPF programs). With one
# CPU no code changes under a running CPU; the checks that need two (that
# record -C 0 leaves CPU 1 out, the 'cpu == 0' filter cases) run on the host.
# Prints one "kernel V: N passed, N failed, N skipped" line per kernel and
# exits 0 only if every kernel ran and none failed; 2 if it cannot run at all
# (no harness, no QEMU), before any kernel line.
set -u
cd "$(dirname "$0")/.."
src=$(pwd -P)
kdir=${KERNELS_DIR:-}
if [ -z "$kdir" ]; then
  for d in "$src/../shared/kernels" /work/shared/kernels; do
    [ -x "$d/run-on-kernel.sh" ] && { kdir=$d; break; }
  done
fi
[ -n "$kdir" ] && [ -x "$kdir/run-on-kernel.sh" ] && [ -f "$kdir/integration-tests.sh" ] || {
  echo "test-kernels.sh: run-on-kernel.sh and integration-tests.sh not found; set KERNELS_DIR" >&2
  exit 2
}
if ! command -v qemu-system-x86_64 >/dev/null; then
  # as root (CI), install QEMU the harness's way; otherwise say how
  [ "$(id -u)" = 0 ] && { echo "=== installing QEMU: $kdir/run-on-kernel.sh setup"; "$kdir/run-on-kernel.sh" setup >/dev/null 2>&1; }
  command -v qemu-system-x86_64 >/dev/null || {
    echo "test-kernels.sh: qemu-system-x86_64 is missing; run '$kdir/run-on-kernel.sh setup' as root" >&2
    exit 2
  }
fi
if [ ! -x build/bpfperf ]; then
  echo "=== build/ is missing: building once"
  sh scripts/build.sh || { echo "test-kernels.sh: build failed" >&2; exit 1; }
fi
[ $# -gt 0 ] || set -- 6.1 6.12

# JOBS: how many kernels boot at once (default: the host's CPUs, each guest
# emulating one CPU on one host CPU); with more than one, each kernel's
# output is held and printed whole when it ends, so its lines stay together
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
trap 'exit 130' INT TERM

# run_kernel V: one boot, its output in $tmpd/V.log, its seconds in $tmpd/V.secs
run_kernel() {
  v=$1
  out=${OUT:+$OUT/$v}
  [ -n "$out" ] && mkdir -p "$out"
  start=$(date +%s)
  # the guest runs integration-tests.sh from this checkout; its last line is
  # "tests: N passed, N failed, N skipped"
  # BPFPERF_DISPOSABLE: the guest is thrown away, tests may change sysctls;
  # REQUIRE_PROBES: Debian's kernels have kprobes and fentry, test_run_probes
  # must count them there
  { echo "=== kernel $v"
    env ${out:+OUT=$out} TEST_TIMEOUT="${TEST_TIMEOUT:-600}" ${TESTS:+TESTS="$TESTS"} \
      "$kdir/run-on-kernel.sh" --timeout "${GUEST_TIMEOUT:-7200}" --cpus "${GUEST_CPUS:-1}" --env TEST_TIMEOUT --env BPFPERF_DISPOSABLE=1 --env REQUIRE_PROBES=1 \
      ${TESTS:+--env TESTS} ${out:+--env BPFPERF_KEEP_FAILED=$out/failed} "$v" -- sh "$kdir/integration-tests.sh" 2>&1
  } >> "$tmpd/$v.log"
  echo $(( $(date +%s) - start )) > "$tmpd/$v.secs"
}

if [ "$jobs" -le 1 ] || [ $# -le 1 ]; then
  for v in "$@"; do
    : > "$tmpd/$v.log"
    run_kernel "$v" &
    pid=$!
    # stream this kernel's lines as they come
    tail -n +1 --pid=$pid -f "$tmpd/$v.log" 2>/dev/null || { wait $pid; cat "$tmpd/$v.log"; }
    wait $pid
  done
else
  echo "=== kernels $*: $jobs at a time, each kernel's output when it ends"
  running=0
  for v in "$@"; do
    if [ "$running" -ge "$jobs" ]; then wait -n 2>/dev/null || wait; running=$((running - 1)); fi
    : > "$tmpd/$v.log"
    run_kernel "$v" &
    running=$((running + 1))
  done
  wait
  for v in "$@"; do cat "$tmpd/$v.log"; done
fi

summary="" bad=0
for v in "$@"; do
  secs=$(cat "$tmpd/$v.secs" 2>/dev/null || echo '?')
  line=$(grep '^tests: [0-9]* passed, [0-9]* failed, [0-9]* skipped$' "$tmpd/$v.log" 2>/dev/null | tail -n 1)
  if [ -n "$line" ]; then
    counts=${line#tests: }
    case $counts in *" 0 failed,"*) ;; *) bad=1 ;; esac
  else
    counts="did not complete (boot failure or timeout; see above)"
    bad=1
  fi
  summary="$summary
kernel $v: $counts (${secs}s)"
done
echo "=== summary$summary"
exit $bad
