// SPDX-License-Identifier: GPL-2.0-only
/* hist/filter: perf's --time syntax (absolute ranges, percent slices), the
 * thread/DSO/symbol filters, and how a hist counts what they refuse
 * (absolute and relative percentages). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "hist/filter.h"
#include "hist/hist.h"

#define SEC 1000000000ull

static void test_time_absolute(void **state)
{
	(void)state;
	char err[256];
	struct time_range *r;
	assert_int_equal(time_ranges_parse("570.9,571.2", 0, 0, &r, err, sizeof(err)), 1);
	assert_int_equal(r[0].start, 570 * SEC + 900000000ull);
	assert_int_equal(r[0].end, 571 * SEC + 200000000ull);
	assert_false(time_ranges_skip(r, 1, 571 * SEC));
	assert_false(time_ranges_skip(r, 1, r[0].start));	/* ends included */
	assert_false(time_ranges_skip(r, 1, r[0].end));
	assert_true(time_ranges_skip(r, 1, r[0].end + 1));
	assert_true(time_ranges_skip(r, 1, r[0].start - 1));
	free(r);
	/* open ends, nanoseconds, several ranges separated by spaces */
	assert_int_equal(time_ranges_parse(",10.000000001  20,", 0, 0, &r, err, sizeof(err)), 2);
	assert_int_equal(r[0].start, 0);
	assert_int_equal(r[0].end, 10 * SEC + 1);
	assert_int_equal(r[1].start, 20 * SEC);
	assert_int_equal(r[1].end, 0);
	assert_false(time_ranges_skip(r, 2, 5 * SEC));
	assert_true(time_ranges_skip(r, 2, 15 * SEC));
	assert_false(time_ranges_skip(r, 2, 100 * SEC));
	free(r);
	assert_false(time_ranges_need_bounds("1,2"));
}

static void test_time_percent(void **state)
{
	(void)state;
	char err[256];
	struct time_range *r;
	assert_true(time_ranges_need_bounds("10%/2"));
	/* the second 10% slice of [100 s, 200 s] */
	assert_int_equal(time_ranges_parse("10%/2", 100 * SEC, 200 * SEC, &r, err, sizeof(err)), 1);
	assert_int_equal(r[0].start, 110 * SEC);
	assert_int_equal(r[0].end, 120 * SEC);
	free(r);
	assert_int_equal(time_ranges_parse("0%-10%,30%-40%", 100 * SEC, 200 * SEC, &r, err, sizeof(err)), 2);
	assert_int_equal(r[0].start, 100 * SEC);
	assert_int_equal(r[0].end, 110 * SEC);
	assert_int_equal(r[1].start, 130 * SEC);
	assert_int_equal(r[1].end, 140 * SEC);
	free(r);
	assert_int_equal(time_ranges_parse("25%/1,25%/3", 0, 4 * SEC, &r, err, sizeof(err)), 2);
	assert_int_equal(r[1].start, 2 * SEC);
	assert_int_equal(r[1].end, 3 * SEC);
	free(r);
}

static void test_time_errors(void **state)
{
	(void)state;
	char err[256];
	struct time_range *r;
	const char *bad[] = { "", "abc", "5", "5,4", "1.2.3,4", "1,2 1.5,3", "10%", "10%/0", "50%/3",
			      "10%-5%", "x%/1", "1.1234567891,", "3,4 1,2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(time_ranges_parse(bad[i], 0, SEC, &r, err, sizeof(err)), -22);
		assert_true(strlen(err) > 0);
		assert_null(r);
	}
}

static const char C_A[] = "a", C_B[] = "b", D_APP[] = "app", D_K[] = "[kernel.kallsyms]";
static const char S_F[] = "f", S_G[] = "g";

static void test_filter_match(void **state)
{
	(void)state;
	char err[128];
	struct hist_filter f = { 0 };
	struct hist_frame app_f = { .dso = D_APP, .sym = S_F, .level = '.' };
	struct hist_frame k_g = { .dso = D_K, .sym = S_G, .level = 'k' };

	assert_false(hist_filter_active(&f));
	assert_true(hist_filter_match(&f, C_A, 1, 1, &app_f));
	assert_int_equal(hist_filter_add_comms(&f, "a,c"), 0);
	assert_true(hist_filter_active(&f));
	assert_true(hist_filter_match(&f, C_A, 1, 1, &app_f));
	assert_false(hist_filter_match(&f, C_B, 1, 1, &app_f));
	assert_int_equal(hist_filter_add_pids(&f, "1,-1", err, sizeof(err)), 0);
	assert_true(hist_filter_match(&f, C_A, -1, -1, &app_f));
	assert_false(hist_filter_match(&f, C_A, 2, 2, &app_f));
	assert_int_equal(hist_filter_add_pids(&f, "1,x", err, sizeof(err)), -22);
	assert_non_null(strstr(err, "'x'"));
	assert_int_equal(hist_filter_add_dsos(&f, "/usr/bin/app"), 0);	/* a path: its base name */
	assert_true(hist_filter_match(&f, C_A, 1, 1, &app_f));
	assert_false(hist_filter_match(&f, C_A, 1, 1, &k_g));
	assert_false(hist_filter_match(&f, C_A, 1, 1, NULL));
	assert_int_equal(hist_filter_add_syms(&f, "g"), 0);
	assert_false(hist_filter_match(&f, C_A, 1, 1, &app_f));		/* f is not listed */
	assert_int_equal(hist_filter_add_comms(&f, "a,,b"), -22);
	hist_filter_free(&f);
	assert_false(hist_filter_active(&f));
}

/* Refused samples count in the total (absolute) or not (relative). */
static void test_filter_hist(void **state)
{
	(void)state;
	struct hist_filter f = { 0 };
	assert_int_equal(hist_filter_add_comms(&f, "a"), 0);
	for (int relative = 0; relative < 2; relative++) {
		struct hist_opts o = { .keys = { SORT_COMM, SORT_SYM }, .nkeys = 2, .filter = &f,
				       .relative = relative };
		struct hist *h = hist_new(&o);
		struct hist_frame fa = { .dso = D_APP, .sym = S_F, .level = '.' };
		struct hist_sample sa = { .comm = C_A, .pid = 1, .tid = 1, .period = 100, .nframes = 1, .frames = &fa };
		struct hist_sample sb = { .comm = C_B, .pid = 2, .tid = 2, .period = 300, .nframes = 1, .frames = &fa };
		hist_add_sample(h, &sa);
		hist_add_sample(h, &sb);
		hist_finish(h);
		assert_int_equal(hist_nr_entries(h), 1);
		assert_ptr_equal(hist_entry_at(h, 0)->comm, C_A);
		assert_int_equal(hist_total_period(h), relative ? 100 : 400);
		assert_int_equal(hist_total_samples(h), relative ? 1 : 2);
		assert_int_equal(hist_filtered_samples(h), 1);
		hist_free(h);
	}
	hist_filter_free(&f);
}

static void test_sort_key_names(void **state)
{
	(void)state;
	enum sort_key k[SORT__MAX];
	const char *bad;
	assert_int_equal(sort_keys_parse("pid,period", k, SORT__MAX, &bad), 2);
	assert_int_equal(k[1], SORT_PERIOD);
	assert_true(sort_key_is_field(SORT_PERIOD));
	assert_false(sort_key_is_field(SORT_PID));
	assert_int_equal(sort_keys_parse("overhead,sample,comm", k, SORT__MAX, &bad), 3);
	assert_int_equal(sort_keys_parse("sym,srcline", k, SORT__MAX, &bad), 2);
	assert_int_equal(k[1], SORT_SRCLINE);
	assert_int_equal(sort_keys_parse("sym,srcfile", k, SORT__MAX, &bad), -1);
	assert_string_equal(bad, "srcfile");
	assert_true(sort_key_perf_only("srcfile"));
	assert_false(sort_key_perf_only("bogus"));
}

/* parent: the first frame matching the regex, from the leaf up (no
 * children) or from the outermost caller down (children); none: [other]. */
static void test_parent(void **state)
{
	(void)state;
	static const char SYS_READ[] = "sys_read", DO_X[] = "do_x", LEAF[] = "leaf", MAIN[] = "main";
	struct hist_frame fr[4] = { { D_K, LEAF, 'k' }, { D_K, DO_X, 'k' }, { D_K, SYS_READ, 'k' },
				    { D_APP, MAIN, '.' } };
	for (int children = 0; children < 2; children++) {
		struct hist_opts o = { .keys = { SORT_PARENT }, .nkeys = 1, .children = children,
				       .parent_regex = "^sys_|^do_" };
		struct hist *h = hist_new(&o);
		struct hist_sample s = { .comm = C_A, .period = 10, .nframes = 4, .frames = fr };
		struct hist_sample t = { .comm = C_A, .period = 30, .nframes = 1, .frames = &fr[3] };
		hist_add_sample(h, &s);
		hist_add_sample(h, &t);
		hist_finish(h);
		const struct hist_entry *e0 = hist_entry_at(h, 0), *e1 = hist_entry_at(h, 1);
		assert_non_null(e1);
		assert_null(e0->parent);		/* t: main only, [other] */
		assert_int_equal(e0->self, 30);
		assert_ptr_equal(e1->parent, children ? SYS_READ : DO_X);
		assert_int_equal(e1->self, 10);
		hist_free(h);
	}
	assert_true(hist_parent_regex_ok("^a|b$"));
	assert_false(hist_parent_regex_ok("("));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_absolute),
		cmocka_unit_test(test_time_percent),
		cmocka_unit_test(test_time_errors),
		cmocka_unit_test(test_filter_match),
		cmocka_unit_test(test_filter_hist),
		cmocka_unit_test(test_sort_key_names),
		cmocka_unit_test(test_parent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
