// SPDX-License-Identifier: GPL-2.0-only
/* Off-CPU test workload. Build with frame pointers (-fno-omit-frame-pointer).
 *   off_cpu_waits sleep N MS   N sleeps of MS ms in offcpu_sleeper(); prints
 *                              "slept_ns T": the time they took
 *   off_cpu_waits pipe MS      blocks in read(2) of a pipe in offcpu_pipe_reader()
 *                              until a child writes after MS ms
 *   off_cpu_waits paths D      2^D sleeps of 100 us in offcpu_nap(), each under its
 *                              own user stack: D calls of offcpu_left() or
 *                              offcpu_right(), the bits of the sleep's number;
 *                              prints "naps N blocked B": B of them left the
 *                              CPU (a sleep whose timer expires before the
 *                              task could block does not, e.g. under QEMU)
 * The system calls are made inline (no libc wrapper without a frame
 * pointer between them and the named function), so user stacks taken at
 * the switch-out start in the named function. */
#define _GNU_SOURCE	/* RUSAGE_THREAD */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline long raw3(long nr, long a, long b, long c)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
	return ret;
}

__attribute__((noinline)) void offcpu_sleeper(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	raw3(SYS_nanosleep, (long)&ts, 0, 0);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) long offcpu_pipe_reader(int fd)
{
	char c;
	long r = raw3(SYS_read, fd, (long)&c, 1);
	__asm__ volatile("" ::: "memory");
	return r;
}

static unsigned long blocked;

static long voluntary_switches(void)
{
	struct rusage ru;
	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

__attribute__((noinline)) void offcpu_nap(void)
{
	struct timespec ts = { 0, 100000 };
	long before = voluntary_switches();
	raw3(SYS_nanosleep, (long)&ts, 0, 0);
	__asm__ volatile("" ::: "memory");
	if (voluntary_switches() > before)
		blocked++;
}

/* Two functions that differ (distinct counters), so that the compiler
 * cannot fold them into one address. */
static volatile unsigned long lefts, rights;
void offcpu_left(unsigned long bits, int depth);
void offcpu_right(unsigned long bits, int depth);

static inline void offcpu_step(unsigned long bits, int depth)
{
	if (!depth)
		offcpu_nap();
	else if (bits & 1)
		offcpu_right(bits >> 1, depth - 1);
	else
		offcpu_left(bits >> 1, depth - 1);
}

__attribute__((noinline)) void offcpu_left(unsigned long bits, int depth)
{
	lefts++;
	offcpu_step(bits, depth);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void offcpu_right(unsigned long bits, int depth)
{
	rights++;
	offcpu_step(bits, depth);
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "sleep")) {
		/* the time the sleeps took, wake-up delays included: what an
		 * off-CPU profile measures (switch-out to switch-in) */
		struct timespec t0, t1;
		long long slept = 0;
		for (long i = 0, n = atol(argv[2]); i < n; i++) {
			clock_gettime(CLOCK_MONOTONIC, &t0);
			offcpu_sleeper(atol(argv[3]));
			clock_gettime(CLOCK_MONOTONIC, &t1);
			slept += (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
		}
		printf("slept_ns %lld\n", slept);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "pipe")) {
		int p[2];
		if (pipe(p))
			return 1;
		pid_t c = fork();
		if (c == 0) {
			usleep((useconds_t)atol(argv[2]) * 1000);
			if (write(p[1], "x", 1) != 1)
				_exit(1);
			_exit(0);
		}
		long r = offcpu_pipe_reader(p[0]);
		waitpid(c, NULL, 0);
		return r == 1 ? 0 : 1;
	}
	if (argc >= 3 && !strcmp(argv[1], "paths")) {
		int d = atoi(argv[2]);
		if (d < 1 || d > 20)
			return 2;
		for (unsigned long i = 0; i < (1ul << d); i++)
			offcpu_step(i, d);
		printf("naps %lu blocked %lu\n", 1ul << d, blocked);
		return 0;
	}
	fprintf(stderr, "usage: %s sleep N MS | pipe MS | paths DEPTH\n", argv[0]);
	return 2;
}
