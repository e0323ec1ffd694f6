// SPDX-License-Identifier: GPL-2.0-only
/* event_list_add: perf's -e syntax with commas and {groups}. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "event/event.h"

static void check(struct event_list *l, size_t i, const char *spec, int leader)
{
	assert_true(i < l->n);
	assert_string_equal(l->spec[i], spec);
	assert_int_equal(l->leader[i], leader);
}

static void test_plain_and_groups(void **state)
{
	(void)state;
	struct event_list l = { 0 };
	char err[256];
	assert_int_equal(event_list_add(&l, "cycles,page-faults", 16, err, sizeof(err)), 0);
	assert_int_equal(event_list_add(&l, "{cpu-clock,sched:sched_switch}:u,task-clock:k", 16, err, sizeof(err)), 0);
	assert_int_equal(event_list_add(&l, "{instructions:k,cycles}:u", 16, err, sizeof(err)), 0);
	assert_int_equal(event_list_add(&l, "{minor-faults}", 16, err, sizeof(err)), 0);
	assert_int_equal(l.n, 8);
	check(&l, 0, "cycles", -1);
	check(&l, 1, "page-faults", -1);
	check(&l, 2, "cpu-clock:u", 2);
	check(&l, 3, "sched:sched_switch:u", 2);	/* a tracepoint's colon is not a modifier */
	check(&l, 4, "task-clock:k", -1);
	check(&l, 5, "instructions:ku", 5);	/* own modifiers kept, the group's appended */
	check(&l, 6, "cycles:u", 5);
	check(&l, 7, "minor-faults", -1);	/* a group of one is a plain event, as in perf */
	assert_int_equal(l.ngroups, 2);
	event_list_free(&l);
	assert_int_equal(l.n, 0);
}

static void test_errors(void **state)
{
	(void)state;
	const char *bad[] = { "{cycles", "cycles}", "{}", "{cycles,{page-faults}}", "{cycles}:z", "{cycles}x",
			      "{cycles}:", "{cycles}:uuuuuuuuuuuuuuuuuuuu" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct event_list l = { 0 };
		char err[256] = "";
		assert_int_equal(event_list_add(&l, bad[i], 16, err, sizeof(err)), -EINVAL);
		assert_true(strlen(err) > 10);
		event_list_free(&l);
	}
	struct event_list l = { 0 };
	char err[256];
	assert_int_equal(event_list_add(&l, "a,b,c", 2, err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "at most 2"));
	event_list_free(&l);
	/* empty items between commas are skipped, as perf does */
	assert_int_equal(event_list_add(&l, ",cycles,,", 16, err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	event_list_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_and_groups),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
