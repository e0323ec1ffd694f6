// SPDX-License-Identifier: GPL-2.0-only
/* A program with known functions, for the uprobe target tests (unit:
 * test_uprobe_target; integration: test_kfunc_attach.sh). Linked without PIE
 * so that its code's addresses differ from its file offsets.
 *
 *   uprobe_target calls N [FIFO]   ut_target_fn() N times (after a line
 *                                  is read from FIFO, if given)
 *   uprobe_target getppid N        the getppid system call N times
 *
 * Symbols for the error cases: ut_data_object (data, not a function),
 * ut_dup (a static function here and in uprobe_target_dup.c: ambiguous),
 * puts (imported from libc). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int ut_data_object = 1;
int ut_dup_other(int x);

__attribute__((noinline, used)) static int ut_dup(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 3;
}

/* In a section of its own, linked at 0x600000 (meson.build): a segment of
 * its own, whose address minus offset differs from the other segments', so
 * an offset taken through the wrong segment is wrong. */
__attribute__((noinline, section(".ut_far"))) int ut_target_fn(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 2 + ut_data_object;
}

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[1], "calls") && strcmp(argv[1], "getppid"))) {
		fprintf(stderr, "usage: uprobe_target calls N [FIFO] | getppid N\n");
		return 2;
	}
	long n = strtol(argv[2], NULL, 10);
	if (argc > 3) {
		FILE *f = fopen(argv[3], "r");
		char line[16];
		if (!f || !fgets(line, sizeof(line), f)) {
			perror(argv[3]);
			return 1;
		}
		fclose(f);
	}
	long sum = 0;
	for (long i = 0; i < n; i++)
		sum += strcmp(argv[1], "calls") ? syscall(SYS_getppid) : ut_target_fn((int)i);
	sum += ut_dup(1) + ut_dup_other(1);
	puts(sum ? "done" : "done.");
	return 0;
}
