#!/bin/sh
# scripts/fuzz-all.sh [SECONDS]: a short fuzz pass of every target
# (tests/fuzz/fuzz_*.c, built by scripts/fuzz.sh with libFuzzer, ASan and
# UBSan), SECONDS each (default 20), as many at once as there are CPUs, from
# the committed corpus (new inputs go to build-fuzz/corpus-NAME, not to the
# tree). The test command runs it, so that a library upgrade that brings a
# crash back is seen. One line per target: "PASS  fuzz_NAME (N executions in
# S s)" or "FAIL  fuzz_NAME: ..." with the crash input kept in
# build-fuzz/crash-NAME-*; exits 1 if any target found something.
set -u
cd "$(dirname "$0")/.."
secs=${1:-20}
names=$(ls tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||')
for n in $names; do
  sh scripts/fuzz.sh "$n" build > "build-fuzz-build-$n.log" 2>&1 ||
    { echo "FAIL  fuzz_$n: does not build:"; tail -20 "build-fuzz-build-$n.log"; rm -f "build-fuzz-build-$n.log"; exit 1; }
  rm -f "build-fuzz-build-$n.log"
done
cd build-fuzz
export secs
# shellcheck disable=SC2016
printf '%s\n' $names | xargs -P "$(nproc)" -I{} sh -c '
  n={}
  mkdir -p "corpus-$n"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:quarantine_size_mb=16 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "./fuzz_$n" -max_total_time="$secs" -timeout=60 -max_len=65536 -close_fd_mask=3 \
    -artifact_prefix="crash-$n-" "corpus-$n" "../tests/fuzz/corpus/$n" > "fuzz-$n.log" 2>&1
  rc=$?
  runs=$(sed -n "s/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 executions in \2 s/p" "fuzz-$n.log" | tail -n 1)
  if [ $rc -eq 0 ]; then
    echo "PASS  fuzz_$n (${runs:-? executions})"
  else
    echo "FAIL  fuzz_$n (exit $rc): $(grep -m1 -E "ERROR|SUMMARY|deadly signal|Test unit written" "fuzz-$n.log")"
    grep -E "^(==|SUMMARY|    #[0-9])" "fuzz-$n.log" | head -30 | sed "s/^/    /"
    grep "Test unit written" "fuzz-$n.log" | sed "s/^/    /"
    exit 1
  fi'
