#!/bin/sh
# Quick start, second command: install what is missing, build (normal and
# ASan+UBSan) and run every test: unit tests and fuzz corpus replays (meson),
# then the integration tests on the real kernel, for both builds.
# Ends with one line "tests: N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
sh scripts/deps.sh --test || exit 1
sh scripts/build.sh --asan || { echo "build failed" >&2; exit 1; }
pass=0 fail=0 skip=0
failed_names=""
recap=""

count_meson() {   # $1 = build dir
  log="$1/meson-logs/testlog.json"
  [ -f "$log" ] || return
  eval "$(python3 - "$log" <<'PY'
import json, sys
p = f = s = 0
names = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    res = r.get("result")
    if res in ("OK", "EXPECTEDFAIL"):
        p += 1
    elif res == "SKIP":
        s += 1
    else:
        f += 1
        names.append(r.get("name", "?"))
print(f"mp={p} mf={f} ms={s} mnames='{' '.join(names)}'")
PY
)"
  pass=$((pass + mp)); fail=$((fail + mf)); skip=$((skip + ms))
  [ -n "$mnames" ] && failed_names="$failed_names $mnames($1)"
}

for b in build build-asan; do
  echo "=== unit tests ($b)"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    meson test -C "$b" --suite unit --print-errorlogs --num-processes 2 | grep -E '^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:'
  count_meson "$b"
done

# A short fuzz pass of every fuzz target (libFuzzer, ASan, UBSan; FUZZ_SECS
# each, default 20, two at once): a library upgrade that brings a crash back
# on some input fails here. FUZZ_SECS=0 leaves it out (said, counted as skipped).
fuzz_secs=${FUZZ_SECS:-20}
if [ "$fuzz_secs" = 0 ]; then
  echo "SKIP  fuzz pass: FUZZ_SECS=0"; skip=$((skip + 1))
else
  echo "=== fuzz pass (${fuzz_secs} s per target)"
  flog=$(mktemp)
  sh scripts/fuzz-all.sh "$fuzz_secs" > "$flog" 2>&1
  cat "$flog"
  n=$(grep -c '^PASS  fuzz_' "$flog"); pass=$((pass + n))
  n=$(grep -c '^FAIL  fuzz_' "$flog"); fail=$((fail + n))
  if [ "$n" -gt 0 ]; then
    failed_names="$failed_names $(grep '^FAIL  fuzz_' "$flog" | awk '{ printf "%s(fuzz) ", $2 }')"
    recap="$recap$(grep '^FAIL  fuzz_' "$flog" | cut -c1-240 | sed 's/^/\n  /')"
  elif ! grep -q '^PASS  fuzz_' "$flog"; then
    fail=$((fail + 1)); failed_names="$failed_names fuzz-pass(did-not-run)"
  fi
  rm -f "$flog"
fi

for b in build build-asan; do
  echo "=== integration tests ($b)"
  for t in tests/integration/test_*.sh; do
    [ -f "$t" ] || continue
    name=$(basename "$t" .sh)
    start=$(date +%s)
    BPFPERF="$PWD/$b/bpfperf" BUILD="$PWD/$b" SRC="$PWD" \
      ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      timeout 600 sh "$t" > "/tmp/bpfperf-$name-$$.log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    if [ $rc -eq 0 ]; then
      pass=$((pass + 1)); echo "PASS  $name (${secs}s)"
    elif [ $rc -eq 77 ]; then
      skip=$((skip + 1)); echo "SKIP  $name: $(grep -m1 '^SKIP' "/tmp/bpfperf-$name-$$.log" || echo 'no reason given')"
    else
      fail=$((fail + 1)); failed_names="$failed_names $name($b)"
      echo "FAIL  $name (exit $rc, ${secs}s); its output:"; sed 's/^/    /' "/tmp/bpfperf-$name-$$.log" | tail -40
      # one line per failure again at the end, where a truncated log still shows it
      recap="$recap
  $name($b): $(grep -E '^(FAIL|ERROR)|error:|AddressSanitizer|runtime error' "/tmp/bpfperf-$name-$$.log" | tail -1 | cut -c1-240)"
    fi
    rm -f "/tmp/bpfperf-$name-$$.log"
  done
done

# Then integration tests again on the kernels users run (Debian's, under
# QEMU), with build/, counted with the rest. KERNELS picks them: default
# "6.1 6.12", booted side by side (one emulated CPU each; "6.1" one, "none"
# none); needs ../shared/kernels (run-on-kernel.sh).
# GUEST_TESTS picks the tests: by default those of the paths that differ by
# kernel (kprobe/fentry programs, kernel enums and CO-RE relocations from the
# running kernel's BTF, BPF program attribution, designs chosen by what the
# kernel has: kfuncs, tp_btf, task storage; the kernel's module maps),
# about 15 minutes under emulation; "all" runs every integration test
# (about an hour a kernel: the whole suite on both kernels does not fit CI's
# 90 minutes beside the host's).
kernels=${KERNELS-"6.1 6.12"}
[ "$kernels" = none ] && kernels=""
GUEST_TESTS=${GUEST_TESTS:-"test_run_probes test_run_dropmon test_run_tracex2 test_run_corebtf
  test_run_exit test_report_perf_files test_record_demo test_record_bpf_filter test_record_filter
  test_record_off_cpu test_record_headers test_lock_names test_lock_contention test_stat_bpf_exact test_trace_summary
  test_kfunc_attach test_latency_kfunc test_kwork_designs"}
GUEST_TESTS=$(echo $GUEST_TESTS)	# one line
[ "$GUEST_TESTS" = all ] && GUEST_TESTS=""
if [ -z "$kernels" ]; then
  echo "note: other kernels not run (KERNELS=none); sh scripts/test-kernels.sh runs them"
else
  echo "=== integration tests (build) on other kernels: $kernels (${GUEST_TESTS:+the kernel-dependent }tests: ${GUEST_TESTS:-all})"
  klog=$(mktemp)
  # shellcheck disable=SC2086
  # each kernel's lines when it ends (both boot at once)
  if [ -n "$GUEST_TESTS" ]; then TESTS=$GUEST_TESTS; export TESTS; else unset TESTS; fi
  # the kernel-dependent tests take 13-17 minutes a kernel, both kernels at
  # once: a guest that hangs is stopped after 40, which keeps CI within its
  # 90 (the whole suite: about 45 minutes a kernel, two at once)
  if [ -n "$GUEST_TESTS" ]; then GUEST_TIMEOUT=${GUEST_TIMEOUT:-2400}; export GUEST_TIMEOUT; fi
  { sh scripts/test-kernels.sh $kernels 2>&1; echo "test-kernels.sh exit $?"; } | tee "$klog" |
    grep --line-buffered -E '^(=== kernel|PASS|FAIL|SKIP)|^kernel [^ ]*,|^    '
  if grep -q '^test-kernels.sh exit 2$' "$klog" && ! grep -q '^kernel ' "$klog"; then
    # no harness (../shared/kernels) or no QEMU: said loudly, counted as skipped
    echo "SKIP  other kernels: $(grep '^test-kernels.sh: ' "$klog" | tail -n 1)"; skip=$((skip + 1))
  else
    # the guests' failures in the recap too, as name(kernel V): last FAIL line
    recap="$recap$(awk '/^=== kernel / { k = $3 } /^FAIL  / { n = $2; w = "" }
      n != "" && /^    (FAIL|ERROR)/ { w = $0; sub(/^    /, "", w) }
      n != "" && !/^    / && !/^FAIL  / { printf "\n  %s(kernel %s): %s", n, k, substr(w, 1, 240); n = "" }
      END { if (n != "") printf "\n  %s(kernel %s): %s", n, k, substr(w, 1, 240) }' "$klog")"
    for v in $kernels; do
      line=$(grep "^kernel $v: " "$klog" | tail -n 1)
      case $line in
        *" passed, "*" failed, "*" skipped"*)
          set -- $(echo "$line" | sed 's/.*: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped.*/\1 \2 \3/')
          pass=$((pass + $1)); fail=$((fail + $2)); skip=$((skip + $3))
          [ "$2" -gt 0 ] && failed_names="$failed_names kernel-$v($2)" ;;
        *)
          fail=$((fail + 1)); failed_names="$failed_names kernel-$v(did-not-complete)" ;;
      esac
      echo "$line"
    done
  fi
  rm -f "$klog"
fi

[ -n "$recap" ] && echo "why the integration tests failed (last failure line of each):$recap"
[ -n "$failed_names" ] && echo "failed:$failed_names"
[ "$skip" -gt 0 ] && echo "WARNING: $skip test(s) skipped; see the SKIP lines above"
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
