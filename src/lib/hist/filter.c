// SPDX-License-Identifier: GPL-2.0-only
/* Sample filters of a report: --time ranges, thread/DSO/symbol lists. See
 * filter.h for which samples are dropped and which only filtered. */
#include "hist/filter.h"
#include "hist/hist.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- --time ---------------------------------------------------------------- */

/* "SEC[.FRACTION]" (up to 9 digits of fraction) -> ns; "" -> 0 (open). */
static bool parse_ns(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, nfrac = 0;

	*ns = 0;
	if (len == 0)
		return true;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return false;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0 && (i >= len || s[i] != '.'))
		return false;
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (++nfrac > 9)
				return false;
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		}
	}
	if (i != len)
		return false;
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return true;
}

/* "12.5%" -> 0.125 */
static bool parse_pct(const char *s, size_t len, double *out)
{
	char buf[64];
	char *end;

	if (len == 0 || len >= sizeof(buf) || s[len - 1] != '%')
		return false;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	double v = strtod(buf, &end);
	if (end == buf || *end || !(v >= 0) || v > 100)
		return false;
	*out = v / 100.0;
	return true;
}

bool time_ranges_need_bounds(const char *s)
{
	return s && strchr(s, '%');
}

/* One percent piece: "10%/2" or "0%-10%". */
static bool parse_pct_piece(const char *p, size_t len, uint64_t first, uint64_t last, struct time_range *r)
{
	const char *slash = memchr(p, '/', len), *dash = memchr(p, '-', len);
	double a, b;

	if (slash) {
		double pc;
		uint64_t i;
		char buf[32];
		size_t nl = len - (size_t)(slash + 1 - p);
		if (!parse_pct(p, (size_t)(slash - p), &pc) || pc <= 0 || nl == 0 || nl >= sizeof(buf))
			return false;
		memcpy(buf, slash + 1, nl);
		buf[nl] = '\0';
		if (!parse_u64(buf, &i) || i == 0)
			return false;
		a = pc * (double)(i - 1);
		b = pc * (double)i;
	} else if (dash) {
		if (!parse_pct(p, (size_t)(dash - p), &a) ||
		    !parse_pct(dash + 1, len - (size_t)(dash + 1 - p), &b))
			return false;
	} else {
		return false;
	}
	if (a > 1.0 || b > 1.0 || a > b)
		return false;
	uint64_t total = last > first ? last - first : 0;
	r->start = first + (uint64_t)((double)total * a);
	r->end = first + (uint64_t)((double)total * b);
	return true;
}

int time_ranges_parse(const char *s, uint64_t first, uint64_t last, struct time_range **out, char *err,
		      size_t errlen)
{
	bool pct = time_ranges_need_bounds(s);
	char sep = pct ? ',' : ' ';
	struct time_range *r = NULL;
	size_t n = 0, cap = 0;
	const char *p = s ? s : "";

	*out = NULL;
	while (*p) {
		if (*p == sep) {
			p++;
			continue;
		}
		const char *end = strchr(p, sep);
		size_t len = end ? (size_t)(end - p) : strlen(p);
		ARRAY_GROW(r, cap, n + 1);
		struct time_range *t = &r[n];
		if (pct) {
			if (!parse_pct_piece(p, len, first, last, t)) {
				snprintf(err, errlen, "'%.*s' is not a percent slice: use P%%/N (the Nth slice of "
					 "P%%) or A%%-B%%, e.g. 10%%/2 or 0%%-10%%", (int)len, p);
				goto bad;
			}
		} else {
			const char *comma = memchr(p, ',', len);
			if (!comma || !parse_ns(p, (size_t)(comma - p), &t->start) ||
			    !parse_ns(comma + 1, len - (size_t)(comma + 1 - p), &t->end)) {
				snprintf(err, errlen, "'%.*s' is not a time range: use START,STOP in "
					 "seconds.nanoseconds as perf script shows them (either may be "
					 "empty), e.g. 1234.5,1236", (int)len, p);
				goto bad;
			}
			if (t->end && t->start > t->end) {
				snprintf(err, errlen, "'%.*s' ends before it starts", (int)len, p);
				goto bad;
			}
		}
		if (n > 0 && (!r[n - 1].end || t->start <= r[n - 1].end)) {
			snprintf(err, errlen, "the ranges overlap or are out of order at '%.*s': give them "
				 "in time order", (int)len, p);
			goto bad;
		}
		n++;
		p += len;
	}
	if (n == 0) {
		snprintf(err, errlen, "no time range given");
		goto bad;
	}
	*out = r;
	return (int)n;
bad:
	free(r);
	return -EINVAL;
}

bool time_ranges_skip(const struct time_range *r, size_t n, uint64_t t)
{
	for (size_t i = 0; i < n; i++)
		if (t >= r[i].start && (!r[i].end || t <= r[i].end))
			return false;
	return n > 0;
}

/* ---- thread, DSO and symbol lists ------------------------------------------- */

static int add_words(char ***v, size_t *n, const char *list)
{
	const char *p = list;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == 0)
			return -EINVAL;
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = xstrndup(p, len);
		if (!end)
			return 0;
		p = end + 1;
	}
}

static int add_ids(int **v, size_t *n, const char *list, const char *what, char *err, size_t errlen)
{
	const char *p = list;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char buf[24];
		char *e;
		long id = 0;
		if (len > 0 && len < sizeof(buf)) {
			memcpy(buf, p, len);
			buf[len] = '\0';
			id = strtol(buf, &e, 10);
		}
		if (len == 0 || len >= sizeof(buf) || *e || id < -1 || id > INT32_MAX) {
			snprintf(err, errlen, "'%.*s' is not a %s: give numbers separated by commas",
				 (int)(len > 40 ? 40 : len), p, what);
			return -EINVAL;
		}
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = (int)id;
		if (!end)
			return 0;
		p = end + 1;
	}
}

int hist_filter_add_comms(struct hist_filter *f, const char *list)
{
	return add_words(&f->comms, &f->ncomms, list);
}

int hist_filter_add_dsos(struct hist_filter *f, const char *list)
{
	return add_words(&f->dsos, &f->ndsos, list);
}

int hist_filter_add_syms(struct hist_filter *f, const char *list)
{
	return add_words(&f->syms, &f->nsyms, list);
}

int hist_filter_add_pids(struct hist_filter *f, const char *list, char *err, size_t errlen)
{
	return add_ids(&f->pids, &f->npids, list, "process id", err, errlen);
}

int hist_filter_add_tids(struct hist_filter *f, const char *list, char *err, size_t errlen)
{
	return add_ids(&f->tids, &f->ntids, list, "thread id", err, errlen);
}

bool hist_filter_active(const struct hist_filter *f)
{
	return f && (f->ncomms || f->npids || f->ntids || f->ndsos || f->nsyms);
}

static void free_words(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void hist_filter_free(struct hist_filter *f)
{
	free_words(f->comms, f->ncomms);
	free_words(f->dsos, f->ndsos);
	free_words(f->syms, f->nsyms);
	free(f->pids);
	free(f->tids);
	memset(f, 0, sizeof(*f));
}

static bool has_word(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static bool has_id(const int *v, size_t n, int id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

static bool dso_listed(const struct hist_filter *f, const char *dso)
{
	for (size_t i = 0; i < f->ndsos; i++) {
		const char *want = f->dsos[i], *slash = strrchr(want, '/');
		if (!strcmp(want, dso) || (slash && want[0] == '/' && !strcmp(slash + 1, dso)))
			return true;
	}
	return false;
}

bool hist_filter_match_thread(const struct hist_filter *f, const char *comm, int pid, int tid)
{
	if (!f)
		return true;
	if (f->ncomms && !has_word(f->comms, f->ncomms, comm ? comm : ""))
		return false;
	if (f->npids && !has_id(f->pids, f->npids, pid))
		return false;
	if (f->ntids && !has_id(f->tids, f->ntids, tid))
		return false;
	return true;
}

bool hist_filter_match_frame(const struct hist_filter *f, const char *dso, const char *sym)
{
	if (!f)
		return true;
	if (f->ndsos && (!dso || !dso_listed(f, dso)))
		return false;
	if (f->nsyms && (!sym || !has_word(f->syms, f->nsyms, sym)))
		return false;
	return true;
}

bool hist_filter_has_frame(const struct hist_filter *f)
{
	return f && (f->ndsos || f->nsyms);
}

bool hist_filter_match(const struct hist_filter *f, const char *comm, int pid, int tid,
			 const struct hist_frame *leaf)
{
	return hist_filter_match_thread(f, comm, pid, tid) &&
	       hist_filter_match_frame(f, leaf ? leaf->dso : NULL, leaf ? leaf->sym : NULL);
}
