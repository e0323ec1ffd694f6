// SPDX-License-Identifier: GPL-2.0-only
/* perf stat 6.1's output formats (see stat_print.h). The widths are perf's:
 * an 18-column value, a 4-column unit, a 32-column event name (25 on a
 * <not counted> or <not supported> line), a 35-column
 * metric ("  # %8.3f unit"), the variance "  ( +-%6.2f%% )". */
#include "out/stat_print.h"

#include "json.h"
#include "target/target.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define METRIC_LEN 35
#define UNCOUNTED_NAME_LEN 25	/* a <not counted>/<not supported> line's name column */

void stat_acc_add(struct stat_acc *a, double x)
{
	a->n++;
	double d = x - a->mean;
	a->mean += d / a->n;
	a->m2 += d * (x - a->mean);
}

double stat_acc_stddev_mean(const struct stat_acc *a)
{
	if (a->n < 2)
		return 0;
	return sqrt(a->m2 / (a->n - 1) / a->n);
}

static bool is_std(const struct stat_printer *p) { return p->fmt == STAT_FMT_STD; }

void stat_print_header(struct stat_printer *p, const char *what)
{
	if (!is_std(p) || p->interval)
		return;
	fprintf(p->out, "\n Performance counter stats for %s", what);
	if (p->run_count > 1)
		fprintf(p->out, " (%d runs)", p->run_count);
	fprintf(p->out, ":\n\n");
}

void stat_print_interval_start(struct stat_printer *p)
{
	if (!is_std(p))
		return;
	static const char *const header[] = {
		[STAT_AGGR_GLOBAL] = "#           time             counts unit events\n",
		[STAT_AGGR_CPU] = "#           time CPU                    counts unit events\n",
		[STAT_AGGR_CORE] = "#           time core            cpus             counts unit events\n",
		[STAT_AGGR_SOCKET] = "#           time socket cpus             counts unit events\n",
	};
	if (p->nr_interval_prints == 0)
		fputs(header[p->aggr], p->out);
	if (++p->nr_interval_prints == 25)
		p->nr_interval_prints = 0;
}

/* perf stat's JSON shape ("key" : "value", ) with the value escaped like
 * every other JSON string (names and cgroup paths may hold any byte). */
static void json_kv(FILE *f, const char *key, const char *v)
{
	fprintf(f, "\"%s\" : ", key);
	json_fputs_escaped(f, v, strlen(v));
	fputs(", ", f);
}

static void print_prefix(struct stat_printer *p, const struct stat_row *r)
{
	unsigned long sec = p->ts_ns / 1000000000ull, nsec = p->ts_ns % 1000000000ull;
	if (p->fmt == STAT_FMT_JSON) {
		fputc('{', p->out);
		if (p->interval)
			fprintf(p->out, "\"interval\" : %lu.%09lu, ", sec, nsec);
		if (r->cpu >= 0)
			fprintf(p->out, "\"cpu\" : \"%d\", ", r->cpu);
		else if (p->aggr == STAT_AGGR_CORE)
			fprintf(p->out, "\"core\" : \"S%d-D%d-C%d\", \"aggregate-number\" : %d, ", r->id.socket,
				r->id.die, r->id.core, r->nr_cpus);
		else if (p->aggr == STAT_AGGR_SOCKET)
			fprintf(p->out, "\"socket\" : \"S%d\", \"aggregate-number\" : %d, ", r->id.socket, r->nr_cpus);
		return;
	}
	if (p->interval)
		fprintf(p->out, "%6lu.%09lu%s", sec, nsec, p->sep);
	/* perf's widths in the table: the core number in 8 columns, the socket's in 5, the CPUs in 4 */
	if (p->aggr == STAT_AGGR_CORE && r->cpu < 0) {
		if (is_std(p))
			fprintf(p->out, "S%d-D%d-C%-8d%s%4d%s", r->id.socket, r->id.die, r->id.core, p->sep, r->nr_cpus,
				p->sep);
		else
			fprintf(p->out, "S%d-D%d-C%d%s%d%s", r->id.socket, r->id.die, r->id.core, p->sep, r->nr_cpus,
				p->sep);
	} else if (p->aggr == STAT_AGGR_SOCKET && r->cpu < 0) {
		if (is_std(p))
			fprintf(p->out, "S%-5d%s%4d%s", r->id.socket, p->sep, r->nr_cpus, p->sep);
		else
			fprintf(p->out, "S%d%s%d%s", r->id.socket, p->sep, r->nr_cpus, p->sep);
	}
	if (r->cpu >= 0) {
		if (is_std(p))
			fprintf(p->out, "CPU%-7d%s", r->cpu, p->sep);
		else
			fprintf(p->out, "CPU%d%s", r->cpu, p->sep);
	}
}

static void print_value(struct stat_printer *p, const struct stat_row *r)
{
	const struct stat_counter *c = r->c;
	const char *missing = !c->supported ? "<not supported>" : !r->counted ? "<not counted>" : NULL;
	double v = r->avg * c->scale;
	bool frac = floor(c->scale) != c->scale;
	switch (p->fmt) {
	case STAT_FMT_JSON:
		if (missing)
			fprintf(p->out, "\"counter-value\" : \"%s\", ", missing);
		else
			fprintf(p->out, "\"counter-value\" : \"%f\", ", v);
		json_kv(p->out, "unit", c->unit);
		json_kv(p->out, "event", c->name);
		if (c->cgroup)
			json_kv(p->out, "cgroup", c->cgroup);
		return;
	case STAT_FMT_CSV:
		if (missing)
			fprintf(p->out, "%s%s", missing, p->sep);
		else
			fprintf(p->out, frac ? "%.2f%s" : "%.0f%s", v, p->sep);
		fprintf(p->out, "%s%s%s", c->unit, p->sep, c->name);
		if (c->cgroup)
			fprintf(p->out, "%s%s", p->sep, c->cgroup);
		return;
	case STAT_FMT_STD:
		if (missing)
			fprintf(p->out, "%18s%s", missing, p->sep);
		else if (p->big_num)
			fprintf(p->out, frac ? "%'18.2f%s" : "%'18.0f%s", v, p->sep);
		else
			fprintf(p->out, frac ? "%18.2f%s" : "%18.0f%s", v, p->sep);
		fprintf(p->out, "%-4s%s%-*s", c->unit, p->sep, missing ? UNCOUNTED_NAME_LEN : 32, c->name);
		if (c->cgroup)
			fprintf(p->out, "%s%s", p->sep, c->cgroup);
		return;
	}
}

/* The derived metric perf prints: CPUs utilized for the clock, a /sec rate
 * (K/M/G scaled) for the others when a clock was counted. false: none. */
static bool metric(const struct stat_row *r, double *val, char *unit, size_t len)
{
	if (r->c->is_clock) {
		if (r->wall_ns <= 0)
			return false;
		*val = r->avg / r->wall_ns;
		snprintf(unit, len, "CPUs utilized");
		return true;
	}
	if (r->clock_ns < 0)
		return false;
	double rate = r->clock_ns > 0 ? 1e9 * r->avg / r->clock_ns : 0;
	const char *prefix = "";
	if (rate >= 1e9) {
		rate /= 1e9;
		prefix = "G";
	} else if (rate >= 1e6) {
		rate /= 1e6;
		prefix = "M";
	} else if (rate >= 1e3) {
		rate /= 1e3;
		prefix = "K";
	}
	*val = rate;
	snprintf(unit, len, "%s/sec", prefix);
	return true;
}

static void print_metric(struct stat_printer *p, const struct stat_row *r)
{
	bool ok = r->c->supported && r->counted;
	double val = 0;
	char unit[32];
	bool has = ok && metric(r, &val, unit, sizeof(unit));
	switch (p->fmt) {
	case STAT_FMT_JSON:
		fprintf(p->out, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"", has ? val : 0.0,
			has ? unit : ok ? "(null)" : "");
		return;
	case STAT_FMT_CSV:
		if (has) {
			char buf[64];
			snprintf(buf, sizeof(buf), "%8.3f", val);
			fprintf(p->out, "%s%s%s%s", p->sep, buf + strspn(buf, " "), p->sep, unit);
		} else {
			fprintf(p->out, "%s%s", p->sep, p->sep);
		}
		return;
	case STAT_FMT_STD:
		if (has) {
			int n = fprintf(p->out, " # ");
			n += fprintf(p->out, "%8.3f", val);
			fprintf(p->out, " %-*s", METRIC_LEN - n - 1, unit);
		} else {
			fprintf(p->out, "%-*s", METRIC_LEN, "");
		}
		return;
	}
}

static double noise_pct(const struct stat_row *r)
{
	return r->avg ? 100.0 * r->stddev / r->avg : 0;
}

static double running_pct(const struct stat_row *r)
{
	return r->ena && r->run != r->ena ? 100.0 * (double)r->run / (double)r->ena : 100.0;
}

void stat_print_row(struct stat_printer *p, const struct stat_row *r)
{
	bool ok = r->c->supported && r->counted;
	print_prefix(p, r);
	print_value(p, r);
	if (p->fmt == STAT_FMT_JSON) {
		if (p->run_count > 1)
			fprintf(p->out, "\"variance\" : %.2f, ", noise_pct(r));
		fprintf(p->out, "\"event-runtime\" : %lu, \"pcnt-running\" : %.2f, ", (unsigned long)r->run,
			running_pct(r));
		print_metric(p, r);
		fputs("}\n", p->out);
		return;
	}
	if (p->fmt == STAT_FMT_CSV) {
		if (p->run_count > 1)
			fprintf(p->out, "%s%.2f%%", p->sep, noise_pct(r));
		fprintf(p->out, "%s%lu%s%.2f", p->sep, (unsigned long)r->run, p->sep, running_pct(r));
		print_metric(p, r);
		fputc('\n', p->out);
		return;
	}
	print_metric(p, r);
	if (ok && p->run_count > 1 && noise_pct(r) != 0)
		fprintf(p->out, "  ( +-%6.2f%% )", noise_pct(r));
	if (ok && r->run != r->ena)
		fprintf(p->out, "  (%.2f%%)", running_pct(r));
	fputc('\n', p->out);
}

/* Digits perf shows for a -r elapsed time: enough for the stddev. */
static int precision(double sd)
{
	if (sd > 1)
		return 0;
	return (int)lround(ceil(-log10(sd)));
}

void stat_print_footer(struct stat_printer *p, double elapsed_s, double elapsed_sd, bool ru, double user_s,
		       double sys_s)
{
	if (!is_std(p) || p->interval)
		return;
	fputc('\n', p->out);
	if (p->run_count <= 1) {
		fprintf(p->out, " %17.9f seconds time elapsed", elapsed_s);
		if (ru) {
			fprintf(p->out, "\n\n");
			fprintf(p->out, " %17.9f seconds user\n", user_s);
			fprintf(p->out, " %17.9f seconds sys\n", sys_s);
		}
	} else {
		int prec = elapsed_sd > 0 ? precision(elapsed_sd) + 2 : 9;
		fprintf(p->out, " %17.*f +- %.*f seconds time elapsed", prec, elapsed_s, prec, elapsed_sd);
		if (elapsed_s && elapsed_sd)
			fprintf(p->out, "  ( +-%6.2f%% )", 100.0 * elapsed_sd / elapsed_s);
	}
	fprintf(p->out, "\n\n");
}

/* ---- cells: the rows' values ---- */

struct cell {
	struct stat_acc acc;
	uint64_t run, ena;
	bool counted;
};

/* One aggregation: a CPU, a core, a socket, or all. */
struct aggr {
	int cpu;		/* -A, else -1 */
	struct cpu_topo id;
	int nr_cpus;
};

struct stat_cells {
	int nr_ctrs, nr_slots, nr_aggr;
	enum stat_aggr mode;
	int *slot_aggr;		/* slot -> aggregation */
	struct aggr *aggr;
	struct cell *c;		/* nr_ctrs x nr_aggr */
};

/* perf's order: by socket, then die, then core (per socket: die and core 0). */
static int aggr_cmp(const struct cpu_topo *a, const struct cpu_topo *b)
{
	if (a->socket != b->socket)
		return a->socket < b->socket ? -1 : 1;
	if (a->die != b->die)
		return a->die < b->die ? -1 : 1;
	return a->core < b->core ? -1 : a->core > b->core;
}

static struct cpu_topo aggr_key(enum stat_aggr mode, const struct cpu_topo *t)
{
	struct cpu_topo k = { .socket = t->socket };
	if (mode == STAT_AGGR_CORE) {
		k.die = t->die;
		k.core = t->core;
	}
	return k;
}

/* The aggregation of each slot: new ones inserted in order. */
static void cells_map(struct stat_cells *c, const struct stat_engine *s, enum stat_aggr mode,
		      const struct cpu_topo *topo)
{
	c->slot_aggr = xcalloc((size_t)c->nr_slots, sizeof(int));
	c->aggr = xcalloc((size_t)c->nr_slots, sizeof(*c->aggr));
	if (mode == STAT_AGGR_GLOBAL || (mode != STAT_AGGR_CPU && !topo) || stat_slot_cpu(s, 0) < 0) {
		c->nr_aggr = 1;
		c->aggr[0] = (struct aggr){ .cpu = -1, .nr_cpus = c->nr_slots };
		return;
	}
	if (mode == STAT_AGGR_CPU) {
		c->nr_aggr = c->nr_slots;
		for (int i = 0; i < c->nr_slots; i++) {
			c->slot_aggr[i] = i;
			c->aggr[i] = (struct aggr){ .cpu = stat_slot_cpu(s, i), .nr_cpus = 1 };
		}
		return;
	}
	for (int i = 0; i < c->nr_slots; i++) {
		struct cpu_topo k = aggr_key(mode, &topo[stat_slot_cpu(s, i)]);
		int a = 0;
		while (a < c->nr_aggr && aggr_cmp(&c->aggr[a].id, &k) < 0)
			a++;
		if (a == c->nr_aggr || aggr_cmp(&c->aggr[a].id, &k)) {
			memmove(&c->aggr[a + 1], &c->aggr[a], (size_t)(c->nr_aggr - a) * sizeof(*c->aggr));
			c->aggr[a] = (struct aggr){ .cpu = -1, .id = k };
			c->nr_aggr++;
		}
		c->aggr[a].nr_cpus++;
	}
	for (int i = 0; i < c->nr_slots; i++) {
		struct cpu_topo k = aggr_key(mode, &topo[stat_slot_cpu(s, i)]);
		for (int a = 0; a < c->nr_aggr; a++)
			if (!aggr_cmp(&c->aggr[a].id, &k))
				c->slot_aggr[i] = a;
	}
}

struct stat_cells *stat_cells_new(const struct stat_engine *s, enum stat_aggr aggr, const struct cpu_topo *topo)
{
	struct stat_cells *c = xcalloc(1, sizeof(*c));
	c->nr_ctrs = stat_nr_counters(s);
	c->nr_slots = stat_nr_slots(s);
	c->mode = aggr;
	cells_map(c, s, aggr, topo);
	c->c = xcalloc((size_t)c->nr_ctrs * (size_t)c->nr_aggr, sizeof(*c->c));
	return c;
}

void stat_cells_add(struct stat_cells *c, const struct stat_value *v)
{
	for (int i = 0; i < c->nr_ctrs; i++) {
		double sum[c->nr_aggr];
		uint64_t run[c->nr_aggr], ena[c->nr_aggr];
		memset(sum, 0, sizeof(sum));
		memset(run, 0, sizeof(run));
		memset(ena, 0, sizeof(ena));
		for (int s = 0; s < c->nr_slots; s++) {
			int a = c->slot_aggr[s];
			const struct stat_value *x = &v[i * c->nr_slots + s];
			sum[a] += stat_scaled(x);
			run[a] += x->run;
			ena[a] += x->ena;
		}
		for (int a = 0; a < c->nr_aggr; a++) {
			struct cell *cell = &c->c[i * c->nr_aggr + a];
			stat_acc_add(&cell->acc, sum[a]);
			cell->run += run[a];
			cell->ena += ena[a];
			cell->counted |= run[a] > 0;
		}
	}
}

static bool same_cgroup(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The clock counted in aggregation a for counter i's cgroup: its value
 * in ns, else -1 (no rate). */
static double clock_of(const struct stat_cells *c, const struct stat_engine *s, int i, int a)
{
	const char *cgroup = stat_counter(s, i)->cgroup;
	for (int k = 0; k < c->nr_ctrs; k++) {
		const struct cell *kc = &c->c[k * c->nr_aggr + a];
		const struct stat_counter *kn = stat_counter(s, k);
		if (kn->is_clock && kn->supported && kc->counted && same_cgroup(kn->cgroup, cgroup))
			return kc->acc.mean;
	}
	return -1;
}

void stat_cells_print(struct stat_printer *p, const struct stat_cells *c, const struct stat_engine *s,
		      double wall_ns)
{
	/* perf: -A counter by counter (each on every CPU), --per-core and
	 * --per-socket core by core (each with every counter) */
	bool by_aggr = c->mode == STAT_AGGR_CORE || c->mode == STAT_AGGR_SOCKET;
	int n = c->nr_ctrs * c->nr_aggr;
	for (int k = 0; k < n; k++) {
		int i = by_aggr ? k % c->nr_ctrs : k / c->nr_aggr, a = by_aggr ? k / c->nr_ctrs : k % c->nr_aggr;
		const struct cell *cell = &c->c[i * c->nr_aggr + a];
		struct stat_row row = {
			.c = stat_counter(s, i),
			.cpu = c->aggr[a].cpu,
			.id = c->aggr[a].id,
			.nr_cpus = c->aggr[a].nr_cpus,
			.counted = cell->counted,
			.avg = cell->acc.mean,
			.stddev = stat_acc_stddev_mean(&cell->acc),
			.run = cell->run,
			.ena = cell->ena,
			.clock_ns = clock_of(c, s, i, a),
			.wall_ns = wall_ns,
		};
		stat_print_row(p, &row);
	}
}

void stat_cells_free(struct stat_cells *c)
{
	if (!c)
		return;
	free(c->c);
	free(c->slot_aggr);
	free(c->aggr);
	free(c);
}

/* "'true'", "'system wide'", "process id '1,2'": what the table's title names. */
char *stat_describe_target(const struct target *t)
{
	struct strbuf sb = { 0 };
	if (t->system_wide) {
		sb_append(&sb, "'system wide'");
	} else if (t->cpu_list) {
		sb_printf(&sb, "'CPU(s) %s'", t->cpu_list);
	} else if (t->argv && !t->nr_pids && !t->nr_tids) {
		sb_append(&sb, "'");
		for (int i = 0; t->argv[i]; i++)
			sb_printf(&sb, "%s%s", i ? " " : "", t->argv[i]);
		sb_append(&sb, "'");
	} else {
		bool pids = t->nr_pids > 0;
		sb_append(&sb, pids ? "process id '" : "thread id '");
		size_t n = pids ? t->nr_pids : t->nr_tids;
		for (size_t i = 0; i < n; i++)
			sb_printf(&sb, "%s%d", i ? "," : "", (int)(pids ? t->pids[i] : t->tids[i]));
		sb_append(&sb, "'");
	}
	return sb.buf ? sb.buf : xstrdup("");
}

void stat_values_delta(const struct stat_value *cur, const struct stat_value *prev, struct stat_value *d, int n)
{
	for (int i = 0; i < n; i++) {
		d[i].val = cur[i].val - prev[i].val;
		d[i].ena = cur[i].ena - prev[i].ena;
		d[i].run = cur[i].run - prev[i].run;
	}
}
