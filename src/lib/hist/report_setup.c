// SPDX-License-Identifier: GPL-2.0-only
/* perf report's setup_sorting and the CPU list of a report, see
 * report_setup.h. */
#include "hist/report_setup.h"
#include "hist/profile.h"
#include "perfdata/reader.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One list of keys (sort: tracepoint keys too, checked against the file
 * later): 0, or -EINVAL with the bad key in k->bad_*. */
static int parse_keys(struct report_keys *k, bool sort, const char *list, enum sort_key *keys, int *n)
{
	const char *bad = NULL;
	if (sort) {
		tpkeys_names_free(k->tp_names, k->ntp_names);
		*n = sort_keys_parse_tp(list, keys, SORT__MAX, k->tp_names, &k->ntp_names, &bad);
	} else {
		*n = sort_keys_parse(list, keys, SORT__MAX, &bad);
	}
	if (*n > 0)
		return 0;
	k->bad_list = list;
	k->bad = bad;
	k->bad_in_fields = !sort;
	return -EINVAL;
}

int report_keys_parse(struct report_keys *k, struct hist_opts *ho)
{
	k->fields_strict = k->fields && k->fields[0] != '+';
	if (k->fields && parse_keys(k, false, k->fields + !k->fields_strict, k->field_keys, &k->nfields))
		return -EINVAL;
	/* perf's sort list: the sort keys; without them comm,dso,sym, or none
	 * after strict fields (report_keys_order completes it) */
	if (k->sort || !k->fields_strict) {
		if (parse_keys(k, true, k->sort ? k->sort : "comm,dso,sym", ho->keys, &ho->nkeys))
			return -EINVAL;
	}
	return 0;
}

int report_keys_tp(struct report_keys *k, const struct pd_file *f, struct hist_opts *ho,
		   struct profile_opts *po)
{
	bool all_tp = false;
	for (size_t i = 0; i < pd_nr_events(f); i++) {
		/* as perf: any other event, a dummy one too, keeps comm,dso,sym */
		const struct pd_event *e = pd_event_at(f, i);
		if (e->attr.type != PERF_TYPE_TRACEPOINT) {
			all_tp = false;
			break;
		}
		all_tp = true;
	}
	if (!k->sort && !k->fields_strict && all_tp &&
	    parse_keys(k, true, k->raw_trace ? "trace_fields" : "trace", ho->keys, &ho->nkeys))
		return -EINVAL;
	if (!k->ntp_names)
		return 0;
	size_t len;
	const void *td = pd_feature(f, PD_FEAT_TRACING_DATA, &len);
	struct tp_formats *fs = &k->tp_formats;	/* kept for every pass */
	tp_formats_free(fs);
	tp_formats_load(fs, td, td ? len : 0);
	po->tp_formats = fs;
	for (int j = 0; j < k->ntp_names; j++) {
		char *hint = NULL;
		if (tpkeys_known(k->tp_names[j], fs, &hint))
			continue;
		free(k->hint);
		k->hint = hint;
		k->bad = k->tp_names[j];
		return -ENOENT;
	}
	return 0;
}

static bool has_key(const struct hist_opts *ho, enum sort_key k)
{
	for (int i = 0; i < ho->nkeys; i++)
		if (ho->keys[i] == k)
			return true;
	return false;
}

/* The rest of perf's setup_sorting: unless the fields are strict, the
 * overheads go before the sort keys that lack them, and the default columns
 * (overheads, the samples, the period) before the fields; then every
 * column not among the sort keys is appended to them. The columns
 * themselves are the fields (or the defaults) then the sort keys (out.c). */
void report_keys_order(struct report_keys *k, struct hist_opts *ho)
{
	enum sort_key *cols = k->col_keys;
	int ncols = 0;
	if (!k->fields_strict) {
		enum sort_key pre[2];
		int npre = 0;
		if (ho->children && !has_key(ho, SORT_OVERHEAD_CHILDREN))
			pre[npre++] = SORT_OVERHEAD_CHILDREN;
		if (!has_key(ho, SORT_OVERHEAD))
			pre[npre++] = SORT_OVERHEAD;
		if (npre && ho->nkeys + npre <= SORT__MAX) {
			memmove(ho->keys + npre, ho->keys, (size_t)ho->nkeys * sizeof(*ho->keys));
			memcpy(ho->keys, pre, (size_t)npre * sizeof(*pre));
			ho->nkeys += npre;
		}
		if (ho->children)
			cols[ncols++] = SORT_OVERHEAD_CHILDREN;
		cols[ncols++] = SORT_OVERHEAD;
		if (k->show_nr_samples)
			cols[ncols++] = SORT_SAMPLE;
		if (k->show_total_period)
			cols[ncols++] = SORT_PERIOD;
	}
	for (int i = 0; i < k->nfields; i++)
		cols[ncols++] = k->field_keys[i];
	k->ncols = ncols;
	ho->exact_order = true;
	for (int i = 0; i < ncols; i++)
		if (!has_key(ho, cols[i]) && ho->nkeys < SORT__MAX)
			ho->keys[ho->nkeys++] = cols[i];
}

void report_keys_free(struct report_keys *k)
{
	tpkeys_names_free(k->tp_names, k->ntp_names);
	tp_formats_free(&k->tp_formats);
	free(k->hint);
	k->hint = NULL;
}

int report_cpus_parse(const char *list, bool *cpus, size_t n, char *err, size_t errlen)
{
	if (parse_cpu_list(list, cpus, (int)n) < 0) {
		snprintf(err, errlen, "expected CPU numbers and ranges below %zu, e.g. 0-1,3", n);
		return -EINVAL;
	}
	return 0;
}

int report_cpus_check(const struct pd_file *f, const bool *cpus, size_t n, size_t *bad, uint32_t *online)
{
	bool has_cpu = false;
	for (size_t i = 0; i < pd_nr_events(f); i++)
		has_cpu |= (pd_event_at(f, i)->attr.sample_type & PERF_SAMPLE_CPU) != 0;
	if (!has_cpu)
		return -ENODATA;
	size_t flen;
	const void *nrc = pd_feature(f, PD_FEAT_NRCPUS, &flen);
	*online = 0;	/* NRCPUS: available, online (u32 each; sections are not aligned) */
	if (nrc && flen >= 8)
		memcpy(online, (const char *)nrc + 4, sizeof(*online));
	for (size_t c = *online ? *online : n; c < n; c++) {
		if (cpus[c]) {
			*bad = c;
			return -ERANGE;
		}
	}
	return 0;
}
