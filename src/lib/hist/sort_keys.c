// SPDX-License-Identifier: GPL-2.0-only
/* Sort keys: their names (--sort), the list parser and the column headers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/hist.h"
#include "hist/hist_int.h"
#include "util.h"

static const struct {
	const char *name;
	const char *header;
	enum sort_key key;
} sort_names[] = {
	{ "comm", "Command", SORT_COMM },
	{ "pid", "Pid:Command", SORT_PID },
	{ "tid", "Tid", SORT_TID },
	{ "dso", "Shared Object", SORT_DSO },
	{ "sym", "Symbol", SORT_SYM },
	{ "symbol", "Symbol", SORT_SYM },
	{ "cpu", "CPU", SORT_CPU },
	{ "state", "State", SORT_STATE },
	{ "parent", "Parent symbol", SORT_PARENT },
	{ "srcline", "Source:Line", SORT_SRCLINE },
	{ "period", "Period", SORT_PERIOD },
	{ "sample", "Samples", SORT_SAMPLE },
	{ "overhead", "Overhead", SORT_OVERHEAD },
	{ "overhead_children", "Children", SORT_OVERHEAD_CHILDREN },
};

/* perf 6.1's other sort keys and fields: refused by name, never replaced by
 * a default. */
static const char *const perf_only_keys[] = {
	"srcfile", "dso_size", "sym_size", "socket", "cgroup",
	"cgroup_id", "time", "code_page_size", "ins_lat", "local_ins_lat", "p_stage_cyc",
	"addr", "local_p_stage_cyc", "simd", "retire_lat", "weight", "local_weight",
	"transaction", "mem", "symoff", "dso_from", "dso_to", "symbol_from", "symbol_to",
	"mispredict", "in_tx", "abort", "cycles", "srcline_from", "srcline_to", "ipc_lbr",
	"addr_from", "addr_to", "symbol_daddr", "dso_daddr", "locked", "tlb", "mem_lvl", "snoop",
	"dcacheline", "phys_daddr", "data_page_size", "blocked", "overhead_sys", "overhead_us",
	"overhead_guest_sys", "overhead_guest_us", "tp", "dso_size", "callchain_branch_predicted",
};

bool sort_key_perf_only(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(perf_only_keys); i++)
		if (!strcmp(perf_only_keys[i], name))
			return true;
	return false;
}

const char *sort_keys_known(void)
{
	return "comm, pid, tid, dso, sym, cpu, state, parent, srcline, period, sample, overhead, overhead_children";
}

/* The list parser of sort_keys_parse and sort_keys_parse_tp: s is split at
 * commas, word_key makes each word a key (false: the word is *bad), a key
 * given twice is kept once, and more than max keys is an error. */
int sort_keys_parse_list(const char *s, enum sort_key *keys, int max, const char **bad,
			 bool (*word_key)(void *ctx, const char *word, size_t len, enum sort_key *key), void *ctx)
{
	static char badbuf[64];
	int n = 0;
	const char *p = s ? s : "";

	*bad = NULL;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		enum sort_key key;
		bool dup = false;

		if (!word_key(ctx, p, len, &key))
			goto bad_key;
		for (int j = 0; j < n; j++)
			dup |= keys[j] == key;
		if (!dup) {
			if (n >= max)
				goto bad_key;
			keys[n++] = key;
		}
		p += len;
		if (*p == ',')
			p++;
		continue;
bad_key:
		snprintf(badbuf, sizeof(badbuf), "%.*s", (int)(len > 60 ? 60 : len), p);
		*bad = badbuf;
		return -1;
	}
	if (n == 0) {
		*bad = "";
		return -1;
	}
	return n;
}

/* A sort key by its name (word, len long). */
static bool name_key(void *ctx, const char *word, size_t len, enum sort_key *key)
{
	(void)ctx;
	for (size_t i = 0; i < ARRAY_SIZE(sort_names); i++) {
		if (strlen(sort_names[i].name) != len || strncmp(sort_names[i].name, word, len))
			continue;
		*key = sort_names[i].key;
		return true;
	}
	return false;
}

int sort_keys_parse(const char *s, enum sort_key *keys, int max, const char **bad)
{
	return sort_keys_parse_list(s, keys, max, bad, name_key, NULL);
}

const char *sort_key_name(enum sort_key k)
{
	for (size_t i = 0; i < ARRAY_SIZE(sort_names); i++)
		if (sort_names[i].key == k)
			return sort_names[i].name;
	return "?";
}

const char *sort_key_header(enum sort_key k)
{
	for (size_t i = 0; i < ARRAY_SIZE(sort_names); i++)
		if (sort_names[i].key == k)
			return sort_names[i].header;
	return "?";
}
