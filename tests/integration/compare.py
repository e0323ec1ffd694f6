#!/usr/bin/env python3
"""Compare `perf report --stdio` text with `bpfperf report --json` for the same
file: entries above a threshold must agree on (comm, dso, symbol) and on the
overhead percentage. Usage:
  compare.py PERF_TXT OURS_JSON [--children] [--min PCT] [--bpf-script SCRIPT_TXT]

--bpf-script: `perf script --show-bpf-events -F comm,ip,period` of the same
file. BPF program entries are then checked against the attribution computed
from it by the kernel's rule (a program's KSYMBOL range is live from its
registration until its unregistration or until a newer program's range
overlaps it: the kernel reuses the addresses of freed programs), not against
perf report's. perf 6.1 keeps a range whose unregistration the recording
missed (on Linux 6.1 a per-task recording sees no KSYMBOL unregister for
libbpf's feature-probe programs) and credits the newer program's samples to
the dead one; its report is no oracle there.

Kernel modules are compared as [kernel.kallsyms]: perf names their code so
when it reads the kernel through /proc/kcore, we name the module (see
compare_table.py)."""
import json
import re
import sys

from compare_table import fold	# "[mod]" -> "[kernel.kallsyms]" where modules are loaded

CLONE = re.compile(r'( \[clone [^\]]*\])+$')

def perf_entries(path, children):
    rows = {}
    pat = re.compile(r'^\s+([\d.]+)%\s+(?:([\d.]+)%\s+)?(\S+)\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$')
    for line in open(path, errors='replace'):
        m = pat.match(line)
        if not m:
            continue
        first, second, comm, dso, _, sym = m.groups()
        pct = float(first) if (children or second is None) else float(second)
        if children and second is None:
            continue
        dso = fold(dso)
        rows[(comm, dso, sym)] = rows.get((comm, dso, sym), 0.0) + pct
    return rows

def bpf_oracle(path):
    """(comm, name) -> % of the period in BPF programs, replaying KSYMBOL records."""
    live = []   # [start, end, name]
    per = {}
    total = 0
    pending = None   # (comm, period) of a sample whose ip is on the next line
    ks = re.compile(r'PERF_RECORD_KSYMBOL addr ([0-9a-f]+) len (\d+) type (\d+) flags (0x[0-9a-f]+) name (\S+)')
    for line in open(path, errors='replace'):
        m = ks.search(line)
        if m:
            addr, ln, typ, flags, name = int(m[1], 16), int(m[2]), int(m[3]), int(m[4], 16), m[5]
            if typ != 1:
                continue
            if flags & 1:
                live = [r for r in live if r[0] != addr]
            else:
                end = addr + max(ln, 1)
                live = [r for r in live if r[1] <= addr or r[0] >= end] + [[addr, end, name]]
            continue
        f = line.split()
        if 'PERF_RECORD' in line or not f:
            continue
        if not line.startswith('\t'):
            # a sample: "comm period ip", or "comm period" with its callchain
            # below (-g: the first frame is the sampled ip)
            pending = None
            try:
                if len(f) >= 3:
                    period, ip, comm = int(f[-2]), int(f[-1], 16), ' '.join(f[:-2])
                elif len(f) >= 2:
                    pending = (' '.join(f[:-1]), int(f[-1]))
                    continue
                else:
                    continue
            except ValueError:
                continue
        elif pending is None:
            continue    # a deeper frame
        else:
            try:
                ip = int(f[0], 16)
            except ValueError:
                pending = None
                continue
            comm, period = pending
            pending = None
        total += period
        for r in live:
            if r[0] <= ip < r[1]:
                per[(comm, r[2])] = per.get((comm, r[2]), 0) + period
                break
    return {k: 100.0 * v / total for k, v in per.items()} if total else {}

def main():
    perf_txt, ours_json = sys.argv[1], sys.argv[2]
    children = '--children' in sys.argv
    minpct = 2.0
    if '--min' in sys.argv:
        minpct = float(sys.argv[sys.argv.index('--min') + 1])
    perf = perf_entries(perf_txt, children)
    if '--bpf-script' in sys.argv and not children:
        truth = bpf_oracle(sys.argv[sys.argv.index('--bpf-script') + 1])
        for key in [k for k in perf if k[1].startswith('bpf_prog_')]:
            exp = truth.get((key[0], key[1]), 0.0)
            if abs(exp - perf[key]) > 0.06:
                print(f"perf misattributes {key}: perf={perf[key]:.2f}%, its KSYMBOL records give {exp:.2f}%")
            del perf[key]
        for (comm, name), pct in truth.items():
            perf[(comm, name, name)] = pct
    doc = json.load(open(ours_json))
    ours = {}
    for e in doc['entries']:
        # perf 6.1 names a C++ clone without its " [clone .part.0]" (an ASan
        # build's runtime has them: __sanitizer::internal_allocator() and its
        # .part.0 are two entries of one name there); we keep the suffix
        key = (e['comm'], fold(e['dso']), CLONE.sub('', e['symbol']))
        ours[key] = ours.get(key, 0.0) + (e['children'] if children else e['self'])
    bad = 0
    top = sorted(perf.items(), key=lambda kv: -kv[1])
    checked = 0
    for key, pct in top:
        if pct < minpct:
            break
        if key[1] == '[unknown]':
            # perf 6.1 sometimes misses KSYMBOL side-band in its own files and
            # shows BPF addresses as [unknown]: not an oracle for those.
            print(f"skip {key}: perf could not resolve it")
            continue
        checked += 1
        mine = ours.get(key)
        if mine is None:
            print(f"MISSING in bpfperf: {key} perf={pct:.2f}%")
            bad += 1
        # One sample either way (side-band and samples at the same instant may
        # be ordered differently) is ~0.03% of a few thousand samples.
        elif abs(mine - pct) > 0.06:
            print(f"DIFF {key}: perf={pct:.2f}% bpfperf={mine:.2f}%")
            bad += 1
        else:
            print(f"same {key}: {pct:.2f}%")
    if checked == 0:
        print("no perf entry above the threshold: nothing compared")
        return 1
    return 1 if bad else 0

sys.exit(main())
