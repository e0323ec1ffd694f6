/* SPDX-License-Identifier: GPL-2.0-only */
/* perf report's setup_sorting, and the CPUs a report may select:
 *
 *   report_keys_parse(&k, &ho)       the sort keys asked for (or comm,dso,sym)
 *                                    and the columns asked for (perf's -F)
 *   report_keys_tp(&k, file, ...)    tracepoint keys against the file's formats
 *   report_keys_order(&k, &ho)       the overheads before the keys, every
 *                                    column a key; k.col_keys the columns
 *   report_keys_free(&k)
 *
 *   report_cpus_parse(list, ...)     a CPU list ("0-1,3") into a mask
 *   report_cpus_check(file, ...)     its CPUs against the file's samples and
 *                                    the CPUs it was recorded on (HEADER_NRCPUS)
 *
 * Nothing here names a command-line option: a refused key is a negative
 * errno with what was refused in struct report_keys (bad_*), a refused CPU
 * list one with the text or the CPU for the caller's message, which names
 * its option. */
#ifndef BPFPERF_HIST_REPORT_SETUP_H
#define BPFPERF_HIST_REPORT_SETUP_H

#include "hist/hist.h"
#include "hist/tpkeys.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_file;
struct profile_opts;

struct report_keys {
	/* asked for */
	const char *sort;		/* the sort keys; NULL: comm,dso,sym */
	const char *fields;		/* the columns first (perf's -F); "+LIST": after the default ones */
	bool show_nr_samples;		/* default columns: a Samples column, */
	bool show_total_period;		/* a Period column */
	bool raw_trace;			/* tracepoint keys show the fields' raw values */
	/* resolved */
	bool fields_strict;		/* fields without '+': perf's strict field order */
	enum sort_key field_keys[SORT__MAX];
	int nfields;
	enum sort_key col_keys[2 * SORT__MAX];	/* the columns before the sort keys (report_keys_order) */
	int ncols;
	char *tp_names[TPKEYS_MAX_NAMES];	/* sort's tracepoint keys (SORT_TP0 + j) */
	struct tp_formats tp_formats;		/* the file's, loaded once for them */
	int ntp_names;
	/* What was refused, for the caller's message. -EINVAL: the key bad
	 * (sort_keys_parse's: NULL or "" for none) in the list bad_list, which
	 * is fields or sort. -ENOENT: bad is a tracepoint key the file does
	 * not have, hint its close matches or "". */
	const char *bad_list;
	const char *bad;
	bool bad_in_fields;
	char *hint;
};

/* fields, then sort (or comm,dso,sym, or nothing after strict fields) into
 * ho's keys; sort's words it does not know are kept as tracepoint keys.
 * 0, or -EINVAL (k->bad_*). */
int report_keys_parse(struct report_keys *k, struct hist_opts *ho);
/* Tracepoint keys against the file: perf's default "trace" (trace_fields
 * with raw_trace) when every event is a tracepoint and no key was asked
 * for; every name must be a field of one of its events (the formats loaded
 * once into k->tp_formats, and po->tp_formats set). 0, or -EINVAL / -ENOENT
 * (k->bad_*, k->hint). */
int report_keys_tp(struct report_keys *k, const struct pd_file *f, struct hist_opts *ho,
		   struct profile_opts *po);
/* The rest of perf's setup_sorting (see report_setup.c): the columns into
 * k->col_keys, every column not among ho's keys appended to them. */
void report_keys_order(struct report_keys *k, struct hist_opts *ho);
void report_keys_free(struct report_keys *k);

/* A CPU list (e.g. 0-1,3) into cpus[0..n): 0, or -EINVAL with what was
 * expected in err. */
int report_cpus_parse(const char *list, bool *cpus, size_t n, char *err, size_t errlen);
/* Can the CPUs set in cpus[0..n) select samples of f? 0; -ENODATA when its
 * samples carry no CPU; -ERANGE when CPU *bad is not among the *online ones
 * it was recorded on. */
int report_cpus_check(const struct pd_file *f, const bool *cpus, size_t n, size_t *bad, uint32_t *online);

#endif
