#!/usr/bin/env python3
"""Compare two `report --stdio` tables of the same file: perf's and ours.
Usage: compare_table.py PERF_TXT OURS_TXT [--min PCT] [--tol PCT] [--ignore REGEX]
                        [--graph-of REGEX] [--drop-modules]

Checked: the table's header lines (the "# comm: X" lines of an elided key,
the column titles, the sample count line), and every entry at or above
--min percent on either side: the same key text (sort key columns) in
both, percentages within --tol, number columns (samples, period) within
--tol percent of each other. --graph-of REGEX: the call-graph lines under
the entries whose key matches REGEX must be the same text. Lines matching --ignore (e.g. BPF
programs whose attribution perf gets wrong, see compare.py) are skipped;
when there were some, column widths are not compared (they may set them),
nor with --loose-header (perf sizes the srcline column before it knows
most of its values).

Kernel modules: perf reading the running kernel's symbols through
/proc/kcore names module code [kernel.kallsyms] (one kcore map for the
kernel and its modules); we name the module ([9pnet]), as perf does
without kcore. Both sides are compared with module names folded into
[kernel.kallsyms] (rows that become the same key are summed). Only where
modules are loaded (/proc/modules): the CI host has none, the guests do.
Where a module's code is in the table (a module's name, or a symbol of a
module in any column), column widths are not compared: perf sizes its
symbol columns by a module symbol's kallsyms line "name\t[module]" (it cuts
the name at the tab for kcore but keeps the longer length).
--drop-modules: entries of module code (a module's name or a module
symbol in the key) are left out on both sides, for views that filter by
dso: perf's --dsos [kernel.kallsyms] keeps module code it names so, ours
names the module and leaves it out.

perf-exec: perf sizes the Command (and Pid:Command) column by each thread's
last comm (thread__comm_len), so a sample taken in `perf record`'s child
before its exec, under the comm perf-exec, is printed cut to that width
("perf-exe" beside a workload named cpu_work, "perf-ex" beside sh). We do
not cut. Where perf's table has such a cut form of one of our *perf-exec
keys, it is read as the whole comm and column widths are not compared
(such a sample is rare: one in thousands, in a slow guest)."""
import re
import sys

def load_modules():
    try:
        return {l.split()[0] for l in open('/proc/modules') if l.strip()}
    except OSError:
        return set()

MODULES = load_modules()
MODRE = re.compile(r'\[([A-Za-z0-9_-]+)\]')

FOLDED = []	# a module name was folded: widths are not comparable

def load_module_symbols():
    if not MODULES:
        return set()
    try:
        return {l.split()[2] for l in open('/proc/kallsyms') if '\t[' in l}
    except (OSError, IndexError):
        return set()

def fold(text):
    if not MODULES:
        return text
    def one(m):
        if m.group(1) not in MODULES:
            return m.group(0)
        FOLDED.append(m.group(1))
        return '[kernel.kallsyms]'
    return MODRE.sub(one, text)

ENTRY = re.compile(r'^\s+(\d+\.\d+%\s+)')

def is_module_code(line, modsyms):
    """A table line (an entry or a call-graph line) shows module code: a
    module's name, or a module symbol (load_module_symbols), call-graph
    branches and percentages taken off its words."""
    if any(m.group(1) in MODULES for m in MODRE.finditer(line)):
        return True
    return any(re.sub(r'^\|?-*(\d+\.\d+%)?-*', '', t) in modsyms for t in line.split())

def parse(path, ignore, modsyms=None):
    head, rows, graphs, cur = [], {}, [], None
    skipped = False
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('# ') and ('events:' not in line and 'Tip' not in line and
                                      'To display' not in line and 'Lost' not in line):
            head.append(line.rstrip())
            continue
        if not line.strip() or line.startswith('#'):
            cur = None
            continue
        toks = line.split()
        if ENTRY.match(line) or (toks and re.fullmatch(r'\d+', toks[0]) and len(toks) > 1):
            if (ignore and re.search(ignore, line)) or (modsyms is not None and is_module_code(line, modsyms)):
                cur = None
                skipped = True
                continue
            nums, i = [], 0
            while i < len(toks) and re.fullmatch(r'\d+(\.\d+)?%?', toks[i]):
                nums.append((float(toks[i].rstrip('%')), toks[i].endswith('%')))
                i += 1
            key = fold(' '.join(toks[i:]))
            if key in rows and len(rows[key]) == len(nums):	# modules folded: summed
                nums = [(a + b, p) for (a, p), (b, _) in zip(rows[key], nums)]
            rows[key] = nums
            graphs.append((key, []))
            cur = key
        elif cur is not None:
            graphs[-1][1].append(fold(line.rstrip()))
    return head, rows, graphs, skipped

def uncut(rows, graphs, full):
    """perf's cut perf-exec comms read whole (see above); true if any was."""
    cut = []
    def one(key):
        toks = key.split(' ')
        for j, t in enumerate(toks):
            for f in full:
                if t != f and len(t) >= 7 and f.startswith(t):
                    toks[j] = f
                    cut.append(t)
        return ' '.join(toks)
    new = {}
    for k, v in rows.items():
        k = one(k)
        if k in new and len(new[k]) == len(v):
            v = [(a + b, p) for (a, p), (b, _) in zip(new[k], v)]
        new[k] = v
    graphs[:] = [(one(k), g) for k, g in graphs]
    return new, bool(cut)

def loose(head):
    """Header lines without column widths (entries left out may set them)."""
    return [' '.join(h.split()) for h in head if not re.fullmatch(r'#[ .]*', h)]

def main():
    a = sys.argv[1:]
    opt = {'--loose-header': None, '--drop-modules': None, '--min': '0.5', '--tol': '0.1', '--ignore': '', '--graph-of': ''}
    files = []
    i = 0
    while i < len(a):
        if a[i] in ('--loose-header', '--drop-modules'):
            opt[a[i]] = True
            i += 1
        elif a[i] in opt:
            opt[a[i]] = a[i + 1]
            i += 2
        else:
            files.append(a[i])
            i += 1
    mn, tol, ign, gof = float(opt['--min']), float(opt['--tol']), opt['--ignore'], opt['--graph-of']
    # (an empty set where no module is loaded: nothing is left out)
    mods = load_module_symbols() if opt['--drop-modules'] and MODULES else None
    ph, pr, pg, ps = parse(files[0], ign, mods)
    oh, orow, og, os_ = parse(files[1], ign, mods)
    pr, cut = uncut(pr, pg, {t for k in orow for t in k.split() if t.endswith('perf-exec')})
    bad = []
    if ph != oh and MODULES and not FOLDED:	# (read only then: kallsyms is large)
        modsyms = load_module_symbols()
        if any(t in modsyms for rows in (pr, orow) for k in rows for t in k.split()):
            FOLDED.append('a module symbol')
    if ps or os_ or opt['--loose-header'] or FOLDED or cut:
        ph, oh = loose(ph), loose(oh)
    if ph != oh:
        bad.append('header lines differ:\n  perf: %s\n  ours: %s' % (ph, oh))
        # a column's width comes from its widest entry, shown or not: the
        # widest lines of each side (ignored ones included) name it
        for side, f in (('perf', files[0]), ('ours', files[1])):
            rows = [l.rstrip() for l in open(f, errors='replace') if l.strip() and not l.startswith('#')]
            for l in sorted(rows, key=len, reverse=True)[:3]:
                bad.append('  %s widest: %s' % (side, l))
    if not pr:
        bad.append('perf shows no entry')
    # a percentage must lead every entry (rows starting with a count are
    # parsed too, for -F sample,...)
    for name, x, y in (('perf', pr, orow), ('ours', orow, pr)):
        for k, v in x.items():
            pcts = [n for n, is_pct in v if is_pct]
            if pcts and pcts[0] < mn:
                continue
            if k not in y:
                bad.append('%s has %s %r, the other has no such entry' % (name, v, k))
                continue
            w = y[k]
            for j, ((p, is_pct), (q, _)) in enumerate(zip(v, w)):
                # percentages to --tol; counts and periods to --tol percent, or 1
                lim = tol if is_pct else max(tol / 100 * max(p, q), 1)
                if abs(p - q) > lim:
                    bad.append('%r column %d: %s %s, the other %s' % (k, j + 1, name, p, q))
    ograph = dict(og)
    ngraphs = 0
    for key, lines in pg:
        if not gof or not re.search(gof, key):
            continue
        ngraphs += 1
        if ograph.get(key) != lines:
            bad.append('call graph of %r differs:\nperf:\n%s\nours:\n%s' %
                       (key, '\n'.join(lines), '\n'.join(ograph.get(key) or ['(none)'])))
    if gof and not ngraphs:
        bad.append('perf shows no entry matching %r to compare call graphs' % gof)
    if bad:
        print('\n'.join(bad[:20]))
        sys.exit(1)
    print('ok: %d entries compared' % sum(1 for v in pr.values()
                                          if not [n for n, p in v if p] or [n for n, p in v if p][0] >= mn))

if __name__ == '__main__':
    main()
