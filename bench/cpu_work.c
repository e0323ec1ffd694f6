// SPDX-License-Identifier: GPL-2.0-only
/* A fixed amount of CPU-bound work on N threads (default: one per CPU), for
 * measuring the overhead of a profiler: prints the elapsed seconds. Frame
 * pointers are kept so that -g unwinding has real work to do. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static unsigned long iters;
static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return (x ^ (x >> 11)) * 0x9e3779b97f4a7c15ul + 7;
}

__attribute__((noinline)) static unsigned long middle(unsigned long x)
{
	for (int i = 0; i < 64; i++)
		x = leaf(x);
	return x;
}

static void *worker(void *arg)
{
	unsigned long x = (unsigned long)arg;
	for (unsigned long i = 0; i < iters; i++)
		x = middle(x);
	sink += x;
	return NULL;
}

int main(int argc, char **argv)
{
	iters = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000000;
	int n = argc > 2 ? atoi(argv[2]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t t[256];
	struct timespec a, b;
	if (n < 1 || n > 256)
		n = 1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)(unsigned long)(i + 1));
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
