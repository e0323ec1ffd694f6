// SPDX-License-Identifier: GPL-2.0-only
/* Two-thread sample aggregation (see aggregate.h). The feeding thread writes
 * one message per sample into the current chunk: the sample's attributes and
 * its frames, resolved, or as a bare kernel address for the worker to
 * resolve. Full chunks go to the worker through a queue; processed chunks
 * come back through a free list, so the memory is touched once. */
#include "hist/aggregate.h"
#include "log.h"
#include "perfdata/format.h"
#include "util.h"

#include <pthread.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE (1u << 20)
#define MAX_QUEUED 4		/* chunks waiting for the worker before the feeder waits */

struct msg {
	const char *comm;
	const char *srcline;	/* of frame 0, when the hist sorts by it and it was resolved here */
	const struct hist_tp *tp;
	int32_t pid, tid, cpu, state;
	uint32_t nframes;
	bool leaf_off_chain;	/* hist_frame.off_chain of frame 0 */
	uint8_t hist;		/* agg_sample.hist */
	uint64_t period;
};

struct qframe {
	const char *dso, *sym;	/* dso == NULL: addr is for machine_resolve_late(level) */
	union {
		uint64_t addr;
		const char *ip_sym;	/* dso != NULL: hist_frame.ip_sym */
	};
	uint64_t start;		/* dso != NULL: hist_frame.start */
	char level;
};

struct chunk {
	struct chunk *next;
	size_t used, size;
	_Alignas(8) unsigned char data[];
};

struct aggregator {
	struct machine *m;
	bool want_srcline;		/* the hist sorts by srcline: find the sampled frame's */
	struct hist **hs;		/* agg_new's; options from hs[0], which all share */
	const char *s_unknown;	/* the machine's "[unknown]" */
	bool threaded;
	pthread_t worker;
	pthread_mutex_t lock;
	pthread_cond_t work, space;
	struct chunk *head, *tail;	/* queued for the worker */
	size_t queued;
	struct chunk *free;		/* processed, CHUNK_SIZE only */
	bool closing;
	struct chunk *cur;		/* being written by the feeder */
	struct hist_frame *frames;	/* worker's scratch */
	size_t frames_cap;
	double worker_cpu_ms;		/* for -vv: is the split balanced? */
	uint64_t feeder_wait_ns, worker_wait_ns;	/* for -vv: time blocked on the queue */
	uint64_t kallsyms_done_ns, start_ns;
};

static double thread_cpu_ms(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) < 0)
		return 0;
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static enum addr_space marker_space(uint64_t m)
{
	switch ((int64_t)m) {
	case PERF_CONTEXT_KERNEL: return AS_KERNEL;
	case PERF_CONTEXT_USER: return AS_USER;
	case PERF_CONTEXT_GUEST_KERNEL: return AS_GUEST_KERNEL;
	case PERF_CONTEXT_GUEST_USER: return AS_GUEST_USER;
	default: return AS_UNKNOWN;
	}
}

/* The level ("[k]", "[.]") of a caller outside every map, as perf gives it
 * to the caller's children entry: perf fills one addr_location node by node
 * along its call-chain cursor and leaves the level alone where a node has no
 * map, so such a node takes the level of the node before it in the cursor:
 * the frame inside it in callee order, the frame outside it in caller order
 * (children's default, -G), the sample's own for the cursor's first node. */
static void carry_levels(const struct aggregator *a, struct hist_frame *f, uint32_t n)
{
	const struct hist_opts *o = hist_opts(a->hs[0]);
	if (n < 2)
		return;
	if (hist_outer_first(o)) {
		char prev = f[0].level;	/* the sample's */
		for (uint32_t i = n - 1; i >= 1; i--) {
			if (f[i].dso == a->s_unknown)
				f[i].level = prev;
			prev = f[i].level;
		}
	} else {
		for (uint32_t i = 1; i < n; i++)
			if (f[i].dso == a->s_unknown)
				f[i].level = f[i - 1].level;
	}
}

/* Worker side (or the feeder's, unthreaded): one chunk into the hist. */
static void process_chunk(struct aggregator *a, const struct chunk *c)
{
	size_t off = 0;
	while (off < c->used) {
		const struct msg *mg = (const struct msg *)(c->data + off);
		const struct qframe *qf = (const struct qframe *)(mg + 1);
		ARRAY_GROW(a->frames, a->frames_cap, mg->nframes);
		const char *srcline = mg->srcline;
		for (uint32_t i = 0; i < mg->nframes; i++) {
			struct hist_frame *f = &a->frames[i];
			if (qf[i].dso) {
				*f = (struct hist_frame){ .dso = qf[i].dso, .sym = qf[i].sym,
							  .ip_sym = qf[i].ip_sym, .start = qf[i].start,
							  .level = qf[i].level };
			} else {
				struct resolved r;
				machine_resolve_late(a->m, qf[i].addr, qf[i].level, &r);
				*f = (struct hist_frame){ .dso = r.dso, .sym = r.sym, .ip_sym = r.ip_sym,
							  .start = r.sym_start, .level = r.level };
				if (i == 0 && a->want_srcline)
					srcline = machine_srcline(a->m, &r);
			}
		}
		a->frames[0].off_chain = mg->leaf_off_chain;
		carry_levels(a, a->frames, mg->nframes);
		struct hist_sample hs = { .comm = mg->comm, .srcline = srcline, .tp = mg->tp, .pid = mg->pid,
					  .tid = mg->tid,
					  .cpu = mg->cpu, .state = mg->state, .period = mg->period,
					  .nframes = mg->nframes, .frames = a->frames };
		hist_add_sample(a->hs[mg->hist], &hs);
		off += sizeof(*mg) + mg->nframes * sizeof(*qf);
	}
}

static void *worker_main(void *arg)
{
	struct aggregator *a = arg;
	machine_load_kernel_symbols(a->m);
	a->kallsyms_done_ns = now_ns();
	for (;;) {
		pthread_mutex_lock(&a->lock);
		if (!a->head && !a->closing) {
			uint64_t t0 = now_ns();
			while (!a->head && !a->closing)
				pthread_cond_wait(&a->work, &a->lock);
			a->worker_wait_ns += now_ns() - t0;
		}
		struct chunk *c = a->head;
		if (c) {
			a->head = c->next;
			if (!a->head)
				a->tail = NULL;
			__atomic_store_n(&a->queued, a->queued - 1, __ATOMIC_RELAXED);
		}
		pthread_mutex_unlock(&a->lock);
		if (!c) {
			a->worker_cpu_ms = thread_cpu_ms();
			break;
		}
		process_chunk(a, c);
		pthread_mutex_lock(&a->lock);
		if (c->size == CHUNK_SIZE) {
			c->next = a->free;
			a->free = c;
		} else {
			free(c);
		}
		pthread_cond_signal(&a->space);
		pthread_mutex_unlock(&a->lock);
	}
	return NULL;
}

struct aggregator *agg_new(struct machine *m, struct hist *const *hs, size_t nh, bool threaded)
{
	struct aggregator *a = xcalloc(1, sizeof(*a));
	struct hist *h = hs[0];
	a->m = m;
	a->hs = xmalloc(nh * sizeof(*a->hs));
	memcpy(a->hs, hs, nh * sizeof(*a->hs));
	a->s_unknown = machine_intern(m, "[unknown]");
	for (int k = 0; k < hist_opts(h)->nkeys; k++)
		a->want_srcline |= hist_opts(h)->keys[k] == SORT_SRCLINE;
	a->start_ns = now_ns();
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->work, NULL);
	pthread_cond_init(&a->space, NULL);
	if (threaded) {
		machine_set_threaded(m, true);
		int err = pthread_create(&a->worker, NULL, worker_main, a);
		if (err) {
			pr_debug("cannot start the aggregation thread (%s): aggregating on one thread",
				 strerror(err));
			machine_set_threaded(m, false);
		} else {
			a->threaded = true;
		}
	}
	return a;
}

static struct chunk *new_chunk(size_t need)
{
	size_t size = need > CHUNK_SIZE ? need : CHUNK_SIZE;
	struct chunk *c = xmalloc(sizeof(*c) + size);
	c->next = NULL;
	c->used = 0;
	c->size = size;
	return c;
}

/* Hand the current chunk to the worker (or process it here). */
static void flush_chunk(struct aggregator *a)
{
	struct chunk *c = a->cur;
	a->cur = NULL;
	if (!c)
		return;
	if (!a->threaded) {
		process_chunk(a, c);
		c->used = 0;
		a->cur = c;
		return;
	}
	pthread_mutex_lock(&a->lock);
	if (a->queued >= MAX_QUEUED) {
		uint64_t t0 = now_ns();
		while (a->queued >= MAX_QUEUED)
			pthread_cond_wait(&a->space, &a->lock);
		a->feeder_wait_ns += now_ns() - t0;
	}
	c->next = NULL;
	if (a->tail)
		a->tail->next = c;
	else
		a->head = c;
	a->tail = c;
	__atomic_store_n(&a->queued, a->queued + 1, __ATOMIC_RELAXED);
	pthread_cond_signal(&a->work);
	pthread_mutex_unlock(&a->lock);
}

static void reserve(struct aggregator *a, size_t need)
{
	if (a->cur && a->cur->size - a->cur->used >= need)
		return;
	if (a->cur && a->cur->used)
		flush_chunk(a);
	if (a->cur && a->cur->size - a->cur->used >= need)
		return;
	free(a->cur);
	a->cur = NULL;
	if (need <= CHUNK_SIZE && a->threaded) {
		pthread_mutex_lock(&a->lock);
		a->cur = a->free;
		if (a->cur)
			a->free = a->cur->next;
		pthread_mutex_unlock(&a->lock);
		if (a->cur) {
			a->cur->used = 0;
			return;
		}
	}
	a->cur = new_chunk(need);
}

/* Returns the frame's srcline when asked (srcline) and it was resolved here. */
static void put_frame(struct aggregator *a, struct qframe *qf, int pid, int tid, uint64_t ip,
		      enum addr_space space, bool defer, const char **srcline)
{
	struct resolved r;
	char what = machine_resolve_early(a->m, pid, tid, ip, space, defer, &r);
	if (!what) {
		*qf = (struct qframe){ .dso = r.dso, .sym = r.sym, .ip_sym = r.ip_sym, .start = r.sym_start,
				       .level = r.level };
		if (srcline)
			*srcline = machine_srcline(a->m, &r);
	} else {
		*qf = (struct qframe){ .addr = ip, .level = what };
	}
}

void agg_add(struct aggregator *a, const struct agg_sample *s)
{
	size_t maxf = s->nr_callchain ? s->nr_callchain : 1;
	reserve(a, sizeof(struct msg) + maxf * sizeof(struct qframe));
	struct msg *mg = (struct msg *)(a->cur->data + a->cur->used);
	struct qframe *qf = (struct qframe *)(mg + 1);
	uint32_t n = 0;
	enum addr_space sp = s->space;
	/* Balance the threads: kernel addresses go to the worker while it keeps
	 * up, and are resolved here (once it has loaded kallsyms) while it lags. */
	bool defer = a->threaded && __atomic_load_n(&a->queued, __ATOMIC_RELAXED) < 2;
	const char *srcline = NULL;
	size_t skip_from = SIZE_MAX, skip_to = 0;	/* frames [from, to) left out */
	bool off_chain = false;	/* the sampled frame is not in the chain kept */
	if (s->max_frames && s->keep_outer) {
		size_t nf = 0;
		for (size_t i = 0; i < s->nr_callchain; i++)
			nf += s->callchain[i] < PD_CONTEXT_MAX;
		if (nf > s->max_frames) {
			/* perf: the chain is the max_frames outermost frames;
			 * the sampled one makes the entry, but is not in it */
			skip_from = 1;
			skip_to = nf - s->max_frames;
			off_chain = true;
		}
	}
	for (size_t i = 0, k = 0; i < s->nr_callchain && (!s->max_frames || s->keep_outer || n < s->max_frames);
	     i++) {
		uint64_t ip = s->callchain[i];
		if (ip >= PD_CONTEXT_MAX) {
			sp = marker_space(ip);
			continue;
		}
		if (k++ >= skip_from && k <= skip_to)
			continue;
		put_frame(a, &qf[n], s->pid, s->tid, ip, sp, defer, n == 0 && a->want_srcline ? &srcline : NULL);
		n++;
	}
	if (n == 0)
		put_frame(a, &qf[n++], s->pid, s->tid, s->ip, s->space, defer, a->want_srcline ? &srcline : NULL);
	*mg = (struct msg){ .srcline = srcline, .comm = machine_comm_of(a->m, s->pid, s->tid), .pid = s->pid,
			    .tid = s->tid, .cpu = s->cpu, .state = s->state, .nframes = n,
			    .leaf_off_chain = off_chain && n > 1, .period = s->period, .tp = s->tp,
			    .hist = s->hist };
	a->cur->used += sizeof(*mg) + n * sizeof(*qf);
	if (!a->threaded)
		flush_chunk(a);
}

void agg_finish(struct aggregator *a)
{
	if (!a)
		return;
	if (a->cur && a->cur->used)
		flush_chunk(a);
	if (!a->threaded)
		return;
	pthread_mutex_lock(&a->lock);
	a->closing = true;
	pthread_cond_signal(&a->work);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->worker, NULL);
	pr_debug("aggregation: %.0f ms of CPU on the feeding thread, %.0f ms on the worker; "
		 "kallsyms ready at %.0f ms; blocked on the queue: feeder %.0f ms, worker %.0f ms",
		 thread_cpu_ms(), a->worker_cpu_ms, (double)(a->kallsyms_done_ns - a->start_ns) / 1e6,
		 (double)a->feeder_wait_ns / 1e6, (double)a->worker_wait_ns / 1e6);
	a->threaded = false;
	machine_set_threaded(a->m, false);
}

void agg_free(struct aggregator *a)
{
	if (!a)
		return;
	agg_finish(a);
	free(a->cur);
	while (a->free) {
		struct chunk *n = a->free->next;
		free(a->free);
		a->free = n;
	}
	pthread_cond_destroy(&a->work);
	pthread_cond_destroy(&a->space);
	pthread_mutex_destroy(&a->lock);
	free(a->frames);
	free(a->hs);
	free(a);
}
