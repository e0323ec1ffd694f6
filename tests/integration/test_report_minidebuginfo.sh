#!/bin/sh
# MiniDebugInfo (.gnu_debugdata, an xz-compressed ELF with a .symtab): the
# functions of a stripped binary resolve through it; one that decompresses
# to more than its cap (64 times the section, at most 256 MiB; here 300 MB of
# zeros in 44 KB) is refused with a warning naming the file, in bounded memory.
. "$(dirname "$0")/lib.sh"
need_root; need_cmd cc gcc; need_cmd objcopy binutils; need_cmd strip binutils; need_cmd xz xz-utils; need_cmd python3
cd "$TMP" || fail "no temp dir"
cat > spin.c <<'EOF2'
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
__attribute__((noinline)) static unsigned long spin_in_minidebuginfo(double s)
{
	volatile unsigned long x = 0;
	for (double t0 = now(); now() - t0 < s;)
		for (int i = 0; i < 1000; i++) x += i;
	return x;
}
int main(int argc, char **argv) { return (int)(spin_in_minidebuginfo(argc > 1 ? atof(argv[1]) : 0.3) & 1); }
EOF2
cc -O1 -o spin spin.c || fail "cc failed"
objcopy --only-keep-debug spin mini || fail "objcopy failed"
xz -k mini || fail "xz failed"
cp spin bomb
strip --strip-all spin bomb || fail "strip failed"
objcopy --add-section .gnu_debugdata=mini.xz spin || fail "objcopy --add-section failed"
python3 -c '
import lzma
with open("zeros.xz", "wb") as f:
    c = lzma.LZMACompressor(preset=0)
    z = bytes(1 << 20)
    for _ in range(300):
        f.write(c.compress(z))
    f.write(c.flush())'
objcopy --add-section .gnu_debugdata=zeros.xz bomb || fail "objcopy --add-section failed"

"$BPFPERF" record -N -e cpu-clock -F 999 -o spin.data -- ./spin 0.3 >rec.out 2>&1 || { cat rec.out; fail "record spin failed"; }
"$BPFPERF" report -i spin.data --sort sym >spin.txt 2>spin.err || { cat spin.err; fail "report spin failed"; }
grep -q "spin_in_minidebuginfo" spin.txt || { head -20 spin.txt; fail "the MiniDebugInfo symbol is not resolved"; }
ok "symbols from MiniDebugInfo"

# -N (both): bomb has spin's build-id; a cached copy of spin would be read instead
"$BPFPERF" record -N -e cpu-clock -F 999 -o bomb.data -- ./bomb 0.3 >rec.out 2>&1 || { cat rec.out; fail "record bomb failed"; }
python3 - "$BPFPERF" <<'PY' || fail "the MiniDebugInfo size is not capped"
import resource, subprocess, sys
r = subprocess.run([sys.argv[1], "report", "-i", "bomb.data", "--sort", "dso,sym"], capture_output=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
err = r.stderr.decode()
print(f"report on a 300 MB MiniDebugInfo: exit {r.returncode}, max RSS {rss} MiB")
assert r.returncode == 0, err
assert "bomb: its MiniDebugInfo (.gnu_debugdata" in err and "decompresses to more than" in err, err
assert rss < 100, rss
PY
ok "MiniDebugInfo decompression capped"
