#!/bin/sh
# trace -s: per-syscall call and error counts equal strace -f -c's on a
# deterministic workload (forks followed: sh, cat, dd, ls); --errno-summary
# splits the errors by errno; --json has the documented shape.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd strace
need_cmd python3
need_tracefs

W='cat /etc/hostname /nonexistent_bpfperf_a >/dev/null 2>&1; dd if=/dev/zero of=/dev/null count=300 2>/dev/null; ls /nonexistent_bpfperf_b >/dev/null 2>&1; true'

"$BPFPERF" trace -s --errno-summary --json -o "$TMP/ours.json" -- sh -c "$W" || fail "trace -s exited $?"
strace -f -c -U name,calls,errors -o "$TMP/strace.txt" -- sh -c "$W" || fail "strace failed"

python3 - "$TMP/ours.json" "$TMP/strace.txt" <<'PY' || fail "summary differs from strace -f -c"
import json, sys
ours = json.load(open(sys.argv[1]))
keys = {"pid", "tid", "comm", "syscall", "calls", "errors", "total_ns", "min_ns", "max_ns"}
calls, errs, enoent = {}, {}, {}
for r in ours["syscalls"]:
    missing = keys - set(r)
    assert not missing, f"JSON entry lacks {missing}: {r}"
    assert r["min_ns"] <= r["max_ns"] <= r["total_ns"] or r["calls"] == 0, r
    assert sum(r["errnos"].values()) == r["errors"], f"errno breakdown != errors: {r}"
    n = r["syscall"]
    calls[n] = calls.get(n, 0) + r["calls"]
    errs[n] = errs.get(n, 0) + r["errors"]
    enoent[n] = enoent.get(n, 0) + r["errnos"].get("ENOENT", 0)
# strace -c does not list calls that never return.
for n in ("exit_group", "exit"):
    calls.pop(n, None); errs.pop(n, None)
scalls, serrs = {}, {}
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) < 2 or not f[1].isdigit() or f[0] == "total":
        continue
    scalls[f[0]] = int(f[1])
    serrs[f[0]] = int(f[2]) if len(f) > 2 else 0
bad = []
for n in sorted(set(calls) | set(scalls)):
    a = (calls.get(n, 0), errs.get(n, 0)); b = (scalls.get(n, 0), serrs.get(n, 0))
    if a != b:
        bad.append(f"{n}: ours calls/errors {a}, strace {b}")
if bad:
    print("\n".join(bad)); sys.exit(1)
assert scalls.get("openat", 0) > 0 and serrs.get("openat", 0) > 0, "workload did not fail an openat"
assert enoent.get("openat") == serrs["openat"], "openat errors are not all ENOENT"
print(f"{len(scalls)} syscalls, {sum(scalls.values())} calls, {sum(serrs.values())} errors: equal to strace -f -c")
PY
ok "trace -s counts equal strace -f -c"

# Text summary names the syscalls and the errno breakdown.
"$BPFPERF" trace -s --errno-summary -o "$TMP/ours.txt" -- sh -c "$W" || fail "trace -s (text) exited $?"
grep -q 'Summary of events' "$TMP/ours.txt" || fail "no summary header"
grep -Eq '^ +openat +[0-9]+ +[1-9]' "$TMP/ours.txt" || { cat "$TMP/ours.txt"; fail "no openat line with errors"; }
grep -Eq '^ +ENOENT +[0-9]+' "$TMP/ours.txt" || fail "no ENOENT breakdown"
ok "text summary with errno breakdown"

# -e restricts the summary.
"$BPFPERF" trace -s --json -e 'open*' -o "$TMP/sel.json" -- sh -c "$W" || fail "trace -s -e exited $?"
python3 -c '
import json,sys
names = {r["syscall"] for r in json.load(open(sys.argv[1]))["syscalls"]}
assert names and all(n.startswith("open") for n in names), names
' "$TMP/sel.json" || fail "-e open* traced other syscalls"
ok "-e selection applies to the summary"
