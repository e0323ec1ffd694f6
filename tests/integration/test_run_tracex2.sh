#!/bin/sh
# examples/tracex2: kfree_skb drops by location and reason (enum printed by
# name) and a write size histogram; workloads: UDP to a closed loopback port
# (each datagram is dropped with SKB_DROP_REASON_NO_SOCKET) and dd.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root; need_tracefs; need_examples; need_cmd python3; uniq_dd
port=$(closed_udp_port)
cat > "$TMP/w.sh" <<EOF2
"$DD" if=/dev/zero of=/dev/null bs=512 count=1000 2>/dev/null
python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(20): s.sendto(b"z", ("127.0.0.1", $port))
'
EOF2
"$BPFPERF" run "$EX/tracex2.bpf.o" --set comm="$DDCOMM" --set fd=1 --json -- sh "$TMP/w.sh" >"$TMP/out" 2>"$TMP/err" \
  || { cat "$TMP/err"; fail "run failed"; }
python3 - "$TMP/out" <<'PY' || fail "map contents wrong"
import json, sys
maps = {m["name"]: m for m in json.loads(open(sys.argv[1]).read().splitlines()[-1])["maps"]}
h = {e["key"]: e["value"] for e in maps["write_size_hist"]["entries"]}
assert h[9] == 1000 and sum(h.values()) == 1000, h
nosock = [e for e in maps["drops"]["entries"]
          if e["key"]["reason"] == "SKB_DROP_REASON_NO_SOCKET" and e["key"]["protocol"] == 0x0800]  # ETH_P_IP
total = sum(e["value"] for e in nosock)
assert total == 20, maps["drops"]["entries"]
print("ok: 1000 writes in slot 9, 20 NO_SOCKET drops at", [hex(e["key"]["location"]) for e in nosock])
PY
ok "tracex2 maps"
