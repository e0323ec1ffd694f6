// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf lock contention's output: see lock_print.h. */
#include "out/lock_print.h"
#include "json.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *const lock_sort_key_names[] = { "wait_total", "contended", "wait_max", "wait_min", "avg_wait", NULL };

static uint64_t avg_of(const struct lock_entry *e)
{
	return e->v.count ? e->v.total / e->v.count : 0;
}

static uint64_t sort_value(const struct lock_entry *e, enum lock_sort_key key)
{
	switch (key) {
	case LOCK_KEY_CONTENDED: return e->v.count;
	case LOCK_KEY_WAIT_MAX: return e->v.max;
	case LOCK_KEY_WAIT_MIN: return e->v.min;
	case LOCK_KEY_AVG_WAIT: return avg_of(e);
	default: return e->v.total;
	}
}

static enum lock_sort_key sort_key;	/* qsort's context (single-threaded) */

static int cmp_entries(const void *a, const void *b)
{
	const struct lock_entry *x = a, *y = b;
	uint64_t vx = sort_value(x, sort_key), vy = sort_value(y, sort_key);
	if (vx != vy)
		return vx < vy ? 1 : -1;
	if (x->v.total != y->v.total)
		return x->v.total < y->v.total ? 1 : -1;
	return x->key.id < y->key.id ? -1 : x->key.id > y->key.id;
}

void lock_result_sort(struct lock_result *r, enum lock_sort_key key)
{
	sort_key = key;
	if (r->n)
		qsort(r->e, r->n, sizeof(*r->e), cmp_entries);
}

/* Is word one of the comma-separated items of list? */
static bool list_has(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, word, n))
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

static bool any_frame_matches(struct lock *l, const struct lock_entry *e, const char *list)
{
	bool hit = false;
	char *dup = xstrdup(list), *save = NULL;
	for (char *t = strtok_r(dup, ",", &save); t && !hit; t = strtok_r(NULL, ",", &save))
		hit = lock_stack_matches(l, e, t);
	free(dup);
	return hit;
}

void lock_result_filter(struct lock *l, struct lock_result *r, const char *locks, const char *callstack)
{
	size_t w = 0;
	char addr[32];
	for (size_t i = 0; i < r->n; i++) {
		struct lock_entry *e = &r->e[i];
		bool keep = true;
		if (locks) {
			snprintf(addr, sizeof(addr), "%#" PRIx64, (uint64_t)e->key.id);
			keep = (e->name[0] && list_has(locks, e->name)) || list_has(locks, addr) ||
			       (e->cache && list_has(locks, e->cache));
		}
		if (keep && callstack)
			keep = any_frame_matches(l, e, callstack);
		if (keep)
			r->e[w++] = *e;
		else
			free(e->stack);
	}
	r->n = w;
}

void lock_print_text(FILE *f, struct lock *l, const struct lock_result *r, enum lock_aggr aggr, size_t n,
		     bool stacks)
{
	char t1[32], t2[32], t3[32], buf[256];
	fprintf(f, "%10s %12s %12s %12s ", "contended", "total wait", "max wait", "avg wait");
	if (aggr == LOCK_AGGR_TASK || aggr == LOCK_AGGR_OWNER)
		fprintf(f, "  %10s   %s\n\n", "pid", aggr == LOCK_AGGR_OWNER ? "owner" : "comm");
	else if (aggr == LOCK_AGGR_ADDR)
		fprintf(f, "  %16s   %s\n\n", "address", "symbol");
	else if (aggr == LOCK_AGGR_CGROUP)
		fprintf(f, "  %s\n\n", "cgroup");
	else
		fprintf(f, "  %10s   %s\n\n", "type", "caller");
	for (size_t i = 0; i < n; i++) {
		const struct lock_entry *e = &r->e[i];
		fprintf(f, "%10" PRIu64 " %s %s %s ", (uint64_t)e->v.count, lock_fmt_time(e->v.total, 12, t1, sizeof(t1)),
			lock_fmt_time(e->v.max, 12, t2, sizeof(t2)), lock_fmt_time(avg_of(e), 12, t3, sizeof(t3)));
		if (aggr == LOCK_AGGR_TASK || aggr == LOCK_AGGR_OWNER)
			fprintf(f, "  %10" PRIu64 "   %s\n", (uint64_t)e->key.id, e->name[0] ? e->name : "[unknown]");
		else if (aggr == LOCK_AGGR_ADDR)
			fprintf(f, "  %016" PRIx64 "   %s (%s)\n", (uint64_t)e->key.id, e->name, lock_type_class(e->v.flags));
		else if (aggr == LOCK_AGGR_CGROUP)
			fprintf(f, "  %s\n", e->name[0] ? e->name : "[unknown]");
		else
			fprintf(f, "  %10s   %s\n", lock_type_str(e->key.flags), e->name);
		if (aggr == LOCK_AGGR_CALLER && stacks) {
			for (uint32_t j = 0; j < e->nr_stack; j++)
				fprintf(f, "\t\t\t%#" PRIx64 "  %s\n", e->stack[j],
					lock_symbolize(l, e->stack[j], buf, sizeof(buf)));
		}
	}
}

/* The key of one entry, by aggregation. */
static void json_key(struct json_writer *jw, struct lock *l, const struct lock_entry *e, enum lock_aggr aggr)
{
	char buf[256];
	switch (aggr) {
	case LOCK_AGGR_CALLER:
		jw_kv_string(jw, "caller", e->name);
		jw_key(jw, "stack");
		jw_start_array(jw);
		for (uint32_t j = 0; j < e->nr_stack; j++)
			jw_string(jw, lock_symbolize(l, e->stack[j], buf, sizeof(buf)));
		jw_end_array(jw);
		break;
	case LOCK_AGGR_ADDR:
		snprintf(buf, sizeof(buf), "%#" PRIx64, (uint64_t)e->key.id);
		jw_kv_string(jw, "address", buf);
		jw_kv_string(jw, "lock", e->name);
		if (e->cache)
			jw_kv_string(jw, "slab_cache", e->cache + 1);
		break;
	case LOCK_AGGR_OWNER:
		jw_kv_uint(jw, "owner_tid", e->key.id);
		jw_kv_string(jw, "owner", e->name);
		break;
	case LOCK_AGGR_CGROUP:
		jw_kv_uint(jw, "cgroup_id", e->key.id);
		jw_kv_string(jw, "cgroup", e->name);
		break;
	default:
		jw_kv_uint(jw, "tid", e->key.id);
		jw_kv_string(jw, "comm", e->name);
	}
}

void lock_print_json(FILE *f, struct lock *l, const struct lock_result *r, enum lock_aggr aggr, size_t n)
{
	static const char *const aggr_names[] = { "caller", "address", "thread", "owner", "cgroup" };
	struct json_writer *jw = jw_new(f, true);
	jw_start_object(jw);
	jw_kv_string(jw, "aggregation", aggr_names[aggr]);
	jw_key(jw, "entries");
	jw_start_array(jw);
	for (size_t i = 0; i < n; i++) {
		const struct lock_entry *e = &r->e[i];
		jw_start_object(jw);
		jw_kv_uint(jw, "contended", e->v.count);
		jw_kv_uint(jw, "total_wait_ns", e->v.total);
		jw_kv_uint(jw, "max_wait_ns", e->v.max);
		jw_kv_uint(jw, "min_wait_ns", e->v.min);
		jw_kv_uint(jw, "avg_wait_ns", avg_of(e));
		jw_kv_string(jw, "type", lock_type_str(e->v.flags));
		jw_kv_uint(jw, "flags", e->v.flags);
		json_key(jw, l, e, aggr);
		jw_end_object(jw);
	}
	jw_end_array(jw);
	jw_key(jw, "counters");
	jw_start_object(jw);
	jw_kv_uint(jw, "begin", r->counters[LOCK_CNT_BEGIN]);
	jw_kv_uint(jw, "counted", r->counters[LOCK_CNT_END]);
	jw_kv_uint(jw, "nested", r->counters[LOCK_CNT_NESTED]);
	jw_kv_uint(jw, "no_stack", r->counters[LOCK_CNT_NO_STACK]);
	jw_kv_uint(jw, "map_full", r->counters[LOCK_CNT_MAP_FULL]);
	jw_kv_uint(jw, "task_slot_full", r->counters[LOCK_CNT_TASK_FULL]);
	jw_kv_uint(jw, "lock_mismatch", r->counters[LOCK_CNT_LOCK_MISMATCH]);
	jw_end_object(jw);
	jw_end_object(jw);
	jw_free(jw);
}
