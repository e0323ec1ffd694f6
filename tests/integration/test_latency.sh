#!/bin/sh
# bpfperf latency on the host (uprobes, raw_syscalls, tracepoints), against
# counts the test program knows (tests/helpers/latency_target): its 3 ms
# function called N times lands N times in perf's "2 - 4 ms" bucket, through
# a uprobe and through syscall:clock_nanosleep (strace -c counts the calls);
# a recursive function of depth D called K times gives D*K calls, the
# innermost K under 2 ms and the outer ones above; past the stack's depth
# the calls are counted as lost, not measured; -e with the nanosleep
# tracepoints; --json, -i, --hide-empty, linear buckets, -n; bad input is a
# usage error with nothing attached.
. "$(dirname "$0")/lib.sh"
need_root; need_cmd python3; need_tracefs
LT="$BUILD/tests/helpers/latency_target"
[ -x "$LT" ] || fail "missing $LT (ninja -C $BUILD)"
track_pids
cd "$TMP" || exit 1
N=50
# The workloads whose durations are checked run SCHED_FIFO where possible: on
# a loaded machine (QEMU guests beside us) a normal task's wake-up from a
# 3 ms sleep can be late by more than a millisecond, out of its bucket.
RT=
chrt -f 50 true 2>/dev/null && RT="chrt -f 50"

# js FILE EXPR: evaluate a python expression over the JSON lines of FILE
# (d: the first object, ds: all of them, f: d's first function, b(f, low):
# the count of f's bucket starting at low)
js() {
  python3 - "$1" "$2" <<'PY'
import json, sys
ds = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
d = ds[0]
f = d["functions"][0]
def b(f, low):
    return sum(x["count"] for x in f["buckets"] if x["low"] == low)
def nb(f):
    return sum(x["count"] for x in f["buckets"])
print(eval(sys.argv[2]))
PY
}
run() {
  "$BPFPERF" latency "$@" >out 2>err
  _s=$?
  [ $_s = 0 ] || { cat err; fail "bpfperf latency $*: exit $_s"; }
}
# timed CHECK: run the shell code CHECK (a run and its test, 0 when it
# holds) up to 3 times: a wake-up that a busy machine delays past a bucket's
# bound is a true measurement, not a fault; counts are exact every time
timed() {
  for _t in 1 2 3; do
    eval "$1" && return 0
    echo "note: attempt $_t: a duration outside the expected bucket (busy machine?); again"
  done
  return 1
}

# ---- a uprobe on the 3 ms function: all N in 2-4 ms, count exactly N ----
timed 'run -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep $N
  grep -qE "^ +count: +$N$" out || { cat out; fail "uprobe: count is not $N"; }
  grep -qE "^ +2 - +4 ms \| +$N \| #{46} \|$" out' || { cat out; fail "uprobe: not $N in the 2 - 4 ms row"; }
[ "$(grep -c ' | ' out)" = 23 ] || { cat out; fail "uprobe: not 22 rows and the header"; }
grep -qE "^     0 -    1 us \|" out && grep -qE "^     1 - \.\.\.  s  \|" out ||
  { cat out; fail "uprobe: perf's first and last rows"; }
ok "uprobe: $N calls in 2 - 4 ms, count $N"

timed 'run --json -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep $N
  [ "$(js out "f[\"stats\"][\"count\"], b(f, 2048), nb(f), f[\"mechanism\"], d[\"unit\"], sum(f[\"lost\"].values())")" = "($N, $N, $N, '"'uprobe', 'usec'"', 0)" ]' ||
  { cat out; fail "--json: count, bucket, mechanism, unit or losses"; }
[ "$(js out 'len(f["buckets"]) == 22 and f["buckets"][12]["low"] == 2048 and f["buckets"][12]["high"] == 4096 and f["buckets"][-1]["high"] is None and 3000 <= f["stats"]["min"] <= f["stats"]["avg"] <= f["stats"]["max"] < 4096')" = True ] ||
  { cat out; fail "--json: bucket bounds or statistics"; }
ok "--json: parsed, $N calls in [2048, 4096) us"

# ---- syscall:clock_nanosleep of the same program agrees; strace counts the calls ----
if command -v strace >/dev/null; then
  strace -f -c -e trace=clock_nanosleep -o strace.out "$LT" sleep $N >/dev/null ||
    fail "strace of the workload"
  calls=$(awk '$NF == "clock_nanosleep" { print $(NF-1) ~ /^[0-9]+$/ ? $(NF-1) : $(NF-2) }' strace.out)
  [ "$calls" = $N ] || { cat strace.out; fail "strace counts $calls clock_nanosleep calls, expected $N"; }
fi
timed 'run --json -T syscall:clock_nanosleep -- $RT "$LT" sleep $N
  [ "$(js out "f[\"stats\"][\"count\"], b(f, 2048), nb(f)")" = "($N, $N, $N)" ]' ||
  { cat out; fail "syscall:clock_nanosleep: not $N calls in 2 - 4 ms"; }
ok "syscall:clock_nanosleep: $N calls in 2 - 4 ms (strace: ${calls:-not run})"

# ---- both at once: one block per function ----
timed 'run -T syscall:clock_nanosleep -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep $N
  [ "$(grep -c "^# function: " out)" = 2 ] && grep -q "^# function: syscall:clock_nanosleep$" out &&
    grep -q "^# function: $LT:lt_sleep3ms$" out || { cat out; fail "two -T: the block headers"; }
  [ "$(grep -cE "^ +count: +$N$" out)" = 2 ] || { cat out; fail "two -T: count $N in each block"; }
  [ "$(grep -cE "^ +2 - +4 ms \| +$N \|" out)" = 2 ]' || { cat out; fail "two -T: $N calls in 2 - 4 ms in each block"; }
ok "two -T: two blocks of $N calls"

# ---- recursion: depth D, K times: D*K calls, the innermost (1.5 ms) under
# 2 ms, the outer ones (1.5 ms a level) above ----
D=6 K=7
run --json -T "$LT:lt_recurse" -- $RT "$LT" recurse $D $K
[ "$(js out 'f["stats"]["count"], nb(f), b(f, 1024), sum(x["count"] for x in f["buckets"] if x["low"] >= 2048), sum(f["lost"].values())')" = "($((D * K)), $((D * K)), $K, $(((D - 1) * K)), 0)" ] ||
  { cat out; fail "recursion: expected $((D * K)) calls, $K under 2 ms and the rest above"; }
[ "$(js out 'f["stats"]["max"] >= '$D'500 and f["stats"]["min"] >= 1500')" = True ] ||
  { cat out; fail "recursion: the outermost call is not the longest"; }
ok "recursion: depth $D x $K = $((D * K)) calls, outer calls longer than inner"

# deeper than the stack (16): the 4 outermost levels are counted, not measured
D=20 K=2
run --json -T "$LT:lt_recurse" -- $RT "$LT" recurse $D $K
[ "$(js out 'f["stats"]["count"], f["lost"]["too_deep"], f["lost"]["no_entry"]')" = "($((16 * K)), $(((D - 16) * K)), 0)" ] ||
  { cat out; fail "recursion past the stack: expected $((16 * K)) measured and $(((D - 16) * K)) too deep"; }
run -T "$LT:lt_recurse" -- $RT "$LT" recurse $D $K
grep -q "^# not measured: $(((D - 16) * K)) nested deeper than 16," out || { cat out; fail "the loss line"; }
ok "recursion past the stack: $((16 * K)) measured, $(((D - 16) * K)) counted as too deep"

# ---- threads that exit inside the function: counted as exited, not measured ----
run --json -T "$LT:lt_exit_inside" -T "$LT:lt_sleep3ms" -- "$LT" exitin 5
[ "$(js out 'f["lost"]["thread_exited"], f["stats"]["count"], nb(f), d["functions"][1]["lost"]["thread_exited"]')" = "(5, 0, 0, 0)" ] ||
  { cat out; fail "threads exiting in the call: expected 5 counted as exited, none measured"; }
run -T "$LT:lt_exit_inside" -- "$LT" exitin 5
grep -q "^No data found$" out && grep -q "^# not measured: 0 nested deeper than 16, 0 returns without entry, 5 in threads that exited," out ||
  { cat out; fail "threads exiting in the call: the text"; }
ok "5 threads exiting inside the function: 5 counted as exited, none in the histogram"

# ---- targets: -p and --tid (one of two processes), -C (one of two CPUs), -G ----
"$LT" sleep 100000 >/dev/null &
p1=$!
"$LT" sleep 100000 >/dev/null &
p2=$!
echo "$p1 $p2" | tr ' ' '\n' >>"$TMP/pids"
for t in "-p $p1" "--tid $p1"; do
  run --json $t --duration 1 -T "$LT:lt_sleep3ms"
  c=$(js out 'f["stats"]["count"]')
  # 1 s of 3 ms calls: about 330 for one process, twice that for both
  [ "$c" -gt 100 ] && [ "$c" -lt 400 ] || { cat out; fail "$t: $c calls, expected one process's (100-400)"; }
  ok "$t: $c calls of one process of two"
done
kill $p1 $p2 2>/dev/null
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
  run --json -a -C 1 -T "$LT:lt_sleep3ms" -- sh -c "taskset -c 0 $LT sleep 20 & taskset -c 1 $LT sleep 30 & wait"
  [ "$(js out 'f["stats"]["count"]')" = 30 ] || { cat out; fail "-C 1: expected the 30 calls of the process on CPU 1"; }
  ok "-C 1: the 30 calls on CPU 1, not the 20 on CPU 0"
fi
CG=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
G=bpfperf-lat-$$
if [ -n "$CG" ] && mkdir "$CG/$G" 2>/dev/null; then
  run --json -a -G "$G" -T "$LT:lt_sleep3ms" -- sh -c "sh -c 'echo \$\$ > $CG/$G/cgroup.procs; exec $LT sleep 20' & $LT sleep 30 & wait"
  c=$(js out 'f["stats"]["count"]')
  rmdir "$CG/$G"
  [ "$c" = 20 ] || { cat out; fail "-G: $c calls, expected the 20 of the process in the cgroup"; }
  ok "-G: the 20 calls in the cgroup, not the 30 outside"
else
  echo "note: no cgroup v2 to make a cgroup in: -G not checked"
fi

# ---- -e BEGIN,END: the nanosleep syscall's tracepoints, N calls ----
if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_nanosleep ]; then
  run --json -e syscalls:sys_enter_nanosleep,syscalls:sys_exit_nanosleep -- $RT "$LT" nanosleep 20
  [ "$(js out 'f["stats"]["count"], b(f, 1024), f["mechanism"]')" = "(20, 20, 'tracepoint')" ] ||
    { cat out; fail "-e: expected 20 calls in 1 - 2 ms"; }
  ok "-e sys_enter_nanosleep,sys_exit_nanosleep: 20 calls of 1.5 ms in 1 - 2 ms"
else
  echo "note: no syscalls:sys_enter_nanosleep tracepoint (CONFIG_FTRACE_SYSCALLS): -e not checked"
fi

# ---- -i: every interval printed and reset; the intervals add up to N ----
N2=300
run -i 0.25 -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep $N2
blocks=$(grep -c '^# time: ' out)
total=$(awk '/^ +count:/ { s += $2 } END { print s }' out)
[ "$blocks" -ge 3 ] && [ "$total" = $N2 ] || { cat out; fail "-i: $blocks blocks adding up to $total, expected >= 3 and $N2"; }
run --json -i 0.25 -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep $N2
[ "$(js out 'len(ds) >= 3, sum(x["functions"][0]["stats"]["count"] for x in ds)')" = "(True, $N2)" ] ||
  { cat out; fail "-i --json: the objects do not add up to $N2"; }
ok "-i 0.25: $blocks intervals adding up to $N2 calls (text and JSON lines)"

# ---- --hide-empty, linear buckets, -n ----
# every row shown has a count, and they add up (a busy machine may spread them)
run --hide-empty -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep 10
rows=$(grep -c ' | ' out)
[ "$(awk -F'|' '!/^#/ && / \| / { if ($2 + 0 == 0) bad = 1; s += $2 } END { print bad ? "zero" : s }' out)" = 10 ] &&
  [ "$rows" -ge 2 ] && [ "$rows" -le 4 ] || { cat out; fail "--hide-empty"; }
ok "--hide-empty: $((rows - 1)) rows, none empty"
cat >want <<'W'
     0 - 1000 us |          0 |                                                |
  1.00 - 2.00 ms |          0 |                                                |
  2.00 - 3.00 ms |          0 |                                                |
  3.00 - 4.00 ms |         10 | ############################################## |
  4.00 - 5.00 ms |          0 |                                                |
  5.00 - ...  ms |          0 |                                                |
W
timed 'run --bucket-range 1000 --max-latency 5000 -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep 10
  grep " | " out | tail -n +2 >got
  cmp -s want got' || { cat out; fail "linear buckets: the rows differ from perf's"; }
run --json --bucket-range 1000 --max-latency 5000 -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep 10
[ "$(js out '[(x["low"], x["high"]) for x in f["buckets"]], b(f, 3000) + b(f, 4000) + b(f, 5000), d["buckets"]')" = "([(0, 1000), (1000, 2000), (2000, 3000), (3000, 4000), (4000, 5000), (5000, None)], 10, 'linear')" ] ||
  { cat out; fail "linear buckets in JSON"; }
ok "linear buckets (--bucket-range 1000 --max-latency 5000): perf's rows, 10 in 3 - 4 ms"
# -n: perf's log2 buckets in ns end at 2^20 ns: 3 ms is in the last row
run -n --json -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep 10
[ "$(js out 'd["unit"], b(f, 1048576), f["buckets"][-1]["low"], f["stats"]["min"] >= 3000000')" = "('nsec', 10, 1048576, True)" ] ||
  { cat out; fail "-n: nanoseconds"; }
run -n -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep 10
grep -q "^# statistics  (in nsec)$" out && grep -qE "^     1 - \.\.\.  ms \| +10 \|" out &&
  grep -qE "^   512 - 1024 us \| +0 \|" out || { cat out; fail "-n text"; }
ok "-n: 10 calls of 3 ms in the last row, '1 - ...  ms'"

# ---- perf's spelling ----
"$BPFPERF" ftrace latency --hide-empty -T "$LT:lt_sleep3ms" -- $RT "$LT" sleep 5 >out 2>err &&
  grep -qE "^ +2 - +4 ms \| +5 \|" out || { cat out err; fail "ftrace latency"; }
expect_fail "ftrace other subcommand" "unknown ftrace subcommand 'trace': only 'latency' exists" \
  "$BPFPERF" ftrace trace -T vfs_read
ok "ftrace latency: the same command"

# ---- bad input: exit 2, a clear message, nothing attached ----
cp "$LT" stripped && strip stripped
# our programs loaded (by name: lat_*), before and after each refused command
links() { bpftool prog show 2>/dev/null | grep -c ' name lat_' ; }
# the programs of the cases above are freed by the kernel after their
# process exits, not at once: wait for them (up to 2 s), so that a count
# falling under the refused commands is not taken for one of theirs
i=0
while [ "$(links)" != 0 ] && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
before=$(links)
usage() {  # usage DESCRIPTION PATTERN ARGS...
  desc=$1 pat=$2; shift 2
  t0=$(date +%s%N)
  "$BPFPERF" latency "$@" -- "$LT" sleep 100000 >out 2>err
  st=$?
  [ $st = 2 ] || { cat err; fail "$desc: exit $st, expected 2"; }
  grep -qE -e "$pat" err || { cat err; fail "$desc: stderr lacks /$pat/"; }
  [ "$(ms_since "$t0")" -lt 5000 ] || fail "$desc: the workload ran (it was not refused at once)"
  [ "$(links)" = "$before" ] || fail "$desc: a BPF program is left loaded"
  ok "$desc: exit 2"
}
usage "unknown function" "unknown function 'bpfperf_no_such_fn'" -T bpfperf_no_such_fn
usage "missing binary" "cannot read $TMP/nope" -T "$TMP/nope:main"
usage "unknown user function" "no function 'nope' in .*latency_target" -T "$LT:nope"
usage "stripped binary" "no function 'lt_sleep3ms' in .*stripped.*stripped of its symbols" -T "$TMP/stripped:lt_sleep3ms"
usage "glob matching nothing" "no kernel function matches 'bpfperf_no_such_\*'" -T 'bpfperf_no_such_*'
usage "unknown syscall" "unknown system call 'nope'" -T syscall:nope
usage "tracepoint pair that does not exist" "no tracepoint bpfperf:nope" -e sched:sched_switch,bpfperf:nope
usage "one tracepoint" "is not two tracepoints" -e sched:sched_switch
usage "-T and -e" "-T and -e exclude each other" -T syscall:read -e sched:sched_switch,sched:sched_switch
usage "nothing to measure" "nothing to measure"
usage "bucket range 0" "invalid --bucket-range '0'" --bucket-range 0 -T syscall:read
usage "min without range" "--min-latency works only with --bucket-range" --min-latency 5 -T syscall:read
usage "max below min + range" "must be at least the minimum" --bucket-range 10 --max-latency 15 -T syscall:read
usage "too many buckets" "at most 256" --bucket-range 1 --max-latency 100000 -T syscall:read
usage "bad interval" "invalid --interval 'x'" -i x -T syscall:read
usage "duplicate function" "given twice" -T syscall:read -T syscall:read
usage "too many functions" "65 functions: at most 64" $(for i in $(seq 65); do printf -- '-T syscall:read%s ' ''; done)
usage "a cgroup that does not exist" "no cgroup 'bpfperf-no-such-cg'" -a -G bpfperf-no-such-cg -T syscall:read
usage "a CPU list out of range" "invalid --cpu|CPU" -C 99999 -T syscall:read
ok "bad input: exit 2, nothing attached"
