// SPDX-License-Identifier: GPL-2.0-only
/* out: perf-style table (header, rows, call graphs, --percent-limit), JSON,
 * folded stacks, flame graph HTML. The layout rules were checked byte for
 * byte against perf 6.1's `perf report --stdio` on the same samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/out.h"
#include "out/out_int.h"
#include "util.h"

static const char S_A[] = "A", S_B[] = "B", S_C[] = "C", S_D[] = "D", S_E[] = "E", S_R[] = "R";
static const char S_BAD[] = "</script><b>x&y";
static const char D_APP[] = "app", D_K[] = "[kernel.kallsyms]";
static const char C_A[] = "a", C_B[] = "b";

static void add(struct hist *h, const char *comm, int n, const char *const *syms, int times)
{
	struct hist_frame f[16] = { 0 };
	for (int i = 0; i < n; i++) {
		bool k = syms[i] == S_E || !strncmp(syms[i], "bpf_prog_", 9);
		f[i].sym = syms[i];
		f[i].dso = k ? D_K : D_APP;
		f[i].level = k ? 'k' : '.';
	}
	for (int k = 0; k < times; k++) {
		struct hist_sample s = { .comm = comm, .pid = comm == C_A ? 10 : 20, .tid = comm == C_A ? 11 : 21, .cpu = 1,
					 .period = 100, .nframes = (size_t)n, .frames = f };
		hist_add_sample(h, &s);
	}
}

static struct hist *fixture(bool children, enum sort_key *keys, int nkeys)
{
	struct hist_opts o = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3, .children = children,
			       .callchains = true, .callgraph_limit = 0.5 };
	if (keys) {
		memcpy(o.keys, keys, sizeof(*keys) * (size_t)nkeys);
		o.nkeys = nkeys;
	}
	struct hist *h = hist_new(&o);
	add(h, C_A, 3, (const char *[]){ S_C, S_B, S_A }, 3);
	add(h, C_A, 2, (const char *[]){ S_B, S_A }, 1);
	add(h, C_A, 3, (const char *[]){ S_D, S_B, S_A }, 2);
	add(h, C_B, 2, (const char *[]){ S_C, S_E }, 1);
	add(h, C_A, 3, (const char *[]){ S_R, S_R, S_A }, 1);
	hist_finish(h);
	return h;
}

typedef int (*writer_fn)(FILE *, const struct hist *, const struct out_opts *);

static char *render(writer_fn fn, const struct hist *h, const struct out_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(fn(f, h, o), 0);
	fclose(f);
	return buf;
}

static const char table_head[] =
	"#\n"
	"# Total Lost Samples: 3\n"
	"#\n"
	"# Samples: 8  of event 'cpu-clock'\n"
	"# Event count (approx.): 800\n"
	"#\n";

static void test_table_children_graph(void **state)
{
	(void)state;
	struct hist *h = fixture(true, NULL, 0);
	struct out_opts o = { .event_name = "cpu-clock", .lost_samples = 3, .callgraph = true,
			      .callgraph_limit = 0.5 };
	char *s = render(out_table, h, &o);
	static const char want[] =
		"# Children      Self  Command  Shared Object      Symbol\n"
		"# ........  ........  .......  .................  ......\n"
		"#\n"
		"    87.50%     0.00%  a        app                [.] A\n"
		"            |\n"
		"            ---A\n"
		"               |          \n"
		"               |--75.00%--B\n"
		"               |          |          \n"
		"               |          |--37.50%--C\n"
		"               |          |          \n"
		"               |           --25.00%--D\n"
		"               |          \n"
		"                --12.50%--R\n"
		"                          R\n"
		"\n"
		"    75.00%    12.50%  a        app                [.] B\n"
		"            |          \n"
		"            |--62.50%--B\n"
		"            |          |          \n"
		"            |          |--37.50%--C\n"
		"            |          |          \n"
		"            |           --25.00%--D\n"
		"            |          \n"
		"             --12.50%--A\n"
		"                       B\n"
		"\n";
	assert_memory_equal(s, table_head, strlen(table_head));
	if (strncmp(s + strlen(table_head), want, strlen(want))) {
		fprintf(stderr, "got:\n%s\n", s);
		fail();
	}
	/* B's own samples have the whole chain A->B: 12.5% shown below B */
	assert_non_null(strstr(s, "                       B\n"
				  "\n"
				  "    37.50%    37.50%  a        app                [.] C\n"));
	/* the kernel entry, and the end */
	assert_non_null(strstr(s, "    12.50%     0.00%  b        [kernel.kallsyms]  [k] E\n"));
	assert_int_equal(strcmp(s + strlen(s) - 2, "\n\n"), 0);
	free(s);
	hist_free(h);
}

static void test_table_self_no_graph(void **state)
{
	(void)state;
	struct hist *h = fixture(false, NULL, 0);
	struct out_opts o = { .event_name = "cpu-clock", .lost_samples = 3 };
	char *s = render(out_table, h, &o);
	static const char want[] =
		"# Overhead  Command  Shared Object  Symbol\n"
		"# ........  .......  .............  ......\n"
		"#\n"
		"    37.50%  a        app            [.] C\n"
		"    25.00%  a        app            [.] D\n"
		"    12.50%  a        app            [.] B\n"
		"    12.50%  a        app            [.] R\n"
		"    12.50%  b        app            [.] C\n"
		"\n\n";
	assert_memory_equal(s, table_head, strlen(table_head));
	assert_string_equal(s + strlen(table_head), want);
	free(s);

	/* --percent-limit hides rows below it; widths still come from all rows */
	o.percent_limit = 20;
	s = render(out_table, h, &o);
	static const char want2[] =
		"# Overhead  Command  Shared Object  Symbol\n"
		"# ........  .......  .............  ......\n"
		"#\n"
		"    37.50%  a        app            [.] C\n"
		"    25.00%  a        app            [.] D\n"
		"\n\n";
	assert_string_equal(s + strlen(table_head), want2);
	free(s);
	hist_free(h);
}

static void test_table_self_graph(void **state)
{
	(void)state;
	struct hist *h = fixture(false, NULL, 0);
	struct out_opts o = { .event_name = "cpu-clock", .callgraph = true, .callgraph_limit = 0.5 };
	char *s = render(out_table, h, &o);
	/* callee order; a single chain with the entry's period has no percentage */
	assert_non_null(strstr(s, "    37.50%  a        app            [.] C\n"
				  "            |\n"
				  "            ---C\n"
				  "               B\n"
				  "               A\n"
				  "\n"
				  "    25.00%"));
	free(s);
	hist_free(h);
}

/* -g's other modes on entry A with children (7 samples: A B C x3, A B x1,
 * A B D x2, A R R x1, caller order): flat shows each chain with the value
 * through its last node (perf's cumulative hits: 75% for A B), folded the
 * samples that end there; fractal shows each branch as a share of its
 * parent's children, and what its threshold leaves out as "[...]". */
static void test_table_cg_modes(void **state)
{
	(void)state;
	struct hist *h = fixture(true, NULL, 0);
	struct out_opts o = { .event_name = "cpu-clock", .callgraph = true, .callgraph_mode = OUT_CG_FLAT };
	char *s = render(out_table, h, &o);
	assert_non_null(strstr(s, "[.] A\n"
				  "           37.50%\n                A\n                B\n                C\n\n"
				  "           25.00%\n                A\n                B\n                D\n\n"
				  "           75.00%\n                A\n                B\n\n"
				  "           12.50%\n                A\n                R\n                R\n\n"
				  "    75.00%"));
	free(s);

	o.callgraph_mode = OUT_CG_FOLDED;
	o.callgraph_value = OUT_CG_COUNT;
	s = render(out_table, h, &o);
	assert_non_null(strstr(s, "[.] A\n3 A;B;C\n2 A;B;D\n1 A;B\n1 A;R;R\n    75.00%"));
	free(s);

	/* the print limit: two chains */
	o.callgraph_print_limit = 2;
	o.callgraph_value = OUT_CG_PERIOD;
	s = render(out_table, h, &o);
	assert_non_null(strstr(s, "[.] A\n300 A;B;C\n200 A;B;D\n    75.00%"));
	free(s);

	o = (struct out_opts){ .event_name = "cpu-clock", .callgraph = true, .callgraph_mode = OUT_CG_FRACTAL };
	s = render(out_table, h, &o);
	assert_non_null(strstr(s, "[.] A\n"
				  "            |\n"
				  "            ---A\n"
				  "               |          \n"
				  "               |--85.71%--B\n"
				  "               |          |          \n"
				  "               |          |--60.00%--C\n"
				  "               |          |          \n"
				  "               |           --40.00%--D\n"
				  "               |          \n"
				  "                --14.29%--R\n"
				  "                          R\n"
				  "\n"));
	free(s);
	o.callgraph_limit = 50;	/* of each parent's children: R and D are left out */
	s = render(out_table, h, &o);
	assert_non_null(strstr(s, "[.] A\n"
				  "            |\n"
				  "            ---A\n"
				  "               |          \n"
				  "               |--85.71%--B\n"
				  "               |          |          \n"
				  "               |          |--60.00%--C\n"
				  "               |           --40.00%--[...]\n"
				  "                --14.29%--[...]\n"
				  "\n"));
	free(s);
	hist_free(h);
}

static void test_table_keys(void **state)
{
	(void)state;
	enum sort_key keys[] = { SORT_PID, SORT_CPU, SORT_SYM, SORT_DSO };
	struct hist *h = fixture(false, keys, 4);
	struct out_opts o = { .event_name = "cpu-clock" };
	char *s = render(out_table, h, &o);
	/* perf's thread column "%7d:%-*s" under "    Pid:Command"; the last
	 * column (dso here) is padded like every column but a last symbol */
	assert_non_null(strstr(s, "# Overhead      Pid:Command  CPU  Symbol  Shared Object\n"
				  "# ........  ...............  ...  ......  .............\n"));
	/* perf's "pid" key is the thread: TID 11 of process 10 */
	assert_non_null(strstr(s, "    37.50%       11:a        001  [.] C   app          \n"));
	free(s);
	hist_free(h);
}

static void test_samples_units(void **state)
{
	(void)state;
	struct hist_opts ho = { .keys = { SORT_SYM }, .nkeys = 1 };
	struct hist *h = hist_new(&ho);
	hist_finish(h);
	struct out_opts o = { .event_name = "cpu-clock", .total_samples = 6117 };
	char *s = render(out_table, h, &o);
	assert_non_null(strstr(s, "# Samples: 6K of event 'cpu-clock'\n"));
	free(s);
	o.total_samples = 2500000;
	s = render(out_table, h, &o);
	assert_non_null(strstr(s, "# Samples: 2M of event 'cpu-clock'\n"));
	free(s);
	hist_free(h);
}

static void test_json(void **state)
{
	(void)state;
	struct hist *h = fixture(true, NULL, 0);
	struct out_opts o = { .event_name = "cpu-clock", .lost_samples = 3, .percent_limit = 30 };
	char *s = render(out_json, h, &o);
	assert_string_equal(s, "{\"total_samples\":8,\"lost_samples\":3,\"total_period\":800,\"event\":\"cpu-clock\","
			       "\"entries\":["
			       "{\"self\":0.00,\"children\":87.50,\"samples\":0,\"comm\":\"a\",\"dso\":\"app\",\"symbol\":\"A\"},"
			       "{\"self\":12.50,\"children\":75.00,\"samples\":1,\"comm\":\"a\",\"dso\":\"app\",\"symbol\":\"B\"},"
			       "{\"self\":37.50,\"children\":37.50,\"samples\":3,\"comm\":\"a\",\"dso\":\"app\",\"symbol\":\"C\"}"
			       "]}\n");
	free(s);
	hist_free(h);

	enum sort_key keys[] = { SORT_PID, SORT_TID, SORT_CPU, SORT_SYM };
	h = fixture(false, keys, 4);
	o.percent_limit = 0;
	s = render(out_json, h, &o);
	assert_non_null(strstr(s, "{\"self\":37.50,\"children\":37.50,\"samples\":3,\"pid\":11,\"tid\":11,\"cpu\":1,"
				  "\"symbol\":\"C\"}"));
	/* every entry has the same keys in the same order */
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, "{\"self\":")); p++) {
		n++;
		const char *k1 = strstr(p, "\"children\""), *k2 = strstr(p, "\"samples\""), *k3 = strstr(p, "\"pid\""),
			   *k4 = strstr(p, "\"tid\""), *k5 = strstr(p, "\"cpu\""), *k6 = strstr(p, "\"symbol\""),
			   *end = strchr(p, '}');
		assert_true(k1 && k1 < k2 && k2 < k3 && k3 < k4 && k4 < k5 && k5 < k6 && k6 < end);
	}
	assert_int_equal(n, hist_nr_entries(h));
	free(s);
	hist_free(h);
}

static int folded_writer(FILE *f, const struct hist *h, const struct out_opts *o)
{
	(void)o;
	return out_folded(f, h);
}

static void test_folded(void **state)
{
	(void)state;
	struct hist *h = fixture(true, NULL, 0);
	char *s = render(folded_writer, h, NULL);
	assert_string_equal(s, "a;A;B 1\na;A;B;C 3\na;A;B;D 2\na;A;R;R 1\nb;E;C 1\n");
	free(s);
	hist_free(h);
}

static void test_flamegraph(void **state)
{
	(void)state;
	struct hist_opts ho = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3, .children = true,
				.callchains = true };
	struct hist *h = hist_new(&ho);
	add(h, C_A, 3, (const char *[]){ S_C, S_B, S_A }, 3);
	add(h, C_A, 3, (const char *[]){ "bpf_prog_0123456789abcdef_prog", S_E, S_A }, 2);
	add(h, C_B, 2, (const char *[]){ S_BAD, S_A }, 1);
	hist_finish(h);
	struct out_opts o = { .title = "T<1>" };
	char *s = render(out_flamegraph_html, h, &o);
	/* self-contained: no network reference of any kind */
	assert_null(strstr(s, "http"));
	assert_null(strstr(s, "src="));
	assert_null(strstr(s, "href="));
	assert_null(strstr(s, "@import"));
	assert_non_null(strstr(s, "<canvas"));
	assert_non_null(strstr(s, "<title>T&lt;1&gt;</title>"));
	/* the data: names with kinds, pre-order arrays (all, comm a, A, B, C, E,
	 * bpf, comm b, A, bad), samples cumulative */
	assert_non_null(strstr(s, "\"names\":[\"all\",\"a\",\"A\",\"B\",\"C\",\"E\",\"bpf_prog_0123456789abcdef_prog\",\"b\","));
	assert_non_null(strstr(s, "\"kinds\":\"acuuukbcu\""));
	assert_non_null(strstr(s, "\"v\":[6,5,5,3,3,2,2,1,1,1]"));
	assert_non_null(strstr(s, "\"d\":[0,1,2,3,4,3,4,1,2,3]"));
	/* a name cannot close the script element */
	assert_null(strstr(s, S_BAD));
	assert_non_null(strstr(s, "\\u003c/script\\u003e\\u003cb\\u003ex\\u0026y"));
	assert_non_null(strstr(s, "</html>\n"));
	free(s);
	hist_free(h);
}

/* On- and off-CPU in one page: the second hist under an [off-cpu] frame
 * (kind 'o'), widths by period (unit ns), 'all' the sum of both. */
static void test_flamegraph_multi(void **state)
{
	(void)state;
	struct hist_opts ho = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3, .callchains = true };
	struct hist *on = hist_new(&ho), *off = hist_new(&ho);
	add(on, C_A, 2, (const char *[]){ S_B, S_A }, 3);	/* 3 x 100 */
	add(off, C_A, 2, (const char *[]){ S_E, S_A }, 2);	/* 2 x 100 */
	hist_finish(on);
	hist_finish(off);
	const struct hist *hs[] = { on, off };
	const char *roots[] = { NULL, "[off-cpu]" };
	struct out_opts o = { .title = "t" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(out_flamegraph_html_multi(f, hs, roots, 2, true, &o), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"unit\":\"ns\""));
	assert_non_null(strstr(buf, "\"names\":[\"all\",\"a\",\"A\",\"B\",\"[off-cpu]\",\"E\"]"));
	assert_non_null(strstr(buf, "\"kinds\":\"acuuok\""));
	/* all, a, A, B | [off-cpu], a, A, E */
	assert_non_null(strstr(buf, "\"v\":[500,300,300,300,200,200,200,200]"));
	assert_non_null(strstr(buf, "\"d\":[0,1,2,3,1,2,3,4]"));
	free(buf);
	hist_free(on);
	hist_free(off);
}

/* out_put_pct prints what "%*.2f%%" prints: every cent from 0 to 100%, the
 * ties and near-ties of binary fractions, percentages of real totals,
 * widths narrower and wider than the number. */
static void pct_check(int width, double v)
{
	char want[64], *got = NULL;
	size_t len = 0;
	snprintf(want, sizeof(want), "%*.2f%%", width, v);
	FILE *f = open_memstream(&got, &len);
	assert_non_null(f);
	out_put_pct(f, width, v);
	fclose(f);
	if (strcmp(want, got))
		fail_msg("out_put_pct(%d, %.17g): '%s', printf: '%s'", width, v, got, want);
	free(got);
}

static void test_put_pct(void **state)
{
	(void)state;
	for (int c = 0; c <= 10000; c++) {
		pct_check(6, c / 100.0);
		pct_check(0, c / 100.0 + 0.005);	/* a tie in decimal, not in binary */
		pct_check(7, c / 100.0 + 0.004999999);
	}
	for (uint64_t total = 1; total < 3000; total += 7)
		for (uint64_t v = 0; v <= total; v += 1 + total / 50)
			pct_check(6, 100.0 * (double)v / (double)total);
	pct_check(0, 0.125);	/* exact binary ties: printf's rounding */
	pct_check(0, 0.375);
	pct_check(3, 12345.678);
	pct_check(-8, 1.5);
	pct_check(12, 99.999);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_pct),
		cmocka_unit_test(test_table_children_graph),
		cmocka_unit_test(test_table_self_no_graph),
		cmocka_unit_test(test_table_self_graph),
		cmocka_unit_test(test_table_keys),
		cmocka_unit_test(test_table_cg_modes),
		cmocka_unit_test(test_samples_units),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_flamegraph),
		cmocka_unit_test(test_flamegraph_multi),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
