// SPDX-License-Identifier: GPL-2.0-only
/* Build-ids and perf's build-id cache (sym/buildid): the directory's
 * sources, build-ids from notes and ELF files, the cache layout perf reads,
 * its bounds, an unwritable directory; and HEADER_BUILD_ID decoding. No
 * privileges needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/decode.h"
#include "sym/buildid.h"
#include "util.h"

static char *tmpdir(void)
{
	char *d = xstrdup("/tmp/bpfperf-test-buildid-XXXXXX");
	assert_non_null(mkdtemp(d));
	return d;
}

static void write_bytes(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static void rm_rf(const char *d)
{
	char *cmd = xasprintf("rm -rf '%s'", d);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static void test_dir_sources(void **state)
{
	(void)state;
	char *home = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
	char *env = getenv("PERF_BUILDID_DIR") ? xstrdup(getenv("PERF_BUILDID_DIR")) : NULL;
	setenv("PERF_BUILDID_DIR", "/from/env", 1);
	setenv("HOME", "/home/u", 1);
	char *d = buildid_dir("/given");
	assert_string_equal(d, "/given");
	free(d);
	d = buildid_dir(NULL);
	assert_string_equal(d, "/from/env");
	free(d);
	unsetenv("PERF_BUILDID_DIR");
	d = buildid_dir("");
	assert_string_equal(d, "/home/u/.debug");
	free(d);
	unsetenv("HOME");
	assert_null(buildid_dir(NULL));
	if (home)
		setenv("HOME", home, 1);
	if (env)
		setenv("PERF_BUILDID_DIR", env, 1);
	free(home);
	free(env);
}

static void test_notes(void **state)
{
	(void)state;
	/* another note first, then the GNU build-id (type 3), padded to 4 */
	uint8_t notes[] = {
		6, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 'L', 'i', 'n', 'u', 'x', 0, 0, 0, 1, 2, 3, 4,
		4, 0, 0, 0, 5, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0, 0, 0,
	};
	char *d = tmpdir();
	char *p = xasprintf("%s/notes", d);
	write_bytes(p, notes, sizeof(notes));
	uint8_t id[BUILDID_MAX];
	assert_int_equal(buildid_of_notes(p, id, sizeof(id)), 5);
	char hex[2 * BUILDID_MAX + 1];
	buildid_hex(id, 5, hex);
	assert_string_equal(hex, "aabbccddee");
	/* cut inside the descriptor: nothing */
	write_bytes(p, notes, sizeof(notes) - 6);
	assert_int_equal(buildid_of_notes(p, id, sizeof(id)), 0);
	assert_int_equal(buildid_of_notes("/nonexistent/notes", id, sizeof(id)), 0);
	/* an ELF file: this test program (linked with a build-id), and not ELF */
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	size_t len = buildid_of_file(exe, id, sizeof(id));
	assert_true(len == 0 || len == 20);
	assert_int_equal(buildid_of_file(p, id, sizeof(id)), 0);
	rm_rf(d);
	free(p);
	free(d);
}

static void test_cache_layout(void **state)
{
	(void)state;
	char *d = tmpdir();
	char *src = xasprintf("%s/prog", d);
	write_bytes(src, "\x7f" "ELF not really", 15);
	char *dir = xasprintf("%s/cache", d);
	const uint8_t id[20] = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 1, 2,
				 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	struct buildid_cache *c = buildid_cache_open(dir, NULL);
	assert_non_null(c);
	assert_int_equal(buildid_cache_add(c, "/usr/bin/prog", src, "elf", id, 20, false), 0);
	assert_int_equal(buildid_cache_add(c, "/usr/bin/prog", src, "elf", id, 20, false), 0);
	assert_int_equal(buildid_cache_add(c, "/gone", "/nonexistent/file", "elf", id, 20, false), -2);
	struct buildid_cache_stats st;
	buildid_cache_close(c, &st);
	assert_int_equal(st.added, 1);
	assert_int_equal(st.present, 1);
	assert_int_equal(st.skipped, 1);
	assert_int_equal(st.bytes, 15);

	char *entry = xasprintf("%s/usr/bin/prog/123456789abcdef00102030405060708090a0b0c/elf", dir);
	size_t len;
	char *copy = read_file(entry, &len);
	assert_non_null(copy);
	assert_int_equal(len, 15);
	free(copy);
	char *link = xasprintf("%s/.build-id/12/3456789abcdef00102030405060708090a0b0c", dir);
	char target[PATH_MAX];
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	assert_string_equal(target, "../../usr/bin/prog/123456789abcdef00102030405060708090a0b0c");
	char *found = buildid_cache_lookup(dir, id, 20, "elf");
	assert_non_null(found);
	char *want = xasprintf("%s/elf", link);
	assert_string_equal(found, want);
	free(want);
	free(found);
	const uint8_t other[20] = { 0x99 };
	assert_null(buildid_cache_lookup(dir, other, 20, "elf"));
	assert_null(buildid_cache_lookup(NULL, id, 20, "elf"));
	rm_rf(d);
	free(entry);
	free(link);
	free(src);
	free(dir);
	free(d);
}

static void test_cache_bounds(void **state)
{
	(void)state;
	char *d = tmpdir();
	char *big = xasprintf("%s/big", d), *small = xasprintf("%s/small", d);
	char buf[4096] = { 0 };
	write_bytes(big, buf, 4096);
	write_bytes(small, buf, 1000);
	char *dir = xasprintf("%s/cache", d);
	struct buildid_cache_limits lim = { .max_file = 2000, .max_total = 2500 };
	struct buildid_cache *c = buildid_cache_open(dir, &lim);
	uint8_t id[20] = { 1 };
	assert_int_equal(buildid_cache_add(c, "/big", big, "elf", id, 20, false), 1);	/* > max_file */
	id[0] = 2;
	assert_int_equal(buildid_cache_add(c, "/s1", small, "elf", id, 20, false), 0);
	id[0] = 3;
	assert_int_equal(buildid_cache_add(c, "/s2", small, "elf", id, 20, false), 0);
	id[0] = 4;
	assert_int_equal(buildid_cache_add(c, "/s3", small, "elf", id, 20, false), 1);	/* > max_total */
	struct buildid_cache_stats st;
	buildid_cache_close(c, &st);
	assert_int_equal(st.added, 2);
	assert_int_equal(st.skipped, 2);
	assert_int_equal(st.bytes, 2000);
	id[0] = 4;
	assert_null(buildid_cache_lookup(dir, id, 20, "elf"));

	/* A directory that cannot be created: the cache turns itself off. */
	char *bad = xasprintf("%s/small/cache", d);	/* under a regular file */
	c = buildid_cache_open(bad, NULL);
	id[0] = 5;
	assert_int_equal(buildid_cache_add(c, "/s", small, "elf", id, 20, false), 1);
	id[0] = 6;
	assert_int_equal(buildid_cache_add(c, "/t", small, "elf", id, 20, false), 1);
	buildid_cache_close(c, &st);
	assert_int_equal(st.added, 0);
	assert_int_equal(st.skipped, 1);	/* the second add found the cache off */
	assert_null(buildid_cache_open(NULL, NULL));
	rm_rf(d);
	free(bad);
	free(big);
	free(small);
	free(dir);
	free(d);
}

struct seen {
	int n;
	uint16_t misc[4];
	int32_t pid[4];
	size_t idlen[4];
	uint8_t id0[4];
	char name[4][64];
};

static void on_bid(void *ctx, uint16_t misc, int32_t pid, const uint8_t *id, size_t idlen,
		   const char *name)
{
	struct seen *s = ctx;
	if (s->n >= 4)
		return;
	s->misc[s->n] = misc;
	s->pid[s->n] = pid;
	s->idlen[s->n] = idlen;
	s->id0[s->n] = id[0];
	snprintf(s->name[s->n], sizeof(s->name[0]), "%s", name);
	s->n++;
}

/* One entry as perf writes it: 36 bytes, then the name padded to 64. */
static size_t put_entry(uint8_t *b, uint16_t misc, int32_t pid, uint8_t first, uint8_t size,
			const char *name)
{
	uint16_t hsize = 36 + 64;
	memset(b, 0, hsize);
	memcpy(b + 4, &misc, 2);	/* perf_event_header: u32 type, u16 misc, u16 size */
	memcpy(b + 6, &hsize, 2);
	memcpy(b + 8, &pid, 4);
	b[12] = first;
	b[32] = size;
	memcpy(b + 36, name, strlen(name));
	return hsize;
}

static void test_decode_build_ids(void **state)
{
	(void)state;
	uint8_t buf[400];
	size_t len = 0;
	len += put_entry(buf + len, 1 | (1u << 15), -1, 0x85, 20, "[kernel.kallsyms]");
	len += put_entry(buf + len, 2 | (1u << 15), -1, 0xe3, 16, "/usr/bin/sleep");
	/* an old entry without the size bit: 20 bytes, trailing zeros trimmed */
	len += put_entry(buf + len, 2, 7, 0x11, 0, "/old");
	struct seen s = { 0 };
	assert_int_equal(pd_build_ids_decode(buf, len, on_bid, &s), 3);
	assert_int_equal(s.misc[0], 1);
	assert_int_equal(s.idlen[0], 20);
	assert_int_equal(s.id0[0], 0x85);
	assert_string_equal(s.name[0], "[kernel.kallsyms]");
	assert_int_equal(s.misc[1], 2);
	assert_int_equal(s.idlen[1], 16);
	assert_string_equal(s.name[1], "/usr/bin/sleep");
	assert_int_equal(s.pid[2], 7);
	assert_int_equal(s.idlen[2], 1);
	/* a size past the end, a size > 20, a name without its NUL */
	struct seen t = { 0 };
	uint16_t huge = 500;
	memcpy(buf + 100 + 6, &huge, 2);
	assert_int_equal(pd_build_ids_decode(buf, len, on_bid, &t), -1);
	assert_int_equal(t.n, 1);
	put_entry(buf, 2 | (1u << 15), -1, 1, 21, "/x");
	assert_int_equal(pd_build_ids_decode(buf, 100, on_bid, &t), -1);
	put_entry(buf, 2 | (1u << 15), -1, 1, 20, "/x");
	memset(buf + 36, 'a', 64);
	assert_int_equal(pd_build_ids_decode(buf, 100, on_bid, &t), -1);
	assert_int_equal(pd_build_ids_decode(buf, 0, on_bid, &t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir_sources),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_cache_layout),
		cmocka_unit_test(test_cache_bounds),
		cmocka_unit_test(test_decode_build_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
