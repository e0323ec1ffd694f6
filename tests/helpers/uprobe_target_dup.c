// SPDX-License-Identifier: GPL-2.0-only
/* The second static ut_dup of uprobe_target (see uprobe_target.c). */
int ut_dup_other(int x);

__attribute__((noinline, used)) static int ut_dup(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 5;
}

int ut_dup_other(int x)
{
	return ut_dup(x);
}
