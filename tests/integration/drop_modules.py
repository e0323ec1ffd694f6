#!/usr/bin/env python3
"""Filter a `report --stdio` text for a line-for-line comparison with perf's
where kernel modules are loaded (the QEMU guests; the CI host has none, and
then the text passes unchanged). Usage: drop_modules.py < TEXT > TEXT

perf 6.1 reading the kernel through /proc/kcore names module code
[kernel.kallsyms] and sizes its symbol columns by a module symbol's kallsyms
line (see compare_table.py); we name the module. Both shift the order of
ties and the column widths. So every entry whose block (its line and its
call graph) shows a module's name or a module's symbol is dropped, runs of
spaces become one and the columns' dotted line goes, on both sides: the
rest must still be the same."""
import re
import sys

from compare_table import MODULES, is_module_code, load_module_symbols

ENTRY = re.compile(r'^\s+(\d+\.\d+%|N/A|\d+)\s')

def main():
    text = sys.stdin.read().splitlines()
    if not MODULES:
        print('\n'.join(text))
        return
    modsyms = load_module_symbols()

    blocks, cur = [], None
    for line in text:
        if line.startswith('#') or not line.strip():
            blocks.append([line])
            cur = None
        elif ENTRY.match(line) or cur is None:
            cur = [line]
            blocks.append(cur)
        else:
            cur.append(line)
    out = []
    for b in blocks:
        if re.fullmatch(r'#[ .]*', b[0]):
            continue	# the columns' dots: widths differ
        if b[0].startswith('#') or not any(is_module_code(l, modsyms) for l in b):
            out.extend(' '.join(l.split()) for l in b)
    print('\n'.join(out))

if __name__ == '__main__':
    main()
