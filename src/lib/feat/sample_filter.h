/* SPDX-License-Identifier: GPL-2.0-only */
/* BPF sample filters (perf record --filter): an expression such as
 * 'tid == 1234, cpu < 2 || ip < 0x8000000000000000' compiled to the entries of
 * src/bpf/sample_filter_data.h and evaluated on every sample by a
 * SEC("perf_event") program (src/bpf/sample_filter.bpf.c) attached to the
 * sampled events: a sample that does not match is dropped in the kernel and
 * counted.
 *
 *   sf_parse(expr, &expr_out, &err)        the parser (no privileges)
 *   sf = sample_filter_new(&opts);
 *   sample_filter_add(sf, event, &expr);   AND into event's filter
 *   sample_filter_load(sf);                probe, pick the design, check
 *                                          the terms, load one program per
 *                                          filtered event
 *   h = sample_filter_hook(sf);            a recording hook: adds the sample
 *                                          fields the terms read, attaches,
 *                                          writes the drops as LOST_SAMPLES
 *   sample_filter_result(sf, i, &r);       per filtered event, after it
 *   sample_filter_free(sf);
 *
 * Designs: with the bpf_cast_to_kern_ctx kfunc (Linux 6.2+) the program reads
 * the sample itself (struct perf_sample_data); without it, what a perf_event
 * program's context offers (registers, period, addr) and helpers (current
 * task ids, CPU) — id, time, weight, phys_addr and data_src cannot be
 * filtered then, which is reported before anything is recorded.
 *
 * Error convention: 0 or a negative errno, one message logged. No option
 * names in messages. */
#ifndef BPFPERF_FEAT_SAMPLE_FILTER_H
#define BPFPERF_FEAT_SAMPLE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample_filter_data.h"
#include "record/record.h"

/* ---- the parser ---- */

struct sf_expr {
	struct sample_filter_entry e[SF_MAX_ENTRIES];
	uint16_t column[SF_MAX_ENTRIES];	/* byte offset of each entry's term in text */
	uint32_t n;
	const char *text;			/* the expression (by reference) */
};

struct sf_error {
	int column;		/* byte offset of the offending token */
	char msg[192];
};

/* Resolves a cgroup path to its cgroup v2 id; 0 or a negative errno. */
typedef int (*sf_cgroup_resolver)(const char *path, uint64_t *id);
/* The default: the directory's inode under the cgroup2 mount (from /proc/self/mounts). */
int sf_cgroup_id(const char *path, uint64_t *id);

/* Parse text into out. 0, or -EINVAL with err filled. resolve: NULL for
 * sf_cgroup_id. */
int sf_parse(const char *text, struct sf_expr *out, struct sf_error *err, sf_cgroup_resolver resolve);
/* "msg\n  text\n  ^" into buf: the error with a caret under its column. */
void sf_format_error(const char *text, const struct sf_error *err, char *buf, size_t len);
/* The name of a term ("tid", "mem_op", ...). */
const char *sf_term_name(uint32_t term, uint32_t part);
/* Does reading term need the sample itself (bpf_cast_to_kern_ctx)? */
bool sf_term_needs_kctx(uint32_t term);
/* PERF_SAMPLE_* bits the sample must carry for the terms of e. */
uint64_t sf_sample_type(const struct sf_expr *e);
/* AND b into a (a's text is kept); -E2BIG if it does not fit. */
int sf_expr_and(struct sf_expr *a, const struct sf_expr *b);

/* ---- the loader and recording hook ---- */

struct sample_filter_opts {
	bool no_kctx;		/* testing: the design without the kfunc even where it exists */
};

enum sample_filter_design {
	SF_DESIGN_KCTX,		/* bpf_cast_to_kern_ctx: the sample's own fields */
	SF_DESIGN_REGS,		/* context registers, period, addr and helpers */
};

struct sample_filter_result {
	size_t event;		/* the recording's event index */
	const char *text;	/* the filter (the first expression given for it) */
	uint64_t kept, dropped;
};

struct sample_filter;

struct sample_filter *sample_filter_new(const struct sample_filter_opts *o);
/* AND e into the filter of the recording's event index event (copied;
 * e->text must outlive sf). -E2BIG (reported) when over SF_MAX_ENTRIES. */
int sample_filter_add(struct sample_filter *sf, size_t event, const struct sf_expr *e);
/* Load the programs. -EOPNOTSUPP (reported, with the term and its column)
 * when a term cannot be filtered on with the design this kernel allows. */
int sample_filter_load(struct sample_filter *sf);
enum sample_filter_design sample_filter_design(const struct sample_filter *sf, const char **why);
struct recording_hook sample_filter_hook(struct sample_filter *sf);
/* Filtered events (in event order); results valid after the recording's
 * before_finish hooks ran. */
size_t sample_filter_count(const struct sample_filter *sf);
void sample_filter_result(const struct sample_filter *sf, size_t i, struct sample_filter_result *r);
void sample_filter_free(struct sample_filter *sf);

/* A --filter as given on the command line: its text and the number of -e
 * values before it (0: it applies to every event). */
struct sf_given {
	const char *text;
	size_t after;
};
/* perf's rule for several --filter: those after -e value k apply to its
 * events first[k-1]..first[k]-1, those before any -e to all nev events; two
 * for one event are joined with ',' (and). Adds each event's expression
 * (*texts[ev]: its joined text, NULL for none; free them and the array) and
 * loads the programs. 0, or a negative errno (reported): -BPFPERF_EUSAGE
 * for a filter that does not parse, is too long, or has a term this kernel
 * cannot filter on. */
int sample_filter_setup(struct sample_filter *sf, const struct sf_given *g, size_t n, const size_t *first,
			size_t nev, char ***texts);
/* The filters for every event (after == 0) joined into *e (e->n = 0 when
 * none). 0, -EINVAL (a parse error) or -E2BIG (too many terms). */
int sf_join_global(const struct sf_given *g, size_t n, struct sf_expr *e);

#endif
