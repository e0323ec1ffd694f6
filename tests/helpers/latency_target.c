// SPDX-License-Identifier: GPL-2.0-only
/* latency_target: a test program with functions of known duration and
 * call counts, for bpfperf latency's tests (tests/integration/test_latency*.sh).
 *
 *   latency_target sleep N          lt_sleep3ms() N times: each one
 *                                   clock_nanosleep(CLOCK_MONOTONIC, 3 ms),
 *                                   exactly one such system call per call
 *   latency_target recurse D K      lt_recurse(D) K times: D nested calls,
 *                                   each level sleeping 1.5 ms before it
 *                                   recurses (depth d: 1.5 d ms, clear of the
 *                                   log2 bounds 1024 and 2048 us)
 *   latency_target nanosleep N      the nanosleep system call (not glibc's
 *                                   nanosleep(), which uses clock_nanosleep)
 *                                   N times, 1.5 ms each
 *   latency_target spin N           lt_empty() N times (per-call cost)
 *   latency_target getppid N        the getppid system call N times
 *   latency_target exitin N         N threads, one after the other, each
 *                                   calling lt_exit_inside(), which ends its
 *                                   thread (the exit system call) and never
 *                                   returns
 *
 * Prints "calls: N" (the calls made at the outermost level), "loop_ns: T"
 * (the loop's wall-clock time) and "cpu_ns: T" (the CPU time the process
 * used in it, user and system: what probes add, for bench/bench_latency.sh)
 * and exits 0. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long sleep_ns(long clock_call, long ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000L, .tv_nsec = ns % 1000000000L };
	if (clock_call)
		return syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, NULL);
	return syscall(SYS_nanosleep, &ts, NULL);
}

__attribute__((noinline, used)) void lt_sleep3ms(void)
{
	sleep_ns(1, 3000000L);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline, used)) int lt_recurse(int depth)
{
	sleep_ns(1, 1500000L);
	int r = depth > 1 ? lt_recurse(depth - 1) + 1 : 1;
	__asm__ volatile("" ::: "memory");
	return r;
}

__attribute__((noinline, used)) int lt_empty(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

__attribute__((noinline, used)) void lt_exit_inside(void)
{
	sleep_ns(1, 1000000L);
	syscall(SYS_exit, 0);	/* this thread only; pthread_join still sees it */
	__asm__ volatile("" ::: "memory");
}

static void *exit_thread(void *arg)
{
	(void)arg;
	lt_exit_inside();
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: latency_target sleep N | recurse DEPTH K | nanosleep N | spin N | getppid N | exitin N\n");
		return 2;
	}
	long n = atol(argv[2]), calls = 0;
	struct timespec t0, t1, c0, c1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	if (!strcmp(argv[1], "sleep")) {
		for (long i = 0; i < n; i++, calls++)
			lt_sleep3ms();
	} else if (!strcmp(argv[1], "recurse") && argc > 3) {
		long k = atol(argv[3]);
		for (long i = 0; i < k; i++, calls++)
			if (lt_recurse((int)n) != (int)n)
				return 1;
	} else if (!strcmp(argv[1], "nanosleep")) {
		for (long i = 0; i < n; i++, calls++)
			sleep_ns(0, 1500000L);
	} else if (!strcmp(argv[1], "spin")) {
		int x = 0;
		for (long i = 0; i < n; i++, calls++)
			x = lt_empty(x);
		if (x != (int)n)
			return 1;
	} else if (!strcmp(argv[1], "getppid")) {
		for (long i = 0; i < n; i++, calls++)
			syscall(SYS_getppid);
	} else if (!strcmp(argv[1], "exitin")) {
		for (long i = 0; i < n; i++, calls++) {
			pthread_t t;
			if (pthread_create(&t, NULL, exit_thread, NULL) || pthread_join(t, NULL))
				return 1;
		}
	} else {
		fprintf(stderr, "latency_target: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("calls: %ld\nloop_ns: %lld\ncpu_ns: %lld\n", calls,
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec),
	       (long long)(c1.tv_sec - c0.tv_sec) * 1000000000LL + (c1.tv_nsec - c0.tv_nsec));
	return 0;
}
