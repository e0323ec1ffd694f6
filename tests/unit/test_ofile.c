// SPDX-License-Identifier: GPL-2.0-only
/* out/ofile: a temporary file renamed into place, symlinks replaced and
 * never followed, the old file kept on a failed write or an abort, every
 * write and close error returned (file size limit, /dev/full), devices
 * written in place, perf record's .old backup. No privileges needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out/ofile.h"
#include "util.h"

static char dir[64];

static char *p(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void put(const char *name, const char *text)
{
	char *path = p(name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	free(path);
}

/* The file's contents, NULL when it does not exist. */
static char *get(const char *name)
{
	char *path = p(name);
	char *s = read_file(path, NULL);
	free(path);
	return s;
}

static void assert_contents(const char *name, const char *want)
{
	char *s = get(name);
	assert_non_null(s);
	assert_string_equal(s, want);
	free(s);
}

/* Files in dir other than those named, e.g. temporary ones. */
static int nr_entries(void)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static mode_t mode_of(const char *name, bool follow)
{
	struct stat st;
	char *path = p(name);
	assert_int_equal(follow ? stat(path, &st) : lstat(path, &st), 0);
	free(path);
	return st.st_mode;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_ofile.XXXXXX");
	assert_non_null(mkdtemp(dir));
	umask(022);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char *path = p(e->d_name);
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(path);
		free(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	return 0;
}

/* Nothing at the path until the close; then the whole file, mode 0644. */
static void test_temp_then_rename(void **state)
{
	(void)state;
	char *path = p("out.txt");
	struct ofile *of;
	assert_int_equal(ofile_open(path, OFILE_SHARED, 0, &of), 0);
	assert_true(ofile_is_regular(of));
	fprintf(ofile_stream(of), "hello %d\n", 42);
	assert_null(get("out.txt"));
	assert_int_equal(nr_entries(), 1);	/* the temporary file */
	assert_int_equal(ofile_close(of), 0);
	assert_contents("out.txt", "hello 42\n");
	assert_int_equal(mode_of("out.txt", false) & 07777, 0644);
	assert_int_equal(nr_entries(), 1);
	free(path);
}

/* An existing file keeps its contents until the new one is complete. */
static void test_replace_existing(void **state)
{
	(void)state;
	put("out.txt", "old\n");
	char *path = p("out.txt");
	struct ofile *of;
	assert_int_equal(ofile_open(path, OFILE_PRIVATE, 0, &of), 0);
	fputs("new\n", ofile_stream(of));
	fflush(ofile_stream(of));
	assert_contents("out.txt", "old\n");
	assert_int_equal(ofile_close(of), 0);
	assert_contents("out.txt", "new\n");
	assert_int_equal(mode_of("out.txt", false) & 07777, 0600);
	free(path);
}

/* A symlink at the path is replaced; its target is never written. */
static void test_symlink_replaced(void **state)
{
	(void)state;
	put("victim", "secret\n");
	char *path = p("link"), *dangling = p("dangling");
	assert_int_equal(symlink("victim", path), 0);
	assert_int_equal(symlink("created", dangling), 0);
	struct ofile *of;
	assert_int_equal(ofile_open(path, OFILE_SHARED, 0, &of), 0);
	fputs("report\n", ofile_stream(of));
	assert_int_equal(ofile_close(of), 0);
	assert_true(S_ISREG(mode_of("link", false)));
	assert_contents("link", "report\n");
	assert_contents("victim", "secret\n");

	assert_int_equal(ofile_open(dangling, OFILE_SHARED, 0, &of), 0);
	fputs("x\n", ofile_stream(of));
	assert_int_equal(ofile_close(of), 0);
	assert_true(S_ISREG(mode_of("dangling", false)));
	assert_null(get("created"));
	free(path);
	free(dangling);
}

/* An abort leaves the old file and no temporary one. */
static void test_abort(void **state)
{
	(void)state;
	put("out.txt", "old\n");
	char *path = p("out.txt");
	struct ofile *of;
	assert_int_equal(ofile_open(path, OFILE_SHARED, 0, &of), 0);
	fputs("half", ofile_stream(of));
	ofile_abort(of);
	assert_contents("out.txt", "old\n");
	assert_int_equal(nr_entries(), 1);
	ofile_abort(NULL);
	assert_int_equal(ofile_close(NULL), 0);
	free(path);
}

/* A write past the file size limit fails with EFBIG: ofile_close returns
 * it, the old file stays and the temporary one is removed. */
static void test_write_error(void **state)
{
	(void)state;
	struct rlimit old, lim;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 4096;
	signal(SIGXFSZ, SIG_IGN);
	put("out.txt", "old\n");
	char *path = p("out.txt");
	struct ofile *of;
	assert_int_equal(ofile_open(path, OFILE_SHARED, 0, &of), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	FILE *f = ofile_stream(of);
	for (int i = 0; i < 2000; i++)
		fputs("0123456789abcdef0123456789abcdef\n", f);
	int err = ofile_close(of);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(err, -EFBIG);
	assert_contents("out.txt", "old\n");
	assert_int_equal(nr_entries(), 1);
	free(path);
}

/* Devices are written in place: /dev/null succeeds, /dev/full's ENOSPC is
 * returned by the close (a short write that fits the buffer included). */
static void test_devices(void **state)
{
	(void)state;
	struct ofile *of;
	assert_int_equal(ofile_open("/dev/null", OFILE_SHARED, 0, &of), 0);
	assert_false(ofile_is_regular(of));
	fputs("discarded\n", ofile_stream(of));
	assert_int_equal(ofile_close(of), 0);
	struct stat st;
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	if (access("/dev/full", W_OK) != 0)
		skip();
	assert_int_equal(ofile_open("/dev/full", OFILE_SHARED, 0, &of), 0);
	fputs("x\n", ofile_stream(of));
	assert_int_equal(ofile_close(of), -ENOSPC);
}

/* perf record's way: the old file becomes .old (a symlink there replaced),
 * the new one is at the path from the open, mode 0600. */
static void test_keep_old_publish_early(void **state)
{
	(void)state;
	put("perf.data", "previous");
	put("victim", "secret\n");
	char *path = p("perf.data"), *old = p("perf.data.old");
	assert_int_equal(symlink("victim", old), 0);
	struct ofile *of;
	assert_int_equal(ofile_open(path, OFILE_PRIVATE, OFILE_KEEP_OLD | OFILE_PUBLISH_EARLY, &of), 0);
	assert_int_equal(write(ofile_fd(of), "new", 3), 3);
	assert_contents("perf.data", "new");
	assert_int_equal(mode_of("perf.data", false) & 07777, 0600);
	assert_contents("perf.data.old", "previous");
	assert_true(S_ISREG(mode_of("perf.data.old", false)));
	assert_contents("victim", "secret\n");
	ofile_abort(of);	/* published: stays */
	assert_contents("perf.data", "new");
	free(path);
	free(old);
}

static void test_errors(void **state)
{
	(void)state;
	struct ofile *of;
	assert_int_equal(ofile_open(dir, OFILE_SHARED, 0, &of), -EISDIR);
	assert_null(of);
	char *missing = p("nodir/out.txt");
	assert_int_equal(ofile_open(missing, OFILE_SHARED, 0, &of), -ENOENT);
	free(missing);
	assert_int_equal(ofile_open("-", OFILE_SHARED, 0, &of), 0);
	assert_ptr_equal(ofile_stream(of), stdout);
	assert_int_equal(ofile_close(of), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_temp_then_rename, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace_existing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abort, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_devices, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_old_publish_early, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
