#!/bin/sh
# bench/bench_record_report.sh: bpfperf record/report side by side with Linux
# perf in one run. Prints a markdown table of ratios (also saved to
# $OUT/results.md). Not a test: figures vary with the machine.
#   report: time and peak RSS of `report` on the same large recording
#           (system-wide, -g, -F 4999, many DSOs), children and no-children,
#           and on a two-event recording (cpu-clock,page-faults: a block each);
#   record: overhead on a CPU-bound workload at -F 999 and -F 4999 with -g,
#           and peak RSS of the recorder.
# Each report row also times the bpfperf of a baseline tree (BASE, a git
# ref, default 22bcbae: the tree before the perf-compatibility work; built
# once into $OUT/base-<ref>/), so that a slowdown shows in the table; runs
# are interleaved (perf, this tree, BASE; REPS rounds), medians shown. A
# recording of about 1M samples (perf record -a -g -F $HUGE_F for $HUGE_SECS
# seconds) shows how the cost grows with the work. BASE=none leaves the
# baseline out, HUGE_SECS=0 the large recording.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh --bench >/dev/null
sh scripts/build.sh
OUT=${OUT:-/tmp/bpfperf-bench}
SECS=${SECS:-25}
WORK=${WORK:-12000000}
REPS=${REPS:-3}
B=$PWD/build/bpfperf
BASE=${BASE:-22bcbae}
HUGE_SECS=${HUGE_SECS:-16}
HUGE_F=${HUGE_F:-19999}
mkdir -p "$OUT"
BB=""
if [ "$BASE" != none ]; then
  BB=$OUT/base-$BASE/build/bpfperf
  if [ ! -x "$BB" ]; then
    rm -rf "$OUT/base-$BASE"
    git worktree add --detach "$OUT/base-$BASE" "$BASE" >/dev/null 2>&1 ||
      { echo "bench: cannot check out BASE=$BASE (a git ref of this repository)" >&2; exit 1; }
    (cd "$OUT/base-$BASE" && meson setup build >/dev/null && ninja -C build >/dev/null) ||
      { echo "bench: the BASE=$BASE tree does not build" >&2; exit 1; }
  fi
fi
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

# REUSE=1: the recordings of an earlier run in $OUT are read again (the
# report rows only: RECORD_ROWS=0 leaves the record overhead rows out)
if [ "${REUSE:-0}" = 1 ] && [ -f big-perf.data ] && [ -f big-ours.data ] && [ -f big-multi.data ]; then
  echo "# reusing the recordings in $OUT" >&2
else
echo "# recording ${SECS}s of a mixed workload with perf record -a -g -F 4999" >&2
perf record -a -g -F 4999 -o big-perf.data -- sh "$OLDPWD/bench/mixed_workload.sh" "$SECS" >/dev/null 2>rec.err
"$B" record -a -g -F 4999 -o big-ours.data -- sh "$OLDPWD/bench/mixed_workload.sh" "$SECS" >/dev/null 2>>rec.err
# several events: one block per event in both reports
perf record -a -g -F 4999 -e cpu-clock,page-faults -o big-multi.data -- sh "$OLDPWD/bench/mixed_workload.sh" "$SECS" >/dev/null 2>>rec.err
fi
nsamp=$("$B" report -i big-perf.data --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_samples"])')
ndso=$("$B" report -i big-perf.data --sort dso --no-children --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["entries"]))')
nsamp2=$("$B" report -i big-ours.data --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_samples"])')
files="big-perf.data big-ours.data big-multi.data"
nsamp3=""
if [ "$HUGE_SECS" != 0 ]; then
  if [ "${REUSE:-0}" != 1 ] || [ ! -f huge-perf.data ]; then
    echo "# recording ${HUGE_SECS}s with perf record -a -g -F $HUGE_F (about 1M samples)" >&2
    perf record -a -g -F "$HUGE_F" -o huge-perf.data -- sh "$OLDPWD/bench/mixed_workload.sh" "$HUGE_SECS" >/dev/null 2>>rec.err
  fi
  nsamp3=$("$B" report -i huge-perf.data --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_samples"])')
  files="$files huge-perf.data"
fi

# interleaved: one run of each command per round, REPS rounds, each round
# starting with the next command (the run right after perf's 1-2 GB report
# is slower on this VM, whichever tool it is); prints the median
# "seconds maxrss_kb" of each command, one line each, in argument order
measure_rounds() {
  nc=$#
  for r in $(seq "$REPS"); do
    for s in $(seq 0 $((nc - 1))); do
      i=$(( (s + r) % nc ))
      eval "c=\${$((i + 1))}"
      /usr/bin/time -f '%e %M' -o t.$$ sh -c "$c" >/dev/null 2>&1 || true
      echo "$i $(tail -1 t.$$)"
    done
  done | sort -k1,1n -k2,2n | awk -v n="$REPS" '{ k = $1; c[k]++; if (c[k] == int((n + 1) / 2)) print $2, $3 }'
}

{
echo "| what | bpfperf | perf | ratio (perf / bpfperf) | bpfperf at $BASE | this tree / $BASE |"
echo "|---|---|---|---|---|---|"
for f in $files; do
  # A figure for a tool that failed would be meaningless: check both read the file.
  for tool in "perf report -i $f --stdio" "$B report -i $f"; do
    if ! $tool --no-children >check.out 2>check.err || grep -qi 'failed to process' check.err ||
       ! grep -q '%' check.out; then
      echo "bench: '$tool' failed on $f:" >&2; head -5 check.err >&2; exit 1
    fi
  done
  for mode in children no-children; do
    if [ -n "$BB" ]; then
      set -- $(measure_rounds "perf report -i $f --stdio --$mode" "$B report -i $f --$mode" \
                              "$BB report -i $f --$mode")
      pt=$1 pm=$2 bt=$3 bm=$4 ot=$5 om=$6
    else
      set -- $(measure_rounds "perf report -i $f --stdio --$mode" "$B report -i $f --$mode")
      pt=$1 pm=$2 bt=$3 bm=$4 ot="" om=""
    fi
    base_t="" base_m="" rel_t="" rel_m=""
    if [ -n "$ot" ]; then
      base_t="${ot} s"; base_m="$((om / 1024)) MiB"
      rel_t=$(echo "$bt $ot" | awk '{ printf "%.2fx the time", $1 / ($2 > 0 ? $2 : 0.001) }')
      rel_m=$(echo "$bm $om" | awk '{ printf "%.2fx the memory", $1 / $2 }')
    fi
    echo "| report --$mode, $f: time | ${bt} s | ${pt} s | $(echo "$pt $bt" | awk '{ printf "%.1fx faster", $1 / ($2 > 0 ? $2 : 0.001) }') | $base_t | $rel_t |"
    echo "| report --$mode, $f: peak RSS | $((bm / 1024)) MiB | $((pm / 1024)) MiB | $(echo "$pm $bm" | awk '{ printf "%.1fx less", $1 / $2 }') | $base_m | $rel_m |"
  done
done
if [ "${RECORD_ROWS:-1}" != 0 ]; then
set -- $(for i in $(seq "$REPS"); do "$OLDPWD/build/bench/cpu_work" "$WORK"; done | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
base=$1
for F in 999 4999; do
  pt=$(for i in $(seq "$REPS"); do perf record -g -F $F -o pr.data -- "$OLDPWD/build/bench/cpu_work" "$WORK" 2>/dev/null; done | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
  bt=$(for i in $(seq "$REPS"); do "$B" record -g -F $F -o br.data -- "$OLDPWD/build/bench/cpu_work" "$WORK" 2>/dev/null; done | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
  set -- $(measure perf record -g -F $F -o pr.data -- "$OLDPWD/build/bench/cpu_work" "$WORK")
  prss=$2
  set -- $(measure "$B" record -g -F $F -o br.data -- "$OLDPWD/build/bench/cpu_work" "$WORK")
  brss=$2
  echo "| record -g -F $F: workload time (no profiler: ${base} s) | ${bt} s ($(pct "$bt" "$base")) | ${pt} s ($(pct "$pt" "$base")) | $(echo "$pt $bt" | awk '{ printf "%.2fx", $1 / $2 }') | | |"
  echo "| record -g -F $F: recorder peak RSS | $((brss / 1024)) MiB | $((prss / 1024)) MiB | $(echo "$prss $brss" | awk '{ printf "%.1fx less", $1 / $2 }') | | |"
done
fi
echo
nmulti=$("$B" report -i big-multi.data --json | python3 -c 'import json,sys; print(" + ".join("%d %s" % (e["samples"], e["name"]) for e in json.load(sys.stdin)["events"]))')
echo "Large recordings: big-perf.data ${nsamp} samples (perf record), big-ours.data ${nsamp2} samples (bpfperf record), ${ndso} DSOs; big-multi.data (perf record -e cpu-clock,page-faults): ${nmulti} samples${nsamp3:+; huge-perf.data ${nsamp3} samples (perf record -F $HUGE_F)}; ${REPS} interleaved rounds, median."
} | tee results.md
