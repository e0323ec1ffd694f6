#!/bin/sh
# Messages under resource limits name the limit hit and what to raise:
# 'ulimit -n' (EMFILE) for every command that runs out of file descriptors
# (not a verifier log, a missing kernel feature, a full disk or the EINVAL
# libbpf returns after retrying), 'ulimit -v' (ENOMEM) under an address
# space limit (not a missing process or kernel BTF).
. "$(dirname "$0")/lib.sh"
need_root; need_tracefs
cd "$TMP" || fail "no temp dir"
OBJ="$BUILD/examples/tracex1.bpf.o"

# a process of T threads: one descriptor per thread and CPU does not fit in
# 64 (40 threads on 2 CPUs or more, 81 on one)
ncpu=$(nproc); T=$((80 / ncpu + 1)); [ $T -lt 40 ] && T=40
python3 -c 'import sys, threading, time
for _ in range(int(sys.argv[1]) - 1): threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
time.sleep(30)' $T &
pid=$!
i=0
while [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -lt $T ]; do
  i=$((i + 1)); [ $i -gt 100 ] && fail "the $T-thread process did not start"; sleep 0.1
done
expect_fail "record -p ($T threads on $ncpu CPUs), ulimit -n 64" "Too many open files; the open file limit \(64, 'ulimit -n'\) is reached" \
  sh -c "ulimit -n 64; exec \"\$0\" record -e cpu-clock -p $pid -o x.data --duration 0.1" "$BPFPERF"
kill $pid 2>/dev/null; wait $pid 2>/dev/null

# every command, at every limit from 6 to 25 descriptors: any failure names
# the limit.  Every value, not a few: where a load is cut short depends on the
# descriptors the caller left open (one inherited descriptor turned an
# EMFILE inside libbpf's feature probes into a verifier error at 22).
wrong="verifier log|the kernel needs|disk full|check the directory|Invalid argument|No such process"
# one command at one limit, in a directory of its own: its verdict in res
cat > "$TMP/one.sh" <<'EOF2'
n=$1 i=$2; shift 2
d="$TMP/lim/$n-$i"; mkdir -p "$d"; cd "$d" || exit 1
if sh -c "ulimit -n $n; exec \"\$0\" $*" "$BPFPERF" >out 2>err; then echo pass > res; exit 0; fi
rc=$?
if [ $rc -ge 124 ]; then echo "FAIL ulimit -n $n, $*: killed (status $rc)" > res
elif ! grep -q "error: " err; then echo pass > res	# the workload's own failure
elif ! grep -q "Too many open files.*the open file limit ($n, 'ulimit -n') is reached" err; then
  echo "FAIL ulimit -n $n, $*: the message does not name the open file limit" > res
elif grep -Eq "error: .*($wrong)" err; then echo "FAIL ulimit -n $n, $*: blames something else" > res
else echo checked > res; fi
EOF2
# all the cases, two or more at once (the machine's CPUs)
for n in $(seq 6 25); do
  i=0
  for c in "record -e cpu-clock -a -o x.data --duration 0.1" "trace -a -s -- sleep 0.1" "trace -- true" \
           "stat -a -- sleep 0.1" "lock contention -a -- sleep 0.1" "run $OBJ --duration 0.1"; do
    i=$((i + 1)); printf '%s %s %s\n' $n $i "$c"
  done
done | TMP="$TMP" BPFPERF="$BPFPERF" wrong="$wrong" xargs -P "$(nproc)" -L 1 sh "$TMP/one.sh"
[ "$(cat "$TMP"/lim/*/res | wc -l)" = 120 ] || fail "not every ulimit -n case ran"
for r in "$TMP"/lim/*/res; do
  case $(cat "$r") in FAIL*) cat "${r%res}err"; fail "$(sed 's/^FAIL //' "$r")" ;; esac
done
checked=$(cat "$TMP"/lim/*/res | grep -c '^checked$')
[ $checked -ge 10 ] || fail "only $checked failures under ulimit -n"
ok "ulimit -n: $checked failures, each names the open file limit"

if ! sh -c 'ulimit -v 200000; exec "$0" --help' "$BPFPERF" >/dev/null 2>&1; then
  echo "note: ulimit -v part not run: this binary cannot start under an address space limit (sanitizers)"
  exit 0
fi
"$BPFPERF" record -e cpu-clock -o x.data -- sleep 0.1 2>/dev/null || fail "record (for the report below)"
checked=0
for v in 20000 40000 60000; do
  for c in "trace -a -s -- sleep 0.1" "lock contention -a -- sleep 0.1" "report -i x.data"; do
    if sh -c "ulimit -v $v; exec \"\$0\" $c" "$BPFPERF" >out 2>err; then continue; fi
    grep -q "error: " err || continue
    grep -q "the address space limit ($v KiB, 'ulimit -v')" err \
      || { cat err; fail "ulimit -v $v, $c: the message does not name the address space limit"; }
    grep -Eq "error: .*($wrong)" err && { cat err; fail "ulimit -v $v, $c: blames something else"; }
    checked=$((checked + 1))
  done
done
[ $checked -ge 2 ] || fail "only $checked failures under ulimit -v"
ok "ulimit -v: $checked failures, each names the address space limit"
