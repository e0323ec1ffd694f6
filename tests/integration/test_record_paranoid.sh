#!/bin/sh
# record without privileges at kernel.perf_event_paranoid 2 (the default;
# the sysctl is read, never changed): as perf does, the events fall back to
# user space only ('cpu-clock:u', exclude_kernel) with a note, and the
# recording works, and its report (unprivileged too) does not warn about
# hidden kernel symbols; system-wide still needs the privilege and says so.
. "$(dirname "$0")/lib.sh"
need_root; need_cmd setpriv util-linux; need_cmd python3
# In a disposable machine (the QEMU guests of scripts/test-kernels.sh:
# BPFPERF_DISPOSABLE=1) the setting is made; elsewhere only read.
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" != 2 ] && [ "${BPFPERF_DISPOSABLE:-}" = 1 ]; then
  echo 2 > /proc/sys/kernel/perf_event_paranoid || fail "cannot set kernel.perf_event_paranoid to 2"
fi
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" = 2 ] || skip "kernel.perf_event_paranoid is not 2"
chmod 755 "$TMP"; mkdir "$TMP/w"; chmod 777 "$TMP/w"
unpriv() { setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$@"; }
unpriv true || skip "setpriv cannot switch to nobody"

cd "$TMP/w" || fail "no temp dir"
unpriv "$BPFPERF" record -e cpu-clock -F 999 -o "$TMP/w/u.data" -- python3 -c 'import time
t = time.process_time()
while time.process_time() - t < 0.3: pass' >out 2>err || { cat err; fail "unprivileged record failed"; }
grep -q "perf_event_paranoid = 2 .*sampling 'cpu-clock:u' (user space only)" err \
  || { cat err; fail "no note about the user-only fallback"; }
grep -qi "kptr_restrict" err && { cat err; fail "a kptr_restrict message for a user-only recording"; }
"$BPFPERF" report -f -i "$TMP/w/u.data" --json --sort dso >rep.json || fail "report failed"
python3 - rep.json <<'PY' || fail "the recording is not user-only"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["event"] == "cpu-clock:u", d["event"]
assert d["total_samples"] > 50, d["total_samples"]
k = [e for e in d["entries"] if "kernel" in e["dso"]]
assert not k, k
print(d["total_samples"], "user samples")
PY
if command -v perf >/dev/null 2>&1; then
  perf --buildid-dir "$(mktemp -d)" evlist -f -v -i "$TMP/w/u.data" 2>/dev/null | grep -q "^cpu-clock:u: .*exclude_kernel: 1" \
    || fail "perf evlist does not see cpu-clock:u with exclude_kernel"
fi
unpriv "$BPFPERF" report -i "$TMP/w/u.data" >/dev/null 2>rep.err || { cat rep.err; fail "unprivileged report failed"; }
grep -qi "kptr_restrict" rep.err && { cat rep.err; fail "report of a user-only recording warns about kptr_restrict"; }
ok "paranoid 2, no CAP_PERFMON: cpu-clock:u with a note"

# the default event too
unpriv "$BPFPERF" record -o "$TMP/w/d.data" -- true >out 2>err || { cat err; fail "unprivileged default record failed"; }
grep -q "sampling 'cpu-clock:u'\|sampling 'cycles:u'" err || { cat err; fail "default event: no fallback note"; }
ok "default event falls back too"

# system-wide cannot fall back: the privilege is named
expect_fail "unprivileged -a" "permission denied \(kernel.perf_event_paranoid = 2\); run as root or grant CAP_PERFMON" \
  unpriv "$BPFPERF" record -a -o "$TMP/w/a.data" --duration 0.1
