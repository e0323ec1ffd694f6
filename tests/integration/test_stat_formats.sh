#!/bin/sh
# bpfperf stat prints perf stat 6.1's formats: -x, and -j parsed by the same
# parser as perf's own output (same events, units, layout), the default table
# line for line once the numbers are masked, -I timestamps, -A CPU columns,
# -r's variance columns, -o FILE.
. "$(dirname "$0")/lib.sh"
need_root
. "$SRC/tests/integration/stat_lib.sh"
W="$TMP/work pages 2000"

# same_layout KIND: perf's and our outputs of the same options, parsed alike
same_layout() {
  python3 - "$PARSE" "$1" "$TMP/p.out" "$TMP/o.out" <<'PY' || fail "$1 outputs differ: $(cat "$TMP/p.out" "$TMP/o.out")"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("sp", sys.argv[1]); sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)
p, o = sp.parse(sys.argv[2], sys.argv[3]), sp.parse(sys.argv[2], sys.argv[4])
key = lambda r: (r["event"], r["unit"], r["value"] is None, "cpu" in r)
assert [key(r) for r in p] == [key(r) for r in o], ([key(r) for r in p], [key(r) for r in o])
for a, b in zip(p, o):
    if a["event"] == "page-faults" and a["value"] is not None and "cpu" not in a:
        assert abs(a["value"] - b["value"]) <= 0.01 * a["value"], (a, b)
    assert a["metric_unit"].replace("K/", "/").replace("M/", "/") == b["metric_unit"].replace("K/", "/").replace("M/", "/"), (a, b)
PY
}

for kind in csv json; do
  opt=-x,; [ $kind = json ] && opt=-j
  PERF stat $opt -- $W 2>"$TMP/p.out" || fail "perf stat $opt"
  "$BPFPERF" stat $opt -- $W 2>"$TMP/o.out" || fail "bpfperf stat $opt exited $?"
  same_layout $kind; ok "$opt: default events, same fields as perf's"
  PERF stat $opt -a -A -e cpu-clock,page-faults -- sleep 0.1 2>"$TMP/p.out" || fail "perf stat $opt -a -A"
  "$BPFPERF" stat $opt -a -A -e cpu-clock,page-faults -- sleep 0.1 2>"$TMP/o.out" || fail "bpfperf stat $opt -a -A"
  same_layout $kind; ok "$opt -a -A: a line per CPU as perf's"
  "$BPFPERF" stat $opt -I 100 -e task-clock,page-faults -- "$TMP/work" sleeps 350 2>"$TMP/o.out" || fail "bpfperf stat $opt -I"
  python3 - "$PARSE" $kind "$TMP/o.out" <<'PY' || fail "$opt -I: $(cat "$TMP/o.out")"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("sp", sys.argv[1]); sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)
recs = sp.parse(sys.argv[2], sys.argv[3])
ts = [float(r["interval"]) for r in recs]
assert len(ts) == len(recs) and len(set(ts)) >= 3 and ts == sorted(ts), ts
PY
  ok "$opt -I 100: >= 3 timestamped intervals"
done

# -r: the CSV variance column and the table's (+- x%) columns
"$BPFPERF" stat -r 3 -x, -e task-clock,page-faults -- $W 2>"$TMP/o.out" || fail "-r 3 -x,"
python3 "$PARSE" csv "$TMP/o.out" >/dev/null || fail "-r 3 -x,: $(cat "$TMP/o.out")"
grep -q ',page-faults,[0-9.]*%,' "$TMP/o.out" || fail "-r 3 -x, lacks the variance column: $(cat "$TMP/o.out")"
"$BPFPERF" stat -r 3 -e task-clock -- $W 2>"$TMP/o.out" || fail "-r 3"
grep -q "for '$W' (3 runs):" "$TMP/o.out" || fail "-r 3: no '(3 runs)' title: $(cat "$TMP/o.out")"
grep -Eq '^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed' "$TMP/o.out" || fail "-r 3: elapsed without +-: $(cat "$TMP/o.out")"
ok "-r 3: variance columns"

# The table: masked numbers, perf's and ours line for line
mask() { sed -E 's/[0-9][0-9.,]*/N/g; s/ +/ /g; s/[KMG]\/sec/\/sec/; s/ $//' "$1"; }
PERF stat -- $W 2>"$TMP/p.out" || fail "perf stat"
"$BPFPERF" stat -- $W 2>"$TMP/o.out" || fail "bpfperf stat"
mask "$TMP/p.out" >"$TMP/p.m"; mask "$TMP/o.out" >"$TMP/o.m"
diff "$TMP/p.m" "$TMP/o.m" || fail "the default table differs from perf's"
# and the exact columns: a counted line, a <not supported> one, the elapsed line
for f in p o; do
  awk '/page-faults|cycles|time elapsed|seconds user/ { print length($0), index($0, "#") }' "$TMP/$f.out" >"$TMP/$f.cols"
done
diff "$TMP/p.cols" "$TMP/o.cols" || fail "columns differ from perf's"
ok "default table: same lines and columns as perf's"

"$BPFPERF" stat --no-big-num -o "$TMP/file" -e page-faults -- $W 2>"$TMP/err" || fail "-o FILE"
[ -s "$TMP/err" ] && fail "-o FILE: stderr not empty: $(cat "$TMP/err")"
grep -q "page-faults" "$TMP/file" || fail "-o FILE: no counts in the file"
ok "-o FILE, --no-big-num"
