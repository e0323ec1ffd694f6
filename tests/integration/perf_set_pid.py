#!/usr/bin/env python3
"""Write a copy of a perf.data file (perf record's, not pipe mode) where one
SAMPLE record in EVERY gets pid and tid -1, as the kernel writes them for a
task it cannot name (an exiting one). Prints how many were changed.
Usage: perf_set_pid.py IN OUT [EVERY]"""
import struct
import sys

SAMPLE_IDENTIFIER, SAMPLE_IP, SAMPLE_TID = 1 << 16, 1 << 0, 1 << 1

def main():
    src, dst = sys.argv[1], sys.argv[2]
    every = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    buf = bytearray(open(src, 'rb').read())
    magic, _, attr_size, a_off, a_size, d_off, d_size = struct.unpack_from('<8sQQQQQQ', buf, 0)
    if magic != b'PERFILE2':
        sys.exit('%s: not a perf.data file' % src)
    types = {struct.unpack_from('<Q', buf, a_off + i + 24)[0] for i in range(0, a_size, attr_size)}
    if len(types) != 1:
        sys.exit('%s: events with different sample types' % src)
    st = types.pop()
    if not st & SAMPLE_TID:
        sys.exit('%s: samples without pid/tid' % src)
    pos = 8 + (8 if st & SAMPLE_IDENTIFIER else 0) + (8 if st & SAMPLE_IP else 0)
    off, n, changed = d_off, 0, 0
    while off + 8 <= d_off + d_size:
        typ, _, size = struct.unpack_from('<IHH', buf, off)
        if size < 8:
            sys.exit('%s: bad record at %d' % (src, off))
        if typ == 9:
            if n % every == 0:
                struct.pack_into('<ii', buf, off + pos, -1, -1)
                changed += 1
            n += 1
        off += size
    open(dst, 'wb').write(buf)
    print(changed)

main()
