// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf trace: strace-like syscall tracing and summaries with BPF.
 *
 *   bpfperf trace [-e SYSCALLS] [-s | -S] [--errno-summary] [-p PID,... | -a | -- CMD ARGS...]
 *                 [--failure] [--duration MS] [-o FILE] [--json] [-T] [-m SIZE]
 *
 * Orchestration only: the syscall table and beautifiers are in
 * src/lib/syscalls/, the kernel side in src/bpf/trace.bpf.c. */
#include <linux/types.h>

#include "cmds.h"
#include "json.h"
#include "log.h"
#include "syscalls/syscalls.h"
#include "util.h"

#include "trace_data.h"
#include "trace.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_BUFFER_SIZE (32u << 20)

struct trace_opts {
	const char *expr;
	bool summary;		/* -s or -S */
	bool events;		/* not -s */
	bool errno_summary;
	bool all;
	pid_t *pids;
	size_t nr_pids;
	char **cmd;
	bool failure;
	uint64_t min_duration_ns;
	const char *output;
	bool json;
	bool abs_time;
	uint64_t buffer_size;
	bool bench_floor;	/* attach only empty programs (benchmark floor) */
	bool no_task_storage;	/* testing: force the hash-map design (the fallback) */
};

/* Copied arguments of the call in flight, per tid, until its exit record. */
struct pending {
	struct pending *next;
	uint32_t tid, nr;
	size_t len, cap;
	unsigned char *buf;	/* items after the aug header */
};

#define PENDING_BUCKETS 1024

struct trace_ctx {
	struct trace_opts *o;
	struct sc_table table;
	FILE *out;
	uint64_t t0;
	struct strbuf line;
	struct pending *pending[PENDING_BUCKETS];
	uint64_t nr_events;
	uint64_t nr_bad_records;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: bpfperf trace [OPTIONS] [-p PID,... | -a | -- CMD [ARGS...]]\n"
"\n"
"Trace system calls with BPF: one line per call (like strace / perf trace), or a\n"
"summary aggregated in the kernel.\n"
"\n"
"  -e, --expr SYSCALLS    names and globs, '!' excludes: -e 'open*,!openat2'\n"
"  -s, --summary          summary only (calls, errors, total/min/avg/max, stddev)\n"
"  -S, --with-summary     events and the summary\n"
"      --errno-summary    break errors down by errno in the summary\n"
"  -p, --pid PID,...      trace existing processes (all their threads)\n"
"  -a, --all-cpus         trace the whole system (except bpfperf and its ancestry)\n"
"      --failure          show only failed calls\n"
"      --duration MS      show only calls that took longer than MS milliseconds\n"
"  -o, --output FILE      write the trace to FILE instead of stdout\n"
"      --json             JSON: one object per event; -s: one summary document\n"
"  -T, --time             absolute timestamps (CLOCK_MONOTONIC seconds)\n"
"  -m, --buffer-size SIZE ring buffer size (default 32M; K/M/G suffixes)\n"
"  -h, --help             this help\n"
"      --bench-floor      benchmark only: attach empty programs to the same hooks\n"
"      --no-task-storage  testing: keep per-thread state in hash maps (the fallback\n"
"                         used when the kernel has no BPF task storage)\n"
"\n"
"With -- CMD, the command's forks and threads are followed and its exit status\n"
"is returned. See docs/bpfperf-trace.md.\n");
}

static bool parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return false;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

static int parse_pids(struct trace_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *end;
		errno = 0;
		long v = strtol(t, &end, 10);
		if (errno || *end || v <= 0 || v > 0x3fffffff) {
			pr_err("invalid pid '%s' in '-p %s'; give decimal process ids, comma-separated", t, arg);
			free(copy);
			return -1;
		}
		ARRAY_GROW(o->pids, o->nr_pids, o->nr_pids + 1);
		o->pids[o->nr_pids - 1] = (pid_t)v;
	}
	free(copy);
	if (!o->nr_pids) {
		pr_err("empty pid list in '-p %s'", arg);
		return -1;
	}
	return 0;
}

/* ARRAY_GROW grows the capacity, not the count: keep a separate capacity. */
static int parse_args(int argc, char **argv, struct trace_opts *o)
{
	enum { OPT_ERRNO = 256, OPT_FAILURE, OPT_DURATION, OPT_JSON, OPT_FLOOR, OPT_NO_TS };
	static const struct option longopts[] = {
		{ "expr", required_argument, NULL, 'e' },
		{ "event", required_argument, NULL, 'e' },
		{ "summary", no_argument, NULL, 's' },
		{ "with-summary", no_argument, NULL, 'S' },
		{ "errno-summary", no_argument, NULL, OPT_ERRNO },
		{ "pid", required_argument, NULL, 'p' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "failure", no_argument, NULL, OPT_FAILURE },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "time", no_argument, NULL, 'T' },
		{ "buffer-size", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ "bench-floor", no_argument, NULL, OPT_FLOOR },
		{ "no-task-storage", no_argument, NULL, OPT_NO_TS },
		{ NULL, 0, NULL, 0 },
	};
	bool s = false, S = false;
	int c;

	o->events = true;
	o->buffer_size = DEFAULT_BUFFER_SIZE;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+e:sSp:ao:Tm:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e': o->expr = optarg; break;
		case 's': s = true; break;
		case 'S': S = true; break;
		case OPT_ERRNO: o->errno_summary = true; break;
		case 'p': {
			/* parse_pids appends; o->nr_pids is both count and capacity here */
			size_t before = o->nr_pids;
			struct trace_opts tmp = *o;
			tmp.nr_pids = 0;
			tmp.pids = NULL;
			if (parse_pids(&tmp, optarg) < 0)
				return -1;
			o->pids = xrealloc(o->pids, (before + tmp.nr_pids) * sizeof(pid_t));
			memcpy(o->pids + before, tmp.pids, tmp.nr_pids * sizeof(pid_t));
			o->nr_pids = before + tmp.nr_pids;
			free(tmp.pids);
			break;
		}
		case 'a': o->all = true; break;
		case OPT_FAILURE: o->failure = true; break;
		case OPT_DURATION: {
			double ms;
			char *end;
			errno = 0;
			ms = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(ms >= 0) || ms > 1e9) {
				pr_err("invalid --duration '%s'; give milliseconds, e.g. --duration 0.5", optarg);
				return -1;
			}
			o->min_duration_ns = (uint64_t)(ms * 1e6);
			break;
		}
		case 'o': o->output = optarg; break;
		case OPT_JSON: o->json = true; break;
		case 'T': o->abs_time = true; break;
		case OPT_FLOOR: o->bench_floor = true; break;
		case OPT_NO_TS: o->no_task_storage = true; break;
		case 'm':
			if (!parse_size(optarg, &o->buffer_size) || o->buffer_size < 4096 ||
			    o->buffer_size > (1ull << 31)) {
				pr_err("invalid --buffer-size '%s'; give a size between 4K and 2G, e.g. -m 64M", optarg);
				return -1;
			}
			break;
		case 'h':
			usage(stdout);
			return 1;
		case '?':
		default:
			if (optopt && optopt < 256)
				pr_err("unknown option or missing argument: '-%c'; see 'bpfperf trace --help'", optopt);
			else
				pr_err("unknown option '%s'; see 'bpfperf trace --help'", argv[optind - 1]);
			return -1;
		}
	}
	if (s && S) {
		pr_err("-s (summary only) and -S (events and summary) exclude each other; pick one");
		return -1;
	}
	o->summary = s || S || o->errno_summary;
	o->events = !s;
	if (optind < argc)
		o->cmd = argv + optind;
	int ntargets = (o->cmd != NULL) + (o->nr_pids > 0) + o->all;
	if (ntargets == 0) {
		pr_err("nothing to trace; give -p PID, -a or -- CMD (see 'bpfperf trace --help')");
		return -1;
	}
	if (ntargets > 1) {
		pr_err("-p, -a and a command exclude each other; give one target");
		return -1;
	}
	return 0;
}

/* ---- target checks ---------------------------------------------------- */

static char *find_in_path(const char *cmd)
{
	if (strchr(cmd, '/')) {
		if (access(cmd, X_OK) == 0) {
			struct stat st;
			if (stat(cmd, &st) == 0 && S_ISREG(st.st_mode))
				return xstrdup(cmd);
		}
		return NULL;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	char *copy = xstrdup(path), *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", *d ? d : ".", cmd);
		struct stat st;
		if (access(full, X_OK) == 0 && stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
			free(copy);
			return full;
		}
		free(full);
	}
	free(copy);
	return NULL;
}

static bool pid_exists(pid_t pid)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

static pid_t parent_of(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	size_t len;
	char *s = read_file(path, &len);
	if (!s)
		return 0;
	/* pid (comm) state ppid ...: comm may hold spaces and parens */
	char *r = strrchr(s, ')');
	int ppid = 0;
	if (!r || sscanf(r + 1, " %*c %d", &ppid) != 1)
		ppid = 0;
	free(s);
	return ppid;
}

/* CAP_BPF (39) or CAP_SYS_ADMIN (21) in the effective set. */
static bool may_load_bpf(void)
{
	size_t len;
	char *s = read_file("/proc/self/status", &len);
	if (!s)
		return true;	/* cannot tell: let the load say */
	char *p = strstr(s, "\nCapEff:");
	unsigned long long caps = ~0ULL;
	if (p)
		caps = strtoull(p + 8, NULL, 16);
	free(s);
	return (caps >> 39 & 1) || (caps >> 21 & 1);
}

/* tracefs with the syscall formats: mounted, mounted now, or NULL. */
static const char *tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *p = xasprintf("%s/events/syscalls", dirs[i]);
		bool ok = stat(p, &st) == 0;
		free(p);
		if (ok)
			return dirs[i];
	}
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0 &&
	    stat("/sys/kernel/tracing/events/syscalls", &st) == 0) {
		pr_info("mounted tracefs at /sys/kernel/tracing");
		return "/sys/kernel/tracing";
	}
	return NULL;
}

/* ---- pending copied arguments -------------------------------------------- */

static struct pending **pending_slot(struct trace_ctx *c, uint32_t tid)
{
	struct pending **pp = &c->pending[hash_u64(tid) % PENDING_BUCKETS];
	while (*pp && (*pp)->tid != tid)
		pp = &(*pp)->next;
	return pp;
}

static void pending_store(struct trace_ctx *c, uint32_t tid, uint32_t nr, const void *items, size_t len)
{
	struct pending **pp = pending_slot(c, tid);
	struct pending *p = *pp;
	if (!p) {
		p = *pp = xcalloc(1, sizeof(*p));
		p->tid = tid;
	}
	if (p->cap < len) {
		p->buf = xrealloc(p->buf, len);
		p->cap = len;
	}
	memcpy(p->buf, items, len);
	p->len = len;
	p->nr = nr;
}

static void pending_free_all(struct trace_ctx *c)
{
	for (int i = 0; i < PENDING_BUCKETS; i++) {
		struct pending *p = c->pending[i];
		while (p) {
			struct pending *n = p->next;
			free(p->buf);
			free(p);
			p = n;
		}
		c->pending[i] = NULL;
	}
}

struct copied {
	const void *data;
	size_t len;
	bool have;
};

/* Find the copied pointees of the call in the pending items. */
static void collect_copies(const struct pending *p, struct copied *cp)
{
	size_t off = 0;
	while (p && off + sizeof(struct trace_aug_item) <= p->len) {
		struct trace_aug_item it;
		memcpy(&it, p->buf + off, sizeof(it));
		off += sizeof(it);
		size_t padded = ALIGN_UP((size_t)it.len, 8);
		if (it.len > TRACE_STR_MAX || off + it.len > p->len)
			break;
		if (it.arg < TRACE_MAX_ARGS && !(it.flags & TRACE_AUG_FAULT)) {
			cp[it.arg].data = p->buf + off;
			cp[it.arg].len = it.len;
			cp[it.arg].have = true;
		}
		off += padded;
	}
}

/* ---- event output ------------------------------------------------------ */

static void format_call(struct trace_ctx *c, struct strbuf *sb, const struct trace_sc_event *e,
			const struct sc_info *sc, const struct copied *cp)
{
	if (sc)
		sb_append(sb, sc->name);
	else
		sb_printf(sb, "syscall_%u", e->nr);
	sb_append(sb, "(");
	int n = sc && sc->nargs >= 0 ? sc->nargs : TRACE_MAX_ARGS;
	for (int i = 0; i < n; i++) {
		if (i)
			sb_append(sb, ", ");
		const struct sc_arg *a = sc && sc->nargs >= 0 ? &sc->args[i] : NULL;
		sc_fmt_arg(sb, a, e->args[i], cp[i].data, cp[i].len, cp[i].have);
	}
	sb_append(sb, ")");
	(void)c;
}

static void print_event_text(struct trace_ctx *c, const struct trace_sc_event *e,
			     const struct sc_info *sc, const struct copied *cp)
{
	struct strbuf *sb = &c->line;
	char comm[TRACE_COMM_LEN + 1];
	memcpy(comm, e->comm, TRACE_COMM_LEN);
	comm[TRACE_COMM_LEN] = '\0';

	sb_reset(sb);
	if (c->o->abs_time)
		sb_printf(sb, "%" PRIu64 ".%06" PRIu64 " ", (uint64_t)e->ts / 1000000000,
			  (uint64_t)e->ts % 1000000000 / 1000);
	else {
		uint64_t rel = e->ts > c->t0 ? e->ts - c->t0 : 0;
		sb_printf(sb, "%6" PRIu64 ".%06" PRIu64 " ", rel / 1000000000, rel % 1000000000 / 1000);
	}
	sb_printf(sb, "%s/%u ", comm, e->tid);
	format_call(c, sb, e, sc, cp);
	if (e->flags & TRACE_EV_NORETURN) {
		sb_append(sb, " = ?\n");
	} else {
		sb_append(sb, " = ");
		sc_fmt_ret(sb, sc, e->ret);
		sb_printf(sb, " <%" PRIu64 ".%06" PRIu64 ">\n", (uint64_t)e->duration / 1000000000,
			  (uint64_t)e->duration % 1000000000 / 1000);
	}
	fwrite(sb->buf, 1, sb->len, c->out);
}

static void print_event_json(struct trace_ctx *c, const struct trace_sc_event *e,
			     const struct sc_info *sc, const struct copied *cp)
{
	struct json_writer *jw = jw_new(c->out, false);
	char comm[TRACE_COMM_LEN + 1];
	memcpy(comm, e->comm, TRACE_COMM_LEN);
	comm[TRACE_COMM_LEN] = '\0';

	jw_start_object(jw);
	jw_kv_uint(jw, "time_ns", c->o->abs_time ? e->ts : (e->ts > c->t0 ? e->ts - c->t0 : 0));
	jw_kv_uint(jw, "pid", e->pid);
	jw_kv_uint(jw, "tid", e->tid);
	jw_kv_string(jw, "comm", comm);
	if (sc) {
		jw_kv_string(jw, "syscall", sc->name);
	} else {
		char nm[32];
		snprintf(nm, sizeof(nm), "syscall_%u", e->nr);
		jw_kv_string(jw, "syscall", nm);
	}
	jw_kv_uint(jw, "nr", e->nr);
	jw_key(jw, "args");
	jw_start_object(jw);
	int n = sc && sc->nargs >= 0 ? sc->nargs : TRACE_MAX_ARGS;
	struct strbuf v = { 0 };
	for (int i = 0; i < n; i++) {
		const struct sc_arg *a = sc && sc->nargs >= 0 ? &sc->args[i] : NULL;
		char an[16];
		if (!a)
			snprintf(an, sizeof(an), "arg%d", i);
		jw_key(jw, a ? a->name : an);
		if (a && (a->kind == SC_ARG_INT || a->kind == SC_ARG_FD)) {
			sb_reset(&v);
			sc_fmt_arg(&v, a, e->args[i], NULL, 0, false);
			jw_int(jw, strtoll(v.buf, NULL, 10));
		} else if (a && a->kind == SC_ARG_UINT) {
			jw_uint(jw, e->args[i]);
		} else if (a && a->kind == SC_ARG_STR && cp[i].have) {
			size_t l = strnlen(cp[i].data, cp[i].len);
			jw_string_len(jw, cp[i].data, l);
		} else {
			sb_reset(&v);
			sc_fmt_arg(&v, a, e->args[i], cp[i].data, cp[i].len, cp[i].have);
			jw_string(jw, v.buf ? v.buf : "");
		}
	}
	sb_free(&v);
	jw_end_object(jw);
	if (e->flags & TRACE_EV_NORETURN) {
		jw_key(jw, "ret");
		jw_null(jw);
	} else {
		jw_kv_int(jw, "ret", e->ret);
		if (e->ret < 0 && e->ret >= -4095) {
			const char *en = sc_errno_name((int)-e->ret);
			if (en)
				jw_kv_string(jw, "errno", en);
			else
				jw_kv_int(jw, "errno", -e->ret);
		}
		jw_kv_uint(jw, "duration_ns", e->duration);
	}
	jw_end_object(jw);
	jw_free(jw);
}

static int handle_record(void *ctx, void *data, size_t size)
{
	struct trace_ctx *c = ctx;
	uint16_t type;

	if (size < sizeof(type))
		return 0;
	memcpy(&type, data, sizeof(type));
	if (type == TRACE_REC_AUG && size >= sizeof(struct trace_aug_hdr)) {
		struct trace_aug_hdr h;
		memcpy(&h, data, sizeof(h));
		size_t len = h.size;
		if (len > size - sizeof(h))
			len = size - sizeof(h);
		pending_store(c, h.tid, h.nr, (const char *)data + sizeof(h), len);
		return 0;
	}
	if (type != TRACE_REC_SYSCALL || size < sizeof(struct trace_sc_event)) {
		c->nr_bad_records++;
		return 0;
	}
	const struct trace_sc_event *e = data;
	const struct sc_info *sc = sc_table_get(&c->table, (int)e->nr);
	struct copied cp[TRACE_MAX_ARGS] = { 0 };
	struct pending *p = NULL;
	if (e->flags & TRACE_EV_AUG) {
		p = *pending_slot(c, e->tid);
		if (p && p->nr == e->nr && p->len)
			collect_copies(p, cp);
	}
	c->nr_events++;
	if (c->o->json)
		print_event_json(c, e, sc, cp);
	else
		print_event_text(c, e, sc, cp);
	if (p)
		p->len = 0;
	return 0;
}

/* ---- summary ------------------------------------------------------------ */

struct sum_entry {
	struct trace_sum_key key;
	struct trace_sum_val val;
	double stddev_ns;
};

struct errno_entry {
	struct trace_errno_key key;
	uint64_t count;
};

static int cmp_sum(const void *a, const void *b)
{
	const struct sum_entry *x = a, *y = b;
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
	const struct errno_entry *x = a, *y = b;
	if (x->key.tid != y->key.tid)
		return x->key.tid < y->key.tid ? -1 : 1;
	if (x->key.nr != y->key.nr)
		return x->key.nr < y->key.nr ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->key.err < y->key.err ? -1 : x->key.err > y->key.err;
}

static double stddev_ns(const struct trace_counts *v)
{
	if (v->calls < 2)
		return 0;
	long double n = (long double)v->calls;
	long double sumsq = (long double)v->sumsq_hi * 18446744073709551616.0L + (long double)v->sumsq_lo;
	long double mean = (long double)v->total_ns / n;
	long double var = (sumsq - n * mean * mean) / (n - 1);
	return var > 0 ? (double)sqrtl(var) : 0;
}

static int cmp_sum_key(const void *a, const void *b)
{
	const struct sum_entry *x = a, *y = b;
	if (x->key.tid != y->key.tid)
		return x->key.tid < y->key.tid ? -1 : 1;
	return x->key.nr < y->key.nr ? -1 : x->key.nr > y->key.nr;
}

/* Fast design: add every CPU's cached slots to the entries read from the
 * summary map (sorted by key; new keys are appended). */
static size_t merge_cache(struct trace_bpf *skel, struct sum_entry **arrp, size_t n)
{
	int ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0)
		return n;
	struct trace_cache_slot *vals = xcalloc((size_t)ncpu, sizeof(*vals));
	struct sum_entry *arr = *arrp;
	size_t cap = n, sorted = n;
	if (n)
		qsort(arr, n, sizeof(*arr), cmp_sum_key);
	for (uint32_t i = 0; i < TRACE_CACHE_ENTRIES; i++) {
		if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.cache), &i, vals)) {
			pr_warn("cannot read the per-CPU summary cache: %s; the summary misses calls",
				strerror(errno));
			break;
		}
		for (int c = 0; c < ncpu; c++) {
			const struct trace_cache_slot *s = &vals[c];
			if (!s->key || !s->c.calls)
				continue;
			struct sum_entry probe = { .key = { .tid = s->tid, .nr = s->key - 1 } };
			struct sum_entry *e = sorted ? bsearch(&probe, arr, sorted, sizeof(*arr), cmp_sum_key) : NULL;
			for (size_t j = sorted; !e && j < n; j++)
				if (arr[j].key.tid == probe.key.tid && arr[j].key.nr == probe.key.nr)
					e = &arr[j];
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

static size_t read_summary(struct trace_bpf *skel, bool use_ts, struct sum_entry **out)
{
	int fd = bpf_map__fd(skel->maps.summary);
	struct trace_sum_key k, next;
	struct sum_entry *arr = NULL;
	size_t n = 0, cap = 0;
	void *prev = NULL;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		ARRAY_GROW(arr, cap, n + 1);
		arr[n].key = next;
		if (bpf_map_lookup_elem(fd, &next, &arr[n].val) == 0)
			n++;
		k = next;
		prev = &k;
	}
	if (use_ts)
		n = merge_cache(skel, &arr, n);
	for (size_t i = 0; i < n; i++)
		arr[i].stddev_ns = stddev_ns(&arr[i].val.c);
	if (n)
		qsort(arr, n, sizeof(*arr), cmp_sum);
	*out = arr;
	return n;
}

static size_t read_errnos(struct trace_bpf *skel, struct errno_entry **out)
{
	int fd = bpf_map__fd(skel->maps.errnos);
	struct trace_errno_key k, next;
	struct errno_entry *arr = NULL;
	size_t n = 0, cap = 0;
	void *prev = NULL;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		ARRAY_GROW(arr, cap, n + 1);
		arr[n].key = next;
		if (bpf_map_lookup_elem(fd, &next, &arr[n].count) == 0)
			n++;
		k = next;
		prev = &k;
	}
	if (n)
		qsort(arr, n, sizeof(*arr), cmp_errno);
	*out = arr;
	return n;
}

static const char *sc_name_or(const struct trace_ctx *c, uint32_t nr, char *buf, size_t len)
{
	const struct sc_info *sc = sc_table_get(&c->table, (int)nr);
	if (sc)
		return sc->name;
	snprintf(buf, len, "syscall_%u", nr);
	return buf;
}

static void print_summary_text(struct trace_ctx *c, const struct sum_entry *s, size_t n,
			       const struct errno_entry *er, size_t ne)
{
	FILE *f = c->out;
	uint64_t total_calls = 0;
	for (size_t i = 0; i < n; i++)
		total_calls += s[i].val.c.calls;

	fprintf(f, "\n Summary of events:\n");
	for (size_t i = 0; i < n; ) {
		size_t j = i;
		uint64_t calls = 0;
		while (j < n && s[j].key.tid == s[i].key.tid && s[j].val.pid == s[i].val.pid)
			calls += s[j++].val.c.calls;
		char comm[TRACE_COMM_LEN + 1];
		memcpy(comm, s[i].val.comm, TRACE_COMM_LEN);
		comm[TRACE_COMM_LEN] = '\0';
		fprintf(f, "\n %s (%u/%u), %" PRIu64 " syscalls, %.1f%%\n\n", comm, s[i].val.pid, s[i].key.tid,
			calls, total_calls ? 100.0 * (double)calls / (double)total_calls : 0.0);
		fprintf(f, "   syscall                 calls   errors    total       min       avg       max   stddev\n"
			   "                                            (msec)    (msec)    (msec)    (msec)      (%%)\n"
			   "   -------------------- -------- -------- --------- --------- --------- --------- ------\n");
		for (size_t k = i; k < j; k++) {
			const struct trace_counts *v = &s[k].val.c;
			char nb[32];
			double avg = v->calls ? (double)v->total_ns / (double)v->calls : 0;
			fprintf(f, "   %-20s %8" PRIu64 " %8" PRIu64 " %9.3f %9.3f %9.3f %9.3f %5.2f%%\n",
				sc_name_or(c, s[k].key.nr, nb, sizeof(nb)), (uint64_t)v->calls, (uint64_t)v->errors,
				(double)v->total_ns / 1e6, v->calls ? (double)v->min_ns / 1e6 : 0.0,
				avg / 1e6, (double)v->max_ns / 1e6, avg > 0 ? 100.0 * s[k].stddev_ns / avg : 0.0);
			for (size_t e = 0; e < ne; e++) {
				if (er[e].key.tid != s[k].key.tid || er[e].key.nr != s[k].key.nr)
					continue;
				const char *en = sc_errno_name((int)er[e].key.err);
				if (en)
					fprintf(f, "        %-20s %8" PRIu64 "\n", en, er[e].count);
				else
					fprintf(f, "        errno %-14u %8" PRIu64 "\n", er[e].key.err, er[e].count);
			}
		}
		i = j;
	}
	fprintf(f, "\n");
}

static void summary_json(struct trace_ctx *c, struct json_writer *jw, const struct sum_entry *s, size_t n,
			 const struct errno_entry *er, size_t ne)
{
	jw_key(jw, "syscalls");
	jw_start_array(jw);
	for (size_t k = 0; k < n; k++) {
		const struct trace_sum_val *v = &s[k].val;
		const struct trace_counts *cn = &v->c;
		char nb[32], comm[TRACE_COMM_LEN + 1];
		memcpy(comm, v->comm, TRACE_COMM_LEN);
		comm[TRACE_COMM_LEN] = '\0';
		jw_start_object(jw);
		jw_kv_uint(jw, "pid", v->pid);
		jw_kv_uint(jw, "tid", s[k].key.tid);
		jw_kv_string(jw, "comm", comm);
		jw_kv_string(jw, "syscall", sc_name_or(c, s[k].key.nr, nb, sizeof(nb)));
		jw_kv_uint(jw, "nr", s[k].key.nr);
		jw_kv_uint(jw, "calls", cn->calls);
		jw_kv_uint(jw, "errors", cn->errors);
		jw_kv_uint(jw, "total_ns", cn->total_ns);
		jw_kv_uint(jw, "min_ns", cn->calls ? cn->min_ns : 0);
		jw_kv_uint(jw, "avg_ns", cn->calls ? cn->total_ns / cn->calls : 0);
		jw_kv_uint(jw, "max_ns", cn->max_ns);
		jw_kv_uint(jw, "stddev_ns", (uint64_t)llround(s[k].stddev_ns));
		if (c->o->errno_summary) {
			jw_key(jw, "errnos");
			jw_start_object(jw);
			for (size_t e = 0; e < ne; e++) {
				if (er[e].key.tid != s[k].key.tid || er[e].key.nr != s[k].key.nr)
					continue;
				const char *en = sc_errno_name((int)er[e].key.err);
				char eb[32];
				if (!en) {
					snprintf(eb, sizeof(eb), "%u", er[e].key.err);
					en = eb;
				}
				jw_kv_uint(jw, en, er[e].count);
			}
			jw_end_object(jw);
		}
		jw_end_object(jw);
	}
	jw_end_array(jw);
}

/* ---- main --------------------------------------------------------------- */

static void read_counters(struct trace_bpf *skel, uint64_t *cnt)
{
	int ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0)
		return;
	uint64_t *vals = xcalloc((size_t)ncpu, sizeof(uint64_t));
	for (uint32_t i = 0; i < TRACE_CNT__MAX; i++) {
		cnt[i] = 0;
		if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.counters), &i, vals))
			continue;
		for (int c = 0; c < ncpu; c++)
			cnt[i] += vals[c];
	}
	free(vals);
}

static uint64_t round_pow2_pages(uint64_t v)
{
	uint64_t p = 4096;
	while (p < v)
		p <<= 1;
	return p;
}

static void fill_descs(struct trace_bpf *skel, const struct sc_table *t, const bool *enabled)
{
	for (int nr = 0; nr < TRACE_MAX_SYSCALLS && nr < SC_MAX_NR; nr++) {
		struct trace_syscall_desc *d = &skel->rodata->descs[nr];
		const struct sc_info *sc = sc_table_get(t, nr);
		memset(d, 0, sizeof(*d));
		if (!sc || !enabled[nr])
			continue;
		d->enabled = 1;
		d->noreturn = sc->noreturn;
		for (int i = 0; i < sc->nargs && i < TRACE_MAX_ARGS; i++) {
			switch (sc->args[i].kind) {
			case SC_ARG_STR: d->copy[i] = TRACE_COPY_STR; break;
			case SC_ARG_SOCKADDR: d->copy[i] = TRACE_COPY_SOCKADDR; break;
			case SC_ARG_TIMESPEC:
				d->copy[i] = TRACE_COPY_FIXED;
				d->fixed_size[i] = 16;
				break;
			default: continue;
			}
			if (d->ncopies < TRACE_MAX_COPIES)
				d->ncopies++;
			else
				d->copy[i] = TRACE_COPY_NONE;
		}
	}
}

/* ---- loading: task storage or hash maps --------------------------------- */

/* Syscalls most programs make most often get distinct summary cache slots;
 * then the other selected syscalls round-robin. With -e selecting at most
 * TRACE_CACHE_SLOTS syscalls, no slot is ever shared. */
static void assign_slots(struct trace_bpf *skel, const struct sc_table *t)
{
	static const char *const hot[] = {
		"read", "write", "openat", "close", "fstat", "newfstatat", "mmap", "futex",
		"lseek", "ioctl", "epoll_wait", "poll", "ppoll", "recvfrom", "sendto", "pread64",
	};
	bool done[TRACE_MAX_SYSCALLS] = { false };
	unsigned next = 0;

	for (size_t i = 0; i < ARRAY_SIZE(hot); i++) {
		int nr = sc_table_find(t, hot[i]);
		if (nr < 0 || nr >= TRACE_MAX_SYSCALLS || !skel->rodata->descs[nr].enabled)
			continue;
		skel->rodata->descs[nr].slot = next++ % TRACE_CACHE_SLOTS;
		done[nr] = true;
	}
	for (int nr = 0; nr < TRACE_MAX_SYSCALLS; nr++) {
		if (!done[nr] && skel->rodata->descs[nr].enabled)
			skel->rodata->descs[nr].slot = next++ % TRACE_CACHE_SLOTS;
	}
}

/* Can raw_tp programs keep per-thread state in BPF task storage here?
 * (map type and bpf_get_current_task_btf: 5.11+.) What the probes do not
 * cover (tp_btf/sched_switch, the verifier) is checked by loading: if the
 * fast design does not load, the hash-map design is loaded instead. */
static bool task_storage_usable(const char **why)
{
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) != 1) {
		*why = "the kernel has no BPF task storage (BPF_MAP_TYPE_TASK_STORAGE, Linux 5.11+)";
		return false;
	}
	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_FUNC_task_storage_get, NULL) != 1 ||
	    libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_FUNC_get_current_task_btf, NULL) != 1) {
		*why = "raw tracepoint programs cannot use task storage on this kernel";
		return false;
	}
	return true;
}

static int open_and_load(const struct trace_opts *o, const struct sc_table *table, const bool *enabled,
			 bool use_ts, struct trace_bpf **out)
{
	struct trace_bpf *skel;
	int err;

	if (*out) {
		trace_bpf__destroy(*out);
		*out = NULL;
	}
	skel = trace_bpf__open();
	if (!skel) {
		err = -errno;
		pr_err("cannot open the trace BPF object: %s", log_strerr(err));
		return err;
	}
	skel->rodata->self_tgid = (uint32_t)getpid();
	skel->rodata->trace_all = o->all;
	skel->rodata->want_events = o->events;
	skel->rodata->want_summary = o->summary;
	skel->rodata->want_errnos = o->errno_summary;
	skel->rodata->only_failures = o->failure;
	skel->rodata->min_duration_ns = o->min_duration_ns;
	skel->rodata->wakeup_bytes = o->buffer_size / 16;
	fill_descs(skel, table, enabled);
	assign_slots(skel, table);
	bpf_map__set_max_entries(skel->maps.events, (uint32_t)o->buffer_size);
	uint32_t nthreads = o->all ? 65536 : 16384;
	bpf_map__set_max_entries(skel->maps.inflight, use_ts || o->bench_floor ? 1 : nthreads);
	bpf_map__set_max_entries(skel->maps.summary, o->summary ? nthreads * 4 : 1);
	bpf_map__set_max_entries(skel->maps.errnos, o->errno_summary ? nthreads : 1);
	bpf_map__set_autocreate(skel->maps.tasks, use_ts);
	bpf_map__set_autocreate(skel->maps.cpus, use_ts);
	bpf_map__set_autocreate(skel->maps.cache, use_ts);

	bool hash = !o->bench_floor && !use_ts, ts = !o->bench_floor && use_ts;
	bpf_program__set_autoload(skel->progs.trace_fork, o->cmd && !o->bench_floor);
	bpf_program__set_autoload(skel->progs.floor_sys_enter, o->bench_floor);
	bpf_program__set_autoload(skel->progs.floor_sys_exit, o->bench_floor);
	bpf_program__set_autoload(skel->progs.trace_sys_enter, hash);
	bpf_program__set_autoload(skel->progs.trace_sys_exit, hash);
	bpf_program__set_autoload(skel->progs.trace_exit, hash);
	bpf_program__set_autoload(skel->progs.ts_sys_enter, ts);
	bpf_program__set_autoload(skel->progs.ts_sys_exit, ts);
	bpf_program__set_autoload(skel->progs.ts_switch, ts);

	*out = skel;
	err = trace_bpf__load(skel);
	return err;
}

/* Attach in an order that loses nothing: sched_switch (which moves a
 * switched-out thread's in-flight record to its task storage), the exit and
 * fork hooks before the syscall hooks, sys_exit before sys_enter. */
static int attach_all(struct trace_bpf *skel, bool use_ts)
{
	struct {
		struct bpf_program *prog;
		struct bpf_link **link;
	} order[] = {
		{ skel->progs.ts_switch, &skel->links.ts_switch },
		{ skel->progs.trace_exit, &skel->links.trace_exit },
		{ skel->progs.trace_fork, &skel->links.trace_fork },
		{ skel->progs.ts_sys_exit, &skel->links.ts_sys_exit },
		{ skel->progs.trace_sys_exit, &skel->links.trace_sys_exit },
		{ skel->progs.floor_sys_exit, &skel->links.floor_sys_exit },
		{ skel->progs.ts_sys_enter, &skel->links.ts_sys_enter },
		{ skel->progs.trace_sys_enter, &skel->links.trace_sys_enter },
		{ skel->progs.floor_sys_enter, &skel->links.floor_sys_enter },
	};
	(void)use_ts;
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		if (!bpf_program__autoload(order[i].prog))
			continue;
		struct bpf_link *l = bpf_program__attach(order[i].prog);
		if (!l) {
			int err = -errno;
			pr_debug("attaching %s failed: %s", bpf_program__name(order[i].prog), log_strerr(err));
			return err;
		}
		*order[i].link = l;
	}
	return 0;
}

static void detach_link(struct bpf_link **l)
{
	bpf_link__destroy(*l);
	*l = NULL;
}

/* Wait until no program can still be running on another CPU: raw tracepoint
 * programs run inside RCU read-side sections, and MEMBARRIER_CMD_GLOBAL
 * waits for an RCU grace period (synchronize_rcu). */
static void wait_for_programs(void)
{
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0)
		return;
	pr_debug("membarrier(MEMBARRIER_CMD_GLOBAL) failed (%s); sleeping 100 ms instead", strerror(errno));
	usleep(100 * 1000);
}

static void detach_syscall_hooks(struct trace_bpf *skel)
{
	detach_link(&skel->links.ts_sys_enter);
	detach_link(&skel->links.trace_sys_enter);
	detach_link(&skel->links.floor_sys_enter);
	detach_link(&skel->links.ts_sys_exit);
	detach_link(&skel->links.trace_sys_exit);
	detach_link(&skel->links.floor_sys_exit);
	detach_link(&skel->links.trace_fork);
}

static int load_error(int err)
{
	if (err == -EPERM || err == -EACCES)
		pr_err("cannot load the BPF programs: %s; run as root (CAP_BPF and CAP_PERFMON are needed)",
		       log_strerr(err));
	else
		pr_err("cannot load the BPF programs: %s; rerun with -vvv to see the verifier log", log_strerr(err));
	return 1;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_opts o = { 0 };
	struct trace_ctx c = { .o = &o };
	struct trace_bpf *skel = NULL;
	struct ring_buffer *rb = NULL;
	char *cmd_path = NULL;
	pid_t child = -1;
	int go_pipe[2] = { -1, -1 }, err_pipe[2] = { -1, -1 };
	int ret = 1, err;
	bool child_reaped = false;
	int child_status = 0;
	bool enabled[SC_MAX_NR];
	bool use_ts = false;
	const char *why = NULL;

	err = parse_args(argc, argv, &o);
	if (err)
		return err > 0 ? 0 : 2;

	/* Targets first: the cheapest errors. */
	if (o.cmd) {
		cmd_path = find_in_path(o.cmd[0]);
		if (!cmd_path) {
			pr_err("command not found: '%s'; check the name and PATH", o.cmd[0]);
			ret = 127;
			goto out;
		}
	}
	for (size_t i = 0; i < o.nr_pids; i++) {
		if (!pid_exists(o.pids[i])) {
			pr_err("no such process: pid %d; check the pid with 'ps -p %d'", (int)o.pids[i], (int)o.pids[i]);
			goto out;
		}
	}

	/* Privileges before anything else touches the kernel. */
	if (!may_load_bpf()) {
		pr_err("no permission to load BPF programs: neither CAP_BPF nor CAP_SYS_ADMIN is "
		       "in effect; run as root, or give bpfperf CAP_BPF and CAP_PERFMON");
		goto out;
	}

	const char *tfs = tracefs_dir();
	if (sc_table_load(&c.table, tfs) < 0 || !c.table.nr_formats)
		pr_warn("cannot read the syscall formats in tracefs (%s); arguments are printed raw. "
			"Mount it with 'mount -t tracefs nodev /sys/kernel/tracing'",
			tfs ? tfs : "not mounted and mounting failed");
	pr_debug("syscall table: %d syscalls, %d with tracefs formats (x86_64 native ABI; "
		 "32-bit compat syscalls are not named)", c.table.nr_syscalls, c.table.nr_formats);
	char errbuf[512];
	if (o.expr) {
		if (sc_select(&c.table, o.expr, enabled, errbuf, sizeof(errbuf)) < 0) {
			pr_err("-e '%s': %s", o.expr, errbuf);
			goto out;
		}
	} else {
		for (int i = 0; i < SC_MAX_NR; i++)
			enabled[i] = c.table.by_nr[i] != NULL;
	}

	if (o.cmd) {
		if (pipe2(go_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC)) {
			pr_err("cannot create a pipe: %s", strerror(errno));
			goto out;
		}
		fflush(NULL);
		child = fork();
		if (child < 0) {
			pr_err("cannot fork to run '%s': %s", o.cmd[0], strerror(errno));
			goto out;
		}
		if (child == 0) {
			char b;
			close(go_pipe[1]);
			close(err_pipe[0]);
			if (read(go_pipe[0], &b, 1) != 1)
				_exit(127);
			execv(cmd_path, o.cmd);
			int e = errno;
			if (write(err_pipe[1], &e, sizeof(e)) < 0)
				_exit(127);
			_exit(127);
		}
		close(go_pipe[0]);
		close(err_pipe[1]);
		go_pipe[0] = err_pipe[1] = -1;
	}

	o.buffer_size = round_pow2_pages(o.buffer_size);
	use_ts = !o.bench_floor && !o.no_task_storage && task_storage_usable(&why);
	if (o.no_task_storage)
		why = "--no-task-storage";
	err = open_and_load(&o, &c.table, enabled, use_ts, &skel);
	if (err && use_ts) {
		/* Probes passed but the load did not: say why at -v, fall back. */
		pr_info("loading the task-storage programs failed (%s); falling back to hash maps",
			log_strerr(err));
		why = "the task-storage programs did not load";
		use_ts = false;
		err = open_and_load(&o, &c.table, enabled, use_ts, &skel);
	}
	if (err) {
		ret = load_error(err);
		goto out;
	}
	if (!o.bench_floor) {
		if (use_ts)
			pr_info("per-thread state in BPF task storage and per-CPU records (summary cache: %d slots per CPU)",
				TRACE_CACHE_ENTRIES);
		else
			pr_info("per-thread state in hash maps: %s", why);
	}

	/* Who is traced. */
	uint8_t st = TRACE_TARGET_ON;
	if (o.cmd) {
		uint32_t k = (uint32_t)child;
		st = TRACE_TARGET_ARMED;
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.targets), &k, &st, BPF_ANY)) {
			pr_err("cannot add pid %d to the targets map: %s", (int)child, strerror(errno));
			goto out;
		}
	}
	for (size_t i = 0; i < o.nr_pids; i++) {
		uint32_t k = (uint32_t)o.pids[i];
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.targets), &k, &st, BPF_ANY)) {
			pr_err("cannot add pid %d to the targets map: %s", (int)o.pids[i], strerror(errno));
			goto out;
		}
	}
	if (o.all) {
		/* Avoid the feedback loop: our output goes through the terminal,
		 * ssh and the shells above us, whose syscalls would make more output. */
		int n = 0;
		for (pid_t p = getppid(); p > 1 && n < 63; p = parent_of(p), n++) {
			uint32_t k = (uint32_t)p;
			uint8_t one = 1;
			bpf_map_update_elem(bpf_map__fd(skel->maps.excluded), &k, &one, BPF_ANY);
			pr_debug("-a: not tracing ancestor pid %d", (int)p);
		}
	}

	c.out = stdout;
	if (o.output) {
		c.out = fopen(o.output, "w");
		if (!c.out) {
			pr_err("cannot open '%s' for writing: %s", o.output, strerror(errno));
			c.out = NULL;
			goto out;
		}
	}
	static char outbuf[1 << 20];
	setvbuf(c.out, outbuf, _IOFBF, sizeof(outbuf));

	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), handle_record, &c, NULL);
	if (!rb) {
		pr_err("cannot set up the ring buffer reader: %s", log_strerr(-errno));
		goto out;
	}

	err = attach_all(skel, use_ts);
	if (err) {
		pr_err("cannot attach to the syscall tracepoints: %s; the kernel needs raw tracepoint "
		       "support (CONFIG_BPF_EVENTS)", log_strerr(err));
		goto out;
	}
	pr_info("tracing started");
	c.t0 = now_ns();

	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (o.cmd) {
		char b = 1;
		int e = 0;
		if (write(go_pipe[1], &b, 1) != 1) {
			pr_err("cannot start '%s': %s", o.cmd[0], strerror(errno));
			goto out;
		}
		close(go_pipe[1]);
		go_pipe[1] = -1;
		ssize_t r = read(err_pipe[0], &e, sizeof(e));
		if (r == (ssize_t)sizeof(e)) {
			pr_err("cannot execute '%s': %s", cmd_path, strerror(e));
			waitpid(child, NULL, 0);
			child_reaped = true;
			ret = e == ENOENT ? 127 : 126;
			goto out;
		}
	}

	int forwarded = 0;
	for (;;) {
		err = ring_buffer__poll(rb, 100);
		if (err < 0 && err != -EINTR) {
			pr_err("reading the ring buffer failed: %s", log_strerr(err));
			break;
		}
		if (o.cmd) {
			if (stop_signal && forwarded != stop_signal) {
				forwarded = stop_signal;
				kill(child, stop_signal);
			}
			pid_t w = waitpid(child, &child_status, WNOHANG);
			if (w == child) {
				child_reaped = true;
				break;
			}
		} else {
			if (stop_signal)
				break;
			if (o.nr_pids) {
				bool alive = false;
				for (size_t i = 0; i < o.nr_pids && !alive; i++)
					alive = pid_exists(o.pids[i]);
				if (!alive)
					break;
			}
		}
	}
	/* Syscall hooks off first, then the others; once no program runs any
	 * more, the summary map and the per-CPU caches are stable. */
	detach_syscall_hooks(skel);
	trace_bpf__detach(skel);
	wait_for_programs();
	ring_buffer__consume(rb);

	uint64_t cnt[TRACE_CNT__MAX] = { 0 };
	read_counters(skel, cnt);

	struct sum_entry *sums = NULL;
	struct errno_entry *errs = NULL;
	size_t nsums = 0, nerrs = 0;
	if (o.summary) {
		nsums = read_summary(skel, use_ts, &sums);
		if (o.errno_summary)
			nerrs = read_errnos(skel, &errs);
	}
	if (o.json && o.summary) {
		struct json_writer *jw = jw_new(c.out, !o.events);
		jw_start_object(jw);
		summary_json(&c, jw, sums, nsums, errs, nerrs);
		jw_kv_uint(jw, "lost_events", cnt[TRACE_CNT_LOST_EVENTS]);
		jw_kv_uint(jw, "lost_arguments", cnt[TRACE_CNT_LOST_AUG]);
		jw_kv_uint(jw, "summary_overflows", cnt[TRACE_CNT_SUM_FULL]);
		jw_end_object(jw);
		jw_free(jw);
	} else if (o.summary) {
		print_summary_text(&c, sums, nsums, errs, nerrs);
	}
	free(sums);
	free(errs);
	if (fflush(c.out) != 0 || ferror(c.out))
		pr_err("writing the trace failed: %s", strerror(errno));

	if (cnt[TRACE_CNT_LOST_EVENTS] || cnt[TRACE_CNT_LOST_AUG])
		pr_warn("%" PRIu64 " events lost and %" PRIu64 " argument copies lost: the ring buffer "
			"(%" PRIu64 " KiB) was full; raise it with -m, or use -s (no events are lost)",
			cnt[TRACE_CNT_LOST_EVENTS], cnt[TRACE_CNT_LOST_AUG], o.buffer_size >> 10);
	else
		pr_info("%" PRIu64 " events, 0 lost", c.nr_events);
	if (cnt[TRACE_CNT_SUM_FULL])
		pr_warn("%" PRIu64 " calls were not counted in the summary: its map was full", cnt[TRACE_CNT_SUM_FULL]);
	if (cnt[TRACE_CNT_INFLIGHT_FULL])
		pr_warn("%" PRIu64 " calls were not traced: %s", cnt[TRACE_CNT_INFLIGHT_FULL],
			use_ts ? "per-thread task storage could not be allocated (out of memory)"
			       : "the thread table was full");

	if (o.cmd) {
		if (WIFEXITED(child_status))
			ret = WEXITSTATUS(child_status);
		else if (WIFSIGNALED(child_status))
			ret = 128 + WTERMSIG(child_status);
	} else {
		ret = 0;
	}

out:
	if (child > 0 && !child_reaped) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	for (int i = 0; i < 2; i++) {
		if (go_pipe[i] >= 0)
			close(go_pipe[i]);
		if (err_pipe[i] >= 0)
			close(err_pipe[i]);
	}
	ring_buffer__free(rb);
	trace_bpf__destroy(skel);
	if (c.out && c.out != stdout)
		fclose(c.out);
	else if (c.out)
		fflush(c.out);
	pending_free_all(&c);
	sb_free(&c.line);
	sc_table_free(&c.table);
	free(cmd_path);
	free(o.pids);
	return ret;
}
