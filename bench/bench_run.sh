#!/bin/sh
# bench_run.sh: `bpfperf run examples/tracex4.bpf.o` (write size histogram
# from the sys_enter_write tracepoint) against the bpftrace one-liner doing
# the same job, side by side in the same run:
#   bpftrace -e 'tracepoint:syscalls:sys_enter_write { @ = hist(args->count); }'
# Measures, median of N runs (default 5):
#   attach:  time from exec to "attached" (bpfperf -v) / "Attaching" (bpftrace)
#   total:   time from exec to the final dump and exit, with `-- /bin/true` / `-c /bin/true`
#   rss:     peak RSS of the tool (KiB)
# Usage (root): sh bench/bench_run.sh [BUILD_DIR] [RUNS]
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-build}
RUNS=${2:-5}
B="$BUILD/bpfperf"
OBJ="$BUILD/examples/tracex4.bpf.o"
[ -x "$B" ] && [ -f "$OBJ" ] || { echo "build first: ninja -C $BUILD" >&2; exit 1; }
command -v bpftrace >/dev/null || { echo "bpftrace missing: apt-get install -y bpftrace" >&2; exit 1; }
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing
python3 - "$B" "$OBJ" "$RUNS" <<'PY'
import os, resource, statistics, subprocess, sys, time
b, obj, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
PROG = 'tracepoint:syscalls:sys_enter_write { @ = hist(args->count); }'
tools = {
    "bpfperf run": {
        "attach": [b, "-v", "run", obj, "--duration", "0.2"], "marker": b"attached",
        "total": [b, "run", obj, "--", "/bin/true"],
    },
    "bpftrace": {
        "attach": ["bpftrace", "-e", PROG + " interval:ms:200 { exit(); }"], "marker": b"Attaching",
        "total": ["bpftrace", "-e", PROG, "-c", "/bin/true"],
    },
}
def child_rss():
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
def attach_time(cmd, marker):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT if marker == b"Attaching" else subprocess.PIPE)
    if marker == b"Attaching":
        # bpftrace prints it on stdout
        p.kill(); p.wait()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        t0 = time.monotonic()
        stream = p.stdout
    else:
        stream = p.stderr
    t = None
    for line in stream:
        if marker in line and t is None:
            t = time.monotonic() - t0
    p.wait()
    return t
def total_time(cmd):
    t0 = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.monotonic() - t0
res = {}
for name, t in tools.items():
    att, tot, rss = [], [], []
    for _ in range(runs):
        att.append(attach_time(t["attach"], t["marker"]))
    for _ in range(runs):
        # peak RSS of one child: fork a measuring helper per run
        r = subprocess.run([sys.executable, "-c",
            "import resource,subprocess,sys,time;t=time.monotonic();"
            "subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL,check=True);"
            "print(time.monotonic()-t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"] + t["total"],
            capture_output=True, text=True, check=True)
        s, k = r.stdout.split()
        tot.append(float(s)); rss.append(int(k))
    res[name] = (statistics.median(att), statistics.median(tot), statistics.median(rss))
    print("%-12s attach %8.1f ms   total (-- true) %8.1f ms   peak RSS %7d KiB" %
          (name, res[name][0] * 1e3, res[name][1] * 1e3, res[name][2]))
a, c = res["bpfperf run"], res["bpftrace"]
print("ratio bpftrace/bpfperf: attach %.1fx, total %.1fx, peak RSS %.1fx" % (c[0] / a[0], c[1] / a[1], c[2] / a[2]))
PY
