// SPDX-License-Identifier: GPL-2.0-only
/* Lock contention's entries once read (see lock.h): sorted by perf's -k
 * keys, filtered by perf's -L (lock names and addresses) and -S (a frame of
 * the caller's stack), freed. */
#include "feat/lock_int.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const lock_sort_key_names[] = { "wait_total", "contended", "wait_max", "wait_min", "avg_wait", NULL };

static uint64_t sort_value(const struct lock_entry *e, enum lock_sort_key key)
{
	switch (key) {
	case LOCK_KEY_CONTENDED: return e->v.count;
	case LOCK_KEY_WAIT_MAX: return e->v.max;
	case LOCK_KEY_WAIT_MIN: return e->v.min;
	case LOCK_KEY_AVG_WAIT: return lock_entry_avg_wait(e);
	default: return e->v.total;
	}
}

/* Entries by the sort key (ctx: its enum lock_sort_key), highest first. */
static int cmp_entries(const void *a, const void *b, void *ctx)
{
	const struct lock_entry *x = a, *y = b;
	enum lock_sort_key key = *(const enum lock_sort_key *)ctx;
	uint64_t vx = sort_value(x, key), vy = sort_value(y, key);
	if (vx != vy)
		return vx < vy ? 1 : -1;
	if (x->v.total != y->v.total)
		return x->v.total < y->v.total ? 1 : -1;
	return x->key.id < y->key.id ? -1 : x->key.id > y->key.id;
}

void lock_result_sort(struct lock_result *r, enum lock_sort_key key)
{
	if (r->n)
		qsort_r(r->e, r->n, sizeof(*r->e), cmp_entries, &key);
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

bool lock_stack_matches(struct lock *l, const struct lock_entry *e, const char *sub)
{
	for (uint32_t i = 0; i < e->nr_stack; i++) {
		const char *s = lock_frame_sym(l, e->stack[i]);
		if (s && strstr(s, sub))
			return true;
	}
	return false;
}

void lock_result_free(struct lock_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->e[i].stack);
	free(r->e);
	memset(r, 0, sizeof(*r));
}
