#!/bin/sh
# Tracepoint events are recorded with their fields (PERF_SAMPLE_RAW) and the
# tracing data header, so perf's tracepoint tools read our files: perf script
# prints the fields, perf sched latency accounts the workload's switches and
# perf trace -i replays its system calls (strace is the oracle for the count).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd strace
need_tracefs
P() { perf --buildid-dir "$TMP/bid" "$@"; }
cd "$TMP"

# 1. sched_switch/sched_wakeup system-wide around a workload that sleeps 20 times.
cat > sleeper.sh <<'SH'
i=0; while [ $i -lt 20 ]; do sleep 0.01; i=$((i+1)); done
SH
"$BPFPERF" record -e sched:sched_switch,sched:sched_wakeup -a -o sched.data -- sh sleeper.sh \
  2>rec.err >/dev/null || { cat rec.err; fail "record of sched tracepoints"; }
P script -i sched.data > script.txt 2>script.err || { cat script.err; fail "perf script on our file"; }
sw=$(grep -c 'sched:sched_switch:' script.txt)
[ "$sw" -gt 40 ] || fail "perf script shows $sw sched_switch samples (want > 40)"
nofield=$(grep 'sched:sched_switch:' script.txt | grep -vc 'prev_comm=.*prev_state=.*==> next_comm=.*next_pid=')
[ "$nofield" = 0 ] || { grep 'sched:sched_switch:' script.txt | head -3; fail "$nofield sched_switch samples without their fields in perf script"; }
grep -q 'sched:sched_wakeup: comm=.* pid=[0-9]' script.txt || fail "perf script shows no sched_wakeup fields"
# every sleep of the workload is a switch out in state S
sleeps=$(grep 'sched:sched_switch:' script.txt | grep -c 'prev_comm=sleep .*prev_state=S')
[ "$sleeps" -ge 20 ] || fail "perf script shows $sleeps switches out of 'sleep' in state S (want >= 20)"
ok "perf script prints the tracepoint fields ($sw switches, $sleeps sleeps)"

P sched latency -i sched.data > lat.txt 2>lat.err || { cat lat.err; fail "perf sched latency on our file"; }
grep -qE '^ +sleep(:\([0-9]+\)|:[0-9]+) +\|' lat.txt || { head -20 lat.txt; fail "perf sched latency lists no 'sleep' task"; }
ok "perf sched latency reads our file"

# our own report shows one block per tracepoint event with perf's counts
P report -i sched.data --stdio --sort comm 2>/dev/null | grep '^# Samples' > perf.blocks
"$BPFPERF" report -i sched.data --sort comm 2>/dev/null | grep '^# Samples' > ours.blocks
cmp -s perf.blocks ours.blocks || { cat perf.blocks ours.blocks; fail "per-event sample counts differ from perf report"; }
ok "per-event blocks as perf report's: $(tr '\n' ' ' < ours.blocks)"

# 2. raw_syscalls on dd: perf trace -i replays the calls, as many writes as strace counts.
"$BPFPERF" record -e raw_syscalls:sys_enter,raw_syscalls:sys_exit -o sc.data -- \
  dd if=/dev/zero of=/dev/null bs=1 count=300 2>rec.err >/dev/null || { cat rec.err; fail "record of raw_syscalls"; }
P trace -i sc.data > trace.txt 2>&1 || { head trace.txt; fail "perf trace -i on our file"; }
got=$(grep -c ' dd/[0-9]* write(' trace.txt)
strace -f -c -e trace=write -o strace.txt dd if=/dev/zero of=/dev/null bs=1 count=300 2>/dev/null
want=$(awk '$NF == "write" { print $4 }' strace.txt)
[ -n "$want" ] && [ "$got" = "$want" ] || { grep write trace.txt | tail -3; cat strace.txt; fail "perf trace -i shows $got writes by dd, strace counts $want"; }
ok "perf trace -i replays dd's $got writes (strace: $want)"
