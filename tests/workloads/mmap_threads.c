// SPDX-License-Identifier: GPL-2.0-only
/* mmap_threads [ITERS] [THREADS]: threads that mmap, touch and munmap 64 KiB
 * in a loop (default 4 threads, 5000 iterations each): they contend on their
 * process's mmap_lock (an rwsem taken for writing by mmap and munmap, for
 * reading by page faults). The lock contention tests' and benchmark's load. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static long iters = 5000;

static void *run(void *arg)
{
	(void)arg;
	for (long i = 0; i < iters; i++) {
		char *p = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		*(volatile char *)p = 1;
		munmap(p, 1 << 16);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 4;
	pthread_t t[64];
	if (argc > 1)
		iters = atol(argv[1]);
	if (n < 1 || n > 64 || iters < 1) {
		fprintf(stderr, "usage: mmap_threads [ITERS] [THREADS 1-64]\n");
		return 2;
	}
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, run, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
