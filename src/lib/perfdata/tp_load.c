// SPDX-License-Identifier: GPL-2.0-only
/* Tracepoint formats read from a recording (HEADER_TRACING_DATA) or from one
 * format text, see tp_format.h, with libtraceevent's parsers kept from
 * crashing the tool.
 *
 * libtraceevent 1.7 dereferences NULL on some malformed print formats (one
 * ',' of sched_switch's turned into '#'), and a recording is anybody's file.
 * So every libtraceevent parse of a recording's text (the header page, each
 * format, the printk formats) and a trial print of each event run first in a
 * child process (isolate.h), which says as it goes which step it starts and
 * which formats libtraceevent refused. A step that kills the child is
 * planned differently and the child runs again from the start (the parser's
 * state depends on what came before): a format whose print format crashed
 * is parsed again with an empty one and marked failed (its records show
 * "[FAILED TO PARSE]" and their fields, its fields still sort), one whose
 * fields crashed too is dropped; a crashing header page or printk text is
 * skipped. Then the parent runs the plan the child survived, once. One
 * warning names each event so treated. */
#include "perfdata/tp_format.h"
#include "perfdata/tp_format_int.h"
#include "isolate.h"
#include "log.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

/* ---- HEADER_TRACING_DATA's layout (no libtraceevent) --------------------- */

struct td_fmt {
	const char *sys, *text;
	size_t len;
};

/* What libtraceevent parses of a recording's tracing data. */
struct td_scan {
	uint8_t lsize;
	uint32_t page;
	const char *hp;		/* the header page text (NULL: none) */
	size_t hp_len;
	struct td_fmt *fmts;
	size_t nfmts;
	const char *printk;	/* the printk formats (NULL: none) */
	size_t printk_len;
	bool broken;		/* the layout broke off after fmts */
};

struct cur {
	const uint8_t *p, *end;
};

static bool take(struct cur *c, void *dst, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return false;
	if (dst)
		memcpy(dst, c->p, n);
	c->p += n;
	return true;
}

static const char *take_str(struct cur *c)
{
	const uint8_t *z = memchr(c->p, '\0', (size_t)(c->end - c->p));
	if (!z)
		return NULL;
	const char *s = (const char *)c->p;
	c->p = z + 1;
	return s;
}

/* A section "NAME\0" u64 size, bytes: the bytes (NULL: not there). */
static const uint8_t *take_section(struct cur *c, const char *name, uint64_t *sz)
{
	const char *s = take_str(c);
	if (!s || strcmp(s, name) || !take(c, sz, 8) || *sz > (uint64_t)(c->end - c->p))
		return NULL;
	const uint8_t *b = c->p;
	c->p += *sz;
	return b;
}

/* perf's trace_report() layout: magic, version, endianness, long size, page
 * size, header page, header event, ftrace formats, event formats by system,
 * kallsyms, printk formats. -EINVAL when it is broken before any event
 * format; after, the formats read so far are kept (s->broken). */
static int scan(struct td_scan *s, const void *buf, size_t len)
{
	static const char magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cur c = { buf, (const uint8_t *)buf + len };
	uint8_t m[sizeof(magic)], endian;
	uint32_t cnt, nsys;
	uint64_t sz;

	memset(s, 0, sizeof(*s));
	if (!take(&c, m, sizeof(m)) || memcmp(m, magic, sizeof(m)) || !take_str(&c) ||
	    !take(&c, &endian, 1) || !take(&c, &s->lsize, 1) || !take(&c, &s->page, 4))
		return -EINVAL;
	if (endian)		/* big-endian recordings: not read here */
		return -EINVAL;
	s->hp = (const char *)take_section(&c, "header_page", &sz);
	if (!s->hp)
		return -EINVAL;
	s->hp_len = (size_t)sz;
	if (!take_section(&c, "header_event", &sz) || !take(&c, &cnt, 4))
		return -EINVAL;
	for (uint32_t i = 0; i < cnt; i++)	/* ftrace's own formats: not sampled by perf */
		if (!take(&c, &sz, 8) || sz > (uint64_t)(c.end - c.p) || !take(&c, NULL, (size_t)sz))
			return -EINVAL;
	if (!take(&c, &nsys, 4))
		return -EINVAL;
	size_t cap = 0;
	s->broken = true;
	for (uint32_t i = 0; i < nsys; i++) {
		const char *sys = take_str(&c);
		if (!sys || !take(&c, &cnt, 4))
			return 0;
		for (uint32_t j = 0; j < cnt; j++) {
			if (!take(&c, &sz, 8) || sz > (uint64_t)(c.end - c.p))
				return 0;
			ARRAY_GROW(s->fmts, cap, s->nfmts + 1);
			s->fmts[s->nfmts++] = (struct td_fmt){ .sys = sys, .text = (const char *)c.p, .len = (size_t)sz };
			c.p += sz;
		}
	}
	s->broken = false;
	uint32_t ksz, psz;
	if (!take(&c, &ksz, 4) || !take(&c, NULL, ksz))	/* kallsyms: perf skips them too */
		return 0;
	if (!take(&c, &psz, 4) || psz > (size_t)(c.end - c.p))
		return 0;
	if (psz) {	/* the kernel's printk strings, for %s of a const char * */
		s->printk = (const char *)c.p;
		s->printk_len = psz;
	}
	return 0;
}

/* "sys:name" of a format text, for messages (its "name:" line, printable
 * characters only). */
static void fmt_label(const struct td_fmt *t, char *buf, size_t size)
{
	const char *n = NULL, *end = t->text + t->len;
	for (const char *p = t->text; p < end; ) {
		if ((size_t)(end - p) > 5 && !memcmp(p, "name:", 5)) {
			n = p + 5;
			break;
		}
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	char name[64] = "?";
	size_t k = 0;
	for (const char *p = n; p && p < end && *p != '\n' && k < sizeof(name) - 1; p++)
		if (*p > ' ' && *p < 127)
			name[k++] = *p;
	if (k)
		name[k] = '\0';
	snprintf(buf, size, "%.40s:%s", t->sys && *t->sys ? t->sys : "?", name);
}

/* ---- the plan, the child's run and the parent's -------------------------- */

enum step_plan {
	PLAN_DO = 0,
	PLAN_FIELDS,		/* a format: its print format replaced by "" and marked failed */
	PLAN_SKIP,
};

enum step_why {
	WHY_NONE = 0,
	WHY_REFUSED,		/* libtraceevent refused the format (no crash) */
	WHY_CRASH,		/* parsing it killed the child */
	WHY_PRINT_CRASH,	/* printing a record with it killed the child */
	WHY_HANG,		/* the child stopped making progress */
};

/* Steps: 0 the header page, 1..n the formats, n+1 the printk formats,
 * n+2..2n+1 (the child only) a trial print of each format's records. */
struct plan {
	const struct td_scan *s;
	uint8_t *plan, *why;	/* per step 0..n+1 */
	void *out;		/* the child's messages (NULL: the parent's run) */
};

#define STEP_FMT(i) ((uint32_t)(i) + 1)
#define STEP_PRINTK(s) ((uint32_t)(s)->nfmts + 1)
#define STEP_PRINT(s, i) ((uint32_t)(s)->nfmts + 2 + (uint32_t)(i))

/* Messages of the child: u32 (step << 1) when it starts a step, (step << 1)
 * | 1 when libtraceevent refused that step's format. */
static void say(const struct plan *p, uint32_t step, bool refused)
{
	uint32_t m = step << 1 | refused;
	if (p->out)
		isolate_write(p->out, &m, sizeof(m));
}

/* The text a format is parsed from under its plan (*own: a copy to free). */
static const char *fmt_text(const struct td_fmt *t, uint8_t plan, size_t *len, char **own)
{
	static const char empty[] = "print fmt: \"\"\n";
	*own = NULL;
	*len = t->len;
	if (plan != PLAN_FIELDS)
		return t->text;
	size_t keep = t->len;
	for (size_t i = 0; i + 10 <= t->len; i++)
		if ((i == 0 || t->text[i - 1] == '\n') && !memcmp(t->text + i, "print fmt:", 10)) {
			keep = i;
			break;
		}
	*own = xmalloc(keep + sizeof(empty));
	memcpy(*own, t->text, keep);
	memcpy(*own + keep, empty, sizeof(empty));
	*len = keep + sizeof(empty) - 1;
	return *own;
}

/* A record of f's event, its common_type set, the rest filled with b. */
static void trial_print(const struct tp_format *f, uint8_t b)
{
	size_t n = f->rec_min;
	uint8_t *rec = xmalloc(n);
	memset(rec, b, n);
	const struct tp_field *ty = tp_format_field(f, "common_type");
	if (ty && ty->offset + ty->size <= n)
		for (uint32_t k = 0; k < ty->size && k < 8; k++)
			rec[ty->offset + k] = (uint8_t)(f->id >> (8 * k));
	struct strbuf sb = { 0 };
	tp_print_event(&sb, f, rec, n);
	tp_print_fields(&sb, f, rec, n);
	for (size_t i = 0; i < f->nfields; i++)
		tp_print_field(&sb, f, &f->fields[i], rec, n);
	sb_free(&sb);
	free(rec);
}

/* Run the plan into fs (fs->tep made by the caller). In the child (p->out)
 * each format is first tried in a handle of its own, as libtraceevent
 * cannot take a refused event out of one, and each event printed at the
 * end; the parent knows the refused ones from the child. */
static void run_plan(struct tp_formats *fs, const struct plan *p)
{
	const struct td_scan *s = p->s;
	size_t cap = 0;
	uint32_t rec_min = 1;

	size_t *src = xcalloc(s->nfmts + 1, sizeof(*src));	/* fs->v[k] is format src[k] */

	tep_set_long_size(fs->tep, s->lsize);
	if (s->page)
		tep_set_page_size(fs->tep, (int)s->page);
	if (s->hp && p->plan[0] == PLAN_DO) {
		say(p, 0, false);
		char *hpc = xmalloc(s->hp_len + 1);
		memcpy(hpc, s->hp, s->hp_len);
		hpc[s->hp_len] = '\0';
		tep_parse_header_page(fs->tep, hpc, (unsigned long)s->hp_len, s->lsize);
		free(hpc);
	}
	for (size_t i = 0; i < s->nfmts; i++) {
		uint8_t pl = p->plan[STEP_FMT(i)];
		if (pl == PLAN_SKIP)
			continue;
		say(p, STEP_FMT(i), false);
		size_t len;
		char *own;
		const char *text = fmt_text(&s->fmts[i], pl, &len, &own);
		uint32_t ext;
		struct tep_event *ev = NULL;
		if (p->out) {
			struct tep_handle *probe = tp_tep_new();
			bool ok = tp_parse_into(probe, text, len, s->fmts[i].sys, &ext) != NULL;
			tep_free(probe);
			if (ok)
				ev = tp_parse_into(fs->tep, text, len, s->fmts[i].sys, &ext);
			if (!ev)
				say(p, STEP_FMT(i), true);
		} else {
			ev = tp_parse_into(fs->tep, text, len, s->fmts[i].sys, &ext);
		}
		free(own);
		if (!ev)
			continue;
		if (pl == PLAN_FIELDS)
			ev->flags |= TEP_EVENT_FL_FAILED;
		ARRAY_GROW(fs->v, cap, fs->n + 1);
		src[fs->n] = i;
		tp_fill_format(&fs->v[fs->n++], ev, 0);
		if (ext > rec_min)
			rec_min = ext;
	}
	for (size_t i = 0; i < fs->n; i++)
		fs->v[i].rec_min = rec_min;
	if (s->printk && p->plan[STEP_PRINTK(s)] == PLAN_DO) {
		say(p, STEP_PRINTK(s), false);
		char *pc = xmalloc(s->printk_len + 1);
		memcpy(pc, s->printk, s->printk_len);
		pc[s->printk_len] = '\0';
		tep_parse_printk_formats(fs->tep, pc);
		free(pc);
	}
	for (size_t k = 0; p->out && k < fs->n; k++) {
		say(p, STEP_PRINT(s, src[k]), false);
		trial_print(&fs->v[k], 0);
		trial_print(&fs->v[k], 0xff);
	}
	free(src);
}

/* The job a child runs: s and the plan, in one buffer (u8 long size, u32
 * page size, u64 format count, the header page, each format's system and
 * text, the printk formats, as u64 length + bytes, UINT64_MAX for none; the
 * plan's bytes last, where make_plan rewrites them). */
static void put_bytes(struct strbuf *b, const void *p, size_t n, bool some)
{
	uint64_t l = some ? n : UINT64_MAX;
	sb_append_len(b, (const char *)&l, 8);
	if (some)
		sb_append_len(b, p, n);
}

static void job_make(struct strbuf *b, const struct td_scan *s)
{
	uint64_t n = s->nfmts;
	sb_append_len(b, (const char *)&s->lsize, 1);
	sb_append_len(b, (const char *)&s->page, 4);
	sb_append_len(b, (const char *)&n, 8);
	put_bytes(b, s->hp, s->hp_len, s->hp);
	for (size_t i = 0; i < s->nfmts; i++) {
		const char *sys = s->fmts[i].sys ? s->fmts[i].sys : "";
		put_bytes(b, sys, strlen(sys) + 1, true);
		put_bytes(b, s->fmts[i].text, s->fmts[i].len, true);
	}
	put_bytes(b, s->printk, s->printk_len, s->printk);
}

/* One put_bytes field of the job: its bytes (NULL: none), *n their count.
 * false when the job ends first. */
static bool get_bytes(struct cur *c, const char **p, size_t *n)
{
	uint64_t l;
	if (!take(c, &l, 8) || (l != UINT64_MAX && l > (uint64_t)(c->end - c->p)))
		return false;
	*p = l == UINT64_MAX ? NULL : (const char *)c->p;
	*n = *p ? (size_t)l : 0;
	c->p += *n;
	return true;
}

/* The job's bytes back into s (pointers into the job); the plan's offset,
 * or 0 when the job is malformed (cannot happen: job_make's). */
static size_t job_read(const uint8_t *job, size_t len, struct td_scan *s)
{
	struct cur c = { job, job + len };
	uint64_t n;
	memset(s, 0, sizeof(*s));
	if (!take(&c, &s->lsize, 1) || !take(&c, &s->page, 4) || !take(&c, &n, 8) || n > len / 16)
		return 0;
	s->fmts = xcalloc(n ? (size_t)n : 1, sizeof(*s->fmts));
	if (!get_bytes(&c, &s->hp, &s->hp_len))
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct td_fmt *t = &s->fmts[i];
		size_t sl;
		/* the system's name with its NUL, then the text */
		if (!get_bytes(&c, &t->sys, &sl) || !t->sys || !sl || t->sys[sl - 1] ||
		    !get_bytes(&c, &t->text, &t->len) || !t->text)
			return 0;
	}
	if (!get_bytes(&c, &s->printk, &s->printk_len))
		return 0;
	s->nfmts = (size_t)n;
	if ((size_t)(c.end - c.p) != s->nfmts + 2)
		return 0;
	return (size_t)(c.p - job);
}

static int child_main(const void *in, size_t len, void *out)
{
	struct td_scan s;
	size_t at = job_read(in, len, &s);
	if (!at) {
		free(s.fmts);
		return 1;
	}
	struct plan p = { .s = &s, .plan = (uint8_t *)in + at, .why = xcalloc(1, s.nfmts + 2), .out = out };
	struct tp_formats fs = { .tep = tp_tep_new() };
	tep_set_loglevel(TEP_LOG_NONE);
	run_plan(&fs, &p);
	tp_formats_free(&fs);
	free(p.why);
	free(s.fmts);
	return 0;
}

/* After the child died in step st: plan that step differently. */
static void replan(struct plan *p, uint32_t st, enum isolate_end end)
{
	const struct td_scan *s = p->s;
	bool print = st >= STEP_PRINT(s, 0);
	uint32_t at = print ? STEP_FMT(st - STEP_PRINT(s, 0)) : st;
	bool is_fmt = at >= 1 && at <= s->nfmts;
	if (is_fmt && p->plan[at] == PLAN_DO)
		p->plan[at] = PLAN_FIELDS;
	else
		p->plan[at] = PLAN_SKIP;
	p->why[at] = end == ISOLATE_TIMEOUT ? WHY_HANG : print ? WHY_PRINT_CRASH : WHY_CRASH;
}

/* Find, in children, the plan that parses s without dying. false when no
 * child could run or too many steps failed (nothing is safe to parse). */
static bool make_plan(struct plan *p, const char *what)
{
	const struct td_scan *s = p->s;
	struct strbuf job = { 0 };
	job_make(&job, s);
	size_t at = job.len;
	sb_append_len(&job, (const char *)p->plan, s->nfmts + 2);
	bool ok = false;
	/* each failing step costs a run; a file with more is not worth them */
	for (int run = 0; run < 64; run++) {
		struct isolate_result r;
		memcpy(job.buf + at, p->plan, s->nfmts + 2);
		int err = isolate_call(child_main, job.buf, job.len, 10000, &r);
		if (err < 0) {
			pr_warn("%s: cannot start a process to parse its tracepoint formats in (%s)%s; "
				"its tracepoint records are not decoded", what, log_strerr(err), log_limit_suffix(err));
			goto out;
		}
		int64_t last = -1;
		for (size_t k = 0; k + 4 <= r.len; k += 4) {
			uint32_t m;
			memcpy(&m, r.out + k, 4);
			uint32_t st = m >> 1;
			if (!(m & 1))
				last = st;
			else if (st >= 1 && st <= s->nfmts) {
				p->plan[st] = PLAN_SKIP;
				p->why[st] = WHY_REFUSED;
			}
		}
		free(r.out);
		if (r.end == ISOLATE_DONE) {
			ok = true;
			goto out;
		}
		if (last < 0 || last > (int64_t)STEP_PRINT(s, s->nfmts) || r.end == ISOLATE_FAILED) {
			pr_warn("%s: the process parsing its tracepoint formats ended before any (%s); its "
				"tracepoint records are not decoded", what,
				r.end == ISOLATE_CRASHED && r.sig ? strsignal(r.sig) : "no result");
			goto out;
		}
		replan(p, (uint32_t)last, r.end);
	}
	pr_warn("%s: libtraceevent failed on over 64 of its tracepoint formats; its tracepoint records "
		"are not decoded", what);
out:
	sb_free(&job);
	return ok;
}

/* One warning per step the plan changed. */
static void tell(const struct plan *p, const char *what)
{
	const struct td_scan *s = p->s;
	static const char *const how[] = {
		[WHY_CRASH] = "crashes libtraceevent's parser",
		[WHY_PRINT_CRASH] = "crashes libtraceevent when it prints a record",
		[WHY_HANG] = "makes libtraceevent's parser hang",
	};
	for (uint32_t st = 0; st <= STEP_PRINTK(s); st++) {
		uint8_t why = p->why[st];
		if (why == WHY_NONE)
			continue;
		if (st == 0 || st == STEP_PRINTK(s)) {
			pr_warn("%s: its tracing data's %s %s (a corrupt or hostile file); ignored", what,
				st ? "printk formats" : "header page", how[why]);
			continue;
		}
		char ev[128];
		fmt_label(&s->fmts[st - 1], ev, sizeof(ev));
		if (why == WHY_REFUSED)
			pr_warn("%s: the format of tracepoint %s does not parse; its records are not decoded",
				what, ev);
		else if (p->plan[st] == PLAN_FIELDS)
			pr_warn("%s: the print format of tracepoint %s %s (a corrupt or hostile file); its "
				"records show [FAILED TO PARSE] and their fields", what, ev, how[why]);
		else
			pr_warn("%s: the format of tracepoint %s %s (a corrupt or hostile file); its records "
				"are not decoded", what, ev, how[why]);
	}
}

/* Parse s into fs (fs->tep made by the caller), guarded. */
static void load_scan(struct tp_formats *fs, const struct td_scan *s, const char *what, bool quiet)
{
	size_t nsteps = s->nfmts + 2;
	struct plan p = { .s = s, .plan = xcalloc(1, nsteps), .why = xcalloc(1, nsteps) };
	if (make_plan(&p, what)) {
		if (!quiet)
			tell(&p, what);
		run_plan(fs, &p);
	}
	free(p.plan);
	free(p.why);
}

void tp_formats_load(struct tp_formats *fs, const void *tracing_data, size_t len)
{
	memset(fs, 0, sizeof(*fs));
	if (!tracing_data)
		return;
	fs->tep = tp_tep_new();
	struct td_scan s;
	if (scan(&s, tracing_data, len) < 0) {
		pr_debug("HEADER_TRACING_DATA does not parse (%zu bytes); no tracepoint format read from it", len);
		return;
	}
	load_scan(fs, &s, "the recording's tracing data", false);
	if (s.broken)
		pr_debug("HEADER_TRACING_DATA breaks off (%zu bytes); %zu tracepoint formats read from it",
			 len, fs->n);
	free(s.fmts);
}

int tp_format_parse(const char *text, size_t len, const char *sys, struct tp_format *out)
{
	struct td_fmt t = { .sys = sys ? sys : "", .text = text, .len = len };
	struct td_scan s = { .lsize = sizeof(long), .fmts = &t, .nfmts = 1 };
	struct tp_formats fs = { .tep = tp_tep_new() };
	memset(out, 0, sizeof(*out));
	load_scan(&fs, &s, "a tracepoint format", true);
	if (!fs.n) {
		tp_formats_free(&fs);
		return -EINVAL;
	}
	*out = fs.v[0];
	out->own = fs.tep;
	free(fs.v);
	return 0;
}

int tp_format_parse_kernel(const char *text, size_t len, const char *sys, struct tp_format *out)
{
	struct tep_handle *tep = tp_tep_new();
	uint32_t ext;
	memset(out, 0, sizeof(*out));
	struct tep_event *ev = tp_parse_into(tep, text, len, sys, &ext);
	if (!ev) {
		tep_free(tep);
		return -EINVAL;
	}
	tp_fill_format(out, ev, ext);
	out->own = tep;
	return 0;
}
