// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf latency without the kernel: the bucket rule the BPF programs
 * count with (lat_bucket) against the bounds the printer labels, perf's
 * log2 and linear bucket options, the text histogram (perf ftrace latency's
 * rows, bar and statistics) and the JSON of synthetic results, and the -e
 * pair's syntax. No privileges needed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>
#include "feat/latency.h"
#include "log.h"
#include "out/latency_print.h"

static uint32_t bucket(const struct lat_cfg *c, uint64_t ns)
{
	return lat_bucket(ns, c->unit_ns, c->range, c->min, c->max, c->nr_buckets);
}

static void test_log2_buckets(void **state)
{
	(void)state;
	struct lat_cfg us, ns;
	assert_int_equal(latency_cfg_make(false, 0, 0, 0, &us), 0);
	assert_int_equal(latency_cfg_make(true, 0, 0, 0, &ns), 0);
	assert_int_equal(us.nr_buckets, 22);
	assert_int_equal(us.unit_ns, 1000);
	assert_int_equal(ns.unit_ns, 1);
	/* usec: [0, 1) us, [1, 2), [2, 4) ... the last from 2^20 us */
	assert_int_equal(bucket(&us, 0), 0);
	assert_int_equal(bucket(&us, 999), 0);
	assert_int_equal(bucket(&us, 1000), 1);
	assert_int_equal(bucket(&us, 1999), 1);
	assert_int_equal(bucket(&us, 2000), 2);
	assert_int_equal(bucket(&us, 3000000), 12);	/* 3 ms: "2 - 4 ms" */
	assert_int_equal(bucket(&us, 1048575999ULL), 20);
	assert_int_equal(bucket(&us, 1048576000ULL), 21);
	assert_int_equal(bucket(&us, ~0ULL), 21);
	assert_int_equal(bucket(&ns, 1), 1);
	assert_int_equal(bucket(&ns, (1 << 20) - 1), 20);
	assert_int_equal(bucket(&ns, 1 << 20), 21);
	assert_int_equal(bucket(&ns, 3000000), 21);	/* 3 ms: "1 - ... ms" */
}

static void test_linear_buckets(void **state)
{
	(void)state;
	struct lat_cfg c;
	assert_int_equal(latency_cfg_make(false, 1000, 1000, 5000, &c), 0);
	assert_int_equal(c.nr_buckets, 6);
	assert_int_equal(bucket(&c, 999999), 0);
	assert_int_equal(bucket(&c, 1000000), 1);
	assert_int_equal(bucket(&c, 1999999), 1);
	assert_int_equal(bucket(&c, 3000000), 3);
	assert_int_equal(bucket(&c, 4999999), 4);
	assert_int_equal(bucket(&c, 5000000), 5);
	assert_int_equal(bucket(&c, ~0ULL), 5);
	/* perf's defaults: min = range, max = min + 20 ranges, 22 buckets */
	assert_int_equal(latency_cfg_make(true, 10, 0, 0, &c), 0);
	assert_int_equal(c.min, 10);
	assert_int_equal(c.max, 210);
	assert_int_equal(c.nr_buckets, 22);
	/* max not on a bucket bound: the last full bucket ends at it */
	assert_int_equal(latency_cfg_make(true, 3, 1, 11, &c), 0);
	assert_int_equal(c.nr_buckets, 5);
	uint64_t lo, hi;
	latency_bucket_bounds(&c, 3, &lo, &hi);
	assert_int_equal(lo, 7);
	assert_int_equal(hi, 10);
	latency_bucket_bounds(&c, 4, &lo, &hi);
	assert_int_equal(lo, 10);
	assert_true(hi == UINT64_MAX);
}

/* Every value falls in the bucket whose bounds the printer shows. */
static void test_bounds_agree(void **state)
{
	(void)state;
	struct lat_cfg cfgs[5];
	assert_int_equal(latency_cfg_make(false, 0, 0, 0, &cfgs[0]), 0);
	assert_int_equal(latency_cfg_make(true, 0, 0, 0, &cfgs[1]), 0);
	assert_int_equal(latency_cfg_make(true, 7, 0, 0, &cfgs[2]), 0);
	assert_int_equal(latency_cfg_make(true, 3, 1, 11, &cfgs[3]), 0);
	assert_int_equal(latency_cfg_make(false, 250, 100, 2000, &cfgs[4]), 0);
	for (int k = 0; k < 5; k++) {
		const struct lat_cfg *c = &cfgs[k];
		for (uint64_t v = 0; v < 5000; v++) {
			uint64_t ns = v * c->unit_ns, lo, hi;
			uint32_t b = bucket(c, ns);
			assert_true(b < c->nr_buckets);
			latency_bucket_bounds(c, b, &lo, &hi);
			if (v < lo || v >= hi)
				fail_msg("cfg %d: %llu in bucket %u [%llu, %llu)", k, (unsigned long long)v, b,
					 (unsigned long long)lo, (unsigned long long)hi);
		}
	}
}

static void test_cfg_errors(void **state)
{
	(void)state;
	struct lat_cfg c;
	log_set_verbosity(-1);
	assert_int_equal(latency_cfg_make(false, 0, 5, 0, &c), -BPFPERF_EUSAGE);
	assert_int_equal(latency_cfg_make(false, 0, 0, 5, &c), -BPFPERF_EUSAGE);
	assert_int_equal(latency_cfg_make(false, 10, 10, 15, &c), -BPFPERF_EUSAGE);
	assert_int_equal(latency_cfg_make(false, 10, 10, 20, &c), 0);
	assert_int_equal(c.nr_buckets, 3);
	assert_int_equal(latency_cfg_make(false, 1, 1, 1 + LAT_MAX_BUCKETS - 2, &c), 0);
	assert_int_equal(c.nr_buckets, LAT_MAX_BUCKETS);
	assert_int_equal(latency_cfg_make(false, 1, 1, 1 + LAT_MAX_BUCKETS - 1, &c), -BPFPERF_EUSAGE);
	assert_true(latency_is_glob("vfs_*"));
	assert_true(latency_is_glob("a?c"));
	assert_true(latency_is_glob("[ab]c"));
	assert_false(latency_is_glob("vfs_read"));
	struct latency_funcs f;
	assert_int_equal(latency_events_resolve("sched:sched_switch", &f), -BPFPERF_EUSAGE);
	assert_int_equal(latency_events_resolve("a:b,c", &f), -BPFPERF_EUSAGE);
	assert_int_equal(latency_events_resolve("a:b,c:d,e:f", &f), -BPFPERF_EUSAGE);
	assert_int_equal(latency_events_resolve(":b,c:d", &f), -BPFPERF_EUSAGE);
	assert_int_equal(latency_events_resolve("a:b,c:d e", &f), -BPFPERF_EUSAGE);
	log_set_verbosity(0);
}

static char *render(const struct lat_cfg *c, const struct latency_result *r, bool hide, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (json)
		latency_print_json(f, c, r, hide);
	else
		latency_print_text(f, c, r, hide);
	fclose(f);
	return buf;
}

static void fill(struct latency_hist *h, const struct lat_cfg *c, const uint64_t *ns, size_t n)
{
	memset(h, 0, sizeof(*h));
	h->c = COUNTS_EMPTY;
	for (size_t i = 0; i < n; i++) {
		h->buckets[bucket(c, ns[i])]++;
		counts_add(&h->c, ns[i]);
	}
}

static void test_print_text(void **state)
{
	(void)state;
	struct lat_cfg c;
	assert_int_equal(latency_cfg_make(false, 0, 0, 0, &c), 0);
	const uint64_t ns[] = { 3000000, 3100000, 3200000, 500, 40000 };
	struct latency_func fn = { .name = "f" };
	struct latency_hist h;
	fill(&h, &c, ns, 5);
	h.func = &fn;
	struct latency_result r = { .h = &h, .n = 1 };
	char *s = render(&c, &r, true, false);
	const char *want =
		"#   DURATION     |      COUNT | GRAPH                                          |\n"
		"     0 -    1 us |          1 | #########                                      |\n"
		"    32 -   64 us |          1 | #########                                      |\n"
		"     2 -    4 ms |          3 | ###########################                    |\n"
		"\n# statistics  (in usec)\n"
		"  total time:                 9340\n"
		"    avg time:                 1868\n"
		"    max time:                 3200\n"
		"    min time:                    0\n"
		"       count:                    5\n";
	assert_string_equal(s, want);
	free(s);
	/* every row: 22 and the header; perf's first and last labels */
	s = render(&c, &r, false, false);
	int rows = 0;
	for (char *p = s; (p = strstr(p, " | ")); p = strchr(p, '\n'))
		rows++;
	assert_int_equal(rows, 23);
	assert_non_null(strstr(s, "\n     0 -    1 us |          1 |"));
	assert_non_null(strstr(s, "\n   512 - 1024 us |          0 |"));
	assert_non_null(strstr(s, "\n     1 -    2 ms |          0 |"));
	assert_non_null(strstr(s, "\n     1 - ...  s  |          0 |"));
	free(s);
	/* losses: one line under the block; several functions: headers */
	struct latency_func fn2 = { .name = "g" };
	struct latency_hist hs[2];
	fill(&hs[0], &c, ns, 1);
	hs[0].func = &fn;
	fill(&hs[1], &c, ns, 0);
	hs[1].func = &fn2;
	hs[1].lost[LAT_LOST_EXITED] = 2;
	hs[1].lost[LAT_LOST_DEPTH] = 7;
	struct latency_result r2 = { .h = hs, .n = 2 };
	s = render(&c, &r2, true, false);
	assert_true(!strncmp(s, "# function: f\n#   DURATION", 26));
	assert_non_null(strstr(s, "       count:                    1\n\n# function: g\nNo data found\n"
				  "# not measured: 7 nested deeper than 16, 0 returns without entry, 2 in "
				  "threads that exited, 0 without a stack slot, 0 in flight at the end\n"));
	free(s);
}

static void test_print_nsec_linear(void **state)
{
	(void)state;
	struct lat_cfg c;
	assert_int_equal(latency_cfg_make(true, 500, 0, 2000, &c), 0);	/* min 500 */
	const uint64_t ns[] = { 100, 600, 1600, 2500 };
	struct latency_func fn = { .name = "f" };
	struct latency_hist h;
	fill(&h, &c, ns, 4);
	h.func = &fn;
	struct latency_result r = { .h = &h, .n = 1 };
	char *s = render(&c, &r, false, false);
	const char *want =
		"#   DURATION     |      COUNT | GRAPH                                          |\n"
		"     0 -  500 ns |          1 | ###########                                    |\n"
		"   500 - 1000 ns |          1 | ###########                                    |\n"
		"  1.00 - 1.50 us |          0 |                                                |\n"
		"  1.50 - 2.00 us |          1 | ###########                                    |\n"
		"  2.00 - ...  us |          1 | ###########                                    |\n"
		"\n# statistics  (in nsec)\n"
		"  total time:                 4800\n"
		"    avg time:                 1200\n"
		"    max time:                 2500\n"
		"    min time:                  100\n"
		"       count:                    4\n";
	assert_string_equal(s, want);
	free(s);
}

static void test_print_json(void **state)
{
	(void)state;
	struct lat_cfg c;
	assert_int_equal(latency_cfg_make(false, 0, 0, 0, &c), 0);
	const uint64_t ns[] = { 3000000, 3500000 };
	struct latency_func fn = { .name = "a\"b", .mech = "uprobe" };
	struct latency_hist h;
	fill(&h, &c, ns, 2);
	h.func = &fn;
	h.lost[LAT_LOST_INFLIGHT] = 1;
	struct latency_result r = { .h = &h, .n = 1 };
	char *s = render(&c, &r, true, true);
	assert_string_equal(s,
		"{\"unit\":\"usec\",\"buckets\":\"log2\",\"functions\":[{\"name\":\"a\\\"b\","
		"\"mechanism\":\"uprobe\",\"buckets\":[{\"low\":2048,\"high\":4096,\"count\":2}],"
		"\"stats\":{\"total\":6500,\"avg\":3250,\"max\":3500,\"min\":3000,\"count\":2},"
		"\"lost\":{\"too_deep\":0,\"no_entry\":0,\"thread_exited\":0,\"no_slot\":0,\"in_flight\":1}}]}\n");
	free(s);
	s = render(&c, &r, false, true);
	assert_non_null(strstr(s, "{\"low\":0,\"high\":1,\"count\":0}"));
	assert_non_null(strstr(s, "{\"low\":1048576,\"high\":null,\"count\":0}]"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log2_buckets),
		cmocka_unit_test(test_linear_buckets),
		cmocka_unit_test(test_bounds_agree),
		cmocka_unit_test(test_cfg_errors),
		cmocka_unit_test(test_print_text),
		cmocka_unit_test(test_print_nsec_linear),
		cmocka_unit_test(test_print_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
