#!/bin/sh
# perf's other call-graph modes and values, as perf 6.1 prints them, and
# --children in callee order:
# -g fractal (each branch a share of its parent's children, "[...]" for
# what the threshold left out), flat (each chain, a frame per line),
# folded (each chain on one line), the values period and count, and the
# print limit (-g MODE,THRESHOLD,LIMIT). On a fixed-period recording of
# equal work (perf's file and ours) every view is compared with perf's
# whole text, line for line; on a recording with kernel call chains, entry
# by entry (perf orders entries of equal children otherwise: a table
# matter, not a call-graph one). perf 6.1 prints its "[...]" as
# "[...] (inlined)": the flag is read from memory it never set, so we print
# "[...]" and read perf's so.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd cc gcc
need_cmd python3
cd "$TMP"
PERF="perf --buildid-dir $TMP/bid"
equal_work_recordings 1

# folded chains split into frames, so that drop_modules.py sees module
# symbols in them; perf's "[...] (inlined)" read as "[...]". Where modules
# are loaded (the guests) drop_modules.py leaves out the entries that show
# module code, which perf orders otherwise: blank lines go too, or those of
# an entry left out would land next to another one.
MODS=
[ -n "$(head -c1 /proc/modules 2>/dev/null)" ] && MODS=1
clean() {
  grep -v '^#' "$1" | sed -e 's/\[\.\.\.\] (inlined)$/[...]/' -e 's/;/ ; /g' |
    { if [ -n "$MODS" ]; then grep -v '^$'; else cat; fi; } |
    python3 "$SRC/tests/integration/drop_modules.py"
}

# same entries (a line and what is under it) on both sides, in any order;
# an entry's line is the one with its symbol's "[.]" or "[k]" (drop_modules.py
# takes the leading spaces away where modules are loaded)
same_blocks() {
  python3 - "$1" "$2" <<'EOF'
import collections, re, sys
def blocks(fn):
    out, cur = [], []
    for line in open(fn):
        if re.match(r'^\s*\d+\.\d+%\s+(\d+\.\d+%\s+)?\S.*\s\[[.k]\]\s', line):
            out.append(''.join(cur).rstrip('\n'))
            cur = []
        cur.append(line)
    out.append(''.join(cur).rstrip('\n'))	# the last entry: the text's end too
    return collections.Counter(out)
a, b = blocks(sys.argv[1]), blocks(sys.argv[2])
if a != b:
    for x in list((a - b).elements())[:1]:
        print('perf has:\n' + x)
    for x in list((b - a).elements())[:1]:
        print('we have:\n' + x)
    sys.exit(1)
print(sum(a.values()))
EOF
}

# view FILE HOW OPTIONS...: perf's and our text of one view, compared
# line for line (HOW=lines) or entry by entry (HOW=blocks)
view() {
  F=$1 how=$2; shift 2
  $PERF report -i "$F" --stdio "$@" > p.raw 2>p.err || { cat p.err; fail "perf report $* on $F"; }
  "$BPFPERF" report -i "$F" --stdio "$@" > o.raw 2>o.err || { cat o.err; fail "bpfperf report $* on $F"; }
  clean p.raw > p.txt
  clean o.raw > o.txt
  [ "$(grep -c . p.txt)" -gt 5 ] || fail "perf report $* on $F shows nothing"
  if [ "$how" = lines ]; then
    if ! diff p.txt o.txt > d.txt; then
      head -40 d.txt
      fail "$F, $*: not line for line as perf ($(grep -c '^[0-9]' d.txt) hunks)"
    fi
    ok "$F, $*: $(wc -l < p.txt) lines as perf's"
  else
    n=$(same_blocks p.txt o.txt) || { echo "$n" | head -60; fail "$F, $*: entries differ from perf's"; }
    ok "$F, $*: $n entries as perf's"
  fi
}

# some 100 reports: on one CPU (the emulated guests, 10-50x slower) the
# equal-work views of perf's file only
FILES="perf.data ours.data"
if [ "$(nproc)" -lt 2 ]; then
  FILES=perf.data
  echo "one CPU: the equal-work views of perf.data only (ours.data too where there are two CPUs)"
fi
for F in $FILES; do
  for v in flat folded fractal "fractal,0.5,count" "flat,0,3" "folded,1,period" "graph,0,2" \
           "fractal,5,2,caller,period"; do
    view $F lines --no-children -g "$v"
    view $F lines --children -g "$v"
  done
  view $F lines --no-children -G -g fractal,0
  view $F lines --no-children -g graph,0.5,callee,count
  # children in callee order: each entry's chains from its innermost frame
  # up to the outermost caller
  view $F lines --children -g callee
  view $F lines --children -g flat,0,callee
  view $F lines --children --max-stack 3 -g graph,0,callee
done

# kernel call chains: page faults and munmap under a workload of our own,
# recorded by perf. Its name is as long as "perf-exec" (perf's child before
# the exec): perf sizes the Command column by each thread's last comm
# (thread__comm_len) and cuts longer ones, so a sample taken before the
# exec (seen in a 6.12 guest) showed "perf-ex" beside a shorter name; we
# do not cut comms. Built -fno-plt: it calls libc through its GOT, without
# PLT stubs, where perf 6.1 names a sample in a stub (a 6.1 guest's, in
# _exit@plt) _init or the stub as its tree walk meets them (its _init,
# without a size, is stretched over .plt before the stubs are added; see
# docs/bpfperf-report.md), which this test is not about.
cc -O1 -g -fno-omit-frame-pointer -fno-plt -o page_churn "$SRC/tests/workloads/page_churn.c" || fail "cannot build page_churn"
perf_rec -g -e cpu-clock -F 999 -o k.data -- ./page_churn 4 2 || fail "perf record"
rem=0
for v in flat folded fractal "fractal,2,count" "fractal,0,2,period" "flat,0,3" "graph,0,callee" \
         "fractal,0.5,callee"; do
  view k.data blocks --no-children -g "$v"
  rem=$((rem + $(grep -c '\[\.\.\.\]$' o.txt)))
  view k.data blocks --children -g "$v"
  rem=$((rem + $(grep -c '\[\.\.\.\]$' o.txt)))
done
[ "$rem" -gt 0 ] || fail "no fractal view had a \"[...]\" line: its remainder was not tested"
ok "$rem \"[...]\" lines for what fractal thresholds left out, as perf's"

# what perf has and we do not draw is refused by name
"$BPFPERF" report -i perf.data --stdio -g graph,0.5,address > /dev/null 2>err.txt &&
  fail "-g address was accepted"
grep -q "'address' is not supported" err.txt || { cat err.txt; fail "-g address: no clear error"; }
ok "-g address is refused by name"
