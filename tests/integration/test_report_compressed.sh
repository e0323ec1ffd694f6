#!/bin/sh
# perf record -z files (zstd-compressed records) read as perf report 6.1
# reads them: the same tables (self, children, by DSO and symbol, by thread)
# and the same header (with its "compressed" line) as perf shows, the same
# sample count as -D; a corrupt compressed payload is an error naming the
# record; -z pipe-mode streams too, from a file or standard input.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd python3
cd "$TMP"
CMP="python3 $SRC/tests/integration/compare_table.py"
IGN='\[unknown\]'
P="perf --buildid-dir $TMP/bid"
# zrec FILE ARGS: perf record -z ARGS to FILE (- : a pipe stream) until perf
# report reads what it wrote: perf 6.1 aborts now and then (stack smashing
# in its build-id code, on BPF program info) or prints nothing for its own
# -z file; three tries
zrec() {
  out=$1; shift
  for i in 1 2 3; do
    if [ "$out" = - ]; then $P record -z -o - "$@" 2>"$TMP/zrec.err" > pipe.data; src=pipe.data
    else $P record -z -o "$out" "$@" >/dev/null 2>"$TMP/zrec.err"; src=$out; fi
    [ $? = 0 ] && $P report -i "$src" --stdio --no-children 2>/dev/null | grep -q '%' && return 0
  done
  echo "perf record -z $* or its report failed three times:"; tail -3 "$TMP/zrec.err"
  return 1
}
zrec z.data -g -e cpu-clock -- "$DEMO" 1 || fail "perf record -z"
# zcmp WHAT: p.txt (perf's) against o.txt (ours). perf 6.1 leaves the demo's
# BPF program unnamed ([unknown] addresses) in some of its -z recordings,
# file or pipe; we name it from the KSYMBOL record always. Where perf did
# not, the program's lines are left out of the comparison.
zcmp() {
  grep -q "bpf_prog_[0-9a-f]*_demo_bpf_mix" o.txt || { cat o.txt; fail "$1: the BPF program is not named"; }
  ign=$IGN note=""
  grep -q "bpf_prog_[0-9a-f]*_demo_bpf_mix" p.txt || { ign='bpf_prog|\[unknown\]'; note=", perf left the BPF program unnamed"; }
  $CMP p.txt o.txt --ignore "$ign" > cmp.txt || { cat cmp.txt; fail "$1: not as perf"; }
  echo "$(cat cmp.txt)$note" > cmp.txt
}
for v in "--no-children" "--children" "--no-children -s dso,sym"; do
  $P report -i z.data --stdio $v > p.txt 2>/dev/null || fail "perf report $v"
  "$BPFPERF" report -i z.data $v > o.txt 2> o.err || { cat o.err; fail "report $v of a -z file"; }
  zcmp "-z file, $v"
  ok "-z file, report $v: as perf ($(cat cmp.txt))"
done
$P report -i z.data --stdio --no-children -s pid,comm > p.txt 2>/dev/null || fail "perf report -s pid,comm"
"$BPFPERF" report -i z.data --no-children -s pid,comm > o.txt 2> o.err || { cat o.err; fail "report -s pid,comm of a -z file"; }
$CMP p.txt o.txt > cmp.txt || { cat cmp.txt; fail "-z file, -s pid,comm: not as perf"; }
ok "-z file, report -s pid,comm: as perf ($(cat cmp.txt))"
# what the comparison is about: the demo's three phases are there
"$BPFPERF" report -i z.data --no-children > o.txt
for s in demo_hot_user_function read_zero bpf_prog_; do
  grep -q "$s" o.txt || { cat o.txt; fail "-z file: $s missing"; }
done
$P report -i z.data --header-only > p.txt 2>/dev/null || fail "perf report --header-only"
"$BPFPERF" report -i z.data --header-only > o.txt 2>&1 || fail "report --header-only of a -z file"
grep -q "^# compressed : Zstd, level = [0-9]*, ratio = [0-9]*$" o.txt || { cat o.txt; fail "no compressed line"; }
diff p.txt o.txt > d.txt || { cat d.txt; fail "-z file: header not as perf's"; }
n_p=$($P report -i z.data -D 2>/dev/null | grep -c "PERF_RECORD_SAMPLE")
n_o=$("$BPFPERF" report -i z.data -D 2>/dev/null | grep -c "PERF_RECORD_SAMPLE")
[ "$n_p" -gt 0 ] && [ "$n_p" = "$n_o" ] || fail "-D: $n_o samples, perf dumps $n_p"
ok "-z file: header as perf's, $n_o samples in -D as in perf's"

# a corrupt payload: the record is named, no crash, non-zero exit
python3 - z.data bad.data <<'PY' || fail "cannot corrupt the file"
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
doff, dsize = struct.unpack_from('<QQ', d, 0x28)
off = doff
while off < doff + dsize:
    t, m, sz = struct.unpack_from('<IHH', d, off)
    if t == 81:
        for i in range(off + 12, off + sz, 5):
            d[i] ^= 0xa5
        break
    off += sz
else:
    sys.exit("no COMPRESSED record")
open(sys.argv[2], 'wb').write(d)
PY
expect_fail "corrupt -z payload" "COMPRESSED record at offset [0-9]*: .*corrupt file" "$BPFPERF" report -i bad.data
# perf record -z -o - (pipe mode): compressed records in the stream, read
# from a file and from standard input as perf reads them
zrec - -e cpu-clock -- "$DEMO" 0.5 || fail "perf record -z -o -"
python3 -c 'import struct,sys
d=open("pipe.data","rb").read(); off=16
while off+8<=len(d):
    t,m,sz=struct.unpack_from("<IHH",d,off)
    if t==81: sys.exit(0)
    if sz<8: break
    off+=sz
sys.exit(1)' || fail "perf wrote no COMPRESSED record to the pipe"
$P report -i pipe.data --stdio --no-children > p.txt 2>/dev/null || fail "perf report of the -z pipe stream"
"$BPFPERF" report -i pipe.data --no-children > o.txt 2> o.err || { cat o.err; fail "report of a -z pipe stream"; }
zcmp "-z pipe stream"
"$BPFPERF" report -i - --no-children < pipe.data > o2.txt 2> o.err || { cat o.err; fail "report -i - of a -z pipe stream"; }
cmp -s o.txt o2.txt || { diff o.txt o2.txt | head; fail "-z pipe stream: standard input read otherwise than the file"; }
grep -q demo_hot_user_function o.txt || { cat o.txt; fail "-z pipe stream: the demo's user phase is missing"; }
ok "-z pipe stream (file and standard input): as perf ($(cat cmp.txt))"
