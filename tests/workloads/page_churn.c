// SPDX-License-Identifier: GPL-2.0-only
/* page_churn [ITERS] [PROCS]: processes (default 4, 30 iterations each) that
 * map 32 MiB, touch every page (small pages: no huge pages asked for) and
 * unmap it: the page allocator refills and drains its per-CPU lists under
 * the zones' locks (rmqueue_bulk, free_pcppages_bulk), from several CPUs at
 * once. Processes, not threads: no mmap_lock between them. The lock
 * contention test's load for zone_lock. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void churn(long iters)
{
	const size_t len = 32u << 20;
	long page = sysconf(_SC_PAGESIZE);
	for (long i = 0; i < iters; i++) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			_exit(1);
		}
		madvise(p, len, MADV_NOHUGEPAGE);
		for (size_t off = 0; off < len; off += (size_t)page)
			p[off] = 1;
		munmap(p, len);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 30;
	int n = argc > 2 ? atoi(argv[2]) : 4, status, failed = 0;
	if (iters < 1 || n < 1 || n > 64) {
		fprintf(stderr, "usage: page_churn [ITERS] [PROCS 1-64]\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0)
			churn(iters);
	}
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status);
	return failed;
}
