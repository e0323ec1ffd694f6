#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen-vmlinux-min.py: the vendored kernel type header for the BPF programs.

bpftool's C dump of a kernel's BTF (every type of the kernel, ~3 MB) reduced
to the types listed in a roots file plus what they need: the complete
definition of every type they contain by value (struct members, arrays,
typedefs, enums), and a forward declaration of every struct or union they
only point to. The kept definitions are bpftool's own text, in bpftool's
order, under bpftool's `preserve_access_index` pragma, so every struct stays
CO-RE relocatable: field offsets are fixed up against the running kernel at
load time, whichever kernel the header came from.

Usage (from the top of the tree, as root or wherever /sys/kernel/btf is
readable):
  scripts/gen-vmlinux-min.py src/bpf/vmlinux/types.txt src/bpf/vmlinux/x86/vmlinux.h
Options: --btf FILE (default /sys/kernel/btf/vmlinux), --bpftool PATH,
--dump FILE (an existing `bpftool btf dump ... format c` output instead).

The roots file lists one type a line: `struct NAME`, `union NAME`,
`enum NAME`, `typedef NAME`, or `const NAME` for an enum constant (its whole
enum is kept; the uapi flags such as BPF_ANY live in anonymous enums).
`#` starts a comment. A root missing from the kernel's BTF is an error.
"""
import argparse
import os
import re
import subprocess
import sys

TAG_RE = re.compile(r'\b(struct|union|enum)\s+(\w+)(\s*\**)')
IDENT_RE = re.compile(r'\b([A-Za-z_]\w*)\b')
HEAD_RE = re.compile(r'(struct|union|enum) (\w+) \{')


class Dump:
    """bpftool's C dump cut into its top-level declarations (bpftool separates
    them by one blank line; none contains a blank line)."""

    def __init__(self, text):
        start = text.index('#endif\n\n') + len('#endif\n\n')
        end = text.rindex('\n\n#ifndef BPF_NO_PRESERVE_ACCESS_INDEX')
        self.blocks = text[start:end].split('\n\n')
        self.tagged = {}	# (kind, name) -> block index of the definition
        self.typedefs = {}	# name -> block index
        self.consts = {}	# enum constant -> block index
        for i, b in enumerate(self.blocks):
            first = b.split('\n', 1)[0]
            m = HEAD_RE.match(first)
            if m:
                self.tagged[(m.group(1), m.group(2))] = i
            elif first.startswith('typedef'):
                self.typedefs[self.typedef_name(b)] = i
            if first.startswith('enum'):
                for c in re.finditer(r'^\t(\w+) = ', b, re.M):
                    self.consts[c.group(1)] = i

    @staticmethod
    def typedef_name(b):
        if '{' not in b:
            m = re.search(r'\(\*\s*(?:const\s+)?(\w+)\)\s*[(\[]', b)	# pointer to function or array
            if m:
                return m.group(1)
            m = re.match(r'typedef .*?(\w+)\(', b)		# function type
            if m and not b.rstrip().endswith(']'):
                return m.group(1)
        m = re.search(r'(\w+)\s*(\[[^\]]*\])*;\s*$', b.rstrip().split('\n')[-1])
        if not m:
            raise ValueError('cannot name typedef: ' + b[:80])
        return m.group(1)

    def deps(self, i):
        """What block i needs: [(key, full)] where key is (kind, name) or
        ('typedef', name) and full is False when a forward declaration is
        enough (a struct or union only pointed to, or named in a function
        prototype)."""
        b = self.blocks[i]
        lines = b.split('\n')
        if not b.startswith('typedef'):
            lines = lines[1:]		# not the type's own name
        out = []
        for line in lines:
            proto = '(' in line
            for m in TAG_RE.finditer(line):
                kind, name = m.group(1), m.group(2)
                full = kind == 'enum' or not ('*' in m.group(3) or proto)
                out.append(((kind, name), full))
            for m in IDENT_RE.finditer(line):
                n = m.group(1)
                if n in self.typedefs and self.typedefs[n] != i:
                    out.append((('typedef', n), True))
        return out


def resolve(dump, roots):
    """The blocks to keep, and the structs/unions to forward-declare."""
    keep, declared, seen = set(), set(), set()
    work = list(roots)
    while work:
        key = work.pop()
        if key in seen:
            continue
        seen.add(key)
        if key[0] == 'typedef':
            idx = dump.typedefs.get(key[1])
        elif key[0] == 'const':
            idx = dump.consts.get(key[1])
        else:
            idx = dump.tagged.get(key)
        if idx is None:
            if key in roots:
                sys.exit('gen-vmlinux-min: %s %s is not in the kernel BTF' % key)
            declared.add(key)	# opaque: only ever pointed to
            continue
        keep.add(idx)
        for dep, full in dump.deps(idx):
            if full or dep[0] == 'typedef':
                work.append(dep)
            else:
                declared.add(dep)
    # Declared up front even when defined further down: a function prototype
    # may name a struct before its definition (bpftool's full dump declares
    # those where it needs to; the reduced order has other gaps).
    defined = {k for k, i in dump.tagged.items() if i in keep}
    return sorted(keep), sorted(k for k in declared | defined if k[0] != 'enum')


def read_roots(path):
    roots = []
    for n, line in enumerate(open(path), 1):
        line = line.split('#', 1)[0].split()
        if not line:
            continue
        if len(line) != 2 or line[0] not in ('struct', 'union', 'enum', 'typedef', 'const'):
            sys.exit('%s:%d: expected "struct|union|enum|typedef|const NAME"' % (path, n))
        roots.append((line[0], line[1]))
    return roots


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('roots')
    ap.add_argument('out')
    ap.add_argument('--btf', default='/sys/kernel/btf/vmlinux')
    ap.add_argument('--bpftool', default='bpftool')
    ap.add_argument('--dump', help='an existing C dump to reduce')
    ap.add_argument('--kernel', default=os.uname().release,
                    help='the kernel release to name in the header (default: running)')
    a = ap.parse_args()

    if a.dump:
        text = open(a.dump).read()
        tool = 'bpftool btf dump file %s format c (given as %s)' % (a.btf, a.dump)
    else:
        text = subprocess.run([a.bpftool, 'btf', 'dump', 'file', a.btf, 'format', 'c'],
                              check=True, capture_output=True, text=True).stdout
        ver = subprocess.run([a.bpftool, 'version'], capture_output=True,
                             text=True).stdout.split('\n')[0]
        tool = '%s btf dump file %s format c' % (ver, a.btf)
    dump = Dump(text)
    keep, fwd = resolve(dump, read_roots(a.roots))
    arch = os.uname().machine

    out = []
    out.append('/* SPDX-License-Identifier: GPL-2.0-only */\n'
               '/* vmlinux.h (vendored, reduced): kernel types for the BPF programs, used\n'
               ' * where the build host has no /sys/kernel/btf/vmlinux (or with\n'
               ' * -Dvmlinux_h=vendored). GENERATED, do not edit: regenerate with\n'
               ' *   scripts/gen-vmlinux-min.py %s %s\n'
               ' * from: %s\n'
               ' * kernel: Linux %s (%s)\n'
               ' * kept: %d of %d declarations (the roots in %s and what they\n'
               ' * contain by value; pointed-to structs are only declared).\n'
               ' * Every struct and union is preserve_access_index (the pragma below), so\n'
               ' * CO-RE relocates field accesses against the running kernel\'s BTF. A\n'
               ' * program that needs another type: add it to the roots file, regenerate,\n'
               ' * and build with -Dvmlinux_h=vendored to check. */\n'
               % (a.roots, a.out, tool, a.kernel, arch, len(keep), len(dump.blocks),
                  os.path.basename(a.roots)))
    out.append('#ifndef __VMLINUX_H__\n#define __VMLINUX_H__\n\n'
               '#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n'
               '#pragma clang attribute push (__attribute__((preserve_access_index)), '
               'apply_to = record)\n#endif\n\n')
    out.append(''.join('%s %s;\n' % k for k in fwd) + '\n')
    out.append('\n\n'.join(dump.blocks[i] for i in keep))
    out.append('\n\n#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n#pragma clang attribute pop\n#endif\n\n'
               '#endif /* __VMLINUX_H__ */\n')
    tmp = a.out + '.tmp'
    with open(tmp, 'w') as f:
        f.write(''.join(out))
    os.replace(tmp, a.out)


if __name__ == '__main__':
    main()
