#!/bin/sh
# bpfperf stat --per-core and --per-socket (plain and --bpf-counters) as perf
# stat 6.1 prints them: the table's "S0-D0-C0           1" / "S0        2"
# prefixes byte for byte and its columns where perf's are, -x, ("S0-D0-C0,1,")
# and -j ("core"/"socket", "aggregate-number") parsed by the same parser as
# perf's own output, with the same aggregations, events and units in the same
# order; the aggregations are the cores and sockets of the CPUs counted
# (sysfs topology, -a and -C 1, or -C 0 on one CPU), and each sums its CPUs' counts (cpu-clock is
# its CPU count times the elapsed time: "CPUs utilized" / CPUs near 1).
. "$(dirname "$0")/lib.sh"
need_root
. "$SRC/tests/integration/stat_lib.sh"
EV=cpu-clock,page-faults
# -C: CPU 1, or CPU 0 where it is the only one (a QEMU guest)
C=1; [ "$(nproc)" -ge 2 ] || C=0

for mode in --per-core --per-socket; do
  for m in "" "--bpf-counters"; do
    for cpus in "-a" "-C $C"; do
      what="$mode $m $cpus"
      # the table: the prefix up to the value, the event's and the metric's columns
      PERF stat $mode $cpus -e $EV -- sleep 0.3 2>"$TMP/p.out" || fail "perf stat $what"
      "$BPFPERF" stat $m $mode $cpus -e $EV -- sleep 0.3 2>"$TMP/o.out" || fail "bpfperf stat $what exited $?"
      for f in p o; do
        awk 'match($0, /^S[0-9DC-]+ +[0-9]+ /) { print substr($0, 1, RLENGTH) "|" length($0) "|" index($0, " cpu-clock") "|" index($0, " page-faults") "|" index($0, "#") }' \
          "$TMP/$f.out" >"$TMP/$f.cols"
      done
      [ -s "$TMP/p.cols" ] || fail "perf printed no $mode lines: $(cat "$TMP/p.out")"
      diff "$TMP/p.cols" "$TMP/o.cols" >"$TMP/d" || fail "$what: the table differs from perf's: $(cat "$TMP/d" "$TMP/p.out" "$TMP/o.out")"
      for kind in csv json; do
        opt=-x,; [ $kind = json ] && opt=-j
        PERF stat $opt $mode $cpus -e $EV -- sleep 0.3 2>"$TMP/p.out" || fail "perf stat $opt $what"
        "$BPFPERF" stat $opt $m $mode $cpus -e $EV -- sleep 0.3 2>"$TMP/o.out" || fail "bpfperf stat $opt $what exited $?"
        python3 - "$PARSE" $kind "$TMP/p.out" "$TMP/o.out" "$mode" "$cpus" <<'PY' || fail "$opt $what: $(cat "$TMP/p.out" "$TMP/o.out")"
import glob, importlib.util, os, re, sys
spec = importlib.util.spec_from_file_location("sp", sys.argv[1]); sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)
p, o = sp.parse(sys.argv[2], sys.argv[3]), sp.parse(sys.argv[2], sys.argv[4])
col = "core" if sys.argv[5] == "--per-core" else "socket"
key = lambda r: (r.get(col), r.get("aggregate_number"), r["event"], r["unit"], re.sub(r"^[KMG]/", "/", r["metric_unit"]))
assert [key(r) for r in p] == [key(r) for r in o], ([key(r) for r in p], [key(r) for r in o])
# the cores or sockets of the counted CPUs, from sysfs
cpus = [int(sys.argv[6][3:])] if sys.argv[6].startswith("-C ") else [int(d[len("/sys/devices/system/cpu/cpu"):]) for d in glob.glob("/sys/devices/system/cpu/cpu[0-9]*") if os.path.exists(d + "/topology/core_id")]
rd = lambda c, f: int(open(f"/sys/devices/system/cpu/cpu{c}/topology/{f}").read())
want = {}
for c in cpus:
    k = f"S{rd(c, 'physical_package_id')}-D{rd(c, 'die_id')}-C{rd(c, 'core_id')}" if col == "core" else f"S{rd(c, 'physical_package_id')}"
    want[k] = want.get(k, 0) + 1
got = {r[col]: r["aggregate_number"] for r in o}
assert got == want, (got, want)
for r in o:
    if r["event"] == "cpu-clock":
        per_cpu = float(r["metric_value"]) / r["aggregate_number"]
        assert 0.9 <= per_cpu <= 1.1, f"{r[col]}: {per_cpu:.3f} CPUs utilized per CPU"
PY
      done
      ok "$what: table, -x, and -j as perf's"
    done
  done
done

"$BPFPERF" stat --per-core -e cpu-clock -- true 2>"$TMP/err"; rc=$?
[ $rc = 2 ] && grep -q -- "--per-core.*add -a or -C" "$TMP/err" || fail "--per-core without CPUs: exit $rc: $(cat "$TMP/err")"
"$BPFPERF" stat -A --per-socket -a -e cpu-clock -- true 2>"$TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "exclude each other" "$TMP/err" || fail "-A --per-socket: exit $rc: $(cat "$TMP/err")"
ok "--per-core without -a/-C, -A with --per-socket: usage errors"
