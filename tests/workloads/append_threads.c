// SPDX-License-Identifier: GPL-2.0-only
/* append_threads FILE [ITERS] [own]: 4 threads append 64 bytes at a time to
 * one file through one shared descriptor (truncated every 1000 writes): they
 * contend on the file's f_pos_lock (a mutex in a `filp` slab object) and
 * the inode's i_rwsem (in the file system's inode slab cache). With `own`,
 * each thread appends through a descriptor of its own: no f_pos_lock, the
 * inode's i_rwsem is the lock they contend on. The lock contention test's
 * load for locks named by their slab cache and their member path. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fds[4];
static long iters = 20000;

static void *run(void *arg)
{
	char buf[64] = { 0 };
	int fd = *(int *)arg;
	for (long i = 0; i < iters; i++) {
		if (write(fd, buf, sizeof(buf)) < 0) {
			perror("write");
			exit(1);
		}
		if (i % 1000 == 999 && ftruncate(fd, 0) < 0) {
			perror("ftruncate");
			exit(1);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	if (argc < 2 || (argc > 3 && strcmp(argv[3], "own"))) {
		fprintf(stderr, "usage: append_threads FILE [ITERS] [own]\n");
		return 2;
	}
	if (argc > 2)
		iters = atol(argv[2]);
	for (int i = 0; i < 4; i++) {
		if (i > 0 && argc <= 3) {
			fds[i] = fds[0];
			continue;
		}
		fds[i] = open(argv[1], O_WRONLY | O_CREAT | O_APPEND | (i ? 0 : O_TRUNC), 0600);
		if (fds[i] < 0) {
			perror(argv[1]);
			return 1;
		}
	}
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, run, &fds[i]);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
