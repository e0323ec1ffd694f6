#!/bin/sh
# bench/bench_kwork.sh: the cost of kwork tracing on an interrupt-heavy load:
# SENDS 256-byte TCP sends over loopback (bench/net_load.c: every send a
# NET_RX softirq; the workload times its own sends, so the tools' start-up
# and exit are not in the figures): no tracing vs `bpfperf kwork report -- W`
# (in-kernel aggregation; also --hist) vs `perf kwork record -- W` (perf 6.1:
# every irq, softirq and workqueue event written to perf.data), then
# `perf kwork report` reading it. The cost: the whole system's busy CPU time
# per send while the sends run (the tools' work in softirqs, in perf's
# writer, ...), from /proc/stat; throughput alone moves with the scheduling
# of the two ends more than with the tracing. Median of REPS interleaved
# runs; prints a markdown table. Not a test: figures vary with the machine
# (and with whatever else runs on it). Needs root.
#   BPFPERF=build/bpfperf SENDS=1000000 REPS=5 sh bench/bench_kwork.sh
set -eu
cd "$(dirname "$0")/.."
B=${BPFPERF:-$PWD/build/bpfperf}
SENDS=${SENDS:-1000000}
REPS=${REPS:-3}
OUT=${OUT:-/tmp/bpfperf-bench-kwork}
mkdir -p "$OUT"
PD=$(mktemp -d)
cd "$OUT"
cc -O2 -o net_load "$OLDPWD/bench/net_load.c"
W="$OUT/net_load $SENDS $OUT/rate"
rate() { rm -f rate; "$@" >/dev/null 2>&1; cat rate; }	# what the workload wrote: sends/s, CPU us per send
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >none; : >ours; : >oursh; : >prec; : >prep
for i in $(seq "$REPS"); do
  rate $W >>none
  rate "$B" kwork report -- $W >>ours
  rate "$B" kwork report --hist -- $W >>oursh
  rate perf --buildid-dir "$PD" kwork record -o perf.data -- $W >>prec
  /usr/bin/time -f '%e' -o t.$$ perf --buildid-dir "$PD" kwork report -i perf.data >/dev/null 2>&1 || true
  tail -1 t.$$ >>prep
done
size=$(stat -c %s perf.data)
rm -rf "$PD"
col() { awk -v c="$2" '{ print $c }' "$1" | median; }	# the median of a column of a result file
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }
nr=$(col none 1); nc=$(col none 2)
echo "| setup ($SENDS loopback TCP sends of 256 bytes, median of $REPS) | sends/s | busy CPU us per send | x no tracing (CPU per send) |"
echo "|---|---|---|---|"
row() {	# LABEL FILE
  r=$(col "$2" 1); c=$(col "$2" 2)
  echo "| $1 | $r | $c | $(ratio "$c" "$nc") |"
}
row "no tracing" none
row "\`bpfperf kwork report -- W\`" ours
row "\`bpfperf kwork report --hist -- W\`" oursh
row "\`perf kwork record -- W\` ($size bytes of perf.data)" prec
echo "| then \`perf kwork report\`: $(median <prep) s | | | |"
