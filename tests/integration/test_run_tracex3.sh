#!/bin/sh
# examples/tracex3: block I/O latency block_rq_issue -> block_rq_complete on a
# loop device with O_DIRECT writes; log2 histogram, per-device struct with
# slots[], heat map over time.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root; need_tracefs; need_examples; need_cmd losetup util-linux; need_cmd python3
[ -d /sys/kernel/tracing/events/block/block_rq_issue ] || skip "no block:block_rq_issue tracepoint"
dd if=/dev/zero of="$TMP/disk.img" bs=1M count=8 2>/dev/null || skip "cannot create a backing file"
loop=$(losetup -f --show "$TMP/disk.img" 2>/dev/null) || skip "no loop device can be set up (losetup -f failed: loop driver missing?)"
trap 'losetup -d "$loop" 2>/dev/null; rm -rf "$TMP"' EXIT
maj=$((0x$(stat -c %t "$loop"))); min=$((0x$(stat -c %T "$loop")))
dev=$(( (maj << 20) | min ))
"$BPFPERF" run "$EX/tracex3.bpf.o" --set target_dev=$dev --json -- \
  dd if=/dev/zero of="$loop" bs=4096 count=64 oflag=direct >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "run failed"; }
python3 - "$TMP/out" $dev <<'PY' || fail "latency maps wrong"
import json, sys
maps = {m["name"]: m for m in json.loads(open(sys.argv[1]).read().splitlines()[-1])["maps"]}
dev = int(sys.argv[2])
lat = {e["key"]: e["value"] for e in maps["lat_usecs"]["entries"]}
if sum(lat.values()) == 0:
    print("SKIP: the loop device produced no block_rq events"); sys.exit(77)
assert sum(lat.values()) == 64, lat
d = {e["key"]: e["value"] for e in maps["dev_lat"]["entries"]}
assert list(d) == [dev] and d[dev]["count"] == 64 and sum(d[dev]["slots"]) == 64, d
print("ok: 64 requests on dev", dev, "slots", lat)
PY
rc=$?; [ $rc = 77 ] && skip "loop device produced no block_rq events"; [ $rc = 0 ] || exit 1
ok "histogram maps"

# text: histogram rendering of the array and of the struct's slots[]
"$BPFPERF" run "$EX/tracex3.bpf.o" --set target_dev=$dev -- \
  dd if=/dev/zero of="$loop" bs=4096 count=16 oflag=direct >"$TMP/out" 2>"$TMP/err" || fail "text run failed"
grep -q '^lat_usecs (log2 histogram):' "$TMP/out" || { cat "$TMP/out"; fail "no lat_usecs histogram"; }
grep -q "^dev_lat $dev (log2 histogram):" "$TMP/out" || { cat "$TMP/out"; fail "no dev_lat slots histogram"; }
grep -Eq '^ +total : 16$' "$TMP/out" || fail "histogram total is not 16"
ok "text histograms"

# heat map over time: one row per interval
"$BPFPERF" run "$EX/tracex3.bpf.o" --set target_dev=$dev -I 0.2 --heatmap -- \
  sh -c "for i in 1 2 3; do dd if=/dev/zero of=$loop bs=4096 count=8 oflag=direct 2>/dev/null; sleep 0.3; done" >"$TMP/out" 2>"$TMP/err" || fail "heatmap run failed"
rows=$(grep -Ec '^[0-9:]{8} lat_usecs +\|.{32}\|$' "$TMP/out")
[ "$rows" -ge 3 ] || { cat "$TMP/out"; fail "expected >= 3 heat map rows, got $rows"; }
ok "heat map ($rows rows)"
