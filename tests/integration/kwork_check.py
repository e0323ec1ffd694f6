#!/usr/bin/env python3
# kwork_check.py REPORT.json [irq]: bpfperf kwork report --json of a run
# bracketed by tests/workloads/kwork_load.py (run_bracketed in
# test_kwork*.sh), which copied /proc/softirqs and /proc/interrupts to
# softirqs.0/1 and interrupts.0/1 in the current directory, with the
# monotonic times just after and before those copies in t.0/t.1. Our window
# (span_ns) holds /proc's: it begins at the attach and ends at the SIGINT
# that follows the last copy. So:
#   ours >= /proc - 2% (3 events of slack) - the calls the kernel skipped
#           (counters missed_<class>: another BPF program was running);
#   ours <= /proc + 2% (3 events of slack) + what the vector's rate in
#           /proc's window gives in the part of our window outside it
#           (span_ns - (t.1 - t.0)), 1.5 times (no process starts or
#           exits there, so the rate holds), + 5: the RCU and timer work of
#           the attach itself falls between it and the first copy (the 6.1
#           guest once counted 7 RCU softirqs more than /proc).
# With "irq", the irqs of one handler in both /proc/interrupts copies too.
import json, sys

d = json.load(open(sys.argv[1]))
t0, t1 = (int(open(f).read()) for f in ("t.0", "t.1"))
inner = max(t1 - t0, 1)
outside = max(d["span_ns"] - inner, 0)
print("window: ours %.3f s, /proc's %.3f s" % (d["span_ns"] / 1e9, inner / 1e9))


def within(what, want, got, missed):
    rate_slack = want * outside / inner * 1.5
    lo = want - max(0.02 * want, 3) - missed
    hi = want + max(0.02 * want, 3) + rate_slack + 5
    print("%-16s /proc %8d ours %8d (allowed %d..%d)" % (what, want, got, lo, hi))
    return lo <= got <= hi


def softirqs(fn):
    r = {}
    for l in open(fn).read().splitlines()[1:]:
        p = l.split()
        r[p[0].rstrip(":")] = sum(int(x) for x in p[1:])
    return r


a, b = softirqs("softirqs.0"), softirqs("softirqs.1")
ours = {}
for e in d["entries"]:
    if e["class"] == "softirq":
        vec = e["name"][3:].split(":")[0]
        ours[vec] = ours.get(vec, 0) + e["count"]
bad = [v for v in a if not within("softirq " + v, b[v] - a[v], ours.get(v, 0), d["counters"]["missed_softirq"])]
assert not bad, "softirq counts differ from /proc/softirqs: %s" % bad
assert sum(ours.values()) > 100, "too few softirqs"


def interrupts(fn):
    lines = open(fn).read().splitlines()
    ncpu = len(lines[0].split())
    r = {}
    for l in lines[1:]:
        p = l.split()
        if not p[0].rstrip(":").isdigit():
            continue
        cnt = sum(int(x) for x in p[1:1 + ncpu] if x.isdigit())
        # a shared irq (several handlers, "a, b") has one entry per handler
        r[int(p[0].rstrip(":"))] = (cnt, "," in l)
    return r


if len(sys.argv) > 2 and sys.argv[2] == "irq":
    ia, ib = interrupts("interrupts.0"), interrupts("interrupts.1")
    oi = {}
    for e in d["entries"]:
        if e["class"] == "irq":
            oi[e["id"]] = oi.get(e["id"], 0) + e["count"]
    compared = 0
    for irq, got in sorted(oi.items()):
        if irq not in ia or irq not in ib or ib[irq][1]:
            continue
        assert within("irq %d" % irq, ib[irq][0] - ia[irq][0], got, d["counters"]["missed_irq"]), \
            "irq %d differs from /proc/interrupts" % irq
        compared += 1
    moved = [i for i in ib if i in ia and not ib[i][1] and ib[i][0] > ia[i][0]]
    # (a guest on 9p and loopback may have no irq of its own in the window)
    assert compared >= 1 or not moved, "no irq to compare with /proc/interrupts (moved: %s)" % moved

wq = [e for e in d["entries"] if e["class"] == "workqueue"]
assert wq, "no workqueue items"
hexed = [e["name"] for e in wq if e["name"].startswith("(w)0x")]
assert not hexed, "workqueue items without a name: %s" % hexed
percpu = {}
for e in d["entries"]:
    percpu[e["cpu"]] = percpu.get(e["cpu"], 0) + e["total_runtime_ns"]
for cpu, t in percpu.items():
    assert t <= d["span_ns"], "CPU %d: %d ns of work in a %d ns window" % (cpu, t, d["span_ns"])
for k in ("map_full", "pending_full", "ringbuf_full", "bad_vector", "name_map_full"):
    assert d["counters"][k] == 0, "lost: %s = %d" % (k, d["counters"][k])
print("missed (recursion):", {k: v for k, v in d["counters"].items() if k.startswith("missed")})
print("workqueue items:", " ".join(sorted({e["name"] for e in wq})))
