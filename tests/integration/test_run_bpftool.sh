#!/bin/sh
# Oracle: our --json map dump equals the "formatted" part of
# `bpftool map dump id N -j` for the same live maps (array of ints, hash with
# a struct key holding a pointer, an enum and a u16, global data .bss/.rodata).
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root; need_tracefs; need_examples; need_cmd bpftool; need_cmd python3; uniq_dd
port=$(closed_udp_port)

"$BPFPERF" -v run "$EX/tracex4.bpf.o" "$EX/tracex2.bpf.o" --set comm="$DDCOMM" --json \
  --interval 0.3 >"$TMP/ours" 2>"$TMP/err" &
bp=$!
wait_attached "$TMP/err"
"$DD" if=/dev/zero of=/dev/null bs=100 count=7 2>/dev/null
"$DD" if=/dev/zero of=/dev/null bs=3000 count=2 2>/dev/null
udp_send 5 "$port"
sleep 0.5
for name in write_hist tracex4.bss tracex4.rodata drops write_size_hist; do
  id=$(bpftool map show -j | python3 -c "
import json, sys
ids = [m['id'] for m in json.load(sys.stdin) if m.get('name') == '$name']
print(max(ids) if ids else '')")
  [ -n "$id" ] || fail "bpftool does not see map $name"
  bpftool map dump id "$id" -j > "$TMP/bt.$name" || fail "bpftool map dump id $id failed"
done
# stopped once bpftool has read every map (no fixed duration: slow or loaded
# machines took longer than one); Ctrl-C ends it with a final dump
kill -INT $bp
wait $bp || { cat "$TMP/err"; fail "bpfperf run failed"; }

# bpftool names enum values by the object's BTF, i.e. the numbering of the
# kernel whose vmlinux.h built it; bpfperf by the running kernel's (they
# differ for skb_drop_reason on 6.1): the oracle for a kernel enum is the
# kernel's BTF applied to bpftool's raw bytes
bpftool btf dump file /sys/kernel/btf/vmlinux format raw >"$TMP/kbtf.txt" || fail "bpftool btf dump of vmlinux failed"
python3 - "$TMP" <<'PY' || fail "JSON differs from bpftool"
import json, re, sys
tmp = sys.argv[1]
reasons, inside = {}, False
for line in open(tmp + "/kbtf.txt"):
    if line.startswith("["):
        inside = "ENUM 'skb_drop_reason'" in line
    elif inside:
        m = re.match(r"\s+'(\w+)' val=(-?\d+)", line)
        if m:
            reasons.setdefault(int(m[2]), m[1])
def kernel_reason(e):
    raw = bytes(int(b, 16) for b in e["key"])   # struct drop_key: location, reason, protocol
    v = int.from_bytes(raw[8:12], "little")
    return reasons.get(v, v)
last = [l for l in open(tmp + "/ours") if l.startswith('{"maps"')][-1]
ours = {m["name"]: m for m in json.loads(last)["maps"]}
def conv(name, bt):
    out = []
    for e in bt:
        f = e.get("formatted")
        assert f is not None, "bpftool gave no formatted output for " + name
        if isinstance(f.get("value"), dict) and len(f["value"]) == 1 and list(f["value"])[0].startswith("."):
            sec = list(f["value"])[0]
            merged = {}
            for kv in f["value"][sec]:
                merged.update(kv)
            out.append({"value": merged})
        elif "values" in f:
            out.append({"key": f["key"], "values": f["values"]})
        elif name == "drops":
            out.append({"key": dict(f["key"], reason=kernel_reason(e)), "value": f["value"]})
        else:
            out.append({"key": f["key"], "value": f["value"]})
    return out
pairs = {"write_hist": "write_hist", "tracex4.bss": ".bss", "tracex4.rodata": ".rodata",
         "drops": "drops", "write_size_hist": "write_size_hist"}
bad = 0
for bt_name, our_name in pairs.items():
    bt = conv(bt_name, json.load(open(tmp + "/bt." + bt_name)))
    cands = [m for n, m in ours.items() if n == our_name]
    if our_name.startswith("."):
        # two objects: pick the one with the same variable names
        cands = [m for m in json.loads(last)["maps"] if m["name"] == our_name and
                 m["entries"] and bt and m["entries"][0]["value"].keys() == bt[0]["value"].keys()]
    if not cands:
        print("missing in ours:", our_name); bad += 1; continue
    mine = cands[0]["entries"]
    key = lambda e: json.dumps(e, sort_keys=True)
    if sorted(map(key, mine)) != sorted(map(key, bt)):
        print("DIFF", bt_name, "\n ours:", sorted(map(key, mine))[:5], "\n bpftool:", sorted(map(key, bt))[:5]); bad += 1
    else:
        print("same:", bt_name, len(bt), "entries")
# the workload is in there
wh = {e["key"]: e["value"] for e in ours["write_hist"]["entries"]}
assert wh[6] == 7 and wh[11] == 2, wh
sys.exit(1 if bad else 0)
PY
ok "JSON dump equals bpftool's formatted output"
