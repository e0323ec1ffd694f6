#!/bin/sh
# examples/dropmon: drops by kernel location, --set of an enum by name.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root; need_tracefs; need_examples; need_cmd python3
port=$(closed_udp_port)
"$BPFPERF" run "$EX/dropmon.bpf.o" --set reason=SKB_DROP_REASON_NO_SOCKET --json -- \
  python3 -c "
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(30): s.sendto(b'z', ('127.0.0.1', $port))
" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "run failed"; }
python3 - "$TMP/out" <<'PY' || fail "drops_by_location wrong"
import json, sys
maps = {m["name"]: m for m in json.loads(open(sys.argv[1]).read().splitlines()[-1])["maps"]}
e = maps["drops_by_location"]["entries"]
assert sum(x["value"] for x in e) == 30, e
ro = maps[".rodata"]["entries"][0]["value"]
assert ro == {"reason": "SKB_DROP_REASON_NO_SOCKET"}, ro
loc = max(e, key=lambda x: x["value"])["key"]
# the location is a kernel text address: find its function in kallsyms
best = None
for line in open("/proc/kallsyms"):
    a, t, name = line.split()[:3]
    a = int(a, 16)
    if t in "tT" and a <= loc and (best is None or a > best[0]):
        best = (a, name)
print("ok: 30 drops at", hex(loc), best[1] if best and best[0] else "?")
PY
expect_fail "bad enum name" "not a valid 4-byte enum value" "$BPFPERF" run "$EX/dropmon.bpf.o" --set reason=NOPE -- true
ok "dropmon"
