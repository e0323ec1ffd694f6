// SPDX-License-Identifier: GPL-2.0-only
/* The sample filter expression parser (see sample_filter.h). The grammar is
 * perf's (tools/perf/util/bpf-filter.y):
 *
 *   filter := group { ',' group }          every group must hold
 *   group  := term { '||' term }           one term of the group must hold
 *   term   := NAME OP NUMBER | NAME OP VALUE-NAME | cgroup ('=='|'!=') PATH
 *   OP     := '==' | '!=' | '>' | '>=' | '<' | '<=' | '&'
 *
 * Numbers are decimal or 0x hexadecimal. Named values (mem_op == load) belong
 * to the data_src field they are used with ('na' is each field's own "not
 * available" value); unlike perf, 'fwd' and 'peer' are placed where mem_snoop
 * puts mem_snoopx (<< 5). A cgroup path ends at a space or ','. */
#include "feat/sample_filter.h"
#include "target/cgroup.h"

#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct named { const char *name; uint64_t value; };

static const struct named op_values[] = {
	{ "na", 0x01 }, { "load", 0x02 }, { "store", 0x04 }, { "pfetch", 0x08 }, { "exec", 0x10 }, { 0 },
};
static const struct named lvl_values[] = {
	{ "l1", 0x01 }, { "l2", 0x02 }, { "l3", 0x03 }, { "l4", 0x04 }, { "cxl", 0x09 }, { "io", 0x0a },
	{ "any_cache", 0x0b }, { "lfb", 0x0c }, { "ram", 0x0d }, { "pmem", 0x0e }, { "na", 0x0f }, { 0 },
};
static const struct named snoop_values[] = {
	{ "na", 0x01 }, { "none", 0x02 }, { "hit", 0x04 }, { "miss", 0x08 }, { "hitm", 0x10 },
	{ "fwd", 0x01 << 5 }, { "peer", 0x02 << 5 }, { 0 },
};
static const struct named remote_values[] = { { "remote", 0x01 }, { 0 } };
static const struct named lock_values[] = { { "na", 0x01 }, { "locked", 0x02 }, { 0 } };
static const struct named dtlb_values[] = {
	{ "na", 0x01 }, { "l1_hit", 0x08 | 0x02 }, { "l1_miss", 0x08 | 0x04 }, { "l2_hit", 0x10 | 0x02 },
	{ "l2_miss", 0x10 | 0x04 }, { "any_hit", 0x02 }, { "any_miss", 0x04 }, { "walk", 0x20 },
	{ "os", 0x40 }, { "fault", 0x40 }, { 0 },
};
static const struct named blk_values[] = { { "na", 0x01 }, { "by_data", 0x02 }, { "by_addr", 0x04 }, { 0 } };
static const struct named hops_values[] = {
	{ "hops0", 0x01 }, { "hops1", 0x02 }, { "hops2", 0x03 }, { "hops3", 0x04 }, { 0 },
};

static const struct term_def {
	const char *name;
	uint32_t term, part;
	const struct named *values;	/* named values, or NULL */
} terms[] = {
	{ "ip", SF_TERM_IP, 0, NULL },
	{ "id", SF_TERM_ID, 0, NULL },
	{ "tid", SF_TERM_TID, 0, NULL },
	{ "pid", SF_TERM_PID, 0, NULL },
	{ "cpu", SF_TERM_CPU, 0, NULL },
	{ "time", SF_TERM_TIME, 0, NULL },
	{ "addr", SF_TERM_ADDR, 0, NULL },
	{ "period", SF_TERM_PERIOD, 0, NULL },
	{ "weight", SF_TERM_WEIGHT, 0, NULL },
	{ "phys_addr", SF_TERM_PHYS_ADDR, 0, NULL },
	{ "mem_op", SF_TERM_DATA_SRC, SF_MEM_OP, op_values },
	{ "mem_lvl", SF_TERM_DATA_SRC, SF_MEM_LVL, lvl_values },
	{ "mem_lvlnum", SF_TERM_DATA_SRC, SF_MEM_LVL, lvl_values },
	{ "mem_snoop", SF_TERM_DATA_SRC, SF_MEM_SNOOP, snoop_values },
	{ "mem_remote", SF_TERM_DATA_SRC, SF_MEM_REMOTE, remote_values },
	{ "mem_lock", SF_TERM_DATA_SRC, SF_MEM_LOCK, lock_values },
	{ "mem_dtlb", SF_TERM_DATA_SRC, SF_MEM_DTLB, dtlb_values },
	{ "mem_blk", SF_TERM_DATA_SRC, SF_MEM_BLK, blk_values },
	{ "mem_hops", SF_TERM_DATA_SRC, SF_MEM_HOPS, hops_values },
	{ "cgroup", SF_TERM_CGROUP, 0, NULL },
	{ "uid", SF_TERM_UID, 0, NULL },
	{ "gid", SF_TERM_GID, 0, NULL },
};
#define NR_TERM_DEFS (sizeof(terms) / sizeof(terms[0]))

const char *sf_term_name(uint32_t term, uint32_t part)
{
	for (size_t i = 0; i < NR_TERM_DEFS; i++)
		if (terms[i].term == term && terms[i].part == part)
			return terms[i].name;
	return "?";
}

bool sf_term_needs_kctx(uint32_t term)
{
	switch (term) {
	case SF_TERM_ID:
	case SF_TERM_TIME:
	case SF_TERM_WEIGHT:
	case SF_TERM_PHYS_ADDR:
	case SF_TERM_DATA_SRC:
		return true;
	default:
		return false;
	}
}

uint64_t sf_sample_type(const struct sf_expr *e)
{
	uint64_t st = 0;
	for (uint32_t i = 0; i < e->n; i++) {
		switch (e->e[i].term) {
		case SF_TERM_ADDR: st |= PERF_SAMPLE_ADDR; break;
		case SF_TERM_WEIGHT: st |= PERF_SAMPLE_WEIGHT; break;
		case SF_TERM_PHYS_ADDR: st |= PERF_SAMPLE_PHYS_ADDR; break;
		case SF_TERM_DATA_SRC: st |= PERF_SAMPLE_DATA_SRC; break;
		default: break;
		}
	}
	return st;
}

int sf_expr_and(struct sf_expr *a, const struct sf_expr *b)
{
	if (a->n + b->n > SF_MAX_ENTRIES)
		return -E2BIG;
	memcpy(&a->e[a->n], b->e, b->n * sizeof(b->e[0]));
	memcpy(&a->column[a->n], b->column, b->n * sizeof(b->column[0]));
	a->n += b->n;
	return 0;
}

int sf_cgroup_id(const char *path, uint64_t *id)
{
	return cgroup_id_of_path(path, id);
}

/* ---- the lexer ---- */

enum tok_kind { T_END, T_NAME, T_NUM, T_OP, T_COMMA, T_OR, T_BAD };

struct lexer {
	const char *s;
	size_t pos;
	/* the current token */
	enum tok_kind kind;
	size_t start, len;
	uint64_t num;
	int op;
	bool num_overflow;
};

/* A decimal or 0x hexadecimal number at l->pos; 12ab (glued to a name) is
 * one bad token. */
static void lex_number(struct lexer *l)
{
	const char *s = l->s;
	char c = s[l->pos];
	int base = 10;
	size_t p = l->pos;
	if (c == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X') && isxdigit((unsigned char)s[p + 2])) {
		base = 16;
		p += 2;
	}
	uint64_t v = 0;
	for (;; p++) {
		int d;
		char ch = s[p];
		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if (base == 16 && ch >= 'a' && ch <= 'f')
			d = ch - 'a' + 10;
		else if (base == 16 && ch >= 'A' && ch <= 'F')
			d = ch - 'A' + 10;
		else
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			l->num_overflow = true;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	bool glued = isalpha((unsigned char)s[p]) || s[p] == '_';
	while (isalnum((unsigned char)s[p]) || s[p] == '_')
		p++;
	l->kind = glued ? T_BAD : T_NUM;
	l->num = v;
	l->len = p - l->pos;
	l->pos = p;
}

static void next(struct lexer *l)
{
	const char *s = l->s;
	while (s[l->pos] == ' ' || s[l->pos] == '\t' || s[l->pos] == '\n')
		l->pos++;
	l->start = l->pos;
	l->num_overflow = false;
	char c = s[l->pos];
	if (!c) {
		l->kind = T_END;
		l->len = 0;
		return;
	}
	if (isdigit((unsigned char)c)) {
		lex_number(l);
		return;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		size_t p = l->pos;
		while (isalnum((unsigned char)s[p]) || s[p] == '_')
			p++;
		l->kind = T_NAME;
		l->len = p - l->pos;
		l->pos = p;
		return;
	}
	static const struct { const char *t; int op; } ops[] = {
		{ "==", SF_OP_EQ }, { "!=", SF_OP_NE }, { ">=", SF_OP_GE }, { "<=", SF_OP_LE },
		{ ">", SF_OP_GT }, { "<", SF_OP_LT }, { "&", SF_OP_AND },
	};
	if (c == '|' && s[l->pos + 1] == '|') {
		l->kind = T_OR;
		l->len = 2;
		l->pos += 2;
		return;
	}
	if (c == '&' && s[l->pos + 1] == '&') {	/* not perf's: say so below */
		l->kind = T_BAD;
		l->len = 2;
		l->pos += 2;
		return;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].t);
		if (!strncmp(s + l->pos, ops[i].t, n)) {
			l->kind = T_OP;
			l->op = ops[i].op;
			l->len = n;
			l->pos += n;
			return;
		}
	}
	if (c == ',') {
		l->kind = T_COMMA;
		l->len = 1;
		l->pos++;
		return;
	}
	l->kind = T_BAD;
	l->len = 1;
	l->pos++;
}

/* A cgroup path: from here to a space or ','. */
static void next_path(struct lexer *l)
{
	const char *s = l->s;
	while (s[l->pos] == ' ' || s[l->pos] == '\t')
		l->pos++;
	l->start = l->pos;
	while (s[l->pos] && s[l->pos] != ' ' && s[l->pos] != '\t' && s[l->pos] != '\n' && s[l->pos] != ',')
		l->pos++;
	l->len = l->pos - l->start;
	l->kind = l->len ? T_NAME : T_END;
}

/* ---- the parser ---- */

struct parser {
	struct lexer l;
	struct sf_expr *out;
	struct sf_error *err;
	sf_cgroup_resolver resolve;
};

static int error_at(struct parser *p, size_t col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int error_at(struct parser *p, size_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	p->err->column = (int)col;
	return -EINVAL;
}

/* What the current token is, for messages. */
static const char *tok_text(struct parser *p, char *buf, size_t len)
{
	if (p->l.kind == T_END)
		return "the end of the expression";
	int n = (int)(p->l.len > 40 ? 40 : p->l.len);
	snprintf(buf, len, "'%.*s'", n, p->l.s + p->l.start);
	return buf;
}

static int emit(struct parser *p, uint32_t term, uint32_t op, uint32_t part, uint64_t value, size_t col)
{
	if (p->out->n >= SF_MAX_ENTRIES)
		return error_at(p, col, "too many terms: a filter holds at most %d (groups count two more)",
				SF_MAX_ENTRIES);
	struct sample_filter_entry *e = &p->out->e[p->out->n];
	e->term = term;
	e->op = (uint16_t)op;
	e->part = (uint16_t)part;
	e->value = value;
	p->out->column[p->out->n++] = (uint16_t)(col > UINT16_MAX ? UINT16_MAX : col);
	return 0;
}

static void list_values(const struct named *v, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = 0;
	for (; v->name && off < len; v++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", v->name);
}

static int parse_term(struct parser *p)
{
	char tb[64];
	struct lexer *l = &p->l;
	if (l->kind != T_NAME) {
		if (l->kind == T_BAD && l->len == 2 && !strncmp(l->s + l->start, "&&", 2))
			return error_at(p, l->start, "'&&' is not an operator here: join terms with ',' (and) "
					"or '||' (or)");
		return error_at(p, l->start, "expected a term (e.g. tid, cpu, ip), found %s",
				tok_text(p, tb, sizeof(tb)));
	}
	const struct term_def *td = NULL;
	for (size_t i = 0; i < NR_TERM_DEFS; i++)
		if (strlen(terms[i].name) == l->len && !strncmp(terms[i].name, l->s + l->start, l->len))
			td = &terms[i];
	if (!td)
		return error_at(p, l->start, "unknown term '%.*s'; terms: ip, id, tid, pid, cpu, time, addr, "
				"period, weight, phys_addr, mem_op, mem_lvl, mem_snoop, mem_remote, mem_lock, "
				"mem_dtlb, mem_blk, mem_hops, cgroup, uid, gid", (int)(l->len > 40 ? 40 : l->len),
				l->s + l->start);
	size_t col = l->start;
	next(l);
	if (l->kind != T_OP) {
		if (l->kind == T_BAD && l->s[l->start] == '=')
			return error_at(p, l->start, "'=' is not an operator: use '=='");
		return error_at(p, l->start, "expected an operator (==, !=, >, >=, <, <=, &) after '%s', "
				"found %s", td->name, tok_text(p, tb, sizeof(tb)));
	}
	int op = l->op;
	if (td->term == SF_TERM_CGROUP) {
		if (op != SF_OP_EQ && op != SF_OP_NE)
			return error_at(p, l->start, "cgroup takes '==' or '!=' only");
		next_path(l);
		if (l->kind == T_END)
			return error_at(p, l->start, "expected a cgroup path after '%s'", op == SF_OP_EQ ? "==" : "!=");
		char path[4096];
		snprintf(path, sizeof(path), "%.*s", (int)l->len, l->s + l->start);
		uint64_t id = 0;
		int e = p->resolve(path, &id);
		if (e < 0)
			return error_at(p, l->start, "cgroup '%s': %s (a path under the cgroup v2 mount, "
					"e.g. /sys/fs/cgroup or /sys/fs/cgroup/unified)", path, strerror(-e));
		next(l);
		return emit(p, SF_TERM_CGROUP, (uint32_t)op, 0, id, col);
	}
	next(l);
	uint64_t value;
	if (l->kind == T_NUM) {
		if (l->num_overflow)
			return error_at(p, l->start, "number too large (the largest is 0xffffffffffffffff)");
		value = l->num;
	} else if (l->kind == T_NAME && td->values) {
		const struct named *v = td->values;
		while (v->name && !(strlen(v->name) == l->len && !strncmp(v->name, l->s + l->start, l->len)))
			v++;
		if (!v->name) {
			char names[160];
			list_values(td->values, names, sizeof(names));
			return error_at(p, l->start, "unknown value '%.*s' for %s: a number or one of %s",
					(int)(l->len > 40 ? 40 : l->len), l->s + l->start, td->name, names);
		}
		value = v->value;
	} else {
		return error_at(p, l->start, "expected a number after the operator, found %s",
				tok_text(p, tb, sizeof(tb)));
	}
	next(l);
	return emit(p, td->term, (uint32_t)op, td->part, value, col);
}

static int parse_group(struct parser *p)
{
	uint32_t begin = p->out->n;
	size_t col = p->l.start;
	int err = parse_term(p);
	if (err || p->l.kind != T_OR)
		return err;
	/* a group: make room for its begin marker before the first term */
	if ((err = emit(p, SF_TERM_NONE, SF_OP_GROUP_BEGIN, 0, 0, col)))
		return err;
	struct sample_filter_entry first = p->out->e[begin];
	uint16_t first_col = p->out->column[begin];
	p->out->e[begin] = p->out->e[begin + 1];
	p->out->column[begin] = p->out->column[begin + 1];
	p->out->e[begin + 1] = first;
	p->out->column[begin + 1] = first_col;
	while (p->l.kind == T_OR) {
		next(&p->l);
		if ((err = parse_term(p)))
			return err;
	}
	return emit(p, SF_TERM_NONE, SF_OP_GROUP_END, 0, 0, col);
}

int sf_parse(const char *text, struct sf_expr *out, struct sf_error *err, sf_cgroup_resolver resolve)
{
	struct parser p = { .l = { .s = text }, .out = out, .err = err, .resolve = resolve ? resolve : sf_cgroup_id };
	char tb[64];
	memset(out, 0, sizeof(*out));
	out->text = text;
	err->column = 0;
	err->msg[0] = 0;
	next(&p.l);
	if (p.l.kind == T_END)
		return error_at(&p, 0, "empty filter: expected terms such as 'tid == 1234'");
	for (;;) {
		int e = parse_group(&p);
		if (e)
			return e;
		if (p.l.kind == T_END)
			return 0;
		if (p.l.kind != T_COMMA)
			return error_at(&p, p.l.start, "expected ',' or '||' between terms, found %s",
					tok_text(&p, tb, sizeof(tb)));
		next(&p.l);
	}
}

void sf_format_error(const char *text, const struct sf_error *err, char *buf, size_t len)
{
	int col = err->column;
	if (col < 0 || (size_t)col > strlen(text))
		col = (int)strlen(text);
	/* tabs stay tabs under the caret, so that it lines up */
	char pad[256];
	int n = col < (int)sizeof(pad) - 1 ? col : (int)sizeof(pad) - 1;
	for (int i = 0; i < n; i++)
		pad[i] = text[i] == '\t' ? '\t' : ' ';
	pad[n] = 0;
	snprintf(buf, len, "%s (column %d)\n  %s\n  %s^", err->msg, col + 1, text, pad);
}
