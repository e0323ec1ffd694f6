#!/usr/bin/env python3
"""Write corrupt copies of a BPF object: bytes flipped in .BTF and .BTF.ext,
header fields and section offsets out of bounds, truncated sections, bad
type kinds, sizes, name offsets and type ids. Usage: btf_mutate.py OBJ DIR [SEED]
Prints the number of mutants written (DIR/m###.bpf.o, DIR/m###.txt says what)."""
import os, random, struct, sys

KIND_EXTRA = {1: (4, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8), 13: (0, 8),
              14: (4, 0), 15: (0, 12), 17: (4, 0), 19: (0, 12)}


def sections(b):
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)
    secs = []
    for i in range(shnum):
        o = shoff + i * shentsize
        name, typ, flags, addr, off, size = struct.unpack_from("<IIQQQQ", b, o)
        secs.append(dict(i=i, hdr=o, name_off=name, type=typ, off=off, size=size))
    stroff = secs[shstrndx]["off"]
    for s in secs:
        end = b.index(b"\0", stroff + s["name_off"])
        s["name"] = b[stroff + s["name_off"]:end].decode()
    return {s["name"]: s for s in secs}, shoff, shnum


def btf_types(b, btf):
    """Offsets (in the file) of every type header in .BTF."""
    base = btf["off"]
    hdr_len, type_off, type_len = struct.unpack_from("<III", b, base + 4)
    p = base + hdr_len + type_off
    end = p + type_len
    out = []
    while p < end:
        name_off, info, size = struct.unpack_from("<III", b, p)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        fixed, per = KIND_EXTRA.get(kind, (0, 0))
        out.append((p, kind, vlen))
        p += 12 + fixed + per * vlen
    return out


def main():
    src, outdir = sys.argv[1], sys.argv[2]
    rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 13)
    orig = open(src, "rb").read()
    secs, shoff, shnum = sections(orig)
    btf, ext = secs[".BTF"], secs.get(".BTF.ext")
    types = btf_types(orig, btf)
    muts = []

    def put(desc, data):
        muts.append((desc, bytes(data)))

    def patch(desc, off, fmt, val):
        b = bytearray(orig)
        struct.pack_into(fmt, b, off, val)
        put(desc, b)

    # 1. random bytes of .BTF and .BTF.ext flipped (1 to 4 at a time)
    for sec, n in ((btf, 90), (ext, 40)):
        if not sec:
            continue
        for _ in range(n):
            b = bytearray(orig)
            k = rnd.randint(1, 4)
            where = []
            for _ in range(k):
                o = sec["off"] + rnd.randrange(sec["size"])
                b[o] ^= rnd.choice((0x01, 0x80, 0xff, rnd.randrange(1, 256)))
                where.append(o - sec["off"])
            put("flip %s bytes %s" % ("BTF" if sec is btf else "BTF.ext", where), b)
    # 2. header fields of .BTF / .BTF.ext out of range
    bad32 = (0, 1, 3, 0x7fffffff, 0xffffffff, 0xfffffff0)
    for name, off in (("hdr_len", 4), ("type_off", 8), ("type_len", 12), ("str_off", 16), ("str_len", 20)):
        for v in bad32 + (btf["size"], btf["size"] + 1):
            patch("BTF %s=%#x" % (name, v), btf["off"] + off, "<I", v)
    patch("BTF magic", btf["off"], "<H", 0x9feb)
    patch("BTF version 2", btf["off"] + 2, "<B", 2)
    if ext:
        for name, off in (("hdr_len", 4), ("func_info_off", 8), ("func_info_len", 12),
                          ("line_info_off", 16), ("line_info_len", 20), ("core_relo_off", 24),
                          ("core_relo_len", 28)):
            for v in (1, 0x7fffffff, 0xffffffff, ext["size"]):
                patch("BTF.ext %s=%#x" % (name, v), ext["off"] + off, "<I", v)
        hdr_len, fo = struct.unpack_from("<II", orig, ext["off"] + 4)
        for v in (0, 1, 0xffff, 0xffffffff):
            patch("BTF.ext func_info rec_size=%#x" % v, ext["off"] + hdr_len + fo, "<I", v)
            patch("BTF.ext func_info sec_name_off=%#x" % v, ext["off"] + hdr_len + fo + 4, "<I", v)
            patch("BTF.ext func_info num_info=%#x" % v, ext["off"] + hdr_len + fo + 8, "<I", v)
    # 3. types: kind, vlen, size, name offsets, referenced ids
    for p, kind, vlen in rnd.sample(types, min(len(types), 16)):
        info, = struct.unpack_from("<I", orig, p + 4)
        patch("type at %#x: name_off huge" % p, p, "<I", 0xfffffff0)
        patch("type at %#x: kind 31" % p, p + 4, "<I", (info & ~(0x1f << 24)) | (31 << 24))
        patch("type at %#x: vlen 0xffff" % p, p + 4, "<I", info | 0xffff)
        patch("type at %#x: size/type 0xfffffff0" % p, p + 8, "<I", 0xfffffff0)
        if vlen and kind in (4, 5, 13, 15):
            fixed, per = KIND_EXTRA[kind]
            patch("type at %#x: member name huge" % p, p + 12 + fixed, "<I", 0x7ffffff0)
            patch("type at %#x: member type huge" % p, p + 12 + fixed + 4, "<I", 0x7ffffff0)
    # 4. string table without its NULs
    hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from("<IIIII", orig, btf["off"] + 4)
    s0 = btf["off"] + hdr_len + str_off
    b = bytearray(orig); b[s0 + str_len - 1] = ord("x"); put("BTF strings: no final NUL", b)
    b = bytearray(orig); b[s0] = ord("x"); put("BTF strings: first not empty", b)
    # 5. truncated: the section header says less, or the file ends inside .BTF
    for frac in (0, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99):
        n = int(btf["size"] * frac)
        patch("BTF sh_size=%d" % n, btf["hdr"] + 32, "<Q", n)
        if frac:
            put("file cut inside .BTF at %d" % n, orig[:btf["off"] + n])
    if ext:
        for n in (0, 4, 8, 16, ext["size"] // 2):
            patch("BTF.ext sh_size=%d" % n, ext["hdr"] + 32, "<Q", n)
    # 6. section table: offsets and sizes beyond the file, header fields
    for v in (len(orig), len(orig) - 1, 0xffffffff, 1 << 63, (1 << 64) - 16):
        patch("BTF sh_offset=%#x" % v, btf["hdr"] + 24, "<Q", v)
        patch("BTF sh_size=%#x" % v, btf["hdr"] + 32, "<Q", v)
        patch("e_shoff=%#x" % v, 0x28, "<Q", v)
    for v in (shnum + 1, 0xffff, 0):
        patch("e_shnum=%d" % v, 0x3c, "<H", v)
        patch("e_shstrndx=%d" % v, 0x3e, "<H", v)
    patch("e_shentsize=8", 0x3a, "<H", 8)
    patch("sh_name of .BTF huge", btf["hdr"], "<I", 0xfffffff0)
    os.makedirs(outdir, exist_ok=True)
    for i, (desc, data) in enumerate(muts):
        with open(os.path.join(outdir, "m%03d.bpf.o" % i), "wb") as f:
            f.write(data)
        with open(os.path.join(outdir, "m%03d.txt" % i), "w") as f:
            f.write(desc + "\n")
    print(len(muts))


main()
