# Shared helpers for integration tests (sourced). Each test_*.sh runs on the
# real kernel as root; exit 0 = pass, 77 = skip (print "SKIP: reason" first),
# anything else = fail. Environment: BPFPERF (binary), BUILD (build dir), SRC.
set -u
: "${SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${BUILD:=$SRC/build}"
: "${BPFPERF:=$BUILD/bpfperf}"
DEMO="$BUILD/demo/bpfperf-demo"
TMP=$(mktemp -d /tmp/bpfperf-test.XXXXXX)
# BPFPERF_KEEP=DIR: the test's files are copied there at its end (to look at
# a failure in a QEMU guest, whose /tmp is gone at power-off)
# BPFPERF_KEEP=DIR keeps every test's files there; BPFPERF_KEEP_FAILED=DIR
# those of a failed test only, as DIR/<test> (scripts/test-kernels.sh sets it
# under OUT: a guest's recordings are gone when it powers off)
trap 'rc=$?
  [ -n "${BPFPERF_KEEP:-}" ] && mkdir -p "$BPFPERF_KEEP" && cp -a "$TMP" "$BPFPERF_KEEP/"
  if [ -n "${BPFPERF_KEEP_FAILED:-}" ] && [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
    mkdir -p "$BPFPERF_KEEP_FAILED" && cp -a "$TMP" "$BPFPERF_KEEP_FAILED/$(basename "$0" .sh)" &&
      echo "its files are kept in $BPFPERF_KEEP_FAILED/$(basename "$0" .sh)"
  fi
  rm -rf "$TMP"' EXIT
# record copies the files it hit into the build-id cache: a private one per
# test (perf reads PERF_BUILDID_DIR too), never the real ~/.debug.
export PERF_BUILDID_DIR="$TMP/buildid-cache"

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root (CAP_BPF, CAP_PERFMON)"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip "needs $1 (apt-get install ${2:-$1})"; }
need_tracefs() {
  [ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
  [ -d /sys/kernel/tracing/events ] || skip "tracefs is not mounted and cannot be mounted"
}
# expect_fail DESCRIPTION PATTERN CMD...: CMD must exit non-zero, not by a signal
# (a crash, an ASan abort), and print PATTERN on stderr.
expect_fail() {
  desc=$1; pat=$2; shift 2
  rc=0
  "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
  [ $rc != 0 ] || fail "$desc: exited 0"
  [ $rc -ge 128 ] && { cat "$TMP/err"; fail "$desc: killed by signal $((rc - 128))"; }
  grep -qiE -e "$pat" "$TMP/err" || { cat "$TMP/err"; fail "$desc: stderr lacks /$pat/"; }
  ok "$desc"
}
# track_pids: background processes a test starts go into "$TMP/pids" (one pid
# per line) and are killed at exit, with $PERFMAP (a perf map the test wrote)
# and the temporary directory removed; ms_since T0: milliseconds since
# T0 (from date +%s%N).
track_pids() {
  PERFMAP=
  : >"$TMP/pids"
  trap '[ -n "$PERFMAP" ] && rm -f "$PERFMAP"
        for p in $(cat "$TMP/pids" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
        rm -rf "$TMP"' EXIT
}
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# wait_until SECS CMD...: run CMD every 0.1 s until it succeeds (0) or SECS
# have passed (1); generous: start-ups take seconds on an emulated CPU
wait_until() {
  _w=$(( $1 * 10 )); shift
  while [ $_w -gt 0 ]; do "$@" && return 0; sleep 0.1; _w=$((_w - 1)); done
  "$@"
}
# equal_work_recordings SECONDS: tests/workloads/equal_work built as
# ./equal_work and recorded with call graphs at a fixed period (many ties)
# by perf (perf.data) and by us (ours.data), each for SECONDS of CPU time
equal_work_recordings() {
  cc -O0 -g -fno-omit-frame-pointer -o equal_work "$SRC/tests/workloads/equal_work.c" ||
    fail "cannot build the workload"
  perf_rec -g -e cpu-clock -c 2000000 -o perf.data -- ./equal_work "$1" || fail "perf record"
  "$BPFPERF" record -g -e cpu-clock -c 2000000 -o ours.data -- ./equal_work "$1" >/dev/null 2>rec.err ||
    { cat rec.err; fail "bpfperf record"; }
}
# perf_rec ARGS...: 'perf record' with this test's build-id dir, tried three
# times: perf 6.1 sometimes aborts in its build-id code ("assertion failed at
# util/build-id.c") while other BPF programs come and go. After the third
# failure perf's last messages are shown, so a log says why.
perf_rec() {
  for i in 1 2 3; do
    perf --buildid-dir "$TMP/bid" record "$@" >/dev/null 2>"$TMP/perf_rec.err" && return 0
  done
  echo "perf record $* failed three times; its last messages:"; tail -5 "$TMP/perf_rec.err"
  return 1
}
