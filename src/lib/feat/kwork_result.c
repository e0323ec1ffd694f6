// SPDX-License-Identifier: GPL-2.0-only
/* The kwork feature's pure parts (see kwork.h): class and sort-key names,
 * perf's names of works, sorting, the -n filter and top's arithmetic. */
#include <linux/types.h>

#include "feat/kwork.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const kwork_class_names[] = { "irq", "softirq", "workqueue", "sched", NULL };

uint32_t kwork_parse_classes(const char *list, const char **bad)
{
	static char word[64];
	uint32_t bits = 0;
	char *dup = xstrdup(list), *save = NULL;

	*bad = NULL;
	for (char *t = strtok_r(dup, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		int i;
		for (i = 0; kwork_class_names[i]; i++)
			if (!strcmp(t, kwork_class_names[i]))
				break;
		if (!kwork_class_names[i]) {
			snprintf(word, sizeof(word), "%s", t);
			*bad = word;
			bits = 0;
			break;
		}
		bits |= 1U << i;
	}
	free(dup);
	if (!bits && !*bad) {
		word[0] = 0;
		*bad = word;
	}
	return bits;
}

/* The kernel's softirq_to_name (include/linux/interrupt.h), by vector. */
static const char *const softirq_names[KWORK_NR_SOFTIRQS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

const char *kwork_softirq_name(uint64_t vec)
{
	return vec < KWORK_NR_SOFTIRQS ? softirq_names[vec] : NULL;
}

const char *kwork_name(uint32_t type, uint64_t id, const char *what, char *buf, size_t len)
{
	switch (type) {
	case KWORK_IRQ:
		snprintf(buf, len, "%s:%" PRIu64, what && what[0] ? what : "[unknown]", id);
		break;
	case KWORK_SOFTIRQ: {
		const char *n = kwork_softirq_name(id);
		snprintf(buf, len, "(s)%s:%" PRIu64, n ? n : "[unknown]", id);
		break;
	}
	case KWORK_WORKQUEUE:
		if (what && what[0])
			snprintf(buf, len, "(w)%s", what);
		else
			snprintf(buf, len, "(w)0x%" PRIx64, id);
		break;
	default:
		snprintf(buf, len, "%s", what && what[0] ? what : "[unknown]");
	}
	return buf;
}

const char *const kwork_sort_names[] = { "runtime", "max", "count", "id", "avg", "rate", "tid", NULL };

/* The keys each view takes, and perf's default order. */
static bool key_valid(enum kwork_view v, enum kwork_sort_key k)
{
	switch (v) {
	case KWORK_VIEW_REPORT:
		return k == KWORK_SORT_RUNTIME || k == KWORK_SORT_MAX || k == KWORK_SORT_COUNT || k == KWORK_SORT_ID;
	case KWORK_VIEW_LATENCY:
		return k == KWORK_SORT_AVG || k == KWORK_SORT_MAX || k == KWORK_SORT_COUNT || k == KWORK_SORT_ID;
	case KWORK_VIEW_TOP:
		return k == KWORK_SORT_RATE || k == KWORK_SORT_RUNTIME || k == KWORK_SORT_TID;
	default:
		return false;
	}
}

int kwork_parse_sort(enum kwork_view v, const char *list, enum kwork_sort_key *keys, const char **bad)
{
	static char word[64];
	int n = 0;

	*bad = NULL;
	if (!list)
		list = v == KWORK_VIEW_LATENCY ? "avg,max,count" : v == KWORK_VIEW_TOP ? "rate,runtime" :
		       "runtime,max,count";
	char *dup = xstrdup(list), *save = NULL;
	for (char *t = strtok_r(dup, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		int i;
		for (i = 0; kwork_sort_names[i]; i++)
			if (!strcmp(t, kwork_sort_names[i]))
				break;
		if (!kwork_sort_names[i] || !key_valid(v, (enum kwork_sort_key)i)) {
			snprintf(word, sizeof(word), "%s", t);
			*bad = word;
			n = -1;
			break;
		}
		if (n < KWORK_SORT__MAX)
			keys[n++] = (enum kwork_sort_key)i;
	}
	free(dup);
	if (n == 0) {
		word[0] = 0;
		*bad = word;
		return -1;
	}
	return n;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a > b ? 1 : a < b ? -1 : 0;
}

/* > 0: a before b */
static int key_cmp(const struct kwork_entry *a, const struct kwork_entry *b, enum kwork_sort_key k)
{
	int c;

	switch (k) {
	case KWORK_SORT_RUNTIME:
		return cmp_u64(a->key.type == KWORK_SCHED && a->runtime ? a->runtime : a->v.total,
			       b->key.type == KWORK_SCHED && b->runtime ? b->runtime : b->v.total);
	case KWORK_SORT_MAX:
		return cmp_u64(a->v.max, b->v.max);
	case KWORK_SORT_COUNT:
		return cmp_u64(a->v.count, b->v.count);
	case KWORK_SORT_AVG:
		return cmp_u64(kwork_entry_avg(a), kwork_entry_avg(b));
	case KWORK_SORT_RATE:
		return cmp_u64(a->usage, b->usage);
	case KWORK_SORT_TID:	/* ascending, then the idle tasks by CPU */
		if ((c = cmp_u64(b->key.id, a->key.id)))
			return c;
		return a->key.id ? 0 : cmp_u64(b->key.cpu, a->key.cpu);
	case KWORK_SORT_ID:
	default:
		if ((c = cmp_u64(a->key.cpu, b->key.cpu)))
			return c;
		return cmp_u64(a->key.id, b->key.id);
	}
}

static const enum kwork_sort_key *sort_keys;
static int sort_nkeys;

static int entry_cmp(const void *pa, const void *pb)
{
	const struct kwork_entry *a = pa, *b = pb;
	for (int i = 0; i < sort_nkeys; i++) {
		int c = key_cmp(a, b, sort_keys[i]);
		if (c)
			return -c;
	}
	/* a total order for equal keys: class, CPU, id */
	int c = cmp_u64(a->key.type, b->key.type);
	if (!c)
		c = cmp_u64(a->key.cpu, b->key.cpu);
	if (!c)
		c = cmp_u64(a->key.id, b->key.id);
	return c;
}

void kwork_sort(struct kwork_entry *e, size_t n, const enum kwork_sort_key *keys, int nkeys)
{
	sort_keys = keys;
	sort_nkeys = nkeys;
	if (n > 1)
		qsort(e, n, sizeof(*e), entry_cmp);
}

void kwork_filter_name(struct kwork_result *r, const char *name)
{
	size_t j = 0;
	if (!name)
		return;
	for (size_t i = 0; i < r->n; i++) {
		if (r->e[i].name && !strcmp(r->e[i].name, name))
			r->e[j++] = r->e[i];
		else if (r->names_own)
			free((char *)r->e[i].name);
	}
	r->n = j;
}

static const struct kwork_entry *find_entry(const struct kwork_result *r, uint32_t type, uint32_t cpu, uint64_t id)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->e[i].key.type == type && r->e[i].key.cpu == cpu && r->e[i].key.id == id)
			return &r->e[i];
	return NULL;
}

void kwork_top_compute(const struct kwork_result *r, const char *name, struct kwork_top *t)
{
	size_t cap = 0;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < r->n; i++)
		if (r->e[i].key.cpu >= (uint32_t)t->nr_cpu)
			t->nr_cpu = (int)r->e[i].key.cpu + 1;
	t->cpu = xcalloc(t->nr_cpu ? (size_t)t->nr_cpu : 1, sizeof(*t->cpu));
	/* each CPU's time: the time of the tasks that ran on it */
	for (size_t i = 0; i < r->n; i++) {
		const struct kwork_entry *e = &r->e[i];
		if (e->key.type != KWORK_SCHED)
			continue;
		t->cpu[e->key.cpu].total += e->v.total;
		t->all.total += e->v.total;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct kwork_entry e = r->e[i];
		struct kwork_top_cpu *c = &t->cpu[e.key.cpu];
		if (e.key.type != KWORK_SCHED || !e.v.total)
			continue;
		c->seen = true;
		e.runtime = e.v.total;
		/* the irq and softirq time that interrupted the task is not its own */
		for (uint32_t cls = KWORK_IRQ; cls <= KWORK_SOFTIRQ; cls++) {
			const struct kwork_entry *x = find_entry(r, cls, e.key.cpu, e.key.id);
			if (!x || e.runtime <= x->v.total)
				continue;
			e.runtime -= x->v.total;
			if (cls == KWORK_IRQ) {
				c->irq += x->v.total;
				t->all.irq += x->v.total;
			} else {
				c->softirq += x->v.total;
				t->all.softirq += x->v.total;
			}
		}
		e.usage = c->total ? e.runtime * 10000 / c->total : 0;
		if (e.key.id == 0) {
			c->idle += e.runtime;
			t->all.idle += e.runtime;
		} else {
			c->load += e.runtime;
			t->all.load += e.runtime;
		}
		/* the tasks outside the cgroup count in the CPUs' time, unlisted */
		if (e.key.id == KWORK_ID_OTHERS || (name && (!e.name || strcmp(e.name, name))))
			continue;
		/* one line per task (the idle tasks: one per CPU) */
		size_t j;
		for (j = 0; j < t->nr_tasks; j++)
			if (t->tasks[j].key.id == e.key.id && (e.key.id || t->tasks[j].key.cpu == e.key.cpu))
				break;
		if (j < t->nr_tasks) {
			t->tasks[j].runtime += e.runtime;
			t->tasks[j].usage += e.usage;
			t->tasks[j].v.total += e.v.total;
			t->tasks[j].v.count += e.v.count;
			continue;
		}
		ARRAY_GROW(t->tasks, cap, t->nr_tasks + 1);
		t->tasks[t->nr_tasks++] = e;
	}
	for (int i = 0; i < t->nr_cpu; i++)
		t->all.seen |= t->cpu[i].seen;
}

void kwork_top_free(struct kwork_top *t)
{
	free(t->cpu);
	free(t->tasks);
	memset(t, 0, sizeof(*t));
}
