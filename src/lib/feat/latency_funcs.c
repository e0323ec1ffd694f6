// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf latency: what to measure. The -T specs and the -e pair to
 * struct latency_func, checked before anything is loaded, so that a bad
 * name is a usage error with nothing attached. Kernel function globs are
 * matched against /proc/kallsyms' text symbols, kept to those ftrace can
 * hook (available_filter_functions, where tracefs has it) or, without that
 * file, to those in the kernel's BTF. */
#include <linux/types.h>
#include "feat/latency.h"
#include "log.h"
#include "skel/kfunc_attach.h"
#include "skel/skel.h"
#include "sym/uprobe_target.h"
#include "syscalls/syscalls.h"
#include "util.h"

#include <bpf/btf.h>
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool latency_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

void latency_funcs_free(struct latency_funcs *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct latency_func *x = &f->v[i];
		free(x->name);
		free(x->kfunc);
		free(x->path);
		for (int j = 0; j < 2; j++) {
			free(x->tp[j][0]);
			free(x->tp[j][1]);
		}
	}
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

static struct latency_func *add(struct latency_funcs *f, enum latency_kind kind, const char *name)
{
	f->v = xrealloc(f->v, (f->n + 1) * sizeof(*f->v));
	struct latency_func *x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->name = xstrdup(name);
	x->pid = -1;
	x->sc_nr = -1;
	return x;
}

/* ---- kernel function names ---- */

struct names {
	char **v;
	size_t n, cap;
	uint64_t *addr;		/* kallsyms_text: each name's address */
};

static void names_add(struct names *s, const char *name, size_t len)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
		s->addr = xrealloc(s->addr, s->cap * sizeof(*s->addr));
	}
	s->addr[s->n] = 0;
	char *c = xmalloc(len + 1);
	memcpy(c, name, len);
	c[len] = 0;
	s->v[s->n++] = c;
}

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	free(s->addr);
	memset(s, 0, sizeof(*s));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool names_has(const struct names *s, const char *name)
{
	return s->n && bsearch(&name, s->v, s->n, sizeof(*s->v), cmp_str);
}

static void names_sort_uniq(struct names *s)
{
	if (!s->n)
		return;
	qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	size_t o = 1;
	for (size_t i = 1; i < s->n; i++) {
		if (strcmp(s->v[i], s->v[o - 1]))
			s->v[o++] = s->v[i];
		else
			free(s->v[i]);
	}
	s->n = o;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The text symbols of /proc/kallsyms matching pattern (NULL: all), with
 * their addresses (not sorted). */
static void kallsyms_text(const char *pattern, struct names *out)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *t = strchr(line, ' ');
		if (!t || (t[1] != 't' && t[1] != 'T') || t[2] != ' ')
			continue;
		char *name = t + 3;
		size_t len = strcspn(name, " \t\n");
		char c = name[len];
		name[len] = 0;
		if (!pattern || !fnmatch(pattern, name, 0)) {
			names_add(out, name, len);
			out->addr[out->n - 1] = strtoull(line, NULL, 16);
		}
		name[len] = c;
	}
	fclose(f);
}

/* The functions ftrace can hook (fentry and kprobes need that), sorted;
 * false when the file cannot be read. */
static bool ftrace_functions(struct names *out)
{
	const char *dir = tracefs_dir();
	char path[512];
	if (!dir)
		return false;
	snprintf(path, sizeof(path), "%s/available_filter_functions", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, " \t\n");
		if (len)
			names_add(out, line, len);
	}
	fclose(f);
	names_sort_uniq(out);
	return true;
}

static int btf_func_names(const char *pattern, struct names *out)
{
	struct btf *vm = btf__load_vmlinux_btf();
	if (!vm)
		return -ENOENT;
	uint32_t n = btf__type_cnt(vm);
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(vm, id);
		if (!t || btf_kind(t) != BTF_KIND_FUNC)
			continue;
		const char *name = btf__name_by_offset(vm, t->name_off);
		if (name && (!pattern || !fnmatch(pattern, name, 0)))
			names_add(out, name, strlen(name));
	}
	btf__free(vm);
	return 0;
}

/* The addresses ftrace can hook, sorted: those of the text symbols named
 * in available_filter_functions. The file names one symbol per address, so
 * an alias at the same address (__x64_sys_getppid of __do_sys_getppid) is
 * hookable too. NULL when the file cannot be read. */
static uint64_t *hookable_addrs(size_t *n)
{
	struct names ff = { 0 }, all = { 0 };
	if (!ftrace_functions(&ff))
		return NULL;
	kallsyms_text(NULL, &all);
	uint64_t *a = xmalloc((all.n ? all.n : 1) * sizeof(*a));
	*n = 0;
	for (size_t i = 0; i < all.n; i++)
		if (all.addr[i] && names_has(&ff, all.v[i]))
			a[(*n)++] = all.addr[i];
	names_free(&ff);
	names_free(&all);
	qsort(a, *n, sizeof(*a), cmp_u64);
	return a;
}

/* qsort_r: indexes into a struct names, by name, then by index */
static int cmp_ord_name(const void *a, const void *b, void *ctx)
{
	const struct names *m = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(m->v[x], m->v[y]);
	return c ? c : (x > y) - (x < y);
}

static int expand_glob(const char *pattern, struct latency_funcs *f)
{
	struct names m = { 0 };
	kallsyms_text(pattern, &m);
	size_t nhook = 0;
	uint64_t *hook = m.n ? hookable_addrs(&nhook) : NULL;
	/* kallsyms without addresses (kptr_restrict) cannot be matched */
	bool have_ftrace = hook && nhook;
	if (!m.n)
		btf_func_names(pattern, &m);
	/* sort by name, keeping each address with its name */
	size_t *ord = xmalloc((m.n ? m.n : 1) * sizeof(*ord));
	for (size_t i = 0; i < m.n; i++)
		ord[i] = i;
	/* a glob such as '*' matches every text symbol (100k and more): no
	 * quadratic sort; ties in kallsyms order, so the first of a name is kept */
	qsort_r(ord, m.n, sizeof(*ord), cmp_ord_name, &m);
	size_t kept = 0, total = 0;
	for (size_t k = 0; k < m.n; k++) {
		size_t i = ord[k];
		if (k && !strcmp(m.v[i], m.v[ord[k - 1]]))
			continue;
		if (have_ftrace && !bsearch(&m.addr[i], hook, nhook, sizeof(*hook), cmp_u64))
			continue;
		if (strchr(m.v[i], '.'))	/* foo.isra.0, foo.cold: not callable by name */
			continue;
		total++;
		if (f->n < LAT_MAX_FUNCS) {
			struct latency_func *x = add(f, LAT_KIND_KERNEL, m.v[i]);
			x->kfunc = xstrdup(m.v[i]);
			kept++;
		}
	}
	free(ord);
	free(hook);
	names_free(&m);
	if (!total) {
		pr_err("no kernel function matches '%s'%s; check the pattern (globs use *, ? and [...], "
		       "matched against /proc/kallsyms)", pattern,
		       have_ftrace ? " that ftrace can trace (available_filter_functions)" : "");
		return -BPFPERF_EUSAGE;
	}
	if (kept < total)
		pr_warn("'%s' matches %zu kernel functions: measuring the first %zu by name (at most %d "
			"functions in all); narrow the pattern to see the others", pattern, total, kept,
			LAT_MAX_FUNCS);
	else
		pr_info("'%s': %zu kernel functions", pattern, kept);
	return 0;
}

/* ---- -T specs ---- */

static int resolve_one(const char *spec, struct latency_funcs *f)
{
	if (!*spec) {
		pr_err("an empty function name; give a kernel function, a glob, BINARY:FUNC, PID:FUNC "
		       "or syscall:NAME");
		return -BPFPERF_EUSAGE;
	}
	if (!strncmp(spec, "syscall:", 8)) {
		const char *name = spec + 8;
		if (!strncmp(name, "sys_", 4))
			name += 4;
		int nr = sc_nr_by_name(name);
		if (nr < 0 || nr >= LAT_MAX_SYSCALLS) {
			pr_err("unknown system call '%s' in '%s'; give its name as strace shows it "
			       "(syscall:read, syscall:clock_nanosleep)", name, spec);
			return -BPFPERF_EUSAGE;
		}
		struct latency_func *x = add(f, LAT_KIND_SYSCALL, spec);
		x->sc_nr = nr;
		return 0;
	}
	if (strchr(spec, ':')) {
		struct uprobe_target t;
		if (uprobe_target_resolve(spec, &t) < 0)
			return -BPFPERF_EUSAGE;	/* reported, naming the binary */
		struct latency_func *x = add(f, LAT_KIND_USER, spec);
		x->path = xstrdup(t.path);
		x->offset = t.offset;
		x->pid = t.pid;
		return 0;
	}
	if (latency_is_glob(spec))
		return expand_glob(spec, f);
	if (!kfunc_exists(spec)) {
		pr_err("unknown function '%s': it is neither in the kernel's BTF nor a text symbol of "
		       "/proc/kallsyms; for a user function give BINARY:FUNC or PID:FUNC, for a system "
		       "call syscall:NAME", spec);
		return -BPFPERF_EUSAGE;
	}
	struct latency_func *x = add(f, LAT_KIND_KERNEL, spec);
	x->kfunc = xstrdup(spec);
	return 0;
}

int latency_funcs_resolve(const char *const *specs, size_t n, struct latency_funcs *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < n; i++) {
		int err = resolve_one(specs[i], f);
		if (err) {
			latency_funcs_free(f);
			return err;
		}
		if (f->n > LAT_MAX_FUNCS) {
			pr_err("too many functions: at most %d histograms at once", LAT_MAX_FUNCS);
			latency_funcs_free(f);
			return -BPFPERF_EUSAGE;
		}
	}
	for (size_t i = 0; i < f->n; i++)
		for (size_t j = i + 1; j < f->n; j++)
			if (!strcmp(f->v[i].name, f->v[j].name)) {
				pr_err("function '%s' is given twice", f->v[i].name);
				latency_funcs_free(f);
				return -BPFPERF_EUSAGE;
			}
	return 0;
}

/* ---- -e BEGIN,END ---- */

static int split_tp(const char *s, size_t len, char **cat, char **name)
{
	const char *sep = memchr(s, ':', len);
	if (!sep)
		sep = memchr(s, '/', len);
	if (!sep || sep == s || sep + 1 == s + len)
		return -1;
	*cat = xmalloc((size_t)(sep - s) + 1);
	memcpy(*cat, s, (size_t)(sep - s));
	(*cat)[sep - s] = 0;
	size_t nl = (size_t)(s + len - sep - 1);
	*name = xmalloc(nl + 1);
	memcpy(*name, sep + 1, nl);
	(*name)[nl] = 0;
	for (const char *p = *cat; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return -1;
	for (const char *p = *name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return -1;
	return 0;
}

int latency_events_resolve(const char *pair, struct latency_funcs *f)
{
	memset(f, 0, sizeof(*f));
	const char *comma = strchr(pair, ',');
	struct latency_func *x = add(f, LAT_KIND_TP_PAIR, pair);
	if (!comma || strchr(comma + 1, ',') ||
	    split_tp(pair, (size_t)(comma - pair), &x->tp[0][0], &x->tp[0][1]) ||
	    split_tp(comma + 1, strlen(comma + 1), &x->tp[1][0], &x->tp[1][1])) {
		pr_err("'%s' is not two tracepoints: give BEGIN,END as CATEGORY:NAME,CATEGORY:NAME "
		       "(sched:sched_waking,sched:sched_switch)", pair);
		latency_funcs_free(f);
		return -BPFPERF_EUSAGE;
	}
	const char *dir = tracefs_dir();
	for (int i = 0; i < 2; i++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir ? dir : "/sys/kernel/tracing",
			 x->tp[i][0], x->tp[i][1]);
		if (access(path, R_OK)) {
			pr_err("no tracepoint %s:%s (%s): %s; list them in %s/events/ or with "
			       "'perf list tracepoint'", x->tp[i][0], x->tp[i][1], path, strerror(errno),
			       dir ? dir : "tracefs");
			latency_funcs_free(f);
			return -BPFPERF_EUSAGE;
		}
	}
	return 0;
}
