// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf trace's output (see trace_print.h): the text and JSON shapes of a
 * call and of the summary. Per call: one strbuf, one fwrite. */
#include <linux/types.h>

#include "trace_print.h"
#include "json.h"
#include "syscalls/syscalls.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- calls -------------------------------------------------------------- */

static void format_call(struct strbuf *sb, const struct trace_sc_event *e, const struct sc_info *sc,
			const struct trace_copy *cp)
{
	if (sc)
		sb_append(sb, sc->name);
	else
		sb_printf(sb, "syscall_%u", e->nr);
	sb_append(sb, "(");
	int n = sc && sc->nargs >= 0 ? sc->nargs : TRACE_MAX_ARGS;
	for (int i = 0; i < n; i++) {
		if (i)
			sb_append(sb, ", ");
		const struct sc_arg *a = sc && sc->nargs >= 0 ? &sc->args[i] : NULL;
		sc_fmt_arg(sb, a, e->args[i], cp[i].data, cp[i].len, cp[i].have);
	}
	sb_append(sb, ")");
}

void trace_print_event_text(void *ctx, const struct trace_event *ev)
{
	struct trace_printer *c = ctx;
	const struct trace_sc_event *e = ev->rec;
	const struct sc_info *sc = ev->sc;
	const struct trace_copy *cp = ev->copies;
	struct strbuf *sb = &c->line;
	char comm[TRACE_COMM_LEN + 1];
	memcpy(comm, e->comm, TRACE_COMM_LEN);
	comm[TRACE_COMM_LEN] = '\0';

	sb_reset(sb);
	if (c->abs_time)
		sb_printf(sb, "%" PRIu64 ".%06" PRIu64 " ", (uint64_t)e->ts / 1000000000,
			  (uint64_t)e->ts % 1000000000 / 1000);
	else {
		uint64_t rel = e->ts > c->t0 ? e->ts - c->t0 : 0;
		sb_printf(sb, "%6" PRIu64 ".%06" PRIu64 " ", rel / 1000000000, rel % 1000000000 / 1000);
	}
	sb_printf(sb, "%s/%u ", comm, e->tid);
	format_call(sb, e, sc, cp);
	if (e->flags & TRACE_EV_NORETURN) {
		sb_append(sb, " = ?\n");
	} else {
		sb_append(sb, " = ");
		sc_fmt_ret(sb, sc, e->ret);
		sb_printf(sb, " <%" PRIu64 ".%06" PRIu64 ">\n", (uint64_t)e->duration / 1000000000,
			  (uint64_t)e->duration % 1000000000 / 1000);
	}
	fwrite(sb->buf, 1, sb->len, c->out);
}

void trace_print_event_json(void *ctx, const struct trace_event *ev)
{
	struct trace_printer *c = ctx;
	const struct trace_sc_event *e = ev->rec;
	const struct sc_info *sc = ev->sc;
	const struct trace_copy *cp = ev->copies;
	struct json_writer *jw = jw_new(c->out, false);
	char comm[TRACE_COMM_LEN + 1];
	memcpy(comm, e->comm, TRACE_COMM_LEN);
	comm[TRACE_COMM_LEN] = '\0';

	jw_start_object(jw);
	jw_kv_uint(jw, "time_ns", c->abs_time ? e->ts : (e->ts > c->t0 ? e->ts - c->t0 : 0));
	jw_kv_uint(jw, "pid", e->pid);
	jw_kv_uint(jw, "tid", e->tid);
	jw_kv_string(jw, "comm", comm);
	if (sc) {
		jw_kv_string(jw, "syscall", sc->name);
	} else {
		char nm[32];
		snprintf(nm, sizeof(nm), "syscall_%u", e->nr);
		jw_kv_string(jw, "syscall", nm);
	}
	jw_kv_uint(jw, "nr", e->nr);
	jw_key(jw, "args");
	jw_start_object(jw);
	int n = sc && sc->nargs >= 0 ? sc->nargs : TRACE_MAX_ARGS;
	struct strbuf v = { 0 };
	for (int i = 0; i < n; i++) {
		const struct sc_arg *a = sc && sc->nargs >= 0 ? &sc->args[i] : NULL;
		char an[16];
		if (!a)
			snprintf(an, sizeof(an), "arg%d", i);
		jw_key(jw, a ? a->name : an);
		if (a && (a->kind == SC_ARG_INT || a->kind == SC_ARG_FD)) {
			sb_reset(&v);
			sc_fmt_arg(&v, a, e->args[i], NULL, 0, false);
			jw_int(jw, strtoll(v.buf, NULL, 10));
		} else if (a && a->kind == SC_ARG_UINT) {
			jw_uint(jw, e->args[i]);
		} else if (a && a->kind == SC_ARG_STR && cp[i].have) {
			size_t l = strnlen(cp[i].data, cp[i].len);
			jw_string_len(jw, cp[i].data, l);
		} else {
			sb_reset(&v);
			sc_fmt_arg(&v, a, e->args[i], cp[i].data, cp[i].len, cp[i].have);
			jw_string(jw, v.buf ? v.buf : "");
		}
	}
	sb_free(&v);
	jw_end_object(jw);
	if (e->flags & TRACE_EV_NORETURN) {
		jw_key(jw, "ret");
		jw_null(jw);
	} else {
		jw_kv_int(jw, "ret", e->ret);
		if (e->ret < 0 && e->ret >= -4095) {
			const char *en = sc_errno_name((int)-e->ret);
			if (en)
				jw_kv_string(jw, "errno", en);
			else
				jw_kv_int(jw, "errno", -e->ret);
		}
		jw_kv_uint(jw, "duration_ns", e->duration);
	}
	jw_end_object(jw);
	jw_free(jw);
}

/* ---- summary ------------------------------------------------------------ */

static const char *sc_name_or(const struct trace_printer *c, uint32_t nr, char *buf, size_t len)
{
	const struct sc_info *sc = sc_table_get(c->table, (int)nr);
	if (sc)
		return sc->name;
	snprintf(buf, len, "syscall_%u", nr);
	return buf;
}

void trace_print_summary_text(struct trace_printer *c, const struct trace_summary *sum)
{
	const struct trace_sum_row *s = sum->rows;
	const struct trace_errno_row *er = sum->errnos;
	size_t n = sum->nr_rows, ne = sum->nr_errnos;
	FILE *f = c->out;
	uint64_t total_calls = 0;
	for (size_t i = 0; i < n; i++)
		total_calls += s[i].val.c.calls;

	fprintf(f, "\n Summary of events:\n");
	for (size_t i = 0; i < n; ) {
		size_t j = i;
		uint64_t calls = 0;
		while (j < n && s[j].key.tid == s[i].key.tid && s[j].val.pid == s[i].val.pid)
			calls += s[j++].val.c.calls;
		char comm[TRACE_COMM_LEN + 1];
		memcpy(comm, s[i].val.comm, TRACE_COMM_LEN);
		comm[TRACE_COMM_LEN] = '\0';
		fprintf(f, "\n %s (%u/%u), %" PRIu64 " syscalls, %.1f%%\n\n", comm, s[i].val.pid, s[i].key.tid,
			calls, total_calls ? 100.0 * (double)calls / (double)total_calls : 0.0);
		fprintf(f, "   syscall                 calls   errors    total       min       avg       max   stddev\n"
			   "                                            (msec)    (msec)    (msec)    (msec)      (%%)\n"
			   "   -------------------- -------- -------- --------- --------- --------- --------- ------\n");
		for (size_t k = i; k < j; k++) {
			const struct trace_counts *v = &s[k].val.c;
			char nb[32];
			double avg = v->calls ? (double)v->total_ns / (double)v->calls : 0;
			fprintf(f, "   %-20s %8" PRIu64 " %8" PRIu64 " %9.3f %9.3f %9.3f %9.3f %5.2f%%\n",
				sc_name_or(c, s[k].key.nr, nb, sizeof(nb)), (uint64_t)v->calls, (uint64_t)v->errors,
				(double)v->total_ns / 1e6, v->calls ? (double)v->min_ns / 1e6 : 0.0,
				avg / 1e6, (double)v->max_ns / 1e6, avg > 0 ? 100.0 * s[k].stddev_ns / avg : 0.0);
			for (size_t e = 0; e < ne; e++) {
				if (er[e].key.tid != s[k].key.tid || er[e].key.nr != s[k].key.nr)
					continue;
				const char *en = sc_errno_name((int)er[e].key.err);
				if (en)
					fprintf(f, "        %-20s %8" PRIu64 "\n", en, er[e].count);
				else
					fprintf(f, "        errno %-14u %8" PRIu64 "\n", er[e].key.err, er[e].count);
			}
		}
		i = j;
	}
	fprintf(f, "\n");
}

static void summary_json(struct trace_printer *c, struct json_writer *jw, const struct trace_summary *sum)
{
	const struct trace_sum_row *s = sum->rows;
	const struct trace_errno_row *er = sum->errnos;
	size_t n = sum->nr_rows, ne = sum->nr_errnos;
	jw_key(jw, "syscalls");
	jw_start_array(jw);
	for (size_t k = 0; k < n; k++) {
		const struct trace_sum_val *v = &s[k].val;
		const struct trace_counts *cn = &v->c;
		char nb[32], comm[TRACE_COMM_LEN + 1];
		memcpy(comm, v->comm, TRACE_COMM_LEN);
		comm[TRACE_COMM_LEN] = '\0';
		jw_start_object(jw);
		jw_kv_uint(jw, "pid", v->pid);
		jw_kv_uint(jw, "tid", s[k].key.tid);
		jw_kv_string(jw, "comm", comm);
		jw_kv_string(jw, "syscall", sc_name_or(c, s[k].key.nr, nb, sizeof(nb)));
		jw_kv_uint(jw, "nr", s[k].key.nr);
		jw_kv_uint(jw, "calls", cn->calls);
		jw_kv_uint(jw, "errors", cn->errors);
		jw_kv_uint(jw, "total_ns", cn->total_ns);
		jw_kv_uint(jw, "min_ns", cn->calls ? cn->min_ns : 0);
		jw_kv_uint(jw, "avg_ns", cn->calls ? cn->total_ns / cn->calls : 0);
		jw_kv_uint(jw, "max_ns", cn->max_ns);
		jw_kv_uint(jw, "stddev_ns", (uint64_t)llround(s[k].stddev_ns));
		if (c->errno_summary) {
			jw_key(jw, "errnos");
			jw_start_object(jw);
			for (size_t e = 0; e < ne; e++) {
				if (er[e].key.tid != s[k].key.tid || er[e].key.nr != s[k].key.nr)
					continue;
				const char *en = sc_errno_name((int)er[e].key.err);
				char eb[32];
				if (!en) {
					snprintf(eb, sizeof(eb), "%u", er[e].key.err);
					en = eb;
				}
				jw_kv_uint(jw, en, er[e].count);
			}
			jw_end_object(jw);
		}
		jw_end_object(jw);
	}
	jw_end_array(jw);
}

void trace_print_lost_json(struct trace_printer *c, uint64_t events, uint64_t arguments,
			   uint64_t total_events, uint64_t total_arguments)
{
	uint64_t now = now_ns();
	struct json_writer *jw = jw_new(c->out, false);
	jw_start_object(jw);
	jw_kv_string(jw, "type", "lost");
	jw_kv_uint(jw, "time_ns", c->abs_time ? now : (now > c->t0 ? now - c->t0 : 0));
	jw_kv_uint(jw, "lost_events", events);
	jw_kv_uint(jw, "lost_arguments", arguments);
	jw_kv_uint(jw, "total_lost_events", total_events);
	jw_kv_uint(jw, "total_lost_arguments", total_arguments);
	jw_end_object(jw);
	jw_free(jw);
}

void trace_print_lost_total_json(struct trace_printer *c, uint64_t events, uint64_t arguments)
{
	struct json_writer *jw = jw_new(c->out, false);
	jw_start_object(jw);
	jw_kv_string(jw, "type", "lost_total");
	jw_kv_uint(jw, "lost_events", events);
	jw_kv_uint(jw, "lost_arguments", arguments);
	jw_end_object(jw);
	jw_free(jw);
}

void trace_print_summary_json(struct trace_printer *c, const struct trace_summary *s, bool pretty)
{
	struct json_writer *jw = jw_new(c->out, pretty);
	jw_start_object(jw);
	summary_json(c, jw, s);
	jw_kv_uint(jw, "lost_events", s->counters[TRACE_CNT_LOST_EVENTS]);
	jw_kv_uint(jw, "lost_arguments", s->counters[TRACE_CNT_LOST_AUG]);
	jw_kv_uint(jw, "summary_overflows", s->counters[TRACE_CNT_SUM_FULL]);
	jw_end_object(jw);
	jw_free(jw);
}
