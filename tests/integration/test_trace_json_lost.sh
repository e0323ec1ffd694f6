#!/bin/sh
# trace --json says where events were lost: with a 4 KiB ring buffer and a
# burst of calls, {"type":"lost",...} records appear in the stream, their
# counts add up to their running totals and to the closing
# {"type":"lost_total",...} record, which matches the warning on stderr.
. "$(dirname "$0")/lib.sh"
need_root; need_tracefs; need_cmd python3

"$BPFPERF" trace --json -m 4K -e getppid -o "$TMP/lost.json" -- \
  python3 -c 'import os
for i in range(300000): os.getppid()' 2>"$TMP/err" || { cat "$TMP/err"; fail "trace --json -m 4K failed"; }
warned=$(sed -n 's/.*warning: \([0-9]*\) events lost.*/\1/p' "$TMP/err")
[ -n "$warned" ] || { cat "$TMP/err"; skip "no events lost with a 4 KiB buffer on this machine"; }
python3 - "$TMP/lost.json" "$warned" <<'PY' || fail "lost records wrong"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
lost = [r for r in recs if r.get("type") == "lost"]
assert lost, "no lost record in the stream"
ev = args = 0
for r in lost:
    assert r["lost_events"] + r["lost_arguments"] > 0, r
    ev += r["lost_events"]; args += r["lost_arguments"]
    assert (r["total_lost_events"], r["total_lost_arguments"]) == (ev, args), r
    assert r["time_ns"] >= 0
end = recs[-1]
assert end["type"] == "lost_total", end
assert (end["lost_events"], end["lost_arguments"]) == (ev, args), (end, ev, args)
assert end["lost_events"] == int(sys.argv[2]), (end, sys.argv[2])
first = recs.index(lost[0])
assert any("syscall" in r for r in recs[first:]), "lost records only at the end"
print(f"{len(lost)} lost records, {ev} events lost in all, {sum('syscall' in r for r in recs)} events")
PY
ok "lost events in the JSON stream"
