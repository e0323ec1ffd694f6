#!/bin/sh
# bpfperf run on corrupt objects: ~300 mutants of an example object (bytes of
# .BTF and .BTF.ext flipped, header fields and section offsets out of bounds,
# truncated sections, bad kinds, sizes, name offsets and type ids; see
# btf_mutate.py) each give an error or run, never a crash or a hang; an
# object whose maps need BTF but that has none says so; libbpf's messages
# carry its name once.
. "$(dirname "$0")/lib.sh"
need_root; need_tracefs; need_cmd python3; need_cmd clang
OBJ="$BUILD/examples/tracex4.bpf.o"
[ -f "$OBJ" ] || fail "no $OBJ (build first)"

n=$(python3 "$SRC/tests/integration/btf_mutate.py" "$OBJ" "$TMP/mut") || fail "btf_mutate.py failed"
[ "$n" -ge 200 ] || fail "only $n mutants"
# one mutant: a line of words for its outcome in $m.res (run on every CPU at once)
cat > "$TMP/one.sh" <<'EOF2'
m=$1
timeout 20 "$BPFPERF" run "$m" --duration 0.1 >/dev/null 2>"$m.err"
rc=$?
what=$(cat "${m%.bpf.o}.txt")
if [ $rc -ge 124 ] || grep -Eq "Sanitizer|runtime error" "$m.err"; then
  r=crash; echo "crash (status $rc): $what"; tail -3 "$m.err"
elif [ $rc = 0 ]; then
  r=ran
else
  r=error
  grep -q "error: " "$m.err" || { r="$r silent"; echo "no error message: $what"; }
fi
grep -q "libbpf: libbpf:" "$m.err" && r="$r twice"
echo "$r" > "$m.res"
EOF2
ls "$TMP"/mut/m*.bpf.o | BPFPERF="$BPFPERF" xargs -P "$(nproc)" -n 1 sh "$TMP/one.sh"
count() { cat "$TMP"/mut/m*.bpf.o.res | grep -cw "$1"; }
[ "$(cat "$TMP"/mut/m*.bpf.o.res | wc -l)" = "$n" ] || fail "not every mutant ran"
crashes=$(count crash); ran=$(count ran); errors=$(count error); silent=$(count silent); twice=$(count twice)
echo "$n mutants: $ran ran, $errors errors, $crashes crashes or hangs"
[ $crashes = 0 ] || fail "$crashes mutants crashed or hung"
[ $silent = 0 ] || fail "$silent mutants failed without an error message"
[ $twice = 0 ] || fail "$twice mutants: libbpf's name twice in a message"
ok "corrupt BTF: no crash in $n mutants"

# a corrupt BTF is named before libbpf sees it
python3 - "$OBJ" "$TMP/badtype.bpf.o" <<'PY' || fail "could not write the mutant"
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)
sh = lambda i: struct.unpack_from("<IIQQQQ", b, shoff + i * shentsize)
stroff = sh(shstrndx)[4]
for i in range(shnum):
    name, _, _, _, off, size = sh(i)
    if b[stroff + name:stroff + name + 5] == b".BTF\0":
        hdr_len, type_off = struct.unpack_from("<II", b, off + 4)
        struct.pack_into("<I", b, off + hdr_len + type_off + 8, 0xfffffff0)  # type [1]'s size/type
open(sys.argv[2], "wb").write(b)
PY
expect_fail "corrupt type" "cannot open BPF object .*section \.BTF: type \[1\]" "$BPFPERF" run "$TMP/badtype.bpf.o" --duration 0.1

# maps need BTF: an object built without -g says what is missing
VH="$BUILD/src/bpf"
cat > "$TMP/nobtf.bpf.c" <<'EOF2'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
char LICENSE[] SEC("license") = "GPL";
struct { __uint(type, BPF_MAP_TYPE_HASH); __uint(max_entries, 4); __type(key, __u32); __type(value, __u64); } m SEC(".maps");
SEC("tp/syscalls/sys_enter_getppid")
int f(void *ctx) { __u32 k = 0; __u64 *v = bpf_map_lookup_elem(&m, &k); if (v) *v += 1; return 0; }
EOF2
clang -target bpf -O2 -I"$VH" -c "$TMP/nobtf.bpf.c" -o "$TMP/nobtf.bpf.o" || fail "clang failed"
expect_fail "maps without BTF" "has no BTF .*map definitions .*clang -target bpf -g" "$BPFPERF" run "$TMP/nobtf.bpf.o" --duration 0.1
grep -q "No such file" "$TMP/err" && { cat "$TMP/err"; fail "maps without BTF: blames a missing file"; }
ok "maps without BTF: no 'No such file'"
