#!/bin/sh
# SEC("perf_event") programs attached to -e events on every CPU or on a
# command (-- CMD), samples counted in a map; hardware events missing here
# give an error that names the cause.
. "$(dirname "$0")/lib.sh"
need_root; need_cmd clang
VH="$BUILD/src/bpf"
cat > "$TMP/pe.bpf.c" <<'EOF2'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
char LICENSE[] SEC("license") = "GPL";
const volatile __u32 target_tgid = 0;
__u64 samples = 0;
__u64 target_samples = 0;
SEC("perf_event")
int on_sample(void *ctx)
{
	__sync_fetch_and_add(&samples, 1);
	if ((bpf_get_current_pid_tgid() >> 32) == target_tgid)
		__sync_fetch_and_add(&target_samples, 1);
	return 0;
}
EOF2
clang -target bpf -g -O2 -I"$VH" -c "$TMP/pe.bpf.c" -o "$TMP/pe.bpf.o" || fail "clang failed"
# a busy command for 0.6 s of its own CPU time (start-up included: under QEMU
# Python's start-up alone takes longer) at 200 Hz; it writes the CPU time it
# used, which sets the expected count (the kernel's frequency adaptation
# starts at a period of 1 and takes a burst of extra samples: accept a
# quarter of it to 4/3 of it plus 100)
"$BPFPERF" run "$TMP/pe.bpf.o" -e cpu-clock:200 --json -- python3 -c '
import os, sys, time
while time.process_time() < 0.6: pass
t = os.times()
open(sys.argv[1], "w").write("%f" % (t.user + t.system))' "$TMP/cpu" \
  >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "run failed"; }
python3 - "$TMP/out" "$(cat "$TMP/cpu")" <<'PY' || fail "sample count wrong"
import json, sys
maps = {m["name"]: m for m in json.loads(open(sys.argv[1]).read().splitlines()[-1])["maps"]}
n = maps[".bss"]["entries"][0]["value"]["samples"]
cpu = float(sys.argv[2])
want = 200 * cpu
assert want / 4 <= n <= want * 4 / 3 + 100, (n, cpu)
print("ok: %d samples of the command at 200 Hz for %.2f s of CPU" % (n, cpu))
PY
# system wide, every CPU, for a fixed duration: ~ 100 Hz x 1 s x online CPUs
# (idle CPUs take no cpu-clock samples: keep every CPU busy meanwhile)
cpus=$(getconf _NPROCESSORS_ONLN)
for i in $(seq "$cpus"); do timeout 2 sh -c 'while :; do :; done' & done
"$BPFPERF" run "$TMP/pe.bpf.o" -e cpu-clock:100 --duration 1 >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "system-wide run failed"; }
wait
n=$(sed -n 's/.*\.samples = \([0-9]*\).*/\1/p' "$TMP/out")
cpus=$(getconf _NPROCESSORS_ONLN)
# frequency mode needs a few ticks to settle its period: allow -40%..+20%
[ "$n" -ge $((cpus * 60)) ] && [ "$n" -le $((cpus * 120)) ] || fail "system-wide samples $n not ~ $((cpus * 100))"
ok "system-wide: $n samples on $cpus CPUs"
if ! "$BPFPERF" run "$TMP/pe.bpf.o" -e cycles --duration 0.2 >"$TMP/out" 2>"$TMP/err"; then
  grep -q "no hardware PMU counters" "$TMP/err" || { cat "$TMP/err"; fail "hardware event error does not say why"; }
  ok "hardware event missing: clear error"
fi
