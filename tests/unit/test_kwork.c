// SPDX-License-Identifier: GPL-2.0-only
/* kwork without the kernel: perf's names of works (irq, softirq, workqueue,
 * task), -k classes and -s keys per view, sorting, the -n filter, top's
 * per-CPU arithmetic (irq time taken out of the interrupted task) and the
 * printers (perf's report, latency, timehist and top lines; JSON) on
 * synthetic entries. No privileges needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feat/kwork.h"
#include "out/kwork_print.h"

static void test_names(void **state)
{
	char buf[64];
	(void)state;
	assert_string_equal(kwork_name(KWORK_IRQ, 25, "virtio0-input.0", buf, sizeof(buf)), "virtio0-input.0:25");
	assert_string_equal(kwork_name(KWORK_IRQ, 7, NULL, buf, sizeof(buf)), "[unknown]:7");
	assert_string_equal(kwork_name(KWORK_SOFTIRQ, 9, NULL, buf, sizeof(buf)), "(s)RCU:9");
	assert_string_equal(kwork_name(KWORK_SOFTIRQ, 0, NULL, buf, sizeof(buf)), "(s)HI:0");
	assert_string_equal(kwork_name(KWORK_SOFTIRQ, 3, NULL, buf, sizeof(buf)), "(s)NET_RX:3");
	assert_string_equal(kwork_name(KWORK_SOFTIRQ, 12, NULL, buf, sizeof(buf)), "(s)[unknown]:12");
	assert_string_equal(kwork_name(KWORK_WORKQUEUE, 0xffffffff81000000ULL, "flush_to_ldisc", buf, sizeof(buf)),
			    "(w)flush_to_ldisc");
	assert_string_equal(kwork_name(KWORK_WORKQUEUE, 0xffffffff81000000ULL, NULL, buf, sizeof(buf)),
			    "(w)0xffffffff81000000");
	assert_string_equal(kwork_name(KWORK_SCHED, 42, "bash", buf, sizeof(buf)), "bash");
	assert_null(kwork_softirq_name(10));
	assert_string_equal(kwork_softirq_name(7), "SCHED");
}

static void test_classes_and_keys(void **state)
{
	const char *bad;
	enum kwork_sort_key k[KWORK_SORT__MAX];
	(void)state;
	assert_int_equal(kwork_parse_classes("irq,softirq", &bad), (1U << KWORK_IRQ) | (1U << KWORK_SOFTIRQ));
	assert_int_equal(kwork_parse_classes("workqueue, sched", &bad), (1U << KWORK_WORKQUEUE) | (1U << KWORK_SCHED));
	assert_int_equal(kwork_parse_classes("irq,nosuch", &bad), 0);
	assert_string_equal(bad, "nosuch");
	assert_int_equal(kwork_parse_classes(",", &bad), 0);
	assert_non_null(bad);
	assert_int_equal(kwork_parse_sort(KWORK_VIEW_REPORT, NULL, k, &bad), 3);
	assert_int_equal(k[0], KWORK_SORT_RUNTIME);
	assert_int_equal(k[1], KWORK_SORT_MAX);
	assert_int_equal(k[2], KWORK_SORT_COUNT);
	assert_int_equal(kwork_parse_sort(KWORK_VIEW_LATENCY, NULL, k, &bad), 3);
	assert_int_equal(k[0], KWORK_SORT_AVG);
	assert_int_equal(kwork_parse_sort(KWORK_VIEW_TOP, NULL, k, &bad), 2);
	assert_int_equal(k[0], KWORK_SORT_RATE);
	assert_int_equal(kwork_parse_sort(KWORK_VIEW_REPORT, "avg", k, &bad), -1);
	assert_string_equal(bad, "avg");
	assert_int_equal(kwork_parse_sort(KWORK_VIEW_TOP, "tid,runtime", k, &bad), 2);
	assert_int_equal(kwork_parse_sort(KWORK_VIEW_LATENCY, "max,bogus", k, &bad), -1);
	assert_string_equal(bad, "bogus");
}

static struct kwork_entry entry(uint32_t type, uint32_t cpu, uint64_t id, uint64_t count, uint64_t total,
				uint64_t max, const char *name)
{
	struct kwork_entry e = { .key = { .type = type, .cpu = cpu, .id = id }, .name = name };
	e.v.count = count;
	e.v.total = total;
	e.v.max = max;
	e.v.max_start = 21283916002000ULL;
	e.v.max_end = e.v.max_start + max;
	return e;
}

static void test_sort_filter(void **state)
{
	struct kwork_entry e[4] = {
		entry(KWORK_SOFTIRQ, 0, 9, 128, 1218000, 61000, "(s)RCU:9"),
		entry(KWORK_SOFTIRQ, 1, 1, 23, 179000, 22000, "(s)TIMER:1"),
		entry(KWORK_WORKQUEUE, 1, 0x1000, 3, 70000, 26000, "(w)virtio_transport_tx_work"),
		entry(KWORK_SOFTIRQ, 1, 9, 128, 1095000, 33000, "(s)RCU:9"),
	};
	enum kwork_sort_key k[KWORK_SORT__MAX];
	const char *bad;
	int n = kwork_parse_sort(KWORK_VIEW_REPORT, NULL, k, &bad);
	(void)state;
	kwork_sort(e, 4, k, n);
	assert_int_equal(e[0].v.total, 1218000);
	assert_int_equal(e[1].v.total, 1095000);
	assert_int_equal(e[2].v.total, 179000);
	assert_int_equal(e[3].v.total, 70000);
	n = kwork_parse_sort(KWORK_VIEW_REPORT, "count,max", k, &bad);
	kwork_sort(e, 4, k, n);
	assert_int_equal(e[0].v.max, 61000);	/* equal counts: the larger max first */
	assert_int_equal(e[3].v.count, 3);
	struct kwork_result r = { .e = e, .n = 4 };
	kwork_filter_name(&r, "(s)RCU:9");
	assert_int_equal(r.n, 2);
	assert_string_equal(r.e[0].name, "(s)RCU:9");
	assert_string_equal(r.e[1].name, "(s)RCU:9");
}

/* Print into a string. */
static char *print_to_string(void (*fn)(FILE *, void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static struct kwork_result *cur;
static void print_report(FILE *f, void *a)
{
	(void)a;
	kwork_print_table(f, KWORK_VIEW_REPORT, cur, true, true);
}
static void print_latency(FILE *f, void *a)
{
	(void)a;
	kwork_print_table(f, KWORK_VIEW_LATENCY, cur, false, false);
}
static void print_json(FILE *f, void *a)
{
	(void)a;
	kwork_print_json(f, KWORK_VIEW_REPORT, cur, NULL, true);
}

static void test_print_table(void **state)
{
	struct kwork_entry e[2] = {
		entry(KWORK_SOFTIRQ, 0, 9, 128, 1218000, 61000, "(s)RCU:9"),
		entry(KWORK_WORKQUEUE, 1, 0x1000, 3, 6000, 2000, "(w)virtio_transport_send_pkt_work"),
	};
	e[0].v.hist[5] = 100;
	e[0].v.hist[6] = 28;
	struct kwork_result r = { .e = e, .n = 2, .span_ns = 1000000000 };
	(void)state;
	cur = &r;
	char *s = print_to_string(print_report, NULL);
	assert_non_null(strstr(s, "\n  Kwork Name                     | Cpu  | Total Runtime | Count     | Max runtime   | "
				 "Max runtime start   | Max runtime end     |\n ---"));
	assert_non_null(strstr(s, "\n  (s)RCU:9                       | 0000 |      1.218 ms |       128 |      0.061 ms "
				 "|      21283.916002 s |      21283.916063 s |\n"));
	/* names cut to perf's 29 characters */
	assert_non_null(strstr(s, "\n  (w)virtio_transport_send_pkt_  | 0001 |"));
	assert_non_null(strstr(s, "  Total count            :       131\n"));
	assert_non_null(strstr(s, "  Total runtime   (msec) :     1.224 (0.122% load average)\n"));
	assert_non_null(strstr(s, "  Total time span (msec) :  1000.000\n"));
	assert_non_null(strstr(s, "(s)RCU:9 on CPU 0: runtime\n"));
	assert_non_null(strstr(s, "32 -> 63"));
	free(s);
	s = print_to_string(print_latency, NULL);
	assert_non_null(strstr(s, "| Avg delay     | Count     | Max delay     | Max delay start     | Max delay end       |"));
	assert_non_null(strstr(s, "|      0.010 ms |       128 |      0.061 ms |"));	/* 1218000 / 128 ns */
	free(s);
	s = print_to_string(print_json, NULL);
	assert_non_null(strstr(s, "\"name\": \"(s)RCU:9\""));
	assert_non_null(strstr(s, "\"total_runtime_ns\": 1218000"));
	assert_non_null(strstr(s, "\"hist_usecs\""));
	assert_non_null(strstr(s, "\"map_full\": 0"));
	free(s);
}

static struct kwork_tevent *cur_ev;
static void print_event(FILE *f, void *a)
{
	(void)a;
	kwork_print_timehist_header(f);
	kwork_print_timehist_event(f, cur_ev);
	uint64_t c[KWORK_CNT__MAX] = { 0 };
	c[KWORK_CNT_RB_FULL] = 2;
	kwork_print_timehist_end(f, 1, c);
}

static void test_print_timehist(void **state)
{
	struct kwork_tevent ev = { .e = { .type = KWORK_SOFTIRQ, .cpu = 1, .id = 1, .raise = 21283028007000ULL - 12000,
					  .start = 21283028007000ULL, .end = 21283028011000ULL },
				   .name = "(s)TIMER:1" };
	(void)state;
	cur_ev = &ev;
	char *s = print_to_string(print_event, NULL);
	assert_non_null(strstr(s, " Runtime start      Runtime end        Cpu     Kwork name                      Runtime     Delaytime \n"
				 "                                               (TYPE)NAME:NUM                  (msec)      (msec)    \n"
				 " -----------------  -----------------  ------  ------------------------------  ----------  ----------\n"));
	assert_non_null(strstr(s, "      21283.028007       21283.028011  [0001]  (s)TIMER:1                           0.004       0.012 \n"));
	assert_non_null(strstr(s, "  INFO: 1 events shown, 2 lost (ring buffer full)"));
	free(s);
	/* an irq has no raise: the delay column is blank */
	ev.e.type = KWORK_IRQ;
	ev.e.raise = 0;
	ev.name = "virtio3-tx:42";
	s = print_to_string(print_event, NULL);
	assert_non_null(strstr(s, "  virtio3-tx:42                        0.004             \n"));
	free(s);
}

static struct kwork_top *cur_top;
static void print_top(FILE *f, void *a)
{
	(void)a;
	kwork_print_top(f, cur_top);
}

static void test_top(void **state)
{
	/* CPU 0: idle 600, task 42 300 (100 of it in irqs); CPU 1: idle 900, task 42 100 */
	struct kwork_entry e[5] = {
		entry(KWORK_SCHED, 0, 0, 1, 600, 600, "swapper"),
		entry(KWORK_SCHED, 0, 42, 1, 400, 400, "stress"),
		entry(KWORK_IRQ, 0, 42, 5, 100, 30, ""),
		entry(KWORK_SCHED, 1, 0, 1, 900, 900, "swapper"),
		entry(KWORK_SCHED, 1, 42, 1, 100, 100, "stress"),
	};
	struct kwork_result r = { .e = e, .n = 5, .span_ns = 1000 };
	struct kwork_top t;
	enum kwork_sort_key k[KWORK_SORT__MAX];
	const char *bad;
	(void)state;
	kwork_top_compute(&r, NULL, &t);
	assert_int_equal(t.nr_cpu, 2);
	assert_int_equal(t.cpu[0].total, 1000);
	assert_int_equal(t.cpu[0].idle, 600);
	assert_int_equal(t.cpu[0].irq, 100);
	assert_int_equal(t.cpu[0].load, 300);
	assert_int_equal(t.cpu[1].load, 100);
	assert_int_equal(t.all.total, 2000);
	assert_true(t.cpu[0].idle + t.cpu[0].load + t.cpu[0].irq + t.cpu[0].softirq <= t.cpu[0].total);
	/* the task merged over both CPUs; the idle tasks one per CPU */
	assert_int_equal(t.nr_tasks, 3);
	int n = kwork_parse_sort(KWORK_VIEW_TOP, NULL, k, &bad);
	kwork_sort(t.tasks, t.nr_tasks, k, n);
	assert_int_equal(t.tasks[0].key.id, 0);	/* 90% of CPU 1 */
	assert_int_equal(t.tasks[0].usage, 9000);
	assert_int_equal(t.tasks[2].key.id, 42);
	assert_int_equal(t.tasks[2].runtime, 400);
	assert_int_equal(t.tasks[2].usage, 4000);	/* 30% + 10% */
	cur_top = &t;
	char *s = print_to_string(print_top, NULL);
	assert_non_null(strstr(s, "Total  :      0.002 ms, 2 cpus\n%Cpu(s):  75.00% id,   5.00% hi,   0.00% si\n"));
	assert_non_null(strstr(s, "%Cpu0   [|||||||||" "                       " "30.00%]\n"));
	assert_non_null(strstr(s, "%Cpu1   [|||" "                             " "10.00%]\n"));
	assert_non_null(strstr(s, "\n      PID    %CPU           RUNTIME  COMMAND         \n  -----"));
	assert_non_null(strstr(s, "\n       42   40.00          0.000 ms  stress          \n"));
	free(s);
	kwork_top_free(&t);
	/* -n on tasks */
	kwork_top_compute(&r, "stress", &t);
	assert_int_equal(t.nr_tasks, 1);
	kwork_top_free(&t);
}

/* top -G: the tasks outside the cgroup are in the CPUs' time, not listed */
static void test_top_cgroup(void **state)
{
	struct kwork_entry e[3] = {
		entry(KWORK_SCHED, 0, 0, 1, 500, 500, "swapper"),
		entry(KWORK_SCHED, 0, KWORK_ID_OTHERS, 9, 300, 100, "[other tasks]"),
		entry(KWORK_SCHED, 0, 7, 1, 200, 200, "in-cgroup"),
	};
	struct kwork_result r = { .e = e, .n = 3, .span_ns = 1000 };
	struct kwork_top t;
	(void)state;
	kwork_top_compute(&r, NULL, &t);
	assert_int_equal(t.cpu[0].total, 1000);
	assert_int_equal(t.cpu[0].load, 500);
	assert_int_equal(t.nr_tasks, 2);
	for (size_t i = 0; i < t.nr_tasks; i++)
		assert_true(t.tasks[i].key.id != KWORK_ID_OTHERS);
	kwork_top_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_classes_and_keys),
		cmocka_unit_test(test_sort_filter),
		cmocka_unit_test(test_print_table),
		cmocka_unit_test(test_print_timehist),
		cmocka_unit_test(test_top),
		cmocka_unit_test(test_top_cgroup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
