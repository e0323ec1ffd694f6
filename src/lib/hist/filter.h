/* SPDX-License-Identifier: GPL-2.0-only */
/* Which samples a report keeps, as perf report decides (perf 6.1):
 *
 * - dropped before aggregation, as if never recorded: samples outside the
 *   --time ranges and off the --cpu list;
 * - "filtered": samples of other threads (--comm, --pid, --tid) or whose
 *   sampled address is in another DSO (--dsos) or symbol (--symbols). They
 *   make no entry, but still count in the total the percentages are taken
 *   of ("absolute", perf's default) unless the report asks for "relative".
 *
 * Lists are comma-separated, as perf's options take them. */
#ifndef BPFPERF_HIST_FILTER_H
#define BPFPERF_HIST_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hist_frame;

/* One --time interval, in the samples' clock (ns). end == 0: open. */
struct time_range {
	uint64_t start, end;
};

/* perf's --time: "START,STOP" ranges (seconds.nanoseconds, either side
 * may be empty) separated by spaces, or percent slices of the recording
 * "10%/2" (the second 10% slice), "0%-10%", several joined by commas.
 * first/last: the recording's first and last sample times (percent forms
 * only). Returns the number of ranges (>= 1) in *out (free it), or -EINVAL
 * with what is wrong in err. */
int time_ranges_parse(const char *s, uint64_t first, uint64_t last, struct time_range **out, char *err,
		      size_t errlen);
/* Does s use the percent forms (the caller must then know first/last)? */
bool time_ranges_need_bounds(const char *s);
/* Is time t outside every range (the sample is dropped)? Ends included. */
bool time_ranges_skip(const struct time_range *r, size_t n, uint64_t t);

struct hist_filter {
	char **comms;		/* NULL or lists; n* their lengths */
	size_t ncomms;
	int *pids, *tids;
	size_t npids, ntids;
	char **dsos, **syms;
	size_t ndsos, nsyms;
};

/* "a,b,c" appended to a list (repeatable). -EINVAL (err says why) for an
 * empty item or, for ids, a word that is not a number. */
int hist_filter_add_comms(struct hist_filter *f, const char *list);
int hist_filter_add_pids(struct hist_filter *f, const char *list, char *err, size_t errlen);
int hist_filter_add_tids(struct hist_filter *f, const char *list, char *err, size_t errlen);
int hist_filter_add_dsos(struct hist_filter *f, const char *list);
int hist_filter_add_syms(struct hist_filter *f, const char *list);
bool hist_filter_active(const struct hist_filter *f);
void hist_filter_free(struct hist_filter *f);

/* Does a sample of thread pid/tid named comm, whose sampled address
 * resolved to leaf (may be NULL: unresolved), pass? A --dsos name matches
 * the DSO shown or, given as a path, its base name. */
bool hist_filter_match(const struct hist_filter *f, const char *comm, int pid, int tid,
			 const struct hist_frame *leaf);
/* Its two halves: the thread (comm, pid, tid), and the frame (dso, sym may
 * be NULL). perf filters its entries, not samples: with children, an entry
 * of a caller is kept or not by its own dso and symbol, whatever the leaf. */
bool hist_filter_match_thread(const struct hist_filter *f, const char *comm, int pid, int tid);
bool hist_filter_match_frame(const struct hist_filter *f, const char *dso, const char *sym);
bool hist_filter_has_frame(const struct hist_filter *f);	/* --dsos or --symbols given */

#endif
