#!/bin/sh
# Run the integration tests (tests/integration) on other kernels, each booted
# under QEMU by run-on-kernel.sh (see its README.md), against the existing
# build/ (built here once if missing). One boot per kernel, one at a time.
#
#   sh scripts/test-kernels.sh [VERSION...]     default: 6.1 6.12 (newest of each)
#
# Environment: KERNELS_DIR (where run-on-kernel.sh and integration-tests.sh
# live; default ../shared/kernels, then /work/shared/kernels), TESTS (names of
# the tests to run, default all), TEST_TIMEOUT (per test, default 600 s:
# QEMU emulates the CPU, 10-50x slower), GUEST_TIMEOUT (per kernel, default
# 7200 s: the whole suite takes about an hour on one emulated CPU), GUEST_CPUS (the guests' CPUs, default 1: see below), OUT (keep
# each kernel's logs in $OUT/<version>/).
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

summary="" bad=0
for v in "$@"; do
  out=${OUT:+$OUT/$v}
  [ -n "$out" ] && mkdir -p "$out"
  log=$(mktemp)
  echo "=== kernel $v"
  start=$(date +%s)
  # the guest runs integration-tests.sh from this checkout; its last line is
  # "tests: N passed, N failed, N skipped"
  # BPFPERF_DISPOSABLE: the guest is thrown away, tests may change sysctls;
  # REQUIRE_PROBES: Debian's kernels have kprobes and fentry, test_run_probes
  # must count them there
  env ${out:+OUT=$out} TEST_TIMEOUT="${TEST_TIMEOUT:-600}" ${TESTS:+TESTS="$TESTS"} \
    "$kdir/run-on-kernel.sh" --timeout "${GUEST_TIMEOUT:-7200}" --cpus "${GUEST_CPUS:-1}" --env TEST_TIMEOUT --env BPFPERF_DISPOSABLE=1 --env REQUIRE_PROBES=1 \
    ${TESTS:+--env TESTS} "$v" -- sh "$kdir/integration-tests.sh" 2>&1 | tee "$log"
  secs=$(( $(date +%s) - start ))
  line=$(grep '^tests: [0-9]* passed, [0-9]* failed, [0-9]* skipped$' "$log" | tail -n 1)
  rm -f "$log"
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
