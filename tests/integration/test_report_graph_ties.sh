#!/bin/sh
# Call graphs with many siblings of equal period, line for line as perf 6.1
# prints them. A fixed sample period (-c) on a workload doing equal work in
# several functions makes such ties common. perf orders them by its tree of
# callees: by symbol address, descending, within a dso, and across dsos by
# the order it created them (the build-id table, then the maps as they come).
# Entries tied on every key put those without a map or symbol last. The
# whole text of each call-graph view is compared, on perf's file and ours,
# and the ties it holds are counted: a run without any proves nothing.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd cc gcc
need_cmd python3
cd "$TMP"
PERF="perf --buildid-dir $TMP/bid"
equal_work_recordings 1

# the entries and their call graphs; where modules are loaded, without the
# entries that show module code (drop_modules.py: perf 6.1 names it
# [kernel.kallsyms], which orders its ties otherwise)
clean() { grep -v '^#' "$1" | grep -v '^$' | python3 "$SRC/tests/integration/drop_modules.py"; }

# sibling lines ("--N.NN%--name") of one parent with the same percentage
ties() {
  python3 - "$1" <<'EOF'
import re, sys
n, prev = 0, {}
for line in open(sys.argv[1]):
    m = re.match(r'^(.*?)--([\d.]+%)--', line)
    if not m:
        if not line.strip() or not line.lstrip().startswith('|'):
            prev = {}
        continue
    col = len(m.group(1))
    if prev.get(col) == m.group(2):
        n += 1
    prev[col] = m.group(2)
    for c in [c for c in prev if c > col]:
        del prev[c]
print(n)
EOF
}

# every view of both files as perf's; total: the ties seen
check_views() {
  total=0
  for F in perf.data ours.data; do
    for mode in "--no-children -g graph,0,caller" "--no-children -g graph,0,callee" \
                "--children -g graph,0,caller" "--no-children -G -g graph,0"; do
      # shellcheck disable=SC2086
      $PERF report -i $F --stdio $mode --percent-limit 0 > p.raw 2>p.err || { cat p.err; fail "perf report $mode on $F"; }
      # shellcheck disable=SC2086
      "$BPFPERF" report -i $F --stdio $mode --percent-limit 0 > o.raw 2>o.err ||
        { cat o.err; fail "bpfperf report $mode on $F"; }
      clean p.raw > p.txt
      clean o.raw > o.txt
      [ -s p.txt ] || fail "perf report $mode on $F shows nothing"
      if ! diff p.txt o.txt > d.txt; then
        head -40 d.txt
        fail "$F, $mode: not line for line as perf ($(grep -c '^[0-9]' d.txt) hunks)"
      fi
      n=$(ties p.raw)
      total=$((total + n))
      ok "$F, $mode: $(wc -l < p.txt) lines as perf's, $n ties among siblings"
    done
  done
}
check_views
# a recording whose samples happened to fall with few ties (a busy machine
# spreads them) proves too little: one more, longer
if [ "$total" -lt 4 ]; then
  echo "NOTE: only $total ties in this recording; recording again for 2 s"
  equal_work_recordings 2
  check_views
fi
[ "$total" -ge 4 ] || fail "only $total siblings of equal period in all views: the test exercised nothing"
ok "$total ties in all, ordered as perf orders them"
