/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to the profile writers of out.h: the helpers the table (out.c),
 * its call graphs (callgraph.c), JSON (profile_json.c), folded stacks
 * (folded.c) and the flame graph (flame.c) share. */
#ifndef BPFPERF_OUT_INT_H
#define BPFPERF_OUT_INT_H

#include "out/out.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* v as a percentage of total (0 when total is 0). */
static inline double out_pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* The table and its call graphs write one stream from one thread: they use
 * stdio's _unlocked calls (no lock per character or field). */

/* fprintf(f, "%*.2f%%", width, pct) for pct >= 0, without printf on the
 * common path (call graphs print one per line); out.c. */
void out_put_pct(FILE *f, int width, double pct);

/* n spaces. */
void out_put_spaces(FILE *f, int n);

/* A name, "[unknown]" for none. */
static inline const char *out_nz(const char *s)
{
	return s ? s : "[unknown]";
}

/* Is the entry at or above --percent-limit (of children with children)? */
static inline bool out_shown_entry(const struct hist *h, const struct hist_entry *e, const struct out_opts *o)
{
	if (o->percent_limit <= 0)
		return true;
	uint64_t v = hist_opts(h)->children ? e->children : e->self;
	/* perf compares in float */
	float p = (float)out_pct(v, hist_total_period(h));
	return !(p < (float)o->percent_limit);
}

/* callgraph.c: the call graph under a table entry, in -g's mode. */
void out_print_callgraph(FILE *f, const struct hist *h, const struct hist_entry *e, const struct out_opts *o);

#endif
