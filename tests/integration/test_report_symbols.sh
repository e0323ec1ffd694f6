#!/bin/sh
# Symbol shapes named as perf names them (perf 6.1 is the oracle, line by
# line): labels (STT_NOTYPE in code), zero-size function symbols, a label
# inside a sized function, and unresolved addresses in stripped PIE and
# non-PIE binaries (perf shows the address in the file, not the virtual one),
# and call graphs through such addresses.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd cc gcc
cd "$TMP"
W="$SRC/tests/workloads/symbol_shapes.c"
cc -O1 -fno-omit-frame-pointer -o pie "$W" || fail "cannot build the workload"
cc -O1 -fno-omit-frame-pointer -no-pie -o nopie "$W" || fail "cannot build the non-PIE workload"
cp pie pie-stripped && strip pie-stripped
cp nopie nopie-stripped && strip nopie-stripped
for b in pie nopie pie-stripped nopie-stripped; do
  # -N: the stripped copies share the build-id of the unstripped ones, whose
  # cached copy would give them symbols (perf here reads no such cache)
  "$BPFPERF" record -N -g -o $b.data -- ./$b >/dev/null 2>rec.err || { cat rec.err; fail "record ./$b"; }
  perf --buildid-dir "$TMP/bid" report -i $b.data --stdio --no-children -g none --percent-limit 1 2>/dev/null |
    grep -v '^#' | grep '%' | tr -s ' ' > perf.$b
  "$BPFPERF" report -i $b.data --no-children -g none --percent-limit 1 2>/dev/null | grep -v '^#' | grep '%' | tr -s ' ' > ours.$b
  [ "$(grep -c " $b " perf.$b)" -ge 4 ] || { cat perf.$b; fail "$b: perf shows fewer than 4 entries in the binary"; }
  diff perf.$b ours.$b > diff.$b || { cat diff.$b; fail "$b: entries differ from perf report's"; }
  case $b in
    *stripped) grep -q ' \[\.\] 0x0000000000001' ours.$b || fail "$b: no file-relative unresolved address";;
    *) for s in sized_with_label notype_code zero_size_fn c_function; do
         grep -q "\] $s\$" ours.$b || fail "$b: $s is not named"
       done
       grep -q inner_label ours.$b && fail "$b: the label inside a function took its samples";;
  esac
  ok "$b: $(wc -l < ours.$b) entries as perf's"
done
# Call graphs through unresolved user frames, as perf 6.1 shows them: a frame
# without symbol is a call-graph node by its address itself ("0x401142",
# "0x55d0c3a01142": processes of one PIE binary under ASLR make different
# nodes), and with --children its caller entries are named by that address
# too; the entry of the samples taken there keeps the address in the file.
# Two processes of the stripped PIE binary, two of the non-PIE one.
"$BPFPERF" record -N -g -o two.data -- sh -c \
  './pie-stripped & ./pie-stripped & ./nopie-stripped & ./nopie-stripped; wait' >/dev/null 2>rec.err ||
  { cat rec.err; fail "record two processes of each stripped program"; }
CMP="python3 $SRC/tests/integration/compare_table.py"
for o in "--no-children -g graph,0.5,caller" "--no-children -g graph,0.5,callee" "--no-children -G" \
         "--children -g graph,0.5,caller" "--children"; do
  perf --buildid-dir "$TMP/bid" report -i two.data --stdio $o > p.txt 2>/dev/null || fail "perf report $o"
  "$BPFPERF" report -i two.data $o > o.txt 2>/dev/null || fail "report $o"
  $CMP p.txt o.txt --min 0.5 --graph-of 'stripped (no)?pie-stripped \[|__libc_start_call_main' > cmp.txt ||
    { cat cmp.txt; fail "two.data $o: not as perf"; }
  grep -qE '(---|--|^ +)0x4011[0-9a-f]{2}$' o.txt || fail "two.data $o: no non-PIE frame by its address"
  grep -qE '(---|--|^ +)0x[57][0-9a-f]{11}$' o.txt || fail "two.data $o: no PIE frame by its address"
  ok "two.data $o: call graphs through unresolved frames as perf's ($(cat cmp.txt))"
done
# under ASLR the two PIE processes' frames are apart: one file offset, two addresses
if [ "$(cat /proc/sys/kernel/randomize_va_space)" != 0 ]; then
  "$BPFPERF" report -i two.data --no-children -g caller > o.txt 2>/dev/null || fail "report -g caller"
  n=$(grep -oE '0x[57][0-9a-f]{11}$' o.txt | sed 's/.*\(...\)$/\1/' | sort | uniq -d | wc -l)
  [ "$n" -ge 1 ] || fail "no file offset is shown at two addresses (two PIE processes)"
  ok "two PIE processes: $n frames at two addresses each"
fi

# ld.so's _dl_start_user is a label in libc6-dbg's debug file
if [ -n "$(find /usr/lib/debug/.build-id -name '*.debug' 2>/dev/null | head -1)" ]; then
  perf --buildid-dir "$TMP/bid" report -i pie.data --stdio --children --percent-limit 1 2>/dev/null | grep -v '^#' | grep '%' | tr -s ' ' > perf.children
  "$BPFPERF" report -i pie.data --children --percent-limit 1 2>/dev/null | grep -v '^#' | grep '%' | tr -s ' ' > ours.children
  # the same lines; call-graph siblings with the same period (these two
  # functions do the same work: a tie every few runs) may come in another
  # order: perf orders ties by symbol address, we by name
  sort perf.children > perf.sorted; sort ours.children > ours.sorted
  diff perf.sorted ours.sorted || fail "children report with the debug files' symbols differs from perf's"
  ok "children and call graphs with the debug files' symbols as perf's"
fi
