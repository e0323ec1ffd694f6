// SPDX-License-Identifier: GPL-2.0-only
/* Equal work in several places, so that a profile sampled at a fixed period
 * has many call-graph siblings of equal period: four functions of this file
 * called from three callers (each set defined in name order: perf orders
 * siblings of equal period by address, descending, not by name), and system
 * calls through libc beside them. Usage: equal_work [CPU_SECONDS] */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

volatile unsigned long sink;

#define WORK(name, k) \
	__attribute__((noinline)) void name(unsigned long n) \
	{ \
		for (unsigned long i = 0; i < n; i++) \
			sink += i * (k); \
	}
WORK(work_a, 2)
WORK(work_b, 3)
WORK(work_c, 5)
WORK(work_d, 7)

#define CALLER(name) \
	__attribute__((noinline)) void name(unsigned long n) \
	{ \
		work_a(n); \
		getppid(); \
		work_b(n); \
		work_c(n); \
		work_d(n); \
		getppid(); \
	}
CALLER(caller_1)
CALLER(caller_2)
CALLER(caller_3)

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	while ((double)clock() / CLOCKS_PER_SEC < secs) {
		caller_1(2000);
		caller_2(2000);
		caller_3(2000);
	}
	return 0;
}
