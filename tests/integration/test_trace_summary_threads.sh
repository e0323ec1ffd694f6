#!/bin/sh
# trace -s on a multi-threaded workload, against strace -f -c: 25 distinct
# syscalls per round (and close) (more than the summary cache slots, so cached counters
# are evicted into the summary map), threads exiting mid-run, and with -p
# threads still alive at the end (their cached counters are collected when
# tracing stops). Also per-thread attribution (each thread makes a known
# number of calls) and the hash-map fallback (--no-task-storage).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd strace
need_cmd python3
need_cmd cc gcc
need_tracefs

cat > "$TMP/mtwork.c" <<'EOF'
/* mtwork THREADS ROUNDS [FIFO]: thread i < THREADS-1 makes (i+1)*ROUNDS rounds
 * and exits; the last ("persistent") thread makes THREADS*ROUNDS rounds; main
 * joins the short-lived threads and makes ROUNDS rounds. With FIFO: start when
 * a byte arrives on it, print "done" when all rounds are made, then main and
 * the persistent thread stay alive (pause). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <unistd.h>
static int rounds, wait_mode;
static pthread_barrier_t done_bar;
static void one_round(void)
{
	char buf[1024];
	struct rlimit rl;
	syscall(SYS_getpid); syscall(SYS_getppid); syscall(SYS_getuid); syscall(SYS_geteuid);
	syscall(SYS_getgid); syscall(SYS_getegid); syscall(SYS_gettid); syscall(SYS_umask, 022);
	syscall(SYS_getpgrp); syscall(SYS_getsid, 0); syscall(SYS_sched_yield);
	syscall(SYS_getpriority, 0, 0); syscall(SYS_getrusage, 0, buf); syscall(SYS_uname, buf);
	syscall(SYS_sysinfo, buf); syscall(SYS_times, buf); syscall(SYS_getcwd, buf, sizeof(buf));
	long fd = syscall(SYS_dup, 2); syscall(SYS_close, fd);
	syscall(SYS_access, "/nonexistent_bpfperf_mt", 0);	/* ENOENT */
	syscall(SYS_lseek, -1, 0, 0);				/* EBADF */
	syscall(SYS_fcntl, -1, F_GETFD);			/* EBADF */
	syscall(SYS_prctl, 3 /* PR_GET_DUMPABLE */, 0, 0, 0, 0);
	syscall(SYS_sched_getscheduler, 0); syscall(SYS_getgroups, 0, NULL);
	syscall(SYS_getrlimit, RLIMIT_NOFILE, &rl);
}
static void *worker(void *arg)
{
	long n = (long)arg;
	for (long i = 0; i < n; i++)
		one_round();
	return NULL;
}
static void *persistent(void *arg)
{
	worker(arg);
	if (wait_mode) {
		pthread_barrier_wait(&done_bar);
		for (;;)
			pause();
	}
	return NULL;
}
int main(int argc, char **argv)
{
	int nt = atoi(argv[1]);
	rounds = atoi(argv[2]);
	wait_mode = argc > 3;
	if (wait_mode) {
		char b;
		int fd = open(argv[3], O_RDONLY);
		if (fd < 0 || read(fd, &b, 1) != 1)
			return 1;
		pthread_barrier_init(&done_bar, NULL, 2);
	}
	pthread_t t[64];
	for (int i = 0; i < nt - 1; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)((i + 1) * rounds));
	pthread_create(&t[nt - 1], NULL, persistent, (void *)(long)(nt * rounds));
	for (int i = 0; i < nt - 1; i++)
		pthread_join(t[i], NULL);
	worker((void *)(long)rounds);
	if (!wait_mode) {
		pthread_join(t[nt - 1], NULL);
		return 0;
	}
	pthread_barrier_wait(&done_bar);
	printf("done\n");
	fflush(stdout);
	for (;;)
		pause();
}
EOF
cc -O2 -pthread -o "$TMP/mtwork" "$TMP/mtwork.c" || fail "cannot compile the workload"

NT=4 R=150
# compare OURS.json STRACE.txt EXPECT_THREADS: the 26 syscalls of a round
# have equal calls/errors; per thread, getppid counts are the expected ones.
compare() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
S = ["getpid", "getppid", "getuid", "geteuid", "getgid", "getegid", "gettid", "umask", "getpgrp",
     "getsid", "sched_yield", "getpriority", "getrusage", "uname", "sysinfo", "times", "getcwd",
     "dup", "access", "lseek", "fcntl", "prctl", "sched_getscheduler", "getgroups", "getrlimit"]
ours = json.load(open(sys.argv[1]))
calls, errs, per_tid = {}, {}, {}
for r in ours["syscalls"]:
    n = r["syscall"]
    calls[n] = calls.get(n, 0) + r["calls"]
    errs[n] = errs.get(n, 0) + r["errors"]
    if n == "getppid":
        per_tid[r["tid"]] = per_tid.get(r["tid"], 0) + r["calls"]
    assert r["calls"] > 0 and r["min_ns"] <= r["avg_ns"] <= r["max_ns"], r
scalls, serrs = {}, {}
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) < 2 or not f[1].isdigit() or f[0] == "total":
        continue
    scalls[f[0]] = int(f[1]); serrs[f[0]] = int(f[2]) if len(f) > 2 else 0
bad = [f"{n}: ours {calls.get(n, 0)}/{errs.get(n, 0)}, strace {scalls.get(n, 0)}/{serrs.get(n, 0)}"
       for n in S if (calls.get(n, 0), errs.get(n, 0)) != (scalls.get(n, 0), serrs.get(n, 0))]
if bad:
    print("\n".join(bad)); sys.exit(1)
assert scalls["getppid"] > 0 and serrs["access"] == scalls["access"] > 0, "workload did not run"
want = sorted(int(x) for x in sys.argv[3].split(","))
got = sorted(per_tid.values())
assert got == want, f"getppid calls per thread {got}, expected {want}"
assert ours["summary_overflows"] == 0
print(f"{len(S)} syscalls x {len(want)} threads equal to strace -f -c ({sum(scalls[n] for n in S)} calls)")
PY
}
EXPECT=$(python3 -c "n,r=$NT,$R; print(','.join(str(x) for x in [ (i+1)*r for i in range(n-1)] + [n*r, r]))")

# -- CMD, default (fast) design and the hash-map fallback.
strace -f -c -U name,calls,errors -o "$TMP/strace.txt" -- "$TMP/mtwork" $NT $R || fail "strace failed"
for mode in default --no-task-storage; do
  opt=; [ $mode = default ] || opt=$mode
  "$BPFPERF" -v trace -s --json $opt -o "$TMP/ours.json" -- "$TMP/mtwork" $NT $R 2>"$TMP/err" || { cat "$TMP/err"; fail "trace -s $opt exited $?"; }
  if [ $mode = default ]; then
    grep -q 'task storage' "$TMP/err" || { cat "$TMP/err"; skip "no BPF task storage here: only the fallback is tested"; }
  else
    grep -q 'hash maps: --no-task-storage' "$TMP/err" || { cat "$TMP/err"; fail "--no-task-storage did not select the hash-map design"; }
  fi
  compare "$TMP/ours.json" "$TMP/strace.txt" "$EXPECT" || fail "threads ($mode): summary differs from strace -f -c"
  ok "multi-threaded -- CMD ($mode): equal to strace -f -c, per-thread counts exact"
done

# -p on a process that keeps running: main and one thread are alive when
# tracing stops; two threads exited mid-run. Both tracers attach before the
# workload starts (it waits on a fifo) and stop after it printed "done".
run_p() {
  opt=$1
  rm -f "$TMP/go" "$TMP/out"
  mkfifo "$TMP/go"
  "$TMP/mtwork" $NT $R "$TMP/go" > "$TMP/out" &
  w=$!
  "$BPFPERF" -v trace -s --json $opt -p $w -o "$TMP/p.json" 2>"$TMP/perr" &
  tr=$!
  strace -f -c -U name,calls,errors -o "$TMP/pstrace.txt" -p $w 2>"$TMP/pserr" &
  st=$!
  for i in $(seq 100); do
    grep -q 'tracing started' "$TMP/perr" && grep -q 'attached' "$TMP/pserr" && break
    sleep 0.1
  done
  grep -q 'tracing started' "$TMP/perr" || { kill $w $tr $st; cat "$TMP/perr"; fail "-p: bpfperf did not start"; }
  printf x > "$TMP/go"
  for i in $(seq 300); do grep -q done "$TMP/out" && break; sleep 0.1; done
  grep -q done "$TMP/out" || { kill $w $tr $st; fail "-p: the workload did not finish"; }
  kill -INT $tr $st
  wait $tr; rc=$?
  wait $st
  kill -KILL $w; wait $w 2>/dev/null
  [ $rc -eq 0 ] || { cat "$TMP/perr"; fail "-p: trace exited $rc"; }
}
run_p ""
compare "$TMP/p.json" "$TMP/pstrace.txt" "$EXPECT" || fail "-p: summary differs from strace -f -c"
ok "-p with threads alive at the end and threads exited mid-run: equal to strace -f -c"
run_p --no-task-storage
compare "$TMP/p.json" "$TMP/pstrace.txt" "$EXPECT" || fail "-p --no-task-storage: summary differs from strace -f -c"
ok "-p with the hash-map fallback: equal to strace -f -c"
