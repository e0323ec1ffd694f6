#!/bin/sh
# A recording of another kernel (its [kernel.kallsyms] build-id is not the
# running kernel's) takes its kernel symbols from that kernel's kallsyms in
# the build-id cache, as perf report 6.1 does; without one, kernel addresses
# stay unresolved with a warning naming the build-id and what to do, never
# the running kernel's (wrong) names. --kallsyms FILE still wins. Checked on
# perf's recording and ours, each given another kernel's build-id. Symbols
# of another boot (KASLR: _text elsewhere) are relocated by _text, as perf
# relocates them.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd python3
cd "$TMP"
CMP="python3 $SRC/tests/integration/compare_table.py"
bid=$(perf buildid-list -k 2>/dev/null)
[ -n "$bid" ] || skip "the running kernel has no build-id (perf buildid-list -k is empty)"
grep -qE '^[0-9a-f]*[1-9a-f][0-9a-f]* T _text$' /proc/kallsyms || skip "kernel addresses are hidden in /proc/kallsyms"
other=$(echo "$bid" | rev)	# another kernel's build-id

# time in the kernel, in one process (3000 cats took over 5 minutes on an
# emulated CPU): reading /dev/zero, and the system calls of starting dd
cat > work.sh <<'SH'
dd if=/dev/zero of=/dev/null bs=64k count=20000 2>/dev/null
SH
perf_rec -e cpu-clock -o perf0.data -- sh work.sh || fail "perf record"
"$BPFPERF" record -e cpu-clock -o ours0.data -- sh work.sh >/dev/null 2>&1 || fail "bpfperf record"
for f in perf ours; do
  python3 - ${f}0.data $f.data "$bid" "$other" <<'PY' || fail "cannot give $f's file another kernel's build-id"
import sys
d = open(sys.argv[1], 'rb').read()
old, new = bytes.fromhex(sys.argv[3]), bytes.fromhex(sys.argv[4])
assert d.count(old) == 1, f"the kernel's build-id is {d.count(old)} times in the file"
open(sys.argv[2], 'wb').write(d.replace(old, new))
PY
  perf buildid-list -i $f.data | grep -qx "$other \[kernel.kallsyms\]" || fail "$f.data: build-id not replaced"
done

# that kernel's kallsyms: the running one's with its functions renamed
# (_text kept: perf relocates by it)
mkdir -p "cache/[kernel.kallsyms]/$other" empty
sed 's/ \([tTwW]\) \([a-z]\)/ \1 other_\2/' /proc/kallsyms > "cache/[kernel.kallsyms]/$other/kallsyms"

for f in perf ours; do
  # no kallsyms of that kernel: addresses, with a warning; not this kernel's names
  perf --buildid-dir "$TMP/empty" report -i $f.data --stdio --no-children -s dso,sym > p.txt 2>/dev/null ||
    fail "perf report of $f.data"
  PERF_BUILDID_DIR="$TMP/empty" "$BPFPERF" report -i $f.data --no-children -s dso,sym > o.txt 2> o.err ||
    { cat o.err; fail "report of $f.data"; }
  grep -q "\[k\] 0x" o.txt || { cat o.txt; fail "$f.data without that kernel's kallsyms: no kernel address"; }
  grep -q "\[k\] [a-z_]" o.txt && { grep "\[k\]" o.txt | head; fail "$f.data: the running kernel's names for another kernel's addresses"; }
  grep -q "another kernel (build-id $other.*--kallsyms" o.err || { cat o.err; fail "$f.data: no warning naming the build-id"; }
  $CMP p.txt o.txt --min 0.5 > cmp.txt || { cat cmp.txt; fail "$f.data without that kernel's kallsyms: not as perf"; }
  ok "$f.data, no kallsyms of its kernel: addresses and a warning, as perf ($(cat cmp.txt))"

  # that kernel's kallsyms in the cache: its names
  perf --buildid-dir "$TMP/cache" report -i $f.data --stdio --no-children -s dso,sym > p.txt 2>/dev/null ||
    fail "perf report of $f.data with the cache"
  PERF_BUILDID_DIR="$TMP/cache" "$BPFPERF" report -i $f.data --no-children -s dso,sym > o.txt 2> o.err ||
    { cat o.err; fail "report of $f.data with the cache"; }
  grep -q "\[k\] other_" o.txt || { cat o.txt; fail "$f.data: not named from that kernel's kallsyms"; }
  [ -s o.err ] && { cat o.err; fail "$f.data with the cache: warnings"; }
  $CMP p.txt o.txt --min 0.5 > cmp.txt || { cat cmp.txt; fail "$f.data with that kernel's kallsyms: not as perf"; }
  ok "$f.data, its kernel's kallsyms in the cache: named from it, as perf ($(cat cmp.txt))"
done

# --kallsyms FILE: that file, whatever the recording's kernel
PERF_BUILDID_DIR="$TMP/empty" "$BPFPERF" report -i ours.data --no-children -s sym --kallsyms /proc/kallsyms > o.txt 2> o.err ||
  { cat o.err; fail "report --kallsyms"; }
grep -q "\[k\] [a-z_]" o.txt && ! grep -q "\[k\] other_" o.txt && [ ! -s o.err ] ||
  { cat o.txt o.err | head -20; fail "--kallsyms /proc/kallsyms: not named from it"; }
ok "--kallsyms FILE: named from FILE"
# the running kernel's recording is not affected by another kernel's copy
PERF_BUILDID_DIR="$TMP/cache" "$BPFPERF" report -i ours0.data --no-children -s sym > o.txt 2>&1 ||
  fail "report of the running kernel's recording"
grep -q "\[k\] other_" o.txt && fail "the running kernel's recording named from another kernel's kallsyms"
ok "the running kernel's recording: its own symbols"

# another boot of this kernel: its kallsyms has _text 2 MiB further (KASLR);
# looked up relocated, as perf relocates by the map's _text (the kernel's
# own text: modules are where their maps in the recording say)
python3 - <<'PY' || fail "cannot write the shifted kallsyms"
out = open('shifted', 'w')
for l in open('/proc/kallsyms'):
    a, rest = l.split(' ', 1)
    v = int(a, 16)
    if v and '\t[' not in rest:
        v = (v + 0x200000) % 2**64
    out.write('%016x %s' % (v, rest))
PY
for f in perf ours; do
  "$BPFPERF" report -i ${f}0.data --no-children -s dso,sym --kallsyms /proc/kallsyms > here.txt 2>&1 || fail "report of ${f}0.data"
  "$BPFPERF" -v report -i ${f}0.data --no-children -s dso,sym --kallsyms shifted > o.txt 2> o.err ||
    { cat o.err; fail "report of ${f}0.data --kallsyms shifted"; }
  grep -q "another boot's KASLR offset" o.err || { cat o.err; fail "-v does not say the symbols are relocated"; }
  cmp -s here.txt o.txt || { diff here.txt o.txt | head; fail "${f}0.data: another boot's kallsyms names other functions"; }
  perf --buildid-dir "$TMP/empty" report -i ${f}0.data --stdio --no-children -s dso,sym --kallsyms shifted > p.txt 2>/dev/null ||
    fail "perf report --kallsyms shifted"
  $CMP p.txt o.txt --min 0.5 > cmp.txt || { cat cmp.txt; fail "${f}0.data, another boot's kallsyms: not as perf"; }
  ok "${f}0.data, another boot's kallsyms (_text 2 MiB away): the same functions, as perf ($(cat cmp.txt))"
done
