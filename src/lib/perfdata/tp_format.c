// SPDX-License-Identifier: GPL-2.0-only
/* Tracepoint formats and records, see tp_format.h. The print format's
 * arguments are evaluated straight from their text for each record (a small
 * C expression evaluator: REC->field, numbers, strings, casts, the C
 * operators, ?:, __print_flags, __print_symbolic, __get_str...), which is
 * what libtraceevent computes from its parse tree. */
#include "perfdata/tp_format.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- format text ------------------------------------------------------- */

static void copy_span(char *dst, size_t cap, const char *b, const char *e)
{
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	size_t n = (size_t)(e - b);
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, b, n);
	dst[n] = '\0';
}

/* "N;" after key in [l, eol): false when absent or not a number. */
static bool line_num(const char *l, const char *eol, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);
	for (const char *p = l; p + kl < eol; p++) {
		if (memcmp(p, key, kl))
			continue;
		p += kl;
		if (p >= eol || !isdigit((unsigned char)*p))
			return false;
		uint64_t n = 0;
		while (p < eol && isdigit((unsigned char)*p)) {
			if (n > UINT32_MAX)
				return false;
			n = n * 10 + (uint64_t)(*p++ - '0');
		}
		*v = n;
		return true;
	}
	return false;
}

/* "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" */
static int parse_field(const char *l, const char *eol, struct tp_field *fl)
{
	const char *decl = l + 6, *semi = memchr(decl, ';', (size_t)(eol - decl));
	uint64_t off, size, sign = 0;
	if (!semi || !line_num(semi, eol, "offset:", &off) || !line_num(semi, eol, "size:", &size))
		return -EINVAL;
	line_num(semi, eol, "signed:", &sign);
	memset(fl, 0, sizeof(*fl));
	/* the name is the last identifier before ';' or before a trailing [N] */
	const char *ne = semi;
	while (ne > decl && isspace((unsigned char)ne[-1]))
		ne--;
	const char *br = NULL;
	if (ne > decl && ne[-1] == ']') {
		br = ne;
		while (br > decl && br[-1] != '[')
			br--;
		if (br == decl)
			return -EINVAL;
		br--;		/* at '[' */
		ne = br;
		fl->flags |= TPF_ARRAY;
	}
	const char *ns = ne;
	while (ns > decl && (isalnum((unsigned char)ns[-1]) || ns[-1] == '_'))
		ns--;
	if (ns == ne || ns == decl)
		return -EINVAL;
	copy_span(fl->name, sizeof(fl->name), ns, ne);
	copy_span(fl->type, sizeof(fl->type), decl, ns);
	if (!fl->type[0] || isdigit((unsigned char)fl->name[0]))
		return -EINVAL;
	fl->offset = (uint32_t)off;
	fl->size = (uint32_t)size;
	if (sign)
		fl->flags |= TPF_SIGNED;
	if (strchr(fl->type, '['))
		fl->flags |= TPF_ARRAY;
	if (!strncmp(fl->type, "__data_loc", 10))
		fl->flags |= TPF_DYNAMIC | TPF_ARRAY;
	if (!strncmp(fl->type, "__rel_loc", 9))
		fl->flags |= TPF_DYNAMIC | TPF_RELATIVE | TPF_ARRAY;
	if ((fl->flags & TPF_ARRAY) &&
	    (strstr(fl->type, "char") || strstr(fl->type, "u8") || strstr(fl->type, "s8")))
		fl->flags |= TPF_STRING;
	if (strstr(fl->type, "long"))
		fl->flags |= TPF_LONG;
	if (strchr(fl->type, '*'))
		fl->flags |= TPF_POINTER;
	if (!strncmp(fl->name, "common_", 7))
		fl->flags |= TPF_COMMON;
	if ((fl->flags & TPF_DYNAMIC) && fl->size != 4)
		return -EINVAL;
	return 0;
}

int tp_format_parse(const char *text, size_t len, struct tp_format *out)
{
	const char *p = text, *end = text + len;
	bool have_name = false, in_fields = false;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *l = p;
		p = eol < end ? eol + 1 : end;
		while (l < eol && (*l == ' ' || *l == '\t'))
			l++;
		size_t ll = (size_t)(eol - l);
		if (ll > 6 && !memcmp(l, "name: ", 6)) {
			copy_span(out->name, sizeof(out->name), l + 6, eol);
			have_name = out->name[0] != '\0';
		} else if (ll > 4 && !memcmp(l, "ID: ", 4)) {
			uint64_t id = 0;
			if (!line_num(l, eol, "ID: ", &id))
				goto bad;
			out->id = id;
		} else if (ll >= 7 && !memcmp(l, "format:", 7)) {
			in_fields = true;
		} else if (in_fields && ll > 6 && !memcmp(l, "field:", 6)) {
			ARRAY_GROW(out->fields, cap, out->nfields + 1);
			if (parse_field(l, eol, &out->fields[out->nfields]) < 0)
				goto bad;
			out->nfields++;
		} else if (ll > 11 && !memcmp(l, "print fmt: ", 11)) {
			/* the rest of the text (it is one line in practice) */
			const char *b = l + 11, *e = end;
			while (e > b && (e[-1] == '\n' || e[-1] == '\0'))
				e--;
			out->print_fmt = xmalloc((size_t)(e - b) + 1);
			memcpy(out->print_fmt, b, (size_t)(e - b));
			out->print_fmt[e - b] = '\0';
			break;
		}
	}
	if (!have_name)
		goto bad;
	return 0;
bad:
	tp_format_free(out);
	return -EINVAL;
}

void tp_format_free(struct tp_format *f)
{
	free(f->fields);
	free(f->print_fmt);
	memset(f, 0, sizeof(*f));
}

const struct tp_field *tp_format_field(const struct tp_format *f, const char *name)
{
	for (size_t i = 0; i < f->nfields; i++)
		if (!strcmp(f->fields[i].name, name))
			return &f->fields[i];
	return NULL;
}

/* ---- field access ------------------------------------------------------ */

static bool read_uint(const uint8_t *p, uint32_t n, uint64_t *v)
{
	switch (n) {
	case 1: *v = p[0]; return true;
	case 2: { uint16_t x; memcpy(&x, p, 2); *v = x; return true; }
	case 4: { uint32_t x; memcpy(&x, p, 4); *v = x; return true; }
	case 8: memcpy(v, p, 8); return true;
	default: return false;
	}
}

static uint64_t sext(uint64_t v, uint32_t n)
{
	if (n >= 8 || n == 0)
		return v;
	unsigned sh = 64 - 8 * n;
	return (uint64_t)((int64_t)(v << sh) >> sh);
}

bool tp_field_data(const struct tp_field *fl, const void *raw, size_t size, const uint8_t **data,
		   size_t *len)
{
	const uint8_t *r = raw;
	if (!raw || (uint64_t)fl->offset + fl->size > size)
		return false;
	if (!(fl->flags & TPF_DYNAMIC)) {
		*data = r + fl->offset;
		*len = fl->size;
		return true;
	}
	uint32_t loc;
	memcpy(&loc, r + fl->offset, 4);
	uint64_t off = loc & 0xffff, n = loc >> 16;
	if (fl->flags & TPF_RELATIVE)
		off += (uint64_t)fl->offset + fl->size;
	if (off + n > size)
		return false;
	*data = r + off;
	*len = (size_t)n;
	return true;
}

bool tp_field_num(const struct tp_field *fl, const void *raw, size_t size, uint64_t *val)
{
	if (!raw || (uint64_t)fl->offset + fl->size > size ||
	    !read_uint((const uint8_t *)raw + fl->offset, fl->size, val))
		return false;
	if (fl->flags & TPF_SIGNED)
		*val = sext(*val, fl->size);
	return true;
}

/* libtraceevent's is_printable_array, within len */
static bool printable(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return false;
	return true;
}

void tp_print_field(struct strbuf *sb, const struct tp_field *fl, const void *raw, size_t size)
{
	if (fl->flags & TPF_ARRAY) {
		const uint8_t *d = (const uint8_t *)"";
		size_t n;
		if (!tp_field_data(fl, raw, size, &d, &n)) {
			d = (const uint8_t *)"";
			n = 0;
		}
		if ((fl->flags & TPF_STRING) && printable(d, n)) {
			sb_append_len(sb, (const char *)d, strnlen((const char *)d, n));
			return;
		}
		sb_append(sb, "ARRAY[");
		for (size_t i = 0; i < n; i++)
			sb_printf(sb, "%s%02x", i ? ", " : "", d[i]);
		sb_append(sb, "]");
		return;
	}
	uint64_t v = 0;
	bool ok = (uint64_t)fl->offset + fl->size <= size && raw &&
		  read_uint((const uint8_t *)raw + fl->offset, fl->size, &v);
	if (!ok)
		v = 0;
	if (fl->flags & TPF_POINTER) {
		sb_printf(sb, "0x%llx", (unsigned long long)v);
	} else if (fl->flags & TPF_SIGNED) {
		switch (fl->size) {
		case 4:
			if (fl->flags & TPF_LONG)
				sb_printf(sb, "0x%x", (unsigned)(int)v);
			else
				sb_printf(sb, "%d", (int)v);
			break;
		case 2:
			sb_printf(sb, "%2d", (short)v);
			break;
		case 1:
			sb_printf(sb, "%1d", (signed char)v);
			break;
		default:
			sb_printf(sb, "%lld", (long long)v);
		}
	} else if (fl->flags & TPF_LONG) {
		sb_printf(sb, "0x%llx", (unsigned long long)v);
	} else {
		sb_printf(sb, "%llu", (unsigned long long)v);
	}
}

void tp_print_fields(struct strbuf *sb, const struct tp_format *f, const void *raw, size_t size)
{
	for (size_t i = 0; i < f->nfields; i++) {
		if (f->fields[i].flags & TPF_COMMON)
			continue;
		sb_printf(sb, " %s=", f->fields[i].name);
		tp_print_field(sb, &f->fields[i], raw, size);
	}
}

/* ---- print format evaluation -------------------------------------------- */

enum { V_NUM, V_STR };

struct val {
	int kind;
	uint64_t n;		/* V_NUM (sign-extended when signed) */
	bool is_signed;
	const char *s;		/* V_STR: not NUL-terminated */
	size_t slen;
};

struct ev {
	const char *p;		/* the argument text */
	const struct tp_format *f;
	const uint8_t *raw;
	size_t size;
	bool fail;
	struct strbuf tmp;	/* strings made by __print_flags etc. (values point into it
				 * by offset: see str_tmp) */
	int depth;
};

static void skip_ws(struct ev *e)
{
	while (*e->p && isspace((unsigned char)*e->p))
		e->p++;
}

static bool eat(struct ev *e, const char *tok)
{
	skip_ws(e);
	size_t n = strlen(tok);
	if (strncmp(e->p, tok, n))
		return false;
	/* "<" must not eat "<<" or "<=", "&" not "&&", "|" not "||" etc. */
	if (n == 1 && strchr("<>&|=!", tok[0]) && (e->p[1] == tok[0] || e->p[1] == '=') &&
	    !(tok[0] == '!' && e->p[1] == '!'))
		return false;
	if (n == 1 && tok[0] == '-' && e->p[1] == '>')
		return false;
	e->p += n;
	return true;
}

static size_t ident(struct ev *e, char *buf, size_t cap)
{
	skip_ws(e);
	size_t n = 0;
	if (!isalpha((unsigned char)*e->p) && *e->p != '_')
		return 0;
	while (isalnum((unsigned char)e->p[n]) || e->p[n] == '_')
		n++;
	if (buf) {
		size_t c = n < cap ? n : cap - 1;
		memcpy(buf, e->p, c);
		buf[c] = '\0';
	}
	return n;
}

static struct val num(uint64_t n, bool s)
{
	return (struct val){ .kind = V_NUM, .n = n, .is_signed = s };
}

static struct val parse_expr(struct ev *e);

/* A string literal (adjacent ones concatenated) into e->tmp. */
static struct val str_lit(struct ev *e)
{
	struct strbuf s = { 0 };
	skip_ws(e);
	while (*e->p == '"') {
		e->p++;
		while (*e->p && *e->p != '"') {
			char c = *e->p++;
			if (c == '\\' && *e->p) {
				c = *e->p++;
				c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
			}
			sb_append_len(&s, &c, 1);
		}
		if (*e->p != '"') {
			e->fail = true;
			break;
		}
		e->p++;
		skip_ws(e);
	}
	struct val v = { .kind = V_STR, .s = s.buf ? s.buf : "", .slen = s.len };
	/* kept until the end of the evaluation */
	ARRAY_GROW(e->tmp.buf, e->tmp.cap, e->tmp.len + sizeof(char *));
	memcpy(e->tmp.buf + e->tmp.len, &s.buf, sizeof(char *));
	e->tmp.len += sizeof(char *);
	return v;
}

/* A string made here (kept in e->tmp like literals). */
static struct val str_own(struct ev *e, struct strbuf *s)
{
	struct val v = { .kind = V_STR, .s = s->buf ? s->buf : "", .slen = s->len };
	ARRAY_GROW(e->tmp.buf, e->tmp.cap, e->tmp.len + sizeof(char *));
	memcpy(e->tmp.buf + e->tmp.len, &s->buf, sizeof(char *));
	e->tmp.len += sizeof(char *);
	return v;
}

static bool type_word(const char *w)
{
	static const char *const words[] = { "unsigned", "signed", "int", "long", "short", "char", "bool",
					     "_Bool", "const", "volatile", "void", "struct", "u8", "u16",
					     "u32", "u64", "s8", "s16", "s32", "s64", "__u8", "__u16",
					     "__u32", "__u64", "__s8", "__s16", "__s32", "__s64", NULL };
	for (size_t i = 0; words[i]; i++)
		if (!strcmp(w, words[i]))
			return true;
	size_t n = strlen(w);
	return n > 2 && !strcmp(w + n - 2, "_t");
}

/* After '(': a type name and ')'? Then *size and *sign of the cast. */
static bool cast_type(struct ev *e, int *size, bool *sign)
{
	const char *save = e->p;
	char w[64];
	bool any = false, unsig = false, ptr = false;
	int longs = 0, sz = 4;
	for (;;) {
		skip_ws(e);
		if (*e->p == '*') {
			ptr = true;
			e->p++;
			continue;
		}
		size_t n = ident(e, w, sizeof(w));
		if (!n)
			break;
		if (!type_word(w)) {
			e->p = save;
			return false;
		}
		e->p += n;
		any = true;
		if (!strcmp(w, "unsigned") || (w[0] == 'u' && isdigit((unsigned char)w[1])) ||
		    !strncmp(w, "__u", 3) || !strcmp(w, "size_t") || !strcmp(w, "bool") || !strcmp(w, "_Bool"))
			unsig = true;
		if (!strcmp(w, "long"))
			longs++;
		else if (!strcmp(w, "short") || strstr(w, "16"))
			sz = 2;
		else if (!strcmp(w, "char") || strstr(w, "8") || !strcmp(w, "bool") || !strcmp(w, "_Bool"))
			sz = 1;
		else if (strstr(w, "64") || !strcmp(w, "size_t") || !strcmp(w, "ssize_t"))
			sz = 8;
	}
	skip_ws(e);
	if (!any || *e->p != ')') {
		e->p = save;
		return false;
	}
	e->p++;
	if (longs || ptr)
		sz = 8;
	*size = sz;
	*sign = !unsig && !ptr;
	return true;
}

static struct val cast(struct val v, int size, bool sign)
{
	if (v.kind != V_NUM)
		return v;
	uint64_t n = size >= 8 ? v.n : v.n & ((1ull << (8 * size)) - 1);
	return num(sign ? sext(n, (uint32_t)size) : n, sign);
}

static const struct tp_field *rec_field(struct ev *e)
{
	char w[TP_NAME_MAX];
	size_t n = ident(e, w, sizeof(w));
	if (!n) {
		e->fail = true;
		return NULL;
	}
	e->p += n;
	const struct tp_field *fl = tp_format_field(e->f, w);
	if (!fl)
		e->fail = true;
	return fl;
}

/* The value of REC->field: a number, or the array's bytes as a string. */
static struct val field_val(struct ev *e, const struct tp_field *fl)
{
	if (fl->flags & TPF_ARRAY) {
		const uint8_t *d;
		size_t n;
		if (!tp_field_data(fl, e->raw, e->size, &d, &n))
			return (struct val){ .kind = V_STR, .s = "", .slen = 0 };
		return (struct val){ .kind = V_STR, .s = (const char *)d, .slen = strnlen((const char *)d, n) };
	}
	uint64_t v = 0;
	tp_field_num(fl, e->raw, e->size, &v);
	return num(v, (fl->flags & TPF_SIGNED) != 0);
}

/* { value, "name" }, ... up to ')' */
static void flag_list(struct ev *e, uint64_t val, bool symbolic, const char *delim, size_t dlen,
		      struct strbuf *out)
{
	bool printed = false, done = false;
	while (!e->fail && eat(e, ",")) {
		if (!eat(e, "{")) {
			e->fail = true;
			return;
		}
		struct val fv = parse_expr(e);
		if (!eat(e, ",")) {
			e->fail = true;
			return;
		}
		struct val name = parse_expr(e);
		if (!eat(e, "}") || fv.kind != V_NUM || name.kind != V_STR) {
			e->fail = true;
			return;
		}
		if (done)
			continue;
		if (symbolic) {
			if (val == fv.n) {
				sb_append_len(out, name.s, name.slen);
				done = printed = true;
			}
			continue;
		}
		if (!val && !fv.n) {
			sb_append_len(out, name.s, name.slen);
			printed = done = true;
			continue;
		}
		if (fv.n && (val & fv.n) == fv.n) {
			if (printed)
				sb_append_len(out, delim, dlen);
			sb_append_len(out, name.s, name.slen);
			printed = true;
			val &= ~fv.n;
		}
	}
	if (!eat(e, ")")) {
		e->fail = true;
		return;
	}
	if (symbolic && !done)
		sb_printf(out, "0x%llx", (unsigned long long)val);
	else if (!symbolic && !done && val) {
		if (printed)
			sb_append_len(out, delim, dlen);
		sb_printf(out, "0x%llx", (unsigned long long)val);
	}
}

static struct val call(struct ev *e, const char *fn)
{
	struct strbuf out = { 0 };
	if (!strcmp(fn, "__print_flags") || !strcmp(fn, "__print_symbolic")) {
		bool sym = fn[8] == 's';
		struct val v = parse_expr(e);
		const char *delim = "";
		size_t dlen = 0;
		if (!sym) {
			if (!eat(e, ",")) {
				e->fail = true;
				return num(0, false);
			}
			struct val d = parse_expr(e);
			if (d.kind != V_STR) {
				e->fail = true;
				return num(0, false);
			}
			delim = d.s;
			dlen = d.slen;
		}
		flag_list(e, v.kind == V_NUM ? v.n : 0, sym, delim, dlen, &out);
		return str_own(e, &out);
	}
	if (!strcmp(fn, "__get_str") || !strcmp(fn, "__get_rel_str") || !strcmp(fn, "__get_dynamic_array") ||
	    !strcmp(fn, "__get_rel_dynamic_array") || !strcmp(fn, "__get_dynamic_array_len") ||
	    !strcmp(fn, "__get_rel_dynamic_array_len")) {
		const struct tp_field *fl = rec_field(e);
		if (!eat(e, ")") || !fl) {
			e->fail = true;
			return num(0, false);
		}
		const uint8_t *d;
		size_t n;
		if (!tp_field_data(fl, e->raw, e->size, &d, &n)) {
			d = (const uint8_t *)"";
			n = 0;
		}
		if (strstr(fn, "_len"))
			return num(n, false);
		return (struct val){ .kind = V_STR, .s = (const char *)d, .slen = strnlen((const char *)d, n) };
	}
	e->fail = true;		/* a helper we do not know */
	return num(0, false);
}

static struct val parse_unary(struct ev *e);

static struct val parse_primary(struct ev *e)
{
	skip_ws(e);
	if (++e->depth > 64) {
		e->fail = true;
		return num(0, false);
	}
	struct val v = num(0, false);
	char w[TP_NAME_MAX];
	size_t n;
	if (*e->p == '"') {
		v = str_lit(e);
	} else if (isdigit((unsigned char)*e->p)) {
		char *end;
		v = num(strtoull(e->p, &end, 0), false);
		if (end == e->p)
			e->fail = true;
		e->p = end;
		while (*e->p == 'u' || *e->p == 'U' || *e->p == 'l' || *e->p == 'L')
			e->p++;
		v.is_signed = v.n <= INT64_MAX;
	} else if (*e->p == '\'') {
		if (e->p[1] && e->p[2] == '\'') {
			v = num((uint64_t)(unsigned char)e->p[1], true);
			e->p += 3;
		} else {
			e->fail = true;
		}
	} else if ((n = ident(e, w, sizeof(w)))) {
		e->p += n;
		if (!strcmp(w, "REC")) {
			if (!eat(e, "->")) {
				e->fail = true;
			} else {
				const struct tp_field *fl = rec_field(e);
				if (fl)
					v = field_val(e, fl);
			}
		} else if (eat(e, "(")) {
			v = call(e, w);
		} else {
			e->fail = true;	/* an enum or macro name we cannot know */
		}
	} else {
		e->fail = true;
	}
	e->depth--;
	return v;
}

static struct val parse_unary(struct ev *e)
{
	skip_ws(e);
	if (e->fail || ++e->depth > 64) {
		e->fail = true;
		return num(0, false);
	}
	struct val v;
	if (eat(e, "!")) {
		v = parse_unary(e);
		v = num(v.kind == V_NUM ? !v.n : !v.slen, true);
	} else if (eat(e, "~")) {
		v = parse_unary(e);
		v.n = ~v.n;
	} else if (eat(e, "-")) {
		v = parse_unary(e);
		v.n = -v.n;
		v.is_signed = true;
	} else if (eat(e, "+")) {
		v = parse_unary(e);
	} else if (eat(e, "(")) {
		int size;
		bool sign;
		if (cast_type(e, &size, &sign)) {
			v = cast(parse_unary(e), size, sign);
		} else {
			v = parse_expr(e);
			if (!eat(e, ")"))
				e->fail = true;
		}
	} else {
		v = parse_primary(e);
	}
	e->depth--;
	return v;
}

static const struct {
	const char *op;
	int prec;
} binops[] = {
	{ "||", 1 }, { "&&", 2 }, { "|", 3 }, { "^", 4 }, { "&", 5 }, { "==", 6 }, { "!=", 6 },
	{ "<=", 7 }, { ">=", 7 }, { "<<", 8 }, { ">>", 8 }, { "<", 7 }, { ">", 7 }, { "+", 9 },
	{ "-", 9 }, { "*", 10 }, { "/", 10 }, { "%", 10 },
};

static int peek_op(struct ev *e, int min)
{
	for (size_t i = 0; i < ARRAY_SIZE(binops); i++) {
		const char *save = e->p;
		if (binops[i].prec >= min && eat(e, binops[i].op)) {
			e->p = save;
			return (int)i;
		}
		e->p = save;
	}
	return -1;
}

static struct val apply(struct ev *e, const char *op, struct val a, struct val b)
{
	if (a.kind != V_NUM || b.kind != V_NUM) {
		e->fail = true;
		return num(0, false);
	}
	bool s = a.is_signed && b.is_signed;
	uint64_t x = a.n, y = b.n, r = 0;
	if (!strcmp(op, "||")) r = x || y;
	else if (!strcmp(op, "&&")) r = x && y;
	else if (!strcmp(op, "|")) r = x | y;
	else if (!strcmp(op, "^")) r = x ^ y;
	else if (!strcmp(op, "&")) r = x & y;
	else if (!strcmp(op, "==")) r = x == y;
	else if (!strcmp(op, "!=")) r = x != y;
	else if (!strcmp(op, "<")) r = s ? (int64_t)x < (int64_t)y : x < y;
	else if (!strcmp(op, ">")) r = s ? (int64_t)x > (int64_t)y : x > y;
	else if (!strcmp(op, "<=")) r = s ? (int64_t)x <= (int64_t)y : x <= y;
	else if (!strcmp(op, ">=")) r = s ? (int64_t)x >= (int64_t)y : x >= y;
	else if (!strcmp(op, "<<")) r = y < 64 ? x << y : 0;
	else if (!strcmp(op, ">>")) r = y < 64 ? (s ? (uint64_t)((int64_t)x >> y) : x >> y) : 0;
	else if (!strcmp(op, "+")) r = x + y;
	else if (!strcmp(op, "-")) r = x - y;
	else if (!strcmp(op, "*")) r = x * y;
	else if (!strcmp(op, "/") || !strcmp(op, "%")) {
		if (!y || (s && (int64_t)y == -1)) {
			e->fail = true;
			return num(0, false);
		}
		if (op[0] == '/')
			r = s ? (uint64_t)((int64_t)x / (int64_t)y) : x / y;
		else
			r = s ? (uint64_t)((int64_t)x % (int64_t)y) : x % y;
	}
	bool cmp = !strcmp(op, "||") || !strcmp(op, "&&") || !strcmp(op, "==") || !strcmp(op, "!=") ||
		   !strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=");
	return num(r, cmp ? true : s);
}

static struct val parse_binary(struct ev *e, int min)
{
	struct val a = parse_unary(e);
	int i;
	while (!e->fail && (i = peek_op(e, min)) >= 0) {
		eat(e, binops[i].op);
		struct val b = parse_binary(e, binops[i].prec + 1);
		a = apply(e, binops[i].op, a, b);
	}
	return a;
}

static struct val parse_expr(struct ev *e)
{
	if (++e->depth > 64) {
		e->fail = true;
		return num(0, false);
	}
	struct val c = parse_binary(e, 1);
	if (!e->fail && eat(e, "?")) {
		struct val a = parse_expr(e);
		if (!eat(e, ":"))
			e->fail = true;
		struct val b = parse_expr(e);
		bool t = c.kind == V_NUM ? c.n != 0 : c.slen != 0;
		c = t ? a : b;
	}
	e->depth--;
	return c;
}

/* One conversion of the format, with the next argument. */
static void print_conv(struct ev *e, struct strbuf *sb, const char *spec, size_t slen, char conv, int lmod)
{
	struct val v = num(0, false);
	if (!eat(e, ",")) {
		e->fail = true;
		return;
	}
	v = parse_expr(e);
	if (e->fail)
		return;
	char fmt[48];
	if (slen > 30) {
		e->fail = true;
		return;
	}
	if (conv == 's') {
		struct strbuf t = { 0 };
		if (v.kind == V_STR)
			sb_append_len(&t, v.s, strnlen(v.s, v.slen));
		else
			sb_printf(&t, "%llu", (unsigned long long)v.n);
		snprintf(fmt, sizeof(fmt), "%%%.*ss", (int)slen, spec);
		sb_printf(sb, fmt, t.buf ? t.buf : "");
		sb_free(&t);
		return;
	}
	if (v.kind != V_NUM) {
		e->fail = true;
		return;
	}
	if (conv == 'p') {
		snprintf(fmt, sizeof(fmt), "%%%.*sllx", (int)slen, spec);
		sb_append(sb, "0x");
		sb_printf(sb, fmt, (unsigned long long)v.n);
		return;
	}
	if (conv == 'c') {
		snprintf(fmt, sizeof(fmt), "%%%.*sc", (int)slen, spec);
		sb_printf(sb, fmt, (int)(unsigned char)v.n);
		return;
	}
	snprintf(fmt, sizeof(fmt), "%%%.*sll%c", (int)slen, spec, conv);
	bool sgn = conv == 'd' || conv == 'i';
	if (lmod == 0) {	/* int */
		if (sgn)
			sb_printf(sb, fmt, (long long)(int)v.n);
		else
			sb_printf(sb, fmt, (unsigned long long)(unsigned)v.n);
	} else if (lmod < 0) {	/* h, hh */
		if (sgn)
			sb_printf(sb, fmt, lmod == -2 ? (long long)(signed char)v.n : (long long)(short)v.n);
		else
			sb_printf(sb, fmt, lmod == -2 ? (unsigned long long)(unsigned char)v.n
						      : (unsigned long long)(unsigned short)v.n);
	} else {
		if (sgn)
			sb_printf(sb, fmt, (long long)v.n);
		else
			sb_printf(sb, fmt, (unsigned long long)v.n);
	}
}

static void free_tmp(struct ev *e)
{
	for (size_t o = 0; o + sizeof(char *) <= e->tmp.len; o += sizeof(char *)) {
		char *s;
		memcpy(&s, e->tmp.buf + o, sizeof(s));
		free(s);
	}
	free(e->tmp.buf);
	memset(&e->tmp, 0, sizeof(e->tmp));
}

void tp_print_event(struct strbuf *sb, const struct tp_format *f, const void *raw, size_t size)
{
	size_t start = sb->len;
	struct ev e = { .f = f, .raw = raw, .size = size };
	const char *q = f->print_fmt;
	if (!q || *q != '"')
		goto failed;
	/* the format string: up to the closing quote */
	struct ev fe = { .p = q };
	struct val fmtv = str_lit(&fe);
	e.tmp = fe.tmp;
	if (fe.fail)
		goto failed;
	e.p = fe.p;
	const char *s = fmtv.s, *end = fmtv.s + fmtv.slen;
	while (s < end && !e.fail) {
		if (*s != '%') {
			const char *pc = memchr(s, '%', (size_t)(end - s));
			if (!pc)
				pc = end;
			sb_append_len(sb, s, (size_t)(pc - s));
			s = pc;
			continue;
		}
		s++;
		if (s < end && *s == '%') {
			sb_append(sb, "%");
			s++;
			continue;
		}
		const char *spec = s;
		while (s < end && strchr("-+ #0", *s))
			s++;
		while (s < end && isdigit((unsigned char)*s))
			s++;
		if (s < end && *s == '.') {
			s++;
			while (s < end && isdigit((unsigned char)*s))
				s++;
		}
		size_t slen = (size_t)(s - spec);
		int lmod = 0;
		while (s < end && strchr("hlzjtL", *s)) {
			if (*s == 'h')
				lmod = lmod == -1 ? -2 : -1;
			else
				lmod = 1;
			s++;
		}
		if (s >= end) {
			e.fail = true;
			break;
		}
		char conv = *s++;
		if (conv == 'p')	/* %pS, %pM...: the extension letters are not printed */
			while (s < end && isalnum((unsigned char)*s))
				s++;
		if (!strchr("diuxXoscp", conv)) {
			e.fail = true;
			break;
		}
		print_conv(&e, sb, spec, slen, conv, lmod);
	}
	free_tmp(&e);
	if (!e.fail)
		return;
failed:
	free_tmp(&e);
	sb->len = start;
	if (sb->buf)
		sb->buf[start] = '\0';
	sb_append(sb, "[FAILED TO PARSE]");
	tp_print_fields(sb, f, raw, size);
}

/* ---- sort key values ------------------------------------------------------- */

void tp_field_text(struct strbuf *sb, const struct tp_format *f, const struct tp_field *fl,
		   const void *raw, size_t size, const char *line, bool raw_trace)
{
	if (!raw_trace) {
		struct strbuf own = { 0 };
		if (!line) {
			tp_print_event(&own, f, raw, size);
			line = own.buf ? own.buf : "";
		}
		size_t nl = strlen(fl->name);
		const char *w = line;
		bool found = false;
		while (w) {
			const char *sp = strchr(w, ' ');
			const char *we = sp ? sp : w + strlen(w);
			if (!strncmp(w, fl->name, nl)) {
				if ((size_t)(we - w) > nl)
					sb_append_len(sb, w + nl + 1, (size_t)(we - w) - nl - 1);
				found = true;
				break;
			}
			w = sp ? sp + 1 : NULL;
		}
		sb_free(&own);
		if (found)
			return;
	}
	tp_print_field(sb, fl, raw, size);
}

int tp_field_width(const struct tp_field *fl, size_t dyn_len)
{
	size_t len = dyn_len, nl = strlen(fl->name);
	size_t fieldlen = fl->size;
	if (nl > len)
		len = nl;
	if (!(fl->flags & TPF_STRING))
		fieldlen = (size_t)fl->size * 2 + 2;
	if (fieldlen > len)
		len = fieldlen;
	return len > 4096 ? 4096 : (int)len;
}

/* ---- HEADER_TRACING_DATA ------------------------------------------------- */

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

int tp_tracing_data_parse(const void *buf, size_t len, tp_format_fn fn, void *ctx)
{
	static const char magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cur c = { buf, (const uint8_t *)buf + len };
	uint8_t m[sizeof(magic)], endian, lsize;
	uint32_t page, cnt;
	uint64_t sz;

	if (!buf || !take(&c, m, sizeof(m)) || memcmp(m, magic, sizeof(m)) || !take_str(&c) ||
	    !take(&c, &endian, 1) || !take(&c, &lsize, 1) || !take(&c, &page, 4))
		return -EINVAL;
	if (endian)		/* big-endian recordings: not read here */
		return -EINVAL;
	const char *hp = take_str(&c);
	if (!hp || strcmp(hp, "header_page") || !take(&c, &sz, 8) || sz > (uint64_t)(c.end - c.p) ||
	    !take(&c, NULL, (size_t)sz))
		return -EINVAL;
	const char *he = take_str(&c);
	if (!he || strcmp(he, "header_event") || !take(&c, &sz, 8) || sz > (uint64_t)(c.end - c.p) ||
	    !take(&c, NULL, (size_t)sz))
		return -EINVAL;
	if (!take(&c, &cnt, 4))	/* ftrace formats: skipped */
		return -EINVAL;
	for (uint32_t i = 0; i < cnt; i++)
		if (!take(&c, &sz, 8) || sz > (uint64_t)(c.end - c.p) || !take(&c, NULL, (size_t)sz))
			return -EINVAL;
	uint32_t nsys;
	if (!take(&c, &nsys, 4))
		return -EINVAL;
	for (uint32_t i = 0; i < nsys; i++) {
		const char *sys = take_str(&c);
		if (!sys || !take(&c, &cnt, 4))
			return -EINVAL;
		for (uint32_t j = 0; j < cnt; j++) {
			if (!take(&c, &sz, 8) || sz > (uint64_t)(c.end - c.p))
				return -EINVAL;
			struct tp_format f;
			if (tp_format_parse((const char *)c.p, (size_t)sz, &f) == 0) {
				snprintf(f.sys, sizeof(f.sys), "%s", sys);
				fn(ctx, &f);
			}
			c.p += sz;
		}
	}
	return 0;
}

static void add_format(void *ctx, struct tp_format *f)
{
	struct tp_formats *fs = ctx;
	fs->v = xrealloc(fs->v, (fs->n + 1) * sizeof(*fs->v));
	fs->v[fs->n++] = *f;
}

void tp_formats_load(struct tp_formats *fs, const void *tracing_data, size_t len)
{
	memset(fs, 0, sizeof(*fs));
	if (tracing_data)
		tp_tracing_data_parse(tracing_data, len, add_format, fs);
}

const struct tp_format *tp_formats_by_id(const struct tp_formats *fs, uint64_t id)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].id == id)
			return &fs->v[i];
	return NULL;
}

void tp_formats_free(struct tp_formats *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		tp_format_free(&fs->v[i]);
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}
