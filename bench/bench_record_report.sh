#!/bin/sh
# bench/bench_record_report.sh: bpfperf record/report side by side with Linux
# perf in one run. Prints a markdown table of ratios (also saved to
# $OUT/results.md). Not a test: figures vary with the machine.
#   report: time and peak RSS of `report` on the same large recording
#           (system-wide, -g, -F 4999, many DSOs), children and no-children,
#           and on a two-event recording (cpu-clock,page-faults: a block each);
#   record: overhead on a CPU-bound workload at -F 999 and -F 4999 with -g,
#           and peak RSS of the recorder.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh --bench >/dev/null
sh scripts/build.sh
OUT=${OUT:-/tmp/bpfperf-bench}
SECS=${SECS:-25}
WORK=${WORK:-12000000}
REPS=${REPS:-3}
B=$PWD/build/bpfperf
mkdir -p "$OUT"
cd "$OUT"

# overhead of a time over the baseline, e.g. "+3.1%"
pct() { echo "$1 $2" | awk '{ printf "%+.1f%%", ($1 / $2 - 1) * 100 }'; }

# median of REPS runs of a command: prints "seconds maxrss_kb"
measure() {
  for i in $(seq "$REPS"); do
    /usr/bin/time -f '%e %M' -o t.$$ "$@" >/dev/null 2>&1 || true
    tail -1 t.$$
  done | sort -n | awk -v n="$REPS" 'NR == int((n + 1) / 2) { print }'
}

echo "# recording ${SECS}s of a mixed workload with perf record -a -g -F 4999" >&2
perf record -a -g -F 4999 -o big-perf.data -- sh "$OLDPWD/bench/mixed_workload.sh" "$SECS" >/dev/null 2>rec.err
"$B" record -a -g -F 4999 -o big-ours.data -- sh "$OLDPWD/bench/mixed_workload.sh" "$SECS" >/dev/null 2>>rec.err
# several events: one block per event in both reports
perf record -a -g -F 4999 -e cpu-clock,page-faults -o big-multi.data -- sh "$OLDPWD/bench/mixed_workload.sh" "$SECS" >/dev/null 2>>rec.err
nsamp=$("$B" report -i big-perf.data --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_samples"])')
ndso=$("$B" report -i big-perf.data --sort dso --no-children --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["entries"]))')
nsamp2=$("$B" report -i big-ours.data --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_samples"])')

{
echo "| what | bpfperf | perf | ratio (perf / bpfperf) |"
echo "|---|---|---|---|"
for f in big-perf.data big-ours.data big-multi.data; do
  # A figure for a tool that failed would be meaningless: check both read the file.
  for tool in "perf report -i $f --stdio" "$B report -i $f"; do
    if ! $tool --no-children >check.out 2>check.err || grep -qi 'failed to process' check.err ||
       ! grep -q '%' check.out; then
      echo "bench: '$tool' failed on $f:" >&2; head -5 check.err >&2; exit 1
    fi
  done
  for mode in children no-children; do
    set -- $(measure perf report -i $f --stdio --$mode)
    pt=$1; pm=$2
    set -- $(measure "$B" report -i $f --$mode)
    bt=$1; bm=$2
    echo "| report --$mode, $f: time | ${bt} s | ${pt} s | $(echo "$pt $bt" | awk '{ printf "%.1fx faster", $1 / ($2 > 0 ? $2 : 0.001) }') |"
    echo "| report --$mode, $f: peak RSS | $((bm / 1024)) MiB | $((pm / 1024)) MiB | $(echo "$pm $bm" | awk '{ printf "%.1fx less", $1 / $2 }') |"
  done
done
set -- $(for i in $(seq "$REPS"); do "$OLDPWD/build/bench/cpu_work" "$WORK"; done | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
base=$1
for F in 999 4999; do
  pt=$(for i in $(seq "$REPS"); do perf record -g -F $F -o pr.data -- "$OLDPWD/build/bench/cpu_work" "$WORK" 2>/dev/null; done | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
  bt=$(for i in $(seq "$REPS"); do "$B" record -g -F $F -o br.data -- "$OLDPWD/build/bench/cpu_work" "$WORK" 2>/dev/null; done | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
  set -- $(measure perf record -g -F $F -o pr.data -- "$OLDPWD/build/bench/cpu_work" "$WORK")
  prss=$2
  set -- $(measure "$B" record -g -F $F -o br.data -- "$OLDPWD/build/bench/cpu_work" "$WORK")
  brss=$2
  echo "| record -g -F $F: workload time (no profiler: ${base} s) | ${bt} s ($(pct "$bt" "$base")) | ${pt} s ($(pct "$pt" "$base")) | $(echo "$pt $bt" | awk '{ printf "%.2fx", $1 / $2 }') |"
  echo "| record -g -F $F: recorder peak RSS | $((brss / 1024)) MiB | $((prss / 1024)) MiB | $(echo "$prss $brss" | awk '{ printf "%.1fx less", $1 / $2 }') |"
done
echo
nmulti=$("$B" report -i big-multi.data --json | python3 -c 'import json,sys; print(" + ".join("%d %s" % (e["samples"], e["name"]) for e in json.load(sys.stdin)["events"]))')
echo "Large recordings: big-perf.data ${nsamp} samples (perf record), big-ours.data ${nsamp2} samples (bpfperf record), ${ndso} DSOs; big-multi.data (perf record -e cpu-clock,page-faults): ${nmulti} samples; ${REPS} runs each, median."
} | tee results.md
