#!/bin/sh
# bpfperf kwork's two designs on the running kernel (in GUEST_TESTS: the
# 6.1 and 6.12 guests too): the first design the kernel takes (-v names it:
# tp_btf programs where the kernel has BTF), and the classic tracepoint
# programs forced with --min-design 1 (a testing option). Each loads and
# runs every view (report, latency, timehist, top, report --hist, report
# -C: the verifier of 6.1 once refused the CPU filter's code), and its
# report's softirq counts per vector agree with /proc/softirqs copied by
# kwork_load.py right after the attach and before it stops bpfperf (kwork_check.py:
# within 2%, 3 events of slack, the calls the kernel counts as skipped, and
# the rate of each vector over the edges of the window).
. "$(dirname "$0")/lib.sh"
need_root
need_tracefs
need_cmd python3
cd "$TMP"
LOAD="$SRC/tests/workloads/kwork_load.py"
# run_bracketed OUT.json SECS ARGS...: `bpfperf kwork report --json -v ARGS`
# with the load of kwork_load.py, which copies /proc's counts (and the
# times) to . right after the attach and right before it stops bpfperf
# with SIGINT; bpfperf's messages in OUT.err
run_bracketed() {
  _o=$1; _s=$2; shift 2
  rm -f kw.fifo bpfperf.err
  mkfifo kw.fifo || fail "mkfifo"
  "$BPFPERF" kwork report --json -v --duration 600 "$@" >"$_o" 2>kw.fifo &
  _pid=$!
  python3 "$LOAD" . "$_s" kw.fifo "$_pid"
  _lrc=$?
  wait "$_pid"
  _brc=$?
  cp bpfperf.err "${_o%.json}.err" 2>/dev/null
  rm -f kw.fifo	# (a kept failure's files are copied: not a fifo)
  [ "$_lrc" = 0 ] && [ "$_brc" = 0 ]
}

for d in 0 1; do
  [ $d = 0 ] && want="tp_btf programs" || want="classic tracepoint programs"
  [ -r /sys/kernel/btf/vmlinux ] || [ $d = 1 ] || want="classic tracepoint programs"
  run_bracketed r$d.json 1 --min-design $d || { cat r$d.err; fail "design $d: kwork report failed"; }
  grep -q "bpfperf kwork: $want" r$d.err || { cat r$d.err; fail "design $d: not the $want"; }
  python3 "$SRC/tests/integration/kwork_check.py" r$d.json ||
    { cat r$d.err; fail "design $d: softirq counts differ from /proc/softirqs"; }
  ok "design $d ($want): report's softirq counts agree with /proc/softirqs"
  for v in latency top "report --hist" "report -C 0"; do	# -C: the CPU filter's code
    "$BPFPERF" kwork $v --json --min-design $d --duration 1 >v.json 2>v.err || { cat v.err; fail "design $d: kwork $v"; }
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d.get("entries") or d.get("tasks"), d' v.json ||
      { cat v.json v.err; fail "design $d: kwork $v: nothing measured"; }
  done
  "$BPFPERF" kwork timehist --min-design $d --duration 1 >t.txt 2>t.err || { cat t.err; fail "design $d: kwork timehist"; }
  [ "$(grep -Ec '^ +[0-9]+\.[0-9]{6}  +[0-9]+\.[0-9]{6}  \[[0-9]{4}\]  ' t.txt)" -gt 0 ] || { cat t.txt; fail "design $d: timehist: no events"; }
  ok "design $d: latency, top, report --hist and timehist load and measure"
done
exit 0
