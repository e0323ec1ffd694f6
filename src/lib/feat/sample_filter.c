// SPDX-License-Identifier: GPL-2.0-only
/* BPF sample filters: the loader and the recording hook (see
 * sample_filter.h; the parser is sample_filter_parse.c). One skeleton per
 * filtered event, its entries in read-only data. */
#include <linux/types.h>

#include "feat/sample_filter.h"
#include "log.h"
#include "skel/skel.h"
#include "util.h"

#include "sample_filter.skel.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sf_event {
	size_t event;
	struct sf_expr expr;
	struct sample_filter_bpf *skel;
	uint64_t kept, dropped;
};

struct sample_filter {
	struct sample_filter_opts o;
	struct sf_event *ev;
	size_t nev, cap;
	enum sample_filter_design design;
	const char *why;
	struct sf_event *loading;	/* load_design's target */
	bool term_refused;		/* a term the design cannot read */
};

struct sample_filter *sample_filter_new(const struct sample_filter_opts *o)
{
	struct sample_filter *sf = xcalloc(1, sizeof(*sf));
	if (o)
		sf->o = *o;
	return sf;
}

int sample_filter_add(struct sample_filter *sf, size_t event, const struct sf_expr *e)
{
	size_t i = 0;
	while (i < sf->nev && sf->ev[i].event != event)
		i++;
	if (i == sf->nev) {
		/* keep event order */
		ARRAY_GROW(sf->ev, sf->cap, sf->nev + 1);
		i = 0;
		while (i < sf->nev && sf->ev[i].event < event)
			i++;
		memmove(&sf->ev[i + 1], &sf->ev[i], (sf->nev - i) * sizeof(sf->ev[0]));
		memset(&sf->ev[i], 0, sizeof(sf->ev[i]));
		sf->ev[i].event = event;
		sf->ev[i].expr = *e;
		sf->nev++;
		return 0;
	}
	if (sf_expr_and(&sf->ev[i].expr, e)) {
		pr_err("the filters of one event have more than %d terms together", SF_MAX_ENTRIES);
		return -E2BIG;
	}
	return 0;
}

/* Is bpf_cast_to_kern_ctx in the kernel (Linux 6.2+)? */
static bool kctx_usable(void *ctx, const char **why)
{
	const struct sample_filter *sf = ctx;
	if (sf->o.no_kctx) {
		*why = "bpf_cast_to_kern_ctx turned off (testing)";
		return false;
	}
	struct btf *vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		*why = "the kernel has no BTF (/sys/kernel/btf/vmlinux), so no kfuncs";
		return false;
	}
	bool have = btf__find_by_name_kind(vmlinux, "bpf_cast_to_kern_ctx", BTF_KIND_FUNC) >= 0;
	btf__free(vmlinux);
	if (!have)
		*why = "the kernel has no bpf_cast_to_kern_ctx kfunc (Linux 6.2+)";
	return have;
}

static const struct skel_design designs[] = {
	{ "bpf_cast_to_kern_ctx", kctx_usable },
	{ "context registers and helpers", NULL },
};

static int load_design(void *ctx, int design)
{
	struct sample_filter *sf = ctx;
	struct sf_event *ev = sf->loading;
	sample_filter_bpf__destroy(ev->skel);
	struct sample_filter_bpf *skel = ev->skel = sample_filter_bpf__open();
	if (!skel) {
		int err = -errno;
		pr_err("cannot open the sample filter BPF object: %s", log_strerr(err));
		return err;
	}
	memcpy((void *)skel->rodata->entries, ev->expr.e, ev->expr.n * sizeof(ev->expr.e[0]));
	skel->rodata->nr_entries = ev->expr.n;
	bpf_program__set_autoload(skel->progs.sf_kctx, design == SF_DESIGN_KCTX);
	bpf_program__set_autoload(skel->progs.sf_regs, design == SF_DESIGN_REGS);
	return sample_filter_bpf__load(skel);
}

/* Every term readable with the design? Else say which is not, where. */
static int check_terms(struct sample_filter *sf, enum sample_filter_design d, const char *why)
{
	if (d == SF_DESIGN_KCTX)
		return 0;
	for (size_t i = 0; i < sf->nev; i++) {
		const struct sf_expr *e = &sf->ev[i].expr;
		for (uint32_t k = 0; k < e->n; k++) {
			if (!sf_term_needs_kctx(e->e[k].term))
				continue;
			struct sf_error err = { .column = e->column[k] };
			snprintf(err.msg, sizeof(err.msg), "cannot filter on '%s' here: %s; without it "
				 "the filter reads ip, tid, pid, cpu, addr, period, cgroup, uid and gid only",
				 sf_term_name(e->e[k].term, e->e[k].part), why ? why : "no bpf_cast_to_kern_ctx");
			char buf[1024];
			sf_format_error(e->text, &err, buf, sizeof(buf));
			pr_err("%s", buf);
			sf->term_refused = true;
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

int sample_filter_load(struct sample_filter *sf)
{
	if (!sf->nev)
		return 0;
	int err = bpf_privileges_check("the sample filter BPF program");
	if (err)
		return err;
	/* Refuse terms the kernel cannot read before loading anything. */
	const char *why = NULL;
	if (!kctx_usable(sf, &why) && (err = check_terms(sf, SF_DESIGN_REGS, why)))
		return err;
	int chosen = SF_DESIGN_REGS;
	sf->loading = &sf->ev[0];
	err = skel_load_designs(designs, (int)ARRAY_SIZE(designs), load_design, sf,
				"the sample filter BPF program", &chosen, &sf->why);
	if (err)
		return err;
	sf->design = (enum sample_filter_design)chosen;
	if ((err = check_terms(sf, sf->design, sf->why)))
		return err;
	pr_info("sample filter: %s design%s%s", designs[chosen].name, sf->why ? ": " : "",
		sf->why ? sf->why : "");
	for (size_t i = 1; i < sf->nev; i++) {
		sf->loading = &sf->ev[i];
		if ((err = load_design(sf, chosen)))
			return skel_load_error(err, "the sample filter BPF program");
	}
	return 0;
}

enum sample_filter_design sample_filter_design(const struct sample_filter *sf, const char **why)
{
	if (why)
		*why = sf->why;
	return sf->design;
}

/* The sample fields the terms read are recorded (and so prepared by the
 * kernel before the program runs). */
static int hook_configure(void *ctx, struct recording *r)
{
	struct sample_filter *sf = ctx;
	for (size_t i = 0; i < sf->nev; i++) {
		if (sf->ev[i].event >= recording_nr_events(r)) {
			pr_err("a filter was given for event %zu, but the recording has %zu events",
			       sf->ev[i].event + 1, recording_nr_events(r));
			return -EINVAL;
		}
		uint64_t st = sf_sample_type(&sf->ev[i].expr);
		int err = st ? recording_add_sample_type(r, sf->ev[i].event, st) : 0;
		if (err)
			return err;
	}
	return 0;
}

static int hook_attach(void *ctx, struct recording *r)
{
	struct sample_filter *sf = ctx;
	for (size_t i = 0; i < sf->nev; i++) {
		struct sample_filter_bpf *s = sf->ev[i].skel;
		struct bpf_program *p = sf->design == SF_DESIGN_KCTX ? s->progs.sf_kctx : s->progs.sf_regs;
		int err = recording_attach_bpf(r, sf->ev[i].event, bpf_program__fd(p), "the sample filter");
		if (err)
			return err;
	}
	return 0;
}

/* The programs' counts; the drops as LOST_SAMPLES records, per event. */
static int hook_finish(void *ctx, struct recording *r)
{
	struct sample_filter *sf = ctx;
	bpf_wait_for_programs();	/* the events are disabled: no sample still in a program */
	for (size_t i = 0; i < sf->nev; i++) {
		struct sf_event *ev = &sf->ev[i];
		uint64_t c[SF_NR_COUNTERS];
		percpu_counters_read(bpf_map__fd(ev->skel->maps.counters), c, SF_NR_COUNTERS);
		ev->kept = c[SF_CNT_KEPT];
		ev->dropped = c[SF_CNT_DROPPED];
		int err = recording_write_bpf_dropped(r, ev->event, ev->dropped);
		if (err)
			return err;
	}
	return 0;
}

struct recording_hook sample_filter_hook(struct sample_filter *sf)
{
	return (struct recording_hook){
		.name = "sample filter",
		.configure = hook_configure,
		.after_open = hook_attach,
		.before_finish = hook_finish,
		.ctx = sf,
	};
}

size_t sample_filter_count(const struct sample_filter *sf)
{
	return sf->nev;
}

void sample_filter_result(const struct sample_filter *sf, size_t i, struct sample_filter_result *r)
{
	const struct sf_event *ev = &sf->ev[i];
	r->event = ev->event;
	r->text = ev->expr.text;
	r->kept = ev->kept;
	r->dropped = ev->dropped;
}

void sample_filter_free(struct sample_filter *sf)
{
	if (!sf)
		return;
	for (size_t i = 0; i < sf->nev; i++)
		sample_filter_bpf__destroy(sf->ev[i].skel);
	free(sf->ev);
	free(sf);
}

int sample_filter_setup(struct sample_filter *sf, const struct sf_given *g, size_t n, const size_t *first,
			size_t nev, char ***texts)
{
	*texts = xcalloc(nev, sizeof(**texts));
	for (size_t f = 0; f < n; f++) {
		size_t lo = g[f].after ? first[g[f].after - 1] : 0, hi = g[f].after ? first[g[f].after] : nev;
		for (size_t ev = lo; ev < hi; ev++) {
			char *t = (*texts)[ev];
			(*texts)[ev] = t ? xasprintf("%s, %s", t, g[f].text) : xstrdup(g[f].text);
			free(t);
		}
	}
	for (size_t ev = 0; ev < nev; ev++) {
		struct sf_expr e;
		struct sf_error err;
		if (!(*texts)[ev])
			continue;
		if (sf_parse((*texts)[ev], &e, &err, NULL)) {
			char buf[1024];
			sf_format_error((*texts)[ev], &err, buf, sizeof(buf));
			pr_err("invalid sample filter%s: %s", log_hint(LOG_HINT_OPT_FILTER), buf);
			return -BPFPERF_EUSAGE;
		}
		int err2 = sample_filter_add(sf, ev, &e);
		if (err2)
			return err2 == -EINVAL || err2 == -E2BIG ? -BPFPERF_EUSAGE : err2;
	}
	int e2 = sample_filter_load(sf);
	if (e2 && sf->term_refused)
		return -BPFPERF_EUSAGE;	/* a term this kernel cannot filter on */
	return e2 == -EINVAL || e2 == -E2BIG ? -EIO : e2;	/* not usage errors */
}

int sf_join_global(const struct sf_given *g, size_t n, struct sf_expr *e)
{
	bool any = false;
	e->n = 0;
	for (size_t f = 0; f < n; f++) {
		struct sf_expr x;
		struct sf_error err;
		if (g[f].after)
			continue;	/* after an -e: that event's only */
		if (sf_parse(g[f].text, &x, &err, NULL))
			return -EINVAL;
		if (!any)
			*e = x;
		else if (sf_expr_and(e, &x))
			return -E2BIG;
		any = true;
	}
	return 0;
}
