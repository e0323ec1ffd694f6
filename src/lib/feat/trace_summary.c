// SPDX-License-Identifier: GPL-2.0-only
/* The trace summary as data: the summary and errno maps, the per-CPU cache
 * slots of the task-storage design merged in, the loss counters. */
#include <linux/types.h>

#include "feat/trace_int.h"
#include "log.h"
#include "skel/skel.h"
#include "util.h"

#include "trace.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int cmp_sum(const void *a, const void *b)
{
	const struct trace_sum_row *x = a, *y = b;
	if (x->val.pid != y->val.pid)
		return x->val.pid < y->val.pid ? -1 : 1;
	if (x->key.tid != y->key.tid)
		return x->key.tid < y->key.tid ? -1 : 1;
	if (x->val.c.total_ns != y->val.c.total_ns)
		return x->val.c.total_ns > y->val.c.total_ns ? -1 : 1;
	return x->key.nr < y->key.nr ? -1 : x->key.nr > y->key.nr;
}

static int cmp_errno(const void *a, const void *b)
{
	const struct trace_errno_row *x = a, *y = b;
	if (x->key.tid != y->key.tid)
		return x->key.tid < y->key.tid ? -1 : 1;
	if (x->key.nr != y->key.nr)
		return x->key.nr < y->key.nr ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->key.err < y->key.err ? -1 : x->key.err > y->key.err;
}

static int cmp_sum_key(const void *a, const void *b)
{
	const struct trace_sum_row *x = a, *y = b;
	if (x->key.tid != y->key.tid)
		return x->key.tid < y->key.tid ? -1 : 1;
	return x->key.nr < y->key.nr ? -1 : x->key.nr > y->key.nr;
}

/* The row of key in arr[0..n): arr[0..sorted) is sorted by key, the rest
 * (new this round) is searched linearly. */
static struct trace_sum_row *find_row(struct trace_sum_row *arr, size_t sorted, size_t n,
				      const struct trace_sum_row *probe)
{
	struct trace_sum_row *e = sorted ? bsearch(probe, arr, sorted, sizeof(*arr), cmp_sum_key) : NULL;
	for (size_t j = sorted; !e && j < n; j++)
		if (arr[j].key.tid == probe->key.tid && arr[j].key.nr == probe->key.nr)
			e = &arr[j];
	return e;
}

/* Task-storage design: add every CPU's cached slots to the rows read from
 * the summary map (sorted by key; new keys are appended). */
static size_t merge_cache(struct trace *tr, struct trace_sum_row **arrp, size_t n)
{
	int ncpu = percpu_nr_cpus();
	size_t stride = percpu_stride(sizeof(struct trace_cache_slot));
	unsigned char *vals = percpu_alloc(sizeof(struct trace_cache_slot));
	struct trace_sum_row *arr = *arrp;
	size_t cap = n, sorted = n;
	int fd = bpf_map__fd(tr->skel->maps.cache);

	if (n)
		qsort(arr, n, sizeof(*arr), cmp_sum_key);
	for (uint32_t i = 0; i < TRACE_CACHE_ENTRIES; i++) {
		int err = percpu_lookup(fd, &i, vals);
		if (err) {
			pr_warn("cannot read the per-CPU summary cache: %s; the summary misses calls",
				log_strerr(err));
			break;
		}
		for (int c = 0; c < ncpu; c++) {
			const struct trace_cache_slot *s = (const void *)(vals + (size_t)c * stride);
			if (!s->key || !s->c.calls)
				continue;
			struct trace_sum_row probe = { .key = { .tid = s->tid, .nr = s->key - 1 } };
			struct trace_sum_row *e = find_row(arr, sorted, n, &probe);
			if (!e) {
				ARRAY_GROW(arr, cap, n + 1);
				e = &arr[n++];
				memset(e, 0, sizeof(*e));
				e->key = probe.key;
				e->val.c = TRACE_COUNTS_EMPTY;
				e->val.pid = s->pid;
				memcpy(e->val.comm, s->comm, TRACE_COMM_LEN);
			}
			trace_counts_merge(&e->val.c, &s->c);
		}
		if (n > sorted) {
			qsort(arr, n, sizeof(*arr), cmp_sum_key);
			sorted = n;
		}
	}
	free(vals);
	*arrp = arr;
	return n;
}

/* Every entry of a hash map as rows of row_size bytes: the key at offset 0,
 * the value at val_off (keys of up to 64 bytes). Entries deleted meanwhile
 * are skipped. */
static size_t dump_map(int fd, size_t key_size, size_t val_off, size_t row_size, void **out)
{
	unsigned char *arr = NULL, prev[64];
	size_t n = 0, cap = 0;
	bool first = true;

	for (;;) {
		grow_array((void **)&arr, &cap, n + 1, row_size);
		unsigned char *row = arr + n * row_size;
		if (bpf_map_get_next_key(fd, first ? NULL : prev, row))
			break;
		memcpy(prev, row, key_size < sizeof(prev) ? key_size : sizeof(prev));
		first = false;
		if (bpf_map_lookup_elem(fd, row, row + val_off) == 0)
			n++;
	}
	*out = arr;
	return n;
}

static size_t read_rows(struct trace *tr, struct trace_sum_row **out)
{
	struct trace_sum_row *arr;
	size_t n = dump_map(bpf_map__fd(tr->skel->maps.summary), sizeof(arr->key),
			    offsetof(struct trace_sum_row, val), sizeof(*arr), (void **)&arr);

	if (tr->design == TRACE_DESIGN_TASK_STORAGE)
		n = merge_cache(tr, &arr, n);
	for (size_t i = 0; i < n; i++)
		arr[i].stddev_ns = counts_stddev(&arr[i].val.c.dur);
	if (n)
		qsort(arr, n, sizeof(*arr), cmp_sum);
	*out = arr;
	return n;
}

static size_t read_errnos(struct trace *tr, struct trace_errno_row **out)
{
	struct trace_errno_row *arr;
	size_t n = dump_map(bpf_map__fd(tr->skel->maps.errnos), sizeof(arr->key),
			    offsetof(struct trace_errno_row, count), sizeof(*arr), (void **)&arr);

	if (n)
		qsort(arr, n, sizeof(*arr), cmp_errno);
	*out = arr;
	return n;
}

void trace_lost(struct trace *tr, uint64_t *events, uint64_t *arguments)
{
	uint64_t c[TRACE_CNT__MAX] = { 0 };
	percpu_counters_read(bpf_map__fd(tr->skel->maps.counters), c, TRACE_CNT__MAX);
	*events = c[TRACE_CNT_LOST_EVENTS];
	*arguments = c[TRACE_CNT_LOST_AUG];
}

int trace_summary(struct trace *tr, struct trace_summary *s)
{
	memset(s, 0, sizeof(*s));
	percpu_counters_read(bpf_map__fd(tr->skel->maps.counters), s->counters, TRACE_CNT__MAX);
	if (tr->o.summary)
		s->nr_rows = read_rows(tr, &s->rows);
	if (tr->o.errno_summary)
		s->nr_errnos = read_errnos(tr, &s->errnos);
	return 0;
}

void trace_summary_free(struct trace_summary *s)
{
	free(s->rows);
	free(s->errnos);
	s->rows = NULL;
	s->errnos = NULL;
	s->nr_rows = s->nr_errnos = 0;
}
