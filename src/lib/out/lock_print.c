// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf lock contention's output: see lock_print.h. */
#include "out/lock_print.h"
#include "json.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

char *lock_fmt_time(uint64_t ns, int width, char *buf, size_t len)
{
	static const struct {
		double base;
		const char *unit;
	} units[] = {
		{ 1e9 * 3600, "h " }, { 1e9 * 60, "m " }, { 1e9, "s " }, { 1e6, "ms" }, { 1e3, "us" },
	};
	if (width == 0) {
		snprintf(buf, len, "%" PRIu64, ns);
		return buf;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if ((double)ns < units[i].base)
			continue;
		snprintf(buf, len, "%*.2f %s", width - 3, (double)ns / units[i].base, units[i].unit);
		return buf;
	}
	snprintf(buf, len, "%*" PRIu64 " %s", width - 3, ns, "ns");
	return buf;
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
			lock_fmt_time(e->v.max, 12, t2, sizeof(t2)), lock_fmt_time(lock_entry_avg_wait(e), 12, t3, sizeof(t3)));
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
		jw_kv_uint(jw, "avg_wait_ns", lock_entry_avg_wait(e));
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
