// SPDX-License-Identifier: GPL-2.0-only
/* Two-thread aggregation: the same random stream of side-band events and
 * samples gives the same hist through the threaded aggregator, the
 * single-threaded one, and plain machine_resolve + hist_add_sample. The
 * stream changes the address space over time (exec, new maps, BPF programs
 * loaded over kernel text), so resolving user or BPF frames on the worker,
 * later than the sample, would give other names. No privileges needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hist/aggregate.h"
#include "hist/hist.h"
#include "perfdata/format.h"
#include "sym/machine.h"
#include "util.h"

static const char *KSYMS =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T kfunc_a\n"
	"ffffffff81000200 t kfunc_b\n"
	"ffffffff81000300 T kfunc_c\n"
	"ffffffff81000400 T _etext\n"
	"ffffffffc0001000 t modfunc\t[mymod]\n";

#define USER_BASE 0x400000ull
#define KBASE 0xffffffff81000000ull

struct ctx {
	char kpath[64], mpath[64];
	struct machine *m;
	struct hist *h;
	struct hist *h2;	/* a second hist: every third sample goes there */
	struct aggregator *a;	/* NULL: the reference path */
};

static void write_file(char *path, const char *content)
{
	strcpy(path, "/tmp/bpfperf-test-agg-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
}

static void ctx_init2(struct ctx *c, int mode, bool two)
{
	write_file(c->kpath, KSYMS);
	write_file(c->mpath, "mymod 4096 0 - Live 0xffffffffc0001000\n");
	struct machine_opts mo = { .kallsyms = c->kpath, .modules = c->mpath };
	c->m = machine_new(&mo);
	struct hist_opts ho = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3,
				.children = true, .callchains = true };
	c->h = hist_new(&ho);
	c->h2 = two ? hist_new(&ho) : NULL;
	struct hist *hs[2] = { c->h, c->h2 };
	c->a = mode ? agg_new(c->m, hs, two ? 2 : 1, mode == 2) : NULL;
}

static void ctx_init(struct ctx *c, int mode)
{
	ctx_init2(c, mode, false);
}

static void ctx_finish(struct ctx *c)
{
	if (c->a)
		agg_finish(c->a);
	hist_finish(c->h);
	if (c->h2)
		hist_finish(c->h2);
}

static void ctx_free(struct ctx *c)
{
	agg_free(c->a);
	hist_free(c->h);
	hist_free(c->h2);
	machine_free(c->m);
	unlink(c->kpath);
	unlink(c->mpath);
}

/* One sample through the reference path: what report did before. */
static void reference_sample(struct ctx *c, const struct agg_sample *s)
{
	struct hist_frame f[64];
	size_t n = 0;
	enum addr_space sp = s->space;
	for (size_t i = 0; i < s->nr_callchain; i++) {
		if (s->callchain[i] >= PD_CONTEXT_MAX) {
			sp = s->callchain[i] == PERF_CONTEXT_KERNEL ? AS_KERNEL : AS_USER;
			continue;
		}
		struct resolved r;
		machine_resolve(c->m, s->pid, s->tid, s->callchain[i], sp, &r);
		f[n++] = (struct hist_frame){ .dso = r.dso, .sym = r.sym, .ip_sym = r.ip_sym, .level = r.level };
	}
	struct hist_sample hs = { .comm = machine_comm_of(c->m, s->pid, s->tid), .pid = s->pid,
				  .tid = s->tid, .cpu = s->cpu, .period = s->period,
				  .nframes = n, .frames = f };
	hist_add_sample(s->hist ? c->h2 : c->h, &hs);
}

/* A deterministic random stream, fed identically to the three paths. */
static void feed(struct ctx *c, unsigned seed)
{
	srand(seed);
	machine_comm(c->m, 100, 100, "prog", false);
	machine_mmap(c->m, 100, 100, USER_BASE, 0x10000, 0, "/nonexistent/first.so", NULL, 0,
		     PROT_EXEC, false);
	machine_comm(c->m, 200, 200, "other", false);
	for (int i = 0; i < 20000; i++) {
		int ev = rand() % 1000;
		if (ev == 0) {		/* exec: a new image at the same address */
			char name[64];
			snprintf(name, sizeof(name), "/nonexistent/image%d.so", rand() % 5);
			machine_comm(c->m, 100, 100, name + 13, true);
			machine_mmap(c->m, 100, 100, USER_BASE, 0x10000, 0, name, NULL, 0,
				     PROT_EXEC, false);
			continue;
		}
		if (ev == 1) {		/* a BPF program over some kernel text */
			char name[64];
			snprintf(name, sizeof(name), "bpf_prog_%016x_p%d", rand(), i);
			machine_ksymbol(c->m, KBASE + 0x100 + (uint64_t)(rand() % 0x300), 0x40,
					name, false);
			continue;
		}
		uint64_t chain[12];
		size_t n = 0;
		chain[n++] = (uint64_t)PERF_CONTEXT_KERNEL;
		int nk = rand() % 4;
		for (int k = 0; k < nk; k++)
			chain[n++] = rand() % 8 == 0 ? 0xffffffffc0001010ull + (uint64_t)(rand() % 16)
				     : KBASE + 0x100 + (uint64_t)(rand() % 0x380);
		chain[n++] = (uint64_t)PERF_CONTEXT_USER;
		int nu = 1 + rand() % 5;
		for (int k = 0; k < nu; k++)	/* some outside any map: [unknown] */
			chain[n++] = rand() % 10 == 0 ? 0x7000000ull + (uint64_t)(rand() % 64)
				     : USER_BASE + (uint64_t)(rand() % 64) * 16;
		int pid = rand() % 3 ? 100 : 200;
		struct agg_sample s = { .pid = pid, .tid = pid, .cpu = rand() % 2, .period = 1000,
					.space = AS_KERNEL, .callchain = chain, .nr_callchain = n,
					.ip = chain[1], .hist = c->h2 && i % 3 == 0 };
		if (c->a)
			agg_add(c->a, &s);
		else
			reference_sample(c, &s);
	}
}

static void assert_same_hist(const struct hist *x, const struct hist *y)
{
	assert_int_equal(hist_nr_entries(x), hist_nr_entries(y));
	assert_true(hist_total_period(x) == hist_total_period(y));
	for (size_t i = 0; i < hist_nr_entries(x); i++) {
		const struct hist_entry *a = hist_entry_at(x, i), *b = hist_entry_at(y, i);
		assert_string_equal(a->comm, b->comm);
		assert_string_equal(a->dso, b->dso);
		assert_string_equal(a->sym, b->sym);
		assert_true(a->self == b->self);
		assert_true(a->children == b->children);
	}
}

static void test_threaded_equals_reference(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 3; seed++) {
		struct ctx ref, one, two;
		ctx_init(&ref, 0);
		ctx_init(&one, 1);
		ctx_init(&two, 2);
		feed(&ref, seed);
		feed(&one, seed);
		feed(&two, seed);
		ctx_finish(&ref);
		ctx_finish(&one);
		ctx_finish(&two);
		assert_true(hist_nr_entries(ref.h) > 20);
		assert_same_hist(ref.h, one.h);
		assert_same_hist(ref.h, two.h);
		ctx_free(&ref);
		ctx_free(&one);
		ctx_free(&two);
	}
}

/* Several events' hists fed in one pass (profile_build_set): each sample
 * lands in the hist it names, on one thread or two, as if each hist had
 * been fed alone. */
static void test_two_hists(void **state)
{
	(void)state;
	struct ctx ref, one, two;
	ctx_init2(&ref, 0, true);
	ctx_init2(&one, 1, true);
	ctx_init2(&two, 2, true);
	feed(&ref, 7);
	feed(&one, 7);
	feed(&two, 7);
	ctx_finish(&ref);
	ctx_finish(&one);
	ctx_finish(&two);
	assert_true(hist_nr_entries(ref.h2) > 20);
	/* the split is real: a third of the period in the second hist */
	uint64_t p1 = hist_total_period(ref.h), p2 = hist_total_period(ref.h2);
	assert_true(p2 > (p1 + p2) / 4 && p2 < (p1 + p2) / 2);
	assert_same_hist(ref.h, one.h);
	assert_same_hist(ref.h2, one.h2);
	assert_same_hist(ref.h, two.h);
	assert_same_hist(ref.h2, two.h2);
	ctx_free(&ref);
	ctx_free(&one);
	ctx_free(&two);
}

/* The names the stream must produce: kernel text from kallsyms (resolved on
 * the worker), BPF programs, the images of the exec, [unknown]. */
static void test_names(void **state)
{
	(void)state;
	struct ctx c;
	ctx_init(&c, 2);
	feed(&c, 7);
	ctx_finish(&c);
	bool kfunc = false, mod = false, bpf = false, image = false, unknown = false;
	for (size_t i = 0; i < hist_nr_entries(c.h); i++) {
		const struct hist_entry *e = hist_entry_at(c.h, i);
		kfunc |= strcmp(e->sym, "kfunc_b") == 0 && strcmp(e->dso, "[kernel.kallsyms]") == 0;
		mod |= strcmp(e->sym, "modfunc") == 0 && strcmp(e->dso, "[mymod]") == 0;
		bpf |= strncmp(e->sym, "bpf_prog_", 9) == 0;
		image |= strncmp(e->dso, "image", 5) == 0;
		unknown |= strcmp(e->dso, "[unknown]") == 0;
	}
	assert_true(kfunc);
	assert_true(mod);
	assert_true(bpf);
	assert_true(image);
	assert_true(unknown);
	ctx_free(&c);
}

/* perf's level of a caller outside every map: that of the node before it in
 * perf's call-chain cursor, leaf first in callee order, outermost caller
 * first in caller order (children's default), the sample's for the first. A
 * kernel sample called from mapped user code from two unmapped callers: "[.]"
 * in callee order, "[k]" in caller order. */
static void test_unmapped_levels(void **state)
{
	(void)state;
	for (int callee = 0; callee <= 1; callee++) {
		struct ctx c = { 0 };
		write_file(c.kpath, KSYMS);
		write_file(c.mpath, "mymod 4096 0 - Live 0xffffffffc0001000\n");
		struct machine_opts mo = { .kallsyms = c.kpath, .modules = c.mpath };
		c.m = machine_new(&mo);
		struct hist_opts ho = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3,
					.children = true, .callchains = true, .callee_children = callee };
		c.h = hist_new(&ho);
		c.a = agg_new(c.m, &c.h, 1, false);
		machine_comm(c.m, 100, 100, "prog", false);
		machine_mmap(c.m, 100, 100, USER_BASE, 0x10000, 0, "/nonexistent/first.so", NULL, 0,
			     PROT_EXEC, false);
		uint64_t chain[] = { (uint64_t)PERF_CONTEXT_KERNEL, KBASE + 0x110, (uint64_t)PERF_CONTEXT_USER,
				     USER_BASE + 0x40, 0x7000000ull, 0 };
		struct agg_sample s = { .pid = 100, .tid = 100, .period = 1000, .space = AS_KERNEL,
					.callchain = chain, .nr_callchain = 6, .ip = chain[1] };
		agg_add(c.a, &s);
		ctx_finish(&c);
		int unknown = 0;
		for (size_t i = 0; i < hist_nr_entries(c.h); i++) {
			const struct hist_entry *e = hist_entry_at(c.h, i);
			if (strcmp(e->dso, "[unknown]"))
				continue;
			unknown++;
			assert_int_equal(e->level, callee ? '.' : 'k');
		}
		assert_int_equal(unknown, 2);
		ctx_free(&c);
	}
}

/* An aggregator finished without samples, and freed without finishing. */
static void test_empty(void **state)
{
	(void)state;
	struct ctx c;
	ctx_init(&c, 2);
	ctx_finish(&c);
	assert_int_equal(hist_nr_entries(c.h), 0);
	ctx_free(&c);
	ctx_init(&c, 2);
	ctx_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threaded_equals_reference),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_two_hists),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_unmapped_levels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
