// SPDX-License-Identifier: GPL-2.0-only
/* record --filter's parser (perf's sample filter grammar) and the shared
 * evaluation of sample_filter_data.h (the same inline functions run in the
 * BPF program). No privileges needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "feat/sample_filter.h"

static int fake_cgroup(const char *path, uint64_t *id)
{
	if (!strcmp(path, "/abc/def")) {
		*id = 4242;
		return 0;
	}
	return -ENOENT;
}

static void parse_ok(const char *text, struct sf_expr *e)
{
	struct sf_error err;
	int rc = sf_parse(text, e, &err, fake_cgroup);
	if (rc)
		fail_msg("'%s': %s at %d", text, err.msg, err.column);
}

/* The error's column and a word of its message. */
static void parse_bad(const char *text, int column, const char *words)
{
	struct sf_expr e;
	struct sf_error err;
	assert_int_equal(sf_parse(text, &e, &err, fake_cgroup), -EINVAL);
	if (err.column != column || !strstr(err.msg, words))
		fail_msg("'%s': got column %d '%s', want %d '%s'", text, err.column, err.msg, column, words);
}

static void test_terms_and_ops(void **state)
{
	(void)state;
	struct sf_expr e;
	parse_ok("tid == 1234", &e);
	assert_int_equal(e.n, 1);
	assert_int_equal(e.e[0].term, SF_TERM_TID);
	assert_int_equal(e.e[0].op, SF_OP_EQ);
	assert_int_equal(e.e[0].value, 1234);
	assert_int_equal(e.column[0], 0);

	parse_ok("ip < 0x8000000000000000", &e);
	assert_int_equal(e.e[0].term, SF_TERM_IP);
	assert_int_equal(e.e[0].op, SF_OP_LT);
	assert_true(e.e[0].value == 0x8000000000000000ull);

	static const struct { const char *t; uint32_t term, op; uint64_t v; } cases[] = {
		{ "id != 7", SF_TERM_ID, SF_OP_NE, 7 },
		{ "pid>1", SF_TERM_PID, SF_OP_GT, 1 },
		{ "cpu >= 0", SF_TERM_CPU, SF_OP_GE, 0 },
		{ "time <= 0xFFff", SF_TERM_TIME, SF_OP_LE, 0xffff },
		{ "addr & 0x1000", SF_TERM_ADDR, SF_OP_AND, 0x1000 },
		{ "period > 100", SF_TERM_PERIOD, SF_OP_GT, 100 },
		{ "weight > 10", SF_TERM_WEIGHT, SF_OP_GT, 10 },
		{ "phys_addr == 0", SF_TERM_PHYS_ADDR, SF_OP_EQ, 0 },
		{ "uid == 1000", SF_TERM_UID, SF_OP_EQ, 1000 },
		{ "gid != 0", SF_TERM_GID, SF_OP_NE, 0 },
		{ "cgroup == /abc/def", SF_TERM_CGROUP, SF_OP_EQ, 4242 },
		{ "cpu == 18446744073709551615", SF_TERM_CPU, SF_OP_EQ, UINT64_MAX },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse_ok(cases[i].t, &e);
		assert_int_equal(e.n, 1);
		assert_int_equal(e.e[0].term, cases[i].term);
		assert_int_equal(e.e[0].op, cases[i].op);
		assert_true(e.e[0].value == cases[i].v);
	}
}

static void test_data_src(void **state)
{
	(void)state;
	struct sf_expr e;
	parse_ok("mem_op == load, mem_lvl <= l2, mem_dtlb == l1_hit", &e);
	assert_int_equal(e.n, 3);
	assert_int_equal(e.e[0].term, SF_TERM_DATA_SRC);
	assert_int_equal(e.e[0].part, SF_MEM_OP);
	assert_int_equal(e.e[0].value, PERF_MEM_OP_LOAD);
	assert_int_equal(e.e[1].part, SF_MEM_LVL);
	assert_int_equal(e.e[1].value, PERF_MEM_LVLNUM_L2);
	assert_int_equal(e.e[2].part, SF_MEM_DTLB);
	assert_int_equal(e.e[2].value, PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT);
	parse_ok("mem_snoop == peer, mem_hops > hops1, mem_blk == by_addr, mem_remote == remote, "
		 "mem_lock == locked, mem_lvl == na, mem_op == na", &e);
	assert_int_equal(e.e[0].value, PERF_MEM_SNOOPX_PEER << 5);
	assert_int_equal(e.e[1].value, PERF_MEM_HOPS_1);
	assert_int_equal(e.e[2].value, PERF_MEM_BLK_ADDR);
	assert_int_equal(e.e[3].value, PERF_MEM_REMOTE_REMOTE);
	assert_int_equal(e.e[4].value, PERF_MEM_LOCK_LOCKED);
	assert_int_equal(e.e[5].value, PERF_MEM_LVLNUM_NA);	/* each field's own na */
	assert_int_equal(e.e[6].value, PERF_MEM_OP_NA);
	parse_ok("mem_op == 2", &e);
	assert_int_equal(e.e[0].value, 2);
	assert_true(sf_sample_type(&e) == PERF_SAMPLE_DATA_SRC);
	parse_bad("mem_op == l1", 10, "unknown value 'l1' for mem_op");
	parse_bad("tid == load", 7, "expected a number");
}

static void test_groups(void **state)
{
	(void)state;
	struct sf_expr e;
	/* 'A || B, C' is (A or B) and C, as perf */
	parse_ok("tid == 1 || tid == 2, cpu == 0", &e);
	assert_int_equal(e.n, 5);
	assert_int_equal(e.e[0].op, SF_OP_GROUP_BEGIN);
	assert_int_equal(e.e[1].term, SF_TERM_TID);
	assert_int_equal(e.e[1].value, 1);
	assert_int_equal(e.e[2].value, 2);
	assert_int_equal(e.e[3].op, SF_OP_GROUP_END);
	assert_int_equal(e.e[4].term, SF_TERM_CPU);
	assert_int_equal(e.column[1], 0);
	assert_int_equal(e.column[2], 12);
	assert_int_equal(e.column[4], 22);
	parse_ok("cpu == 0, pid == 1 || pid == 2 || pid == 3", &e);
	assert_int_equal(e.n, 6);
	assert_int_equal(e.e[1].op, SF_OP_GROUP_BEGIN);
	assert_int_equal(e.e[5].op, SF_OP_GROUP_END);
}

static void test_errors(void **state)
{
	(void)state;
	parse_bad("", 0, "empty filter");
	parse_bad("   ", 0, "empty filter");
	parse_bad("bogus == 1", 0, "unknown term 'bogus'");
	parse_bad("tid == 1, foo > 2", 10, "unknown term 'foo'");
	parse_bad("tid = 1", 4, "use '=='");
	parse_bad("tid 1", 4, "expected an operator");
	parse_bad("tid ==", 6, "expected a number");
	parse_bad("tid == 12ab", 7, "expected a number");
	parse_bad("tid == 1 cpu == 2", 9, "expected ',' or '||'");
	parse_bad("tid == 1,", 9, "expected a term");
	parse_bad("tid == 1 && cpu == 2", 9, "expected ',' or '||'");
	parse_bad("&& cpu == 2", 0, "'&&' is not an operator");
	parse_bad("tid == 1 ||", 11, "expected a term");
	parse_bad("cpu == 0x10000000000000000", 7, "too large");
	parse_bad("cpu == 99999999999999999999", 7, "too large");
	parse_bad("cgroup > /abc/def", 7, "'==' or '!='");
	parse_bad("cgroup == /nope", 10, "cgroup '/nope'");
	parse_bad("cgroup ==", 9, "expected a cgroup path");
	parse_bad("tid == 1 $", 9, "expected ',' or '||'");
	/* 64 entries fit, 65 do not */
	char big[2048] = "";
	for (int i = 0; i < SF_MAX_ENTRIES; i++)
		strcat(big, i ? ", cpu == 1" : "cpu == 1");
	struct sf_expr e;
	parse_ok(big, &e);
	assert_int_equal(e.n, SF_MAX_ENTRIES);
	strcat(big, ", cpu == 2");
	parse_bad(big, (int)strlen(big) - 8, "too many terms");
}

static void test_format_error(void **state)
{
	(void)state;
	struct sf_expr e;
	struct sf_error err;
	char buf[512];
	const char *t = "tid == 1, foo > 2";
	assert_int_equal(sf_parse(t, &e, &err, fake_cgroup), -EINVAL);
	sf_format_error(t, &err, buf, sizeof(buf));
	const char *want = "(column 11)\n  tid == 1, foo > 2\n            ^";
	if (!strstr(buf, want))
		fail_msg("got:\n%s", buf);
}

/* Evaluate e on a fake sample: values by term. */
static int eval(const struct sf_expr *e, const uint64_t *vals)
{
	struct sf_state s = { 0 };
	for (uint32_t i = 0; i < e->n; i++) {
		if (sf_skip(&s, e->e[i].op))
			continue;
		if (sf_step(&s, e->e[i].op, vals[e->e[i].term], e->e[i].value) < 0)
			return 0;
	}
	return 1;
}

static void test_eval(void **state)
{
	(void)state;
	struct sf_expr e;
	uint64_t v[SF_NR_TERMS] = { 0 };
	parse_ok("tid == 1 || tid == 2, cpu == 0", &e);
	v[SF_TERM_TID] = 1;
	assert_true(eval(&e, v));
	v[SF_TERM_TID] = 2;
	assert_true(eval(&e, v));
	v[SF_TERM_TID] = 3;
	assert_false(eval(&e, v));
	v[SF_TERM_TID] = 2;
	v[SF_TERM_CPU] = 1;
	assert_false(eval(&e, v));

	parse_ok("ip < 0x8000000000000000", &e);
	v[SF_TERM_IP] = 0x7fffdeadbeefull;
	assert_true(eval(&e, v));
	v[SF_TERM_IP] = 0xffffffff81000000ull;
	assert_false(eval(&e, v));

	parse_ok("period & 6, period != 4, period >= 2, period <= 6, period > 1", &e);
	for (uint64_t p = 0; p < 10; p++) {
		v[SF_TERM_PERIOD] = p;
		assert_int_equal(eval(&e, v), p == 2 || p == 3 || p == 5 || p == 6);
	}
	struct sf_expr a, b;
	parse_ok("cpu == 0", &a);
	parse_ok("tid == 5", &b);
	assert_int_equal(sf_expr_and(&a, &b), 0);
	assert_int_equal(a.n, 2);
	v[SF_TERM_CPU] = 0;
	v[SF_TERM_TID] = 5;
	assert_true(eval(&a, v));
	v[SF_TERM_TID] = 6;
	assert_false(eval(&a, v));
}

static void test_design_needs(void **state)
{
	(void)state;
	assert_true(sf_term_needs_kctx(SF_TERM_TIME));
	assert_true(sf_term_needs_kctx(SF_TERM_DATA_SRC));
	assert_true(sf_term_needs_kctx(SF_TERM_ID));
	assert_false(sf_term_needs_kctx(SF_TERM_TID));
	assert_false(sf_term_needs_kctx(SF_TERM_IP));
	assert_false(sf_term_needs_kctx(SF_TERM_CPU));
	assert_string_equal(sf_term_name(SF_TERM_DATA_SRC, SF_MEM_HOPS), "mem_hops");
	struct sf_expr e;
	parse_ok("addr > 0, phys_addr > 0, weight > 0, tid > 0", &e);
	assert_true(sf_sample_type(&e) == (PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_WEIGHT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terms_and_ops),
		cmocka_unit_test(test_data_src),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_format_error),
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_design_needs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
