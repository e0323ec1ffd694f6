#!/bin/sh
# examples/tracex1: netif_receive_skb filtered on device "lo" by walking
# skb->dev->name; records streamed from a ring buffer, typed by BTF.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root; need_tracefs; need_examples; need_cmd python3
port=$(closed_udp_port)
# 5 UDP datagrams of 1234 bytes over loopback: skb->len = 20 + 8 + 1234 = 1262
# (a listening socket, so no ICMP error adds packets)
cat > "$TMP/w.py" <<'PY'
import socket
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); r.bind(("127.0.0.1", 0))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(5):
    s.sendto(b"y" * 1234, r.getsockname())
PY
"$BPFPERF" run "$EX/tracex1.bpf.o" --set device=lo --set match_len=1262 -- python3 "$TMP/w.py" >"$TMP/out" 2>"$TMP/err" \
  || { cat "$TMP/err"; fail "run failed"; }
cat "$TMP/out"
n=$(grep -c '^events: { .skbaddr = [0-9]*, .len = 1262, .dev = "lo" }$' "$TMP/out")
[ "$n" = 5 ] || fail "expected 5 records, got $n"
grep -q '{ .packets = 5 }' "$TMP/out" || fail "packets counter is not 5"
grep -q '5 records streamed, 0 lost' "$TMP/err" || fail "record count line missing"
ok "text records"

"$BPFPERF" run "$EX/tracex1.bpf.o" --json --set match_len=1262 -- python3 "$TMP/w.py" >"$TMP/out" 2>"$TMP/err" || fail "json run failed"
python3 - "$TMP/out" <<'PY' || fail "JSON records wrong"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
recs = [l["record"] for l in lines if "record" in l]
assert len(recs) == 5, recs
assert all(r["len"] == 1262 and r["dev"] == "lo" and isinstance(r["skbaddr"], int) for r in recs), recs
maps = [l for l in lines if "maps" in l][-1]["maps"]
bss = [m for m in maps if m["name"] == ".bss"][0]
assert bss["entries"][0]["value"] == {"packets": 5}, bss
PY
ok "JSON records"

# another device name: nothing on "nosuchdev"
"$BPFPERF" run "$EX/tracex1.bpf.o" --set device=nosuchdev -- python3 "$TMP/w.py" >"$TMP/out" 2>&1 || fail "run failed"
grep -q '{ .packets = 0 }' "$TMP/out" || fail "device filter does not filter"
ok "device filter"
