// SPDX-License-Identifier: GPL-2.0-only
/* Tracepoint sort keys, see tpkeys.h. perf 6.1 (util/sort.c, dynamic
 * entries): a field key splits entries by the field's bytes and, at equal
 * overhead, orders them by those bytes descending (memcmp); it shows the
 * field's value as the formatted line has it ("prev_state=R+" gives "R+"),
 * else (--raw-trace, or a name the line does not show) as libtraceevent
 * prints the field. The trace key splits and orders (ascending) by the line. */
#include "hist/hist_int.h"
#include "hist/tpkeys.h"
#include "oa.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool tp_word(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_:.-", s[i]))
			return false;
	return true;
}

struct tp_names {
	char **names;
	int *nnames;
};

/* A sort key by name, else a tracepoint key name: SORT_TP0 + j for names[j]. */
static bool tp_word_key(void *ctx, const char *p, size_t len, enum sort_key *key)
{
	struct tp_names *c = ctx;
	char **names = c->names;
	int *nnames = c->nnames;
	char word[128];
	if (len >= sizeof(word))
		return false;
	memcpy(word, p, len);
	word[len] = '\0';
	enum sort_key k[1];
	const char *b;
	if (sort_keys_parse(word, k, 1, &b) == 1) {
		*key = k[0];
	} else if (!sort_key_perf_only(word) && tp_word(word, len)) {
		int j;
		for (j = 0; j < *nnames; j++)
			if (!strcmp(names[j], word))
				break;
		if (j == *nnames) {
			if (j >= TPKEYS_MAX_NAMES || j >= HIST_TP_MAX)
				return false;
			names[(*nnames)++] = xstrdup(word);
		}
		*key = (enum sort_key)(SORT_TP0 + j);
	} else {
		return false;
	}
	return true;
}

int sort_keys_parse_tp(const char *s, enum sort_key *keys, int max, char **names, int *nnames,
		       const char **bad)
{
	struct tp_names c = { names, nnames };

	*nnames = 0;
	int n = sort_keys_parse_list(s, keys, max, bad, tp_word_key, &c);
	if (n < 0) {
		tpkeys_names_free(names, *nnames);
		*nnames = 0;
	}
	return n;
}

void tpkeys_names_free(char **names, int n)
{
	for (int i = 0; i < n; i++) {
		free(names[i]);
		names[i] = NULL;
	}
}

/* name = [EVENT.]FIELD: *ev (or NULL) and the field part. */
static const char *split_name(const char *name, char *ev, size_t evcap, bool *has_ev)
{
	const char *dot = strrchr(name, '.');
	*has_ev = dot != NULL;
	if (!dot)
		return name;
	snprintf(ev, evcap, "%.*s", (int)(dot - name), name);
	return dot + 1;
}

/* Is fmt the event named ev ("sys:name", or "name")? */
static bool event_is(const struct tp_format *fmt, const char *ev)
{
	const char *c = strchr(ev, ':');
	if (!c)
		return !strcmp(fmt->name, ev);
	return strlen(fmt->sys) == (size_t)(c - ev) && !strncmp(fmt->sys, ev, (size_t)(c - ev)) &&
	       !strcmp(fmt->name, c + 1);
}

static const struct tp_field *own_field(const struct tp_format *fmt, const char *name)
{
	const struct tp_field *fl = tp_format_field(fmt, name);
	return fl && !(fl->flags & TPF_COMMON) ? fl : NULL;
}

bool tpkeys_known(const char *name, const struct tp_formats *fs, char **hint)
{
	char ev[128];
	bool has_ev;
	const char *field = split_name(name, ev, sizeof(ev), &has_ev);

	*hint = NULL;
	if (!strcmp(name, "trace") || !strcmp(name, "trace_fields"))
		return true;
	for (size_t i = 0; i < fs->n; i++)
		if ((!has_ev || event_is(&fs->v[i], ev)) && own_field(&fs->v[i], field))
			return true;
	/* close matches: fields of about that name (of the event named, if any) */
	struct strbuf sb = { 0 };
	size_t wl = strlen(field), limit = wl / 3 > 2 ? wl / 3 : 2, nh = 0;
	for (size_t i = 0; i < fs->n && nh < 5; i++) {
		const struct tp_format *f = &fs->v[i];
		bool ev_ok = !has_ev || event_is(f, ev);
		for (size_t k = 0; k < f->nfields && nh < 5; k++) {
			const struct tp_field *fl = &f->fields[k];
			if (fl->flags & TPF_COMMON)
				continue;
			bool close = ev_ok ? (edit_distance(field, fl->name) <= limit ||
					      (wl >= 3 && strstr(fl->name, field)))
					   : !strcmp(field, fl->name);
			if (!close)
				continue;
			char cand[256];
			if (has_ev)
				snprintf(cand, sizeof(cand), "%s:%s.%s", f->sys, f->name, fl->name);
			else
				snprintf(cand, sizeof(cand), "%s", fl->name);
			if (sb.buf && strstr(sb.buf, cand))
				continue;
			sb_printf(&sb, "%s%s", sb.len ? ", " : "", cand);
			nh++;
		}
	}
	*hint = sb.buf ? sb.buf : xstrdup("");
	return false;
}

static void add_col(struct hist_opts *ho, struct tpkey *tk, int *ntp, const struct tp_format *fmt,
		    const struct tp_field *fl, bool raw)
{
	if (*ntp >= HIST_TP_MAX || ho->nkeys >= SORT__MAX)
		return;
	int i = (*ntp)++;
	tk[i] = (struct tpkey){ .fmt = fmt, .field = fl };
	ho->tp_cols[i] = fl ? (struct hist_tp_col){ .name = fl->name, .min_width = tp_field_width(fl, 0) }
			    : (struct hist_tp_col){ .name = "Trace output", .left = true };
	ho->tp_cols[i].raw = raw;
	ho->keys[ho->nkeys++] = (enum sort_key)(SORT_TP0 + i);
}

int tpkeys_expand(const enum sort_key *keys, int nkeys, char *const *names, const char *event_name,
		  const struct tp_format *fmt, bool raw_trace, struct hist_opts *ho, struct tpkey *tk)
{
	enum sort_key in[SORT__MAX];
	int n = nkeys < SORT__MAX ? nkeys : SORT__MAX, ntp = 0;
	memcpy(in, keys, (size_t)n * sizeof(*in));
	ho->nkeys = 0;
	for (int k = 0; k < n; k++) {
		if (!sort_key_is_tp(in[k])) {
			if (ho->nkeys < SORT__MAX)
				ho->keys[ho->nkeys++] = in[k];
			continue;
		}
		const char *name = names[in[k] - SORT_TP0];
		if (!strcmp(name, "trace")) {
			add_col(ho, tk, &ntp, fmt, NULL, raw_trace);
		} else if (!strcmp(name, "trace_fields")) {
			for (size_t i = 0; fmt && i < fmt->nfields; i++)
				if (!(fmt->fields[i].flags & TPF_COMMON))
					add_col(ho, tk, &ntp, fmt, &fmt->fields[i], raw_trace);
		} else if (fmt) {
			char ev[128];
			bool has_ev;
			const char *field = split_name(name, ev, sizeof(ev), &has_ev);
			if (has_ev && !event_is(fmt, ev) && !(event_name && !strcmp(event_name, ev)))
				continue;
			const struct tp_field *fl = own_field(fmt, field);
			if (fl)
				add_col(ho, tk, &ntp, fmt, fl, raw_trace);
		}
	}
	ho->no_default_keys = ho->nkeys == 0;
	return ntp;
}

/* ---- values ---------------------------------------------------------------- */

struct bent {
	char *k;
	size_t kl;
	const struct hist_tp *v;
};

/* Byte strings to values: entries in order, found through an index. */
struct bmap {
	struct bent *e;
	size_t n, cap;
	struct oa_index index;
};

static uint64_t blob_hash(const void *k, size_t n)
{
	return hash_u64(mem_hash(k, n));
}

/* The value of key k (false: none; *p ready for bmap_put). */
static bool bmap_get(const struct bmap *m, const void *k, size_t kl, uint64_t h, struct oa_probe *p,
		     const struct hist_tp **v)
{
	*p = oa_probe(&m->index, h);
	for (uint32_t i; (i = oa_next(&m->index, p)) != OA_NONE;)
		if (m->e[i].kl == kl && !memcmp(m->e[i].k, k, kl)) {
			*v = m->e[i].v;
			return true;
		}
	return false;
}

/* After a bmap_get of k that found nothing, p from it. */
static void bmap_put(struct bmap *m, struct oa_probe *p, const void *k, size_t kl, const struct hist_tp *v)
{
	ARRAY_GROW(m->e, m->cap, m->n + 1);
	struct bent *s = &m->e[m->n];
	s->k = xmalloc(kl ? kl : 1);
	memcpy(s->k, k, kl);
	s->kl = kl;
	s->v = v;
	oa_insert(&m->index, p, (uint32_t)m->n++);
}

static void bmap_free(struct bmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].k);
	free(m->e);
	oa_free(&m->index);
	memset(m, 0, sizeof(*m));
}

struct tpkeys {
	struct tpkey tk[HIST_TP_MAX];
	int n;
	bool raw_trace;
	uint32_t payload_off;		/* the event's own fields start here */
	struct bmap by_payload;		/* the record's own bytes -> values */
	struct bmap by_id;		/* the ids -> values (interning) */
	struct hist_tp **all;
	size_t nall, cap;
};

struct tpkeys *tpkeys_new(const struct tpkey *tk, int n, bool raw_trace)
{
	struct tpkeys *t = xcalloc(1, sizeof(*t));
	t->n = n < HIST_TP_MAX ? n : HIST_TP_MAX;
	memcpy(t->tk, tk, (size_t)t->n * sizeof(*tk));
	t->raw_trace = raw_trace;
	t->payload_off = UINT32_MAX;
	for (int i = 0; i < t->n; i++)
		for (size_t k = 0; t->tk[i].fmt && k < t->tk[i].fmt->nfields; k++) {
			const struct tp_field *fl = &t->tk[i].fmt->fields[k];
			if (!(fl->flags & TPF_COMMON) && fl->offset < t->payload_off)
				t->payload_off = fl->offset;
		}
	if (t->payload_off == UINT32_MAX)
		t->payload_off = 0;
	return t;
}

static char *sb_take(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");
	memset(sb, 0, sizeof(*sb));
	return s;
}

/* The field's bytes as hex, each byte complemented: ascending order of the
 * ids is perf's descending memcmp of the bytes. */
static void put_id(struct strbuf *sb, const struct tp_field *fl, const void *raw, size_t size, uint32_t *dyn)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *d;
	size_t n;
	*dyn = 0;
	if (!tp_field_data(fl, raw, size, &d, &n))
		n = 0;
	if (fl->flags & TPF_DYNAMIC)
		*dyn = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		uint8_t b = (uint8_t)~d[i];
		char x[2] = { hex[b >> 4], hex[b & 15] };
		sb_append_len(sb, x, 2);
	}
	if (!n)
		sb_append(sb, "");
}

const struct hist_tp *tpkeys_values(struct tpkeys *t, const void *raw, size_t size)
{
	if (!raw)
		size = 0;
	size_t po = t->payload_off < size ? t->payload_off : size;
	const uint8_t *pl = raw ? (const uint8_t *)raw + po : (const uint8_t *)"";
	size_t pn = size - po;
	uint64_t ph = blob_hash(pl, pn);
	struct oa_probe pp;
	const struct hist_tp *res;
	if (bmap_get(&t->by_payload, pl, pn, ph, &pp, &res))
		return res;

	/* the line (trace, or where the fields' values are read from) */
	struct strbuf line = { 0 };
	const struct tp_format *fmt = t->n ? t->tk[0].fmt : NULL;
	bool need_line = false;
	for (int i = 0; i < t->n; i++)
		need_line |= !t->tk[i].field || !t->raw_trace;
	if (fmt && need_line) {
		if (t->raw_trace)
			tp_print_fields(&line, fmt, raw, size);
		else
			tp_print_event(&line, fmt, raw, size);
	}
	struct hist_tp v = { 0 };
	struct strbuf ids = { 0 };
	for (int i = 0; i < t->n; i++) {
		struct strbuf id = { 0 }, text = { 0 };
		if (!t->tk[i].fmt) {
			sb_append(&text, "N/A");
			sb_append(&id, "");
		} else if (!t->tk[i].field) {
			sb_append(&text, line.buf ? line.buf : "");
			sb_append(&id, line.buf ? line.buf : "");
		} else {
			tp_field_text(&text, t->tk[i].fmt, t->tk[i].field, raw, size, line.buf ? line.buf : "",
				      t->raw_trace);
			put_id(&id, t->tk[i].field, raw, size, &v.dyn_len[i]);
		}
		if (id.len)
			sb_append_len(&ids, id.buf, id.len);
		sb_append_len(&ids, "\1", 1);
		v.id[i] = sb_take(&id);
		v.text[i] = sb_take(&text);
	}
	sb_free(&line);
	uint64_t ih = blob_hash(ids.buf, ids.len);
	struct oa_probe ip;
	if (bmap_get(&t->by_id, ids.buf, ids.len, ih, &ip, &res)) {
		for (int i = 0; i < t->n; i++) {
			free((char *)v.id[i]);
			free((char *)v.text[i]);
		}
	} else {
		struct hist_tp *nv = xmalloc(sizeof(*nv));
		*nv = v;
		ARRAY_GROW(t->all, t->cap, t->nall + 1);
		t->all[t->nall++] = nv;
		bmap_put(&t->by_id, &ip, ids.buf, ids.len, nv);
		res = nv;
	}
	sb_free(&ids);
	bmap_put(&t->by_payload, &pp, pl, pn, res);
	return res;
}

void tpkeys_free(struct tpkeys *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nall; i++) {
		for (int k = 0; k < t->n; k++) {
			free((char *)t->all[i]->id[k]);
			free((char *)t->all[i]->text[k]);
		}
		free(t->all[i]);
	}
	free(t->all);
	bmap_free(&t->by_payload);
	bmap_free(&t->by_id);
	free(t);
}
