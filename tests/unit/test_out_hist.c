// SPDX-License-Identifier: GPL-2.0-only
/* out/log2hist: the log2 histogram (trimmed slot range, ranges, counts, bars
 * scaled to the largest count, total) and the heat-map row (time, padded
 * title, one shade per slot on a log scale). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "out/log2hist.h"

/* What call wrote to the memory stream f, as a string in buf to free(). */
#define CAPTURE(buf, call) do {						\
		size_t len_;						\
		FILE *f = open_memstream(&(buf), &len_);		\
		assert_non_null(f);					\
		call;							\
		fclose(f);						\
	} while (0)

static void test_hist(void **state)
{
	(void)state;
	uint64_t c[8] = { 0, 0, 4, 8, 0, 1, 0, 0 };
	char *buf = NULL;
	CAPTURE(buf, out_log2_hist(f, c, 8, "usecs"));
	const char *want =
		"                   usecs : count      distribution                              \n"
		"                  4 -> 7 : 4          |********************                    |\n"
		"                 8 -> 15 : 8          |****************************************|\n"
		"                16 -> 31 : 0          |                                        |\n"
		"                32 -> 63 : 1          |*****                                   |\n"
		"                   total : 13\n";
	assert_string_equal(buf, want);
	free(buf);
}

static void test_hist_edges(void **state)
{
	(void)state;
	char *buf = NULL;
	uint64_t zero[4] = { 0 };
	CAPTURE(buf, out_log2_hist(f, zero, 4, NULL));
	assert_string_equal(buf, "                   value : (no counts)\n");
	free(buf);

	/* slot 0 is [0, 1]; a tiny count next to a huge one still gets one '*' */
	uint64_t c[2] = { 1, 1000000 };
	CAPTURE(buf, out_log2_hist(f, c, 2, "ns"));
	assert_non_null(strstr(buf, "                  0 -> 1 : 1          |*                                       |\n"));
	assert_non_null(strstr(buf, "                  2 -> 3 : 1000000    |****************************************|\n"));
	assert_non_null(strstr(buf, "total : 1000001\n"));
	free(buf);

	/* the last slots: 2^63 -> UINT64_MAX, and beyond 64 slots */
	uint64_t w[66] = { 0 };
	w[63] = 2;
	w[65] = 1;
	CAPTURE(buf, out_log2_hist(f, w, 66, "v"));
	assert_non_null(strstr(buf, "9223372036854775808 -> 18446744073709551615 : 2"));
	assert_non_null(strstr(buf, "18446744073709551615 -> 18446744073709551615 : 1"));
	free(buf);
}

static void test_heat_row(void **state)
{
	(void)state;
	uint64_t c[8] = { 0, 0, 4, 8, 0, 1, 0, 0 };
	time_t when = 1700000000;
	struct tm tm;
	localtime_r(&when, &tm);
	char want[128];
	/* shades " .:-=+*#%@": the largest count is '@', zero is ' ' */
	snprintf(want, sizeof(want), "%02d:%02d:%02d lat              |  #@ =  |\n",
		 tm.tm_hour, tm.tm_min, tm.tm_sec);
	char *buf = NULL;
	CAPTURE(buf, out_log2_heat_row(f, when, "lat", c, 8));
	assert_string_equal(buf, want);
	free(buf);

	uint64_t zero[3] = { 0 };
	CAPTURE(buf, out_log2_heat_row(f, when, "a-title-longer-than-16", zero, 3));
	assert_non_null(strstr(buf, " a-title-longer-than-16 |   |\n"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist),
		cmocka_unit_test(test_hist_edges),
		cmocka_unit_test(test_heat_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
