// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf kwork's output: see kwork_print.h. */
#include <linux/types.h>

#include "out/kwork_print.h"
#include "json.h"
#include "out/log2hist.h"
#include "util.h"

#include <inttypes.h>
#include <string.h>

/* perf kwork's column widths */
#define W_NAME 30
#define W_CPU 4
#define W_COUNT 9
#define W_TIME 10
#define W_TS 17

const char *const kwork_counter_names[KWORK_CNT__MAX] = {
	[KWORK_CNT_EVENTS] = "events",
	[KWORK_CNT_COUNTED] = "counted",
	[KWORK_CNT_MAP_FULL] = "map_full",
	[KWORK_CNT_PEND_FULL] = "pending_full",
	[KWORK_CNT_NO_ENTRY] = "exit_without_entry",
	[KWORK_CNT_NO_RAISE] = "entry_without_raise",
	[KWORK_CNT_OVERWRITE] = "entry_overwritten",
	[KWORK_CNT_RB_FULL] = "ringbuf_full",
	[KWORK_CNT_BAD_VEC] = "bad_vector",
	[KWORK_CNT_NAME_FULL] = "name_map_full",
	[KWORK_CNT_SWITCH_UNSEEN] = "switch_unseen",
	[KWORK_CNT_UNSEEN_NS] = "unseen_ns",
	[KWORK_CNT_MISSED_IRQ] = "missed_irq",
	[KWORK_CNT_MISSED_SOFTIRQ] = "missed_softirq",
	[KWORK_CNT_MISSED_WORKQUEUE] = "missed_workqueue",
	[KWORK_CNT_MISSED_SCHED] = "missed_sched",
};

static const char dashes[] =
	"----------------------------------------------------------------------------------------------------"
	"----------------------------------------------------------------------------------------------------";

static void separator(FILE *f, int len)
{
	fprintf(f, " %.*s\n", len, dashes);
}

/* seconds.microseconds of a ktime, as perf's timestamps */
static char *ts_usec(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
	return buf;
}

/* the name cut to perf's column (29 characters) */
static const char *col_name(const char *name, char *buf)
{
	snprintf(buf, W_NAME, "%s", name ? name : "");
	return buf;
}

void kwork_print_table(FILE *f, enum kwork_view v, const struct kwork_result *r, bool summary, bool hist)
{
	bool lat = v == KWORK_VIEW_LATENCY;
	char hdr[512], name[W_NAME], t1[32], t2[32];
	uint64_t all_runtime = 0, all_count = 0;
	int len;

	len = snprintf(hdr, sizeof(hdr), " %-*s | %-*s | %-*s | %-*s | %-*s | %-*s | %-*s |", W_NAME, "Kwork Name",
		       W_CPU, "Cpu", W_TIME + 3, lat ? "Avg delay" : "Total Runtime", W_COUNT, "Count", W_TIME + 3,
		       lat ? "Max delay" : "Max runtime", W_TS + 2, lat ? "Max delay start" : "Max runtime start",
		       W_TS + 2, lat ? "Max delay end" : "Max runtime end");
	fprintf(f, "\n %s\n", hdr);
	separator(f, len);
	for (size_t i = 0; i < r->n; i++) {
		const struct kwork_entry *e = &r->e[i];
		if (!e->v.count)
			continue;
		fprintf(f, "  %-*s | %0*u | %*.3f ms | %*" PRIu64 " | %*.3f ms | %*s s | %*s s |\n", W_NAME,
			col_name(e->name, name), W_CPU, e->key.cpu, W_TIME,
			(double)(lat ? kwork_entry_avg(e) : e->v.total) / 1e6, W_COUNT, (uint64_t)e->v.count,
			W_TIME, (double)e->v.max / 1e6, W_TS, ts_usec(e->v.max_start, t1, sizeof(t1)), W_TS,
			ts_usec(e->v.max_end, t2, sizeof(t2)));
		all_runtime += e->v.total;
		all_count += e->v.count;
	}
	separator(f, len);
	if (summary && !lat) {
		fprintf(f, "  Total count            : %9" PRIu64 "\n", all_count);
		fprintf(f, "  Total runtime   (msec) : %9.3f (%.3f%% load average)\n", (double)all_runtime / 1e6,
			r->span_ns ? (double)all_runtime * 100 / (double)r->span_ns : 0.0);
		fprintf(f, "  Total time span (msec) : %9.3f\n", (double)r->span_ns / 1e6);
		separator(f, len);
	}
	fprintf(f, "\n");
	if (!hist)
		return;
	for (size_t i = 0; i < r->n; i++) {
		const struct kwork_entry *e = &r->e[i];
		if (!e->v.count)
			continue;
		fprintf(f, "%s on CPU %u: %s\n", e->name, e->key.cpu, lat ? "delay" : "runtime");
		uint64_t h[KWORK_HIST_SLOTS];
		for (uint32_t s = 0; s < KWORK_HIST_SLOTS; s++)
			h[s] = e->v.hist[s];
		out_log2_hist(f, h, KWORK_HIST_SLOTS, "usecs");
		fprintf(f, "\n");
	}
}

void kwork_print_timehist_header(FILE *f)
{
	fprintf(f, " %-*s  %-*s  %-*s  %-*s  %-*s  %-*s\n", W_TS, "Runtime start", W_TS, "Runtime end", W_CPU + 2,
		"Cpu", W_NAME, "Kwork name", W_TIME, "Runtime", W_TIME, "Delaytime");
	fprintf(f, " %-*s  %-*s  %-*s  %-*s  %-*s  %-*s\n", W_TS, "", W_TS, "", W_CPU + 2, "", W_NAME,
		"(TYPE)NAME:NUM", W_TIME, "(msec)", W_TIME, "(msec)");
	fprintf(f, " %.*s  %.*s  %.*s  %.*s  %.*s  %.*s\n", W_TS, dashes, W_TS, dashes, W_CPU + 2, dashes, W_NAME,
		dashes, W_TIME, dashes, W_TIME, dashes);
}

void kwork_print_timehist_event(FILE *f, const struct kwork_tevent *ev)
{
	char t1[32], t2[32], name[W_NAME];
	const struct kwork_event *e = &ev->e;

	fprintf(f, " %*s  %*s  [%0*u]  %-*s  %*.3f ", W_TS, ts_usec(e->start, t1, sizeof(t1)), W_TS,
		ts_usec(e->end, t2, sizeof(t2)), W_CPU, e->cpu, W_NAME, col_name(ev->name, name), W_TIME,
		(double)(e->end - e->start) / 1e6);
	if (e->raise && e->raise <= e->start)
		fprintf(f, " %*.3f \n", W_TIME, (double)(e->start - e->raise) / 1e6);
	else
		fprintf(f, " %*s \n", W_TIME, " ");
}

void kwork_print_timehist_end(FILE *f, uint64_t shown, const uint64_t *c)
{
	fprintf(f, "\n  INFO: %" PRIu64 " events shown, %" PRIu64 " lost (ring buffer full), %" PRIu64
		   " exits without entry, %" PRIu64 " entries without raise\n",
		shown, c[KWORK_CNT_RB_FULL], c[KWORK_CNT_NO_ENTRY], c[KWORK_CNT_NO_RAISE]);
}

static const char bars[] = "||||||||||||||||||||||||||||||||||||||||||||||||";
static const char blanks[] = "                                                ";

void kwork_print_top(FILE *f, const struct kwork_top *t)
{
	int nr = 0, len;
	char hdr[256];
	const uint64_t tot = t->all.total;

	for (int i = 0; i < t->nr_cpu; i++)
		nr += t->cpu[i].seen;
	fprintf(f, "\n");
	fprintf(f, "Total  : %*.3f ms, %d cpus\n", W_TIME, (double)tot / 1e6, nr);
	fprintf(f, "%%Cpu(s): %6.2f%% id, %6.2f%% hi, %6.2f%% si\n", tot ? (double)t->all.idle * 100 / (double)tot : 0.0,
		tot ? (double)t->all.irq * 100 / (double)tot : 0.0, tot ? (double)t->all.softirq * 100 / (double)tot : 0.0);
	for (int i = 0; i < t->nr_cpu; i++) {
		const struct kwork_top_cpu *c = &t->cpu[i];
		if (!c->seen || !c->total)
			continue;
		uint64_t ratio = c->load * 10000 / c->total;
		int w = (int)(30 * ratio / 10000);
		fprintf(f, "%%Cpu%-*d[%.*s%.*s %6.2f%%]\n", W_CPU, i, w, bars, 30 - w, blanks, (double)ratio / 100);
	}
	len = snprintf(hdr, sizeof(hdr), " %*s  %*s  %*s  %-*s", 7, "PID", 6, "%CPU", W_TIME + 6, "RUNTIME", 16,
		       "COMMAND");
	fprintf(f, "\n %s\n ", hdr);
	separator(f, len);
	for (size_t i = 0; i < t->nr_tasks; i++) {
		const struct kwork_entry *e = &t->tasks[i];
		if (!e->runtime)
			continue;
		fprintf(f, "  %*" PRIu64 "  %*.2f  %*.3f ms  %-*s\n", 7, (uint64_t)e->key.id, 6, (double)e->usage / 100,
			W_TIME + 3, (double)e->runtime / 1e6, 16, e->name ? e->name : "");
	}
	fprintf(f, "\n");
}

static void json_counters(struct json_writer *jw, const uint64_t *c)
{
	jw_key(jw, "counters");
	jw_start_object(jw);
	for (int i = 0; i < KWORK_CNT__MAX; i++)
		jw_kv_uint(jw, kwork_counter_names[i], c[i]);
	jw_end_object(jw);
}

static const char *const view_names[] = { "report", "latency", "timehist", "top" };

void kwork_print_json(FILE *f, enum kwork_view v, const struct kwork_result *r, const struct kwork_top *t,
		      bool hist)
{
	struct json_writer *jw = jw_new(f, true);

	jw_start_object(jw);
	jw_kv_string(jw, "view", view_names[v]);
	jw_kv_uint(jw, "span_ns", r->span_ns);
	if (v == KWORK_VIEW_TOP && t) {
		jw_kv_uint(jw, "total_ns", t->all.total);
		jw_kv_uint(jw, "idle_ns", t->all.idle);
		jw_kv_uint(jw, "irq_ns", t->all.irq);
		jw_kv_uint(jw, "softirq_ns", t->all.softirq);
		jw_key(jw, "cpus");
		jw_start_array(jw);
		for (int i = 0; i < t->nr_cpu; i++) {
			const struct kwork_top_cpu *c = &t->cpu[i];
			if (!c->seen)
				continue;
			jw_start_object(jw);
			jw_kv_int(jw, "cpu", i);
			jw_kv_uint(jw, "total_ns", c->total);
			jw_kv_uint(jw, "idle_ns", c->idle);
			jw_kv_uint(jw, "irq_ns", c->irq);
			jw_kv_uint(jw, "softirq_ns", c->softirq);
			jw_kv_uint(jw, "load_ns", c->load);
			jw_kv_double(jw, "load_pct", c->total ? (double)(c->load * 10000 / c->total) / 100 : 0.0);
			jw_end_object(jw);
		}
		jw_end_array(jw);
		jw_key(jw, "tasks");
		jw_start_array(jw);
		for (size_t i = 0; i < t->nr_tasks; i++) {
			const struct kwork_entry *e = &t->tasks[i];
			if (!e->runtime)
				continue;
			jw_start_object(jw);
			jw_kv_uint(jw, "tid", e->key.id);
			if (!e->key.id)
				jw_kv_uint(jw, "cpu", e->key.cpu);
			jw_kv_string(jw, "comm", e->name ? e->name : "");
			jw_kv_double(jw, "cpu_pct", (double)e->usage / 100);
			jw_kv_uint(jw, "runtime_ns", e->runtime);
			jw_end_object(jw);
		}
		jw_end_array(jw);
	} else {
		jw_key(jw, "entries");
		jw_start_array(jw);
		for (size_t i = 0; i < r->n; i++) {
			const struct kwork_entry *e = &r->e[i];
			if (!e->v.count)
				continue;
			jw_start_object(jw);
			jw_kv_string(jw, "name", e->name ? e->name : "");
			jw_kv_string(jw, "class", kwork_class_names[e->key.type < KWORK_CLASS__MAX ? e->key.type : 0]);
			jw_kv_uint(jw, "cpu", e->key.cpu);
			jw_kv_uint(jw, "id", e->key.id);
			jw_kv_uint(jw, "count", e->v.count);
			jw_kv_uint(jw, v == KWORK_VIEW_LATENCY ? "total_delay_ns" : "total_runtime_ns", e->v.total);
			jw_kv_uint(jw, v == KWORK_VIEW_LATENCY ? "avg_delay_ns" : "avg_runtime_ns", kwork_entry_avg(e));
			jw_kv_uint(jw, v == KWORK_VIEW_LATENCY ? "max_delay_ns" : "max_runtime_ns", e->v.max);
			jw_kv_uint(jw, "max_start_ns", e->v.max_start);
			jw_kv_uint(jw, "max_end_ns", e->v.max_end);
			if (hist) {
				jw_key(jw, "hist_usecs");
				jw_start_array(jw);
				for (uint32_t s = 0; s < KWORK_HIST_SLOTS; s++) {
					if (!e->v.hist[s])
						continue;
					jw_start_object(jw);
					jw_kv_uint(jw, "low", log2_slot_low(s));
					jw_kv_uint(jw, "high", log2_slot_high(s));
					jw_kv_uint(jw, "count", e->v.hist[s]);
					jw_end_object(jw);
				}
				jw_end_array(jw);
			}
			jw_end_object(jw);
		}
		jw_end_array(jw);
	}
	json_counters(jw, r->counters);
	jw_end_object(jw);
	jw_free(jw);
}

void kwork_print_timehist_json(FILE *f, const struct kwork_tevent *ev)
{
	struct json_writer *jw = jw_new(f, false);
	const struct kwork_event *e = &ev->e;

	jw_start_object(jw);
	jw_kv_string(jw, "name", ev->name ? ev->name : "");
	jw_kv_string(jw, "class", kwork_class_names[e->type < KWORK_CLASS__MAX ? e->type : 0]);
	jw_kv_uint(jw, "cpu", e->cpu);
	jw_kv_uint(jw, "id", e->id);
	jw_kv_uint(jw, "start_ns", e->start);
	jw_kv_uint(jw, "end_ns", e->end);
	jw_kv_uint(jw, "runtime_ns", e->end - e->start);
	if (e->raise && e->raise <= e->start)
		jw_kv_uint(jw, "delay_ns", e->start - e->raise);
	jw_end_object(jw);
	jw_free(jw);	/* ends the line */
}

void kwork_print_timehist_json_end(FILE *f, uint64_t shown, const uint64_t *counters)
{
	struct json_writer *jw = jw_new(f, false);
	jw_start_object(jw);
	jw_kv_uint(jw, "events_shown", shown);
	json_counters(jw, counters);
	jw_end_object(jw);
	jw_free(jw);	/* ends the line */
}
