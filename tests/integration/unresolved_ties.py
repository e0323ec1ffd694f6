#!/usr/bin/env python3
"""Put runs of symbol-less entries that tie on every other column in one
order (by their text), for comparing a `report --stdio` table with perf's
where that order is perf's alone. Usage: unresolved_ties.py < TEXT > TEXT

perf 6.1 adds entries to a red-black tree by sort__sym_cmp, which compares
two symbol-less entries by address but a symbol-less entry and one with a
symbol by dso: no total order, so where such entries from several dsos
(a [vdso] caller, an unmapped address) tie on every column, the order it
prints them in depends on the shape of its tree. We print them by address.
Only those rows move, and only among themselves; every other line stays."""
import re
import sys

# "[.] 0x00007ffe2ffc2d5d" or "[.] 0000000000000000": a symbol-less entry
UNRESOLVED = re.compile(r'\[.\] (?:0x[0-9a-f]{16}|0{16})(?= |$)')


def key(line):
    """The row without its symbol, or None when it has one."""
    if not UNRESOLVED.search(line) or line.startswith('#'):
        return None
    return UNRESOLVED.sub('[?] ADDRESS', line)


def main():
    lines = sys.stdin.read().splitlines()
    out, i = [], 0
    while i < len(lines):
        k = key(lines[i])
        j = i + 1
        if k is not None:
            while j < len(lines) and key(lines[j]) == k:
                j += 1
        out.extend(sorted(lines[i:j]))
        i = j
    print('\n'.join(out))


if __name__ == '__main__':
    main()
