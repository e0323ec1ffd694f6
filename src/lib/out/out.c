// SPDX-License-Identifier: GPL-2.0-only
/* Text table (perf report --stdio layout, perf 6.1) and perf report --stats'
 * record counts. Call graphs under the entries: callgraph.c; JSON:
 * profile_json.c; folded stacks: folded.c.
 *
 * Layout facts reproduced from perf (ui/stdio/hist.c, util/sort.c):
 * - "  " before every column, including the first; overhead columns are 8
 *   wide ("%7.2f%%" right-aligned after the separator);
 * - key columns are as wide as their widest value over ALL entries (also
 *   those hidden by --percent-limit), at least the header; every column but
 *   the last is padded, and the symbol column ("[k] name") is never padded;
 * - unresolved symbols widen the symbol column to 22 and the dso to 16. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "log.h"
#include "out/out_int.h"

/* perf's convert_unit(): "6K", "12M", or the plain number followed by a space. */
static void fmt_samples(char *buf, size_t len, uint64_t n)
{
	char unit = ' ';

	if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'M';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'G';
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)n, unit);
}

static bool is_unresolved_sym(const char *s)
{
	/* machine_resolve() names unresolved addresses "0x%016llx" */
	if (!s || s[0] != '0' || s[1] != 'x' || strlen(s) != 18)
		return false;
	for (int i = 2; i < 18; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* ---- table ----------------------------------------------------------------- */

struct cols {
	bool fields;		/* -F: overhead is "Overhead" even with children */
	int w[SORT__MAX];
	enum sort_key col[2 * SORT__MAX + 2];	/* the columns, in order */
	int n;
};

/* perf's column headers ("Pid:Command" is indented in perf's sort.c) */
static const char *col_header(const struct hist *h, const struct cols *c, enum sort_key k)
{
	if (k == SORT_PID)
		return "    Pid:Command";
	if (k == SORT_OVERHEAD && hist_opts(h)->children && !c->fields)
		return "Self";
	if (sort_key_is_tp(k))
		return hist_opts(h)->tp_cols[k - SORT_TP0].name;
	return sort_key_header(k);
}

static void add_col(struct cols *c, enum sort_key k)
{
	for (int i = 0; i < c->n; i++)
		if (c->col[i] == k)
			return;
	c->col[c->n++] = k;
}

/* The columns: the fields given, else the overheads (children, self), the
 * samples with -n, the period with --show-total-period; then the sort keys
 * not shown yet (perf's perf_hpp__setup_output_field). */
static void pick_cols(const struct hist *h, const struct out_opts *o, struct cols *c)
{
	const struct hist_opts *ho = hist_opts(h);

	c->n = 0;
	c->fields = o->fields && o->nfields > 0 && o->fields_strict;
	if (o->fields && o->nfields > 0) {
		for (int i = 0; i < o->nfields; i++)
			if (!o->elide[o->fields[i]])
				add_col(c, o->fields[i]);
	} else {
		if (ho->children)
			add_col(c, SORT_OVERHEAD_CHILDREN);
		add_col(c, SORT_OVERHEAD);
		if (o->show_nr_samples)
			add_col(c, SORT_SAMPLE);
		if (o->show_total_period)
			add_col(c, SORT_PERIOD);
	}
	for (int k = 0; k < ho->nkeys; k++)
		if (!o->elide[ho->keys[k]])
			add_col(c, ho->keys[k]);
}

static void print_elided(FILE *f, const struct hist *h, const struct out_opts *o)
{
	const struct hist_opts *ho = hist_opts(h);
	bool any = false;
	for (int k = 0; k < ho->nkeys; k++) {
		enum sort_key key = ho->keys[k];
		if (!o->elide[key])
			continue;
		fprintf(f, "%s# %s: %s\n", any ? "" : "#\n", key == SORT_SYM ? "symbol" : sort_key_name(key),
			o->elide[key]);
		any = true;
	}
}

/* A tracepoint key's column: the trace line as wide as the longest one; a
 * field as perf sizes it: its fixed width, the longest value shown (unless
 * --raw-trace), and the size of a dynamic field's data in the entries perf
 * compared by this key while adding samples (approximated: those of two
 * samples or more, and all of them when it is the first key). */
static size_t tp_width(const struct hist *h, int t, size_t w)
{
	const struct hist_opts *ho = hist_opts(h);
	const struct hist_tp_col *col = &ho->tp_cols[t];
	bool first = sort_first_key(ho->keys, ho->nkeys) == SORT_TP0 + t;
	size_t n = hist_nr_entries(h);
	if (!col->left && (size_t)col->min_width > w)
		w = (size_t)col->min_width;
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_at(h, i);
		if (!e->tp)
			continue;
		size_t l = strlen(e->tp->text[t]);
		if (!col->left && col->raw)
			l = 0;
		if (!col->left && (e->nr_samples > 1 || (first && n > 1)) && e->tp->dyn_len[t] > l)
			l = e->tp->dyn_len[t];
		if (l > w)
			w = l;
	}
	return w;
}

static void compute_widths(const struct hist *h, struct cols *c)
{
	size_t n = hist_nr_entries(h);
	size_t comm = 0, dso = 0, sym = 0, parent = 0, srcline = 0;
	bool unres = false;

	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_at(h, i);
		size_t pl = strlen(e->parent ? e->parent : "[other]");
		if (pl > parent)
			parent = pl;
		pl = strlen(out_nz(e->srcline));
		if (pl > srcline)
			srcline = pl;
		/* perf sizes the comm and pid columns by the thread's last comm
		 * (a workload's "perf-exec" before its exec does not count) */
		size_t l = e->thread_comm ? strlen(e->thread_comm) : strlen(out_nz(e->comm));
		if (l > comm)
			comm = l;
		l = strlen(out_nz(e->dso));
		if (l > dso)
			dso = l;
		l = strlen(out_nz(e->sym)) + 4;
		if (l > sym)
			sym = l;
		if (is_unresolved_sym(e->sym))
			unres = true;
	}
	if (unres) {
		if (sym < 22)
			sym = 22;
		if (dso < 16)
			dso = 16;
	}
	for (int k = 0; k < c->n; k++) {
		enum sort_key key = c->col[k];
		size_t w = strlen(col_header(h, c, key));
		switch (key) {
		case SORT_COMM:
			w = w > comm ? w : comm;
			break;
		case SORT_PID:
			w = w > comm + 8 ? w : comm + 8;
			break;
		case SORT_TID:
			w = 7;
			break;
		case SORT_DSO:
			w = w > dso ? w : dso;
			break;
		case SORT_SYM:
			w = w > sym ? w : sym;
			break;
		case SORT_PARENT:
			w = w > parent ? w : parent;
			break;
		case SORT_SRCLINE:
			w = w > srcline ? w : srcline;
			break;
		case SORT_PERIOD:
		case SORT_SAMPLE:
			w = 12;
			break;
		case SORT_OVERHEAD:
		case SORT_OVERHEAD_CHILDREN:
			w = 8;
			break;
		case SORT_CPU:
		default:
			if (sort_key_is_tp(key))
				w = tp_width(h, key - SORT_TP0, w);
			break;
		}
		c->w[key] = (int)w;
	}
}

static void print_dots(FILE *f, int n)
{
	for (int i = 0; i < n; i++)
		fputc_unlocked('.', f);
}

static bool right_aligned(const struct hist *h, enum sort_key k)
{
	return k == SORT_TID || sort_key_is_field(k) ||
	       (sort_key_is_tp(k) && !hist_opts(h)->tp_cols[k - SORT_TP0].left);
}

static void print_header(FILE *f, const struct hist *h, const struct cols *c)
{
	for (int k = 0; k < c->n; k++) {
		enum sort_key key = c->col[k];
		fputs_unlocked(k ? "  " : "# ", f);
		if (right_aligned(h, key))
			fprintf(f, "%*s", c->w[key], col_header(h, c, key));
		else
			fprintf(f, "%-*s", c->w[key], col_header(h, c, key));
	}
	fputc_unlocked('\n', f);
	for (int k = 0; k < c->n; k++) {
		fputs_unlocked(k ? "  " : "# ", f);
		print_dots(f, c->w[c->col[k]]);
	}
	fprintf(f, "\n#\n");
}

void out_put_pct(FILE *f, int width, double pct)
{
	double t = pct * 100.0;
	/* printf rounds pct's exact value; t is within 1e-11 of it (pct <=
	 * 1e9), so it rounds the same unless it is that close to a tie */
	if (!(pct >= 0 && pct <= 1e9) || width < 0 || fabs(t - floor(t) - 0.5) < 1e-6) {
		fprintf(f, "%*.2f%%", width, pct);
		return;
	}
	uint64_t cents = (uint64_t)floor(t + 0.5);
	char buf[32], *p = buf + sizeof(buf);
	*--p = '%';
	*--p = (char)('0' + cents % 10);
	*--p = (char)('0' + cents / 10 % 10);
	*--p = '.';
	uint64_t units = cents / 100;
	do
		*--p = (char)('0' + units % 10);
	while ((units /= 10));
	int len = (int)(buf + sizeof(buf) - p) - 1;	/* without the '%' */
	if (width > len)
		out_put_spaces(f, width - len);
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

void out_put_spaces(FILE *f, int n)
{
	static const char sp[] = "                                                                ";
	for (; n > 0; n -= (int)sizeof(sp) - 1)
		fwrite_unlocked(sp, 1, n < (int)sizeof(sp) - 1 ? (size_t)n : sizeof(sp) - 1, f);
}

/* fprintf(f, "%-*.*s", w, w, s): at most w bytes of s, padded to w. */
static void put_cut_left(FILE *f, const char *s, int w)
{
	size_t n = w > 0 ? strnlen(s, (size_t)w) : 0;
	fwrite_unlocked(s, 1, n, f);
	out_put_spaces(f, w - (int)n);
}

static void print_row(FILE *f, const struct hist *h, const struct hist_entry *e, const struct cols *c)
{
	uint64_t total = hist_total_period(h);

	for (int k = 0; k < c->n; k++) {
		enum sort_key key = c->col[k];
		bool last = k == c->n - 1;
		int w = c->w[key];
		fputs_unlocked("  ", f);
		switch (key) {
		case SORT_OVERHEAD_CHILDREN:	/* perf: N/A without children sums */
			if (hist_opts(h)->children)
				out_put_pct(f, w - 1, out_pct(e->children, total));
			else
				fprintf(f, "%*s", w, "N/A");
			break;
		case SORT_OVERHEAD:
			out_put_pct(f, w - 1, out_pct(e->self, total));
			break;
		case SORT_SAMPLE:
			fprintf(f, "%*llu", w, (unsigned long long)e->nr_samples);
			break;
		case SORT_PERIOD:
			fprintf(f, "%*llu", w, (unsigned long long)e->self);
			break;
		case SORT_COMM:
			put_cut_left(f, out_nz(e->comm), w);
			break;
		case SORT_PID:
			fprintf(f, "%7d:%-*.*s", e->pid, w - 8, w - 8, out_nz(e->thread_comm ? e->thread_comm : e->comm));
			break;
		case SORT_TID:
			fprintf(f, "%*d", w, e->tid);
			break;
		case SORT_DSO:
			put_cut_left(f, out_nz(e->dso), w);
			break;
		case SORT_SYM: {
			const char *sym = out_nz(e->sym);
			size_t len = strlen(sym);
			fputc_unlocked('[', f);
			fputc_unlocked(e->level ? e->level : '?', f);
			fputs_unlocked("] ", f);
			fwrite_unlocked(sym, 1, len, f);
			if (!last && 4 + (long)len < w)
				out_put_spaces(f, w - 4 - (int)len);
			break;
		}
		case SORT_CPU:
			fprintf(f, "%*.*d", w, w, e->cpu);
			break;
		case SORT_STATE:
			fprintf(f, "%-*c", last ? 1 : w, e->state ? e->state : '-');
			break;
		case SORT_PARENT:
			fprintf(f, "%-*s", w, e->parent ? e->parent : "[other]");
			break;
		case SORT_SRCLINE:
			fprintf(f, "%-*s", last ? 0 : w, out_nz(e->srcline));
			break;
		default:
			if (sort_key_is_tp(key)) {
				int t = key - SORT_TP0;
				const char *v = e->tp ? e->tp->text[t] : "";
				if (hist_opts(h)->tp_cols[t].left)
					fprintf(f, "%-*s", last ? 0 : w, v);
				else
					fprintf(f, "%*.*s", w, w, v);
			}
			break;
		}
	}
	fputc_unlocked('\n', f);
}

int out_table(FILE *f, const struct hist *h, const struct out_opts *o)
{
	char nbuf[32];
	struct cols c = { .n = 0 };
	uint64_t nsamples = o->total_samples ? o->total_samples : hist_total_samples(h);

	fmt_samples(nbuf, sizeof(nbuf), nsamples);
	pick_cols(h, o, &c);
	compute_widths(h, &c);
	if (!o->quiet) {
		print_elided(f, h, o);
		fprintf(f, "#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)o->lost_samples);
		fprintf(f, "# Samples: %s of event '%s'", nbuf, o->event_name ? o->event_name : "cpu-clock");
		if (o->time_slices)
			fprintf(f, " (time slices: %s)", o->time_slices);
		fputc_unlocked('\n', f);
		fprintf(f, "# Event count (approx.): %llu\n#\n", (unsigned long long)hist_total_period(h));
		print_header(f, h, &c);
	}
	for (size_t i = 0; i < hist_nr_entries(h); i++) {
		const struct hist_entry *e = hist_entry_at(h, i);
		if (!out_shown_entry(h, e, o))
			continue;
		print_row(f, h, e, &c);
		if (o->callgraph)
			out_print_callgraph(f, h, e, o);
	}
	fputs_unlocked("\n\n", f);
	if (ferror(f))
		return -1;	/* the caller names the file (out/ofile.h) */
	return 0;
}

/* ---- record counts (--stats) ------------------------------------------------ */

int out_record_stats(FILE *f, const uint64_t *nr, size_t ntypes, const char *(*type_name)(uint32_t),
		     const struct out_stats_event *ev, size_t nev)
{
	uint64_t total = 0;
	for (size_t i = 0; i < ntypes; i++)
		total += nr[i];
	fprintf(f, "\nAggregated stats:\n%16s events: %10llu\n", "TOTAL", (unsigned long long)total);
	for (size_t i = 0; i < ntypes; i++)
		if (nr[i])
			fprintf(f, "%16s events: %10llu  (%4.1f%%)\n", type_name((uint32_t)i),
				(unsigned long long)nr[i], out_pct(nr[i], total));
	for (size_t i = 0; i < nev; i++) {
		if (!ev[i].samples)
			continue;
		fprintf(f, "%s stats:\n%16s events: %10llu\n", ev[i].name, "SAMPLE",
			(unsigned long long)ev[i].samples);
	}
	if (ferror(f)) {
		pr_err("writing the record counts: %s; check the output file and the free space",
		       strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}
