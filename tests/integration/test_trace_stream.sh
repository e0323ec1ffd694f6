#!/bin/sh
# Streaming trace: the paths and errno values shown equal strace's on the same
# workload; --json lines parse; --failure and --duration filter; exit status
# of the command is propagated.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd strace
need_cmd python3
need_tracefs

W='cat /etc/hostname /nonexistent_bpfperf_c /etc/passwd >/dev/null 2>&1; ls -d /tmp /nonexistent_bpfperf_d >/dev/null 2>&1; true'

"$BPFPERF" trace -e 'openat,statx,newfstatat' -o "$TMP/ours.txt" -- sh -c "$W" || fail "trace exited $?"
strace -f -qq -e trace=openat,statx,newfstatat -o "$TMP/strace.txt" -- sh -c "$W" || fail "strace failed"
grep -q '"/nonexistent_bpfperf_c", O_RDONLY' "$TMP/ours.txt" || { head -20 "$TMP/ours.txt"; fail "path or flags not shown"; }

python3 - "$TMP/ours.txt" "$TMP/strace.txt" <<'PY' || fail "paths/errnos differ from strace"
import re, sys
pat = re.compile(r'(openat|statx|newfstatat)\((?:AT_FDCWD|-?\d+), ("(?:[^"\\]|\\.)*").*\) = (-?\w+)(?: (E[A-Z0-9]+))?')
def calls(path):
    out = []
    for line in open(path):
        m = pat.search(line)
        if m:
            out.append((m.group(1), m.group(2), m.group(4) or "ok"))
    return out
a, b = calls(sys.argv[1]), calls(sys.argv[2])
if sorted(a) != sorted(b):
    print("ours only:", sorted(set(a) - set(b))[:10]); print("strace only:", sorted(set(b) - set(a))[:10])
    print(len(a), len(b)); sys.exit(1)
assert any(c[2] == "ENOENT" for c in a), "no failing call in the workload"
print(f"{len(a)} calls with paths and errnos equal to strace's")
PY
ok "streaming paths and errnos equal strace's"

# JSON lines.
"$BPFPERF" trace --json -e openat -o "$TMP/ours.json" -- cat /nonexistent_bpfperf_e 2>/dev/null
rc=$?
[ $rc -eq 1 ] || fail "exit status of cat not propagated (got $rc, want 1)"
python3 - "$TMP/ours.json" <<'PY' || fail "JSON events wrong"
import json, sys
evs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
hit = [e for e in evs if "syscall" in e and e["args"].get("filename") == "/nonexistent_bpfperf_e"]
assert evs[-1] == {"type": "lost_total", "lost_events": 0, "lost_arguments": 0}, evs[-1]
assert hit, evs[:3]
e = hit[0]
assert e["syscall"] == "openat" and e["ret"] == -2 and e["errno"] == "ENOENT", e
assert e["comm"] == "cat" and e["pid"] > 0 and e["duration_ns"] >= 0, e
PY
ok "--json events and exit status propagation"

# --failure shows only failed calls.
"$BPFPERF" trace --failure -o "$TMP/fail.txt" -- sh -c "$W" || fail "trace --failure exited $?"
[ -s "$TMP/fail.txt" ] || fail "--failure printed nothing"
if grep -v ' = -1 ' "$TMP/fail.txt" | grep -q .; then grep -v ' = -1 ' "$TMP/fail.txt" | head -3; fail "--failure printed a successful call"; fi
ok "--failure"

# --duration: a 300 ms sleep passes a 100 ms threshold, nothing else does.
"$BPFPERF" trace --duration 100 -o "$TMP/dur.txt" -- sleep 0.3 || fail "trace --duration exited $?"
grep -q 'nanosleep' "$TMP/dur.txt" || { cat "$TMP/dur.txt"; fail "--duration 100 lost the sleep"; }
[ "$(wc -l < "$TMP/dur.txt")" -eq 1 ] || { cat "$TMP/dur.txt"; fail "--duration 100 kept short calls"; }
grep -q '{tv_sec=0, tv_nsec=300000000}' "$TMP/dur.txt" || { cat "$TMP/dur.txt"; fail "timespec argument not copied"; }
ok "--duration and timespec copy"

# Exit by signal: 128 + signal number.
"$BPFPERF" trace -s -o /dev/null -- sh -c 'kill -TERM $$'
rc=$?
[ $rc -eq 143 ] || fail "killed command: got exit $rc, want 143"
ok "exit status of a killed command"
