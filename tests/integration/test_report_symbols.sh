#!/bin/sh
# Symbol shapes named as perf names them (perf 6.1 is the oracle, line by
# line): labels (STT_NOTYPE in code), zero-size function symbols, a label
# inside a sized function, and unresolved addresses in stripped PIE and
# non-PIE binaries (perf shows the address in the file, not the virtual one).
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
    grep '%' | tr -s ' ' > perf.$b
  "$BPFPERF" report -i $b.data --no-children -g none --percent-limit 1 2>/dev/null | grep '%' | tr -s ' ' > ours.$b
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
# ld.so's _dl_start_user is a label in libc6-dbg's debug file
if [ -n "$(find /usr/lib/debug/.build-id -name '*.debug' 2>/dev/null | head -1)" ]; then
  perf --buildid-dir "$TMP/bid" report -i pie.data --stdio --children --percent-limit 1 2>/dev/null | grep '%' | tr -s ' ' > perf.children
  "$BPFPERF" report -i pie.data --children --percent-limit 1 2>/dev/null | grep '%' | tr -s ' ' > ours.children
  diff perf.children ours.children || fail "children report with the debug files' symbols differs from perf's"
  ok "children and call graphs with the debug files' symbols as perf's"
fi
