// SPDX-License-Identifier: GPL-2.0-only
/* Off-CPU test workload. Build with frame pointers (-fno-omit-frame-pointer).
 *   off_cpu_waits sleep N MS   N sleeps of MS ms in offcpu_sleeper(); prints
 *                              "slept_ns T": the time they took
 *   off_cpu_waits pipe MS      blocks in read(2) of a pipe in offcpu_pipe_reader()
 *                              until a child writes after MS ms
 * The system calls are made inline (no libc wrapper without a frame
 * pointer between them and the named function), so user stacks taken at
 * the switch-out start in the named function. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	fprintf(stderr, "usage: %s sleep N MS | pipe MS\n", argv[0]);
	return 2;
}
