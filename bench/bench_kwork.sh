#!/bin/sh
# bench/bench_kwork.sh: the cost of kwork tracing on an interrupt-heavy load:
# small TCP messages over loopback for SECS seconds (every send a NET_RX
# softirq; the workload counts its own messages, so the tools' start-up and
# exit are not in the figures): no tracing vs `bpfperf kwork report -- W`
# (in-kernel aggregation; also --hist) vs `perf kwork record -- W` (perf 6.1:
# every irq, softirq and workqueue event written to perf.data), then
# `perf kwork report` reading it. Median of REPS interleaved runs; prints a
# markdown table. Not a test: figures vary with the machine. Needs root.
#   BPFPERF=build/bpfperf SECS=3 REPS=3 sh bench/bench_kwork.sh
set -eu
cd "$(dirname "$0")/.."
B=${BPFPERF:-$PWD/build/bpfperf}
SECS=${SECS:-3}
REPS=${REPS:-3}
OUT=${OUT:-/tmp/bpfperf-bench-kwork}
mkdir -p "$OUT"
PD=$(mktemp -d)
cd "$OUT"
cat >net.py <<'PY'
import socket, sys, threading, time
secs = float(sys.argv[1])
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
def sink():
    c, _ = srv.accept()
    while c.recv(65536):
        pass
threading.Thread(target=sink, daemon=True).start()
cli = socket.create_connection(srv.getsockname())
cli.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
msg, n = b"y" * 256, 0
end = time.monotonic() + secs
while time.monotonic() < end:
    cli.sendall(msg)
    n += 1
print("%.0f" % (n / secs))
PY
W="python3 $OUT/net.py $SECS"
rate() { "$@" 2>/dev/null | tail -1; }	# messages per second the workload reports
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
n=$(median <none); o=$(median <ours); oh=$(median <oursh); r=$(median <prec); p=$(median <prep)
size=$(stat -c %s perf.data)
rm -rf "$PD"
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }
echo "| setup (loopback TCP, 256-byte sends for $SECS s, median of $REPS) | messages/s | x no tracing |"
echo "|---|---|---|"
echo "| no tracing | $n | 1.00 |"
echo "| \`bpfperf kwork report -- W\` | $o | $(ratio "$o" "$n") |"
echo "| \`bpfperf kwork report --hist -- W\` | $oh | $(ratio "$oh" "$n") |"
echo "| \`perf kwork record -- W\` ($size bytes of perf.data) | $r | $(ratio "$r" "$n") |"
echo "| then \`perf kwork report\` | $p s | |"
