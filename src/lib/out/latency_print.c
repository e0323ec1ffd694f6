// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf latency's output (latency_print.h). The text is perf ftrace
 * latency's (tools/perf/builtin-ftrace.c, display_histogram): widths, the
 * 46-character bar, the bucket labels, the statistics. */
#include <linux/types.h>
#include "out/latency_print.h"
#include "json.h"

#include <inttypes.h>
#include <string.h>

#define BAR_WIDTH 46

static const char bar[] = "##############################################";

void latency_bucket_bounds(const struct lat_cfg *c, uint32_t i, uint64_t *low, uint64_t *high)
{
	uint32_t last = c->nr_buckets - 1;
	if (!c->range) {
		*low = i ? 1ULL << (i - 1) : 0;
		*high = i >= last ? UINT64_MAX : 1ULL << i;
		return;
	}
	if (i == 0) {
		*low = 0;
		*high = c->min;
	} else if (i >= last) {
		uint64_t up = (uint64_t)(c->nr_buckets - 2) * c->range + c->min;
		*low = up < c->max ? up : c->max;
		*high = UINT64_MAX;
	} else {
		*low = (uint64_t)(i - 1) * c->range + c->min;
		uint64_t stop = (uint64_t)i * c->range + c->min;
		*high = stop < c->max ? stop : c->max;
	}
}

const char *latency_lost_name(enum lat_lost k)
{
	static const char *const n[LAT_LOST_NR] = {
		[LAT_LOST_DEPTH] = "too_deep", [LAT_LOST_NO_ENTRY] = "no_entry",
		[LAT_LOST_EXITED] = "thread_exited", [LAT_LOST_NO_SLOT] = "no_slot",
		[LAT_LOST_INFLIGHT] = "in_flight",
	};
	return (unsigned)k < LAT_LOST_NR ? n[k] : "?";
}

static void row_end(FILE *f, uint64_t count, uint64_t total)
{
	int len = (int)(count * BAR_WIDTH / total);
	fprintf(f, " | %10" PRIu64 " | %.*s%*s |\n", count, len, bar, BAR_WIDTH - len, "");
}

void latency_print_hist(FILE *f, const struct lat_cfg *c, const struct latency_hist *h, bool hide_empty)
{
	bool ns = c->unit_ns == 1;
	const char *small = ns ? "ns" : "us", *big = ns ? "us" : "ms";
	uint32_t nb = c->nr_buckets, last = nb - 1;
	uint64_t total = 0;
	for (uint32_t i = 0; i < nb; i++)
		total += h->buckets[i];
	if (!total) {
		fprintf(f, "No data found\n");
		return;
	}
	fprintf(f, "# %14s | %10s | %-*s |\n", "  DURATION    ", "COUNT", BAR_WIDTH, "GRAPH");
	if (!hide_empty || h->buckets[0]) {
		fprintf(f, "  %4d - %4" PRIu64 " %s", 0, c->range ? (uint64_t)c->min : (uint64_t)1, small);
		row_end(f, h->buckets[0], total);
	}
	for (uint32_t i = 1; i < last; i++) {
		if (hide_empty && !h->buckets[i])
			continue;
		uint64_t lo, hi;
		latency_bucket_bounds(c, i, &lo, &hi);
		if (c->range && lo >= c->max)
			break;
		if (!c->range && lo >= 1024)
			fprintf(f, "  %4" PRIu64 " - %4" PRIu64 " %s", lo >> 10, hi >> 10, big);
		else if (c->range && lo >= 1000)
			fprintf(f, "  %4.2f - %-4.2f %s", (double)lo / 1000.0, (double)hi / 1000.0, big);
		else
			fprintf(f, "  %4" PRIu64 " - %4" PRIu64 " %s", lo, hi, small);
		row_end(f, h->buckets[i], total);
	}
	if (!hide_empty || h->buckets[last]) {
		uint64_t lo, hi;
		latency_bucket_bounds(c, last, &lo, &hi);
		if (!c->range)
			fprintf(f, "  %4d - %-4s %s", 1, "...", ns ? "ms" : "s ");
		else if (lo >= 1000)
			fprintf(f, "  %4.2f - %-4s %s", (double)lo / 1000.0, "...", big);
		else
			fprintf(f, "  %4" PRIu64 " - %4s %s", lo, "...", small);
		row_end(f, h->buckets[last], total);
	}
	double unit = (double)c->unit_ns;
	fprintf(f, "\n# statistics  (in %s)\n", ns ? "nsec" : "usec");
	fprintf(f, "  total time: %20.0f\n", (double)h->c.sum / unit);
	fprintf(f, "    avg time: %20.0f\n", h->c.count ? (double)h->c.sum / (double)h->c.count / unit : 0);
	fprintf(f, "    max time: %20" PRIu64 "\n", (uint64_t)(h->c.max / c->unit_ns));
	fprintf(f, "    min time: %20" PRIu64 "\n", (uint64_t)(h->c.count ? h->c.min / c->unit_ns : 0));
	fprintf(f, "       count: %20" PRIu64 "\n", (uint64_t)h->c.count);
}

static void print_lost(FILE *f, const struct latency_hist *h)
{
	uint64_t any = 0;
	for (int k = 0; k < LAT_LOST_NR; k++)
		any |= h->lost[k];
	if (!any)
		return;
	fprintf(f, "# not measured: %" PRIu64 " nested deeper than %d, %" PRIu64 " returns without "
		"entry, %" PRIu64 " in threads that exited, %" PRIu64 " without a stack slot, %" PRIu64
		" in flight at the end\n", h->lost[LAT_LOST_DEPTH], LAT_STACK_DEPTH,
		h->lost[LAT_LOST_NO_ENTRY], h->lost[LAT_LOST_EXITED], h->lost[LAT_LOST_NO_SLOT],
		h->lost[LAT_LOST_INFLIGHT]);
}

void latency_print_text(FILE *f, const struct lat_cfg *c, const struct latency_result *r, bool hide_empty)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct latency_hist *h = &r->h[i];
		if (r->n > 1)
			fprintf(f, "%s# function: %s\n", i ? "\n" : "", h->func ? h->func->name : "?");
		latency_print_hist(f, c, h, hide_empty);
		print_lost(f, h);
	}
}

void latency_print_json(FILE *f, const struct lat_cfg *c, const struct latency_result *r, bool hide_empty)
{
	struct json_writer *jw = jw_new(f, false);
	jw_start_object(jw);
	jw_kv_string(jw, "unit", c->unit_ns == 1 ? "nsec" : "usec");
	jw_kv_string(jw, "buckets", c->range ? "linear" : "log2");
	jw_key(jw, "functions");
	jw_start_array(jw);
	for (size_t i = 0; i < r->n; i++) {
		const struct latency_hist *h = &r->h[i];
		jw_start_object(jw);
		jw_kv_string(jw, "name", h->func ? h->func->name : "?");
		if (h->func && h->func->mech)
			jw_kv_string(jw, "mechanism", h->func->mech);
		jw_key(jw, "buckets");
		jw_start_array(jw);
		for (uint32_t b = 0; b < c->nr_buckets; b++) {
			if (hide_empty && !h->buckets[b])
				continue;
			uint64_t lo, hi;
			latency_bucket_bounds(c, b, &lo, &hi);
			jw_start_object(jw);
			jw_kv_uint(jw, "low", lo);
			jw_key(jw, "high");
			if (hi == UINT64_MAX)
				jw_null(jw);
			else
				jw_uint(jw, hi);
			jw_kv_uint(jw, "count", h->buckets[b]);
			jw_end_object(jw);
		}
		jw_end_array(jw);
		jw_key(jw, "stats");
		jw_start_object(jw);
		double unit = (double)c->unit_ns;
		jw_kv_double(jw, "total", (double)h->c.sum / unit);
		jw_kv_double(jw, "avg", h->c.count ? (double)h->c.sum / (double)h->c.count / unit : 0);
		jw_kv_uint(jw, "max", (uint64_t)(h->c.max / c->unit_ns));
		jw_kv_uint(jw, "min", (uint64_t)(h->c.count ? h->c.min / c->unit_ns : 0));
		jw_kv_uint(jw, "count", h->c.count);
		jw_end_object(jw);
		jw_key(jw, "lost");
		jw_start_object(jw);
		for (int k = 0; k < LAT_LOST_NR; k++)
			jw_kv_uint(jw, latency_lost_name((enum lat_lost)k), h->lost[k]);
		jw_end_object(jw);
		jw_end_object(jw);
	}
	jw_end_array(jw);
	jw_end_object(jw);
	jw_free(jw);	/* ends the line */
}
