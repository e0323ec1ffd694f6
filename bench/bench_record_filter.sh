#!/bin/sh
# bench/bench_record_filter.sh: the cost of `record --filter` on a CPU-bound
# workload (bench/cpu_work.c, every CPU), side by side with no filter and no
# recorder. The filters keep nearly every sample (only the idle task's fail
# 'tid != 0'), so the difference is the program's own cost.
# Not a test: figures vary with the machine. Environment: WORK (iterations),
# REPS (runs, median), FREQ (-F), B (the bpfperf binary).
set -eu
cd "$(dirname "$0")/.."
B=${B:-$PWD/build/bpfperf}
WORK=${WORK:-15000000}
REPS=${REPS:-5}
FREQ=${FREQ:-4000}
W=$PWD/build/bench/cpu_work
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# median wall time of the workload itself (it prints its seconds)
measure() {
  for i in $(seq "$REPS"); do "$@" 2>/dev/null | tail -1; done | sort -n |
    awk -v n="$REPS" 'NR == int((n + 1) / 2) { print $1 }'
}
pct() { echo "$1 $2" | awk '{ printf "%+.1f%%", ($1 / $2 - 1) * 100 }'; }

base=$(measure "$W" "$WORK")
plain=$(measure "$B" record -a -F "$FREQ" -o "$OUT/p.data" -- "$W" "$WORK")
f1=$(measure "$B" record -a -F "$FREQ" --filter 'tid != 0' -o "$OUT/f.data" -- "$W" "$WORK")
f8=$(measure "$B" record -a -F "$FREQ" -o "$OUT/f.data" \
  --filter 'tid != 0, cpu < 4096, ip != 1, period > 0, pid != 0 || uid == 0, uid < 70000, gid < 70000, addr < 1' \
  -- "$W" "$WORK")
f1r=$(measure "$B" record -a -F "$FREQ" --filter-no-kfunc --filter 'tid != 0' -o "$OUT/f.data" -- "$W" "$WORK")
echo "| cpu_work $WORK (all CPUs), record -a -F $FREQ, median of $REPS | seconds | vs no filter |"
echo "|---|---|---|"
echo "| no recorder | $base | |"
echo "| record, no filter | $plain ($(pct "$plain" "$base") vs none) | |"
echo "| --filter 'tid != 0' (bpf_cast_to_kern_ctx) | $f1 | $(pct "$f1" "$plain") |"
echo "| --filter with 8 terms and a group | $f8 | $(pct "$f8" "$plain") |"
echo "| --filter 'tid != 0', fallback design | $f1r | $(pct "$f1r" "$plain") |"

# The program's own cost per sample, from the kernel's BPF statistics
# (kernel.bpf_stats_enabled: run_time_ns / run_cnt of the loaded program),
# which the machine's noise does not blur as much as wall time.
prog_ns() {  # prog_name args...
  name=$1; shift
  "$B" record -a -F "$FREQ" -o "$OUT/s.data" --duration 3 "$@" -- "$W" 2000000000 >/dev/null 2>&1 &
  rp=$!
  sleep 2
  bpftool prog show name "$name" -j 2>/dev/null |
    python3 -c 'import json,sys; p=json.load(sys.stdin); p=p[0] if isinstance(p,list) else p; print("%.0f ns x %d samples" % (p["run_time_ns"]/max(p["run_cnt"],1), p["run_cnt"]))' || echo "n/a"
  wait $rp 2>/dev/null || true
}
old=$(sysctl -n kernel.bpf_stats_enabled)
sysctl -qw kernel.bpf_stats_enabled=1
echo
echo "| program run time per sample (bpf_stats) | ns |"
echo "|---|---|"
echo "| 'tid != 0', bpf_cast_to_kern_ctx | $(prog_ns sf_kctx --filter 'tid != 0') |"
echo "| 8 terms and a group, bpf_cast_to_kern_ctx | $(prog_ns sf_kctx --filter 'tid != 0, cpu < 4096, ip != 1, period > 0, pid != 0 || uid == 0, uid < 70000, gid < 70000, addr < 1') |"
echo "| 'tid != 0', fallback | $(prog_ns sf_regs --filter-no-kfunc --filter 'tid != 0') |"
echo "| 8 terms and a group, fallback | $(prog_ns sf_regs --filter-no-kfunc --filter 'tid != 0, cpu < 4096, ip != 1, period > 0, pid != 0 || uid == 0, uid < 70000, gid < 70000, addr < 1') |"
sysctl -qw kernel.bpf_stats_enabled="$old"
