// SPDX-License-Identifier: GPL-2.0-only
/* Sorted symbol tables with binary search: one per ELF file and one for the
 * kernel. Built once, then only read. */
#include "sym_int.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void symtab_add(struct symtab *st, uint64_t start, uint64_t end, const char *name,
		const char *aux, uint8_t rank)
{
	ARRAY_GROW_RAW(st->syms, st->cap, st->n + 1);
	struct sym *s = &st->syms[st->n++];
	s->start = start;
	s->end = end;
	s->name = name;
	s->aux = aux;
	s->rank = rank;
	s->seq = (uint32_t)(st->n - 1);
	s->shown = NULL;
}

void sym_hex_id(const uint8_t *id, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * len] = '\0';
}

void symtab_own(struct symtab *st, char *blob)
{
	ARRAY_GROW(st->blobs, st->capblobs, st->nblobs + 1);
	st->blobs[st->nblobs++] = blob;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

static int cmp_sym(const void *a, const void *b, void *ctx)
{
	const struct sym *x = a, *y = b;
	const struct symtab *st = ctx;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* The alias shown goes first. */
	if (st->last_alias_wins) {
		bool dx = x->rank >= 10, dy = y->rank >= 10;	/* text before data */
		if (dx != dy)
			return dx ? 1 : -1;
		return x->seq > y->seq ? -1 : x->seq < y->seq ? 1 : 0;
	}
	bool sx = x->end > x->start, sy = y->end > y->start;
	if (sx != sy)
		return sx ? -1 : 1;
	bool lx_ = x->rank == SYM_RANK_LABEL, ly_ = y->rank == SYM_RANK_LABEL;
	if (lx_ != ly_)
		return lx_ ? 1 : -1;
	bool wx = x->rank == 1, wy = y->rank == 1;
	if (wx != wy)
		return wx ? 1 : -1;
	bool gx = x->rank == 0, gy = y->rank == 0;
	if (gx != gy)
		return gx ? -1 : 1;
	size_t ux = leading_underscores(x->name), uy = leading_underscores(y->name);
	if (ux != uy)
		return ux < uy ? -1 : 1;
	size_t lx = strlen(x->name), ly = strlen(y->name);
	if (lx != ly)
		return lx > ly ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq ? 1 : 0;
}

void symtab_finish(struct symtab *st, uint64_t last_size)
{
	if (!st->n)
		return;
	/* kallsyms and many symbol tables come sorted by address already: then
	 * only the aliases (runs of one address) need ordering, done below */
	size_t sorted = 1;
	while (sorted < st->n && st->syms[sorted - 1].start <= st->syms[sorted].start)
		sorted++;
	if (sorted < st->n)
		qsort_r(st->syms, st->n, sizeof(*st->syms), cmp_sym, st);
	size_t w = 0;
	uint64_t covered = 0;	/* the end of the sized functions so far */
	for (size_t i = 0; i < st->n; i++) {
		if (st->syms[i].rank == SYM_RANK_LABEL && st->syms[i].start < covered)
			continue;	/* a label inside a function is not a symbol of its own */
		if (st->syms[i].end > covered && st->syms[i].rank != SYM_RANK_LABEL)
			covered = st->syms[i].end;
		if (w && st->syms[w - 1].start == st->syms[i].start) {
			/* An alias: keep the best (cmp_sym's first), with the
			 * largest extent. */
			struct sym *keep = &st->syms[w - 1];
			uint64_t end = keep->end > st->syms[i].end ? keep->end : st->syms[i].end;
			if (cmp_sym(&st->syms[i], keep, st) < 0)
				*keep = st->syms[i];
			keep->end = end;
			continue;
		}
		st->syms[w++] = st->syms[i];
	}
	st->n = w;
	for (size_t i = 0; i < st->n; i++) {
		struct sym *s = &st->syms[i];
		if (s->end > s->start)
			continue;
		if (i + 1 < st->n)
			s->end = st->syms[i + 1].start;
		else
			s->end = s->start + last_size;
		if (s->end <= s->start)	/* wrapped at the top of the address space */
			s->end = UINT64_MAX;
	}
}

const struct sym *symtab_find(const struct symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->n;
	while (lo < hi) {	/* first symbol with start > addr */
		size_t mid = lo + (hi - lo) / 2;
		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct sym *s = &st->syms[lo - 1];
	return addr < s->end ? s : NULL;
}

void symtab_free(struct symtab *st)
{
	for (size_t i = 0; i < st->nblobs; i++)
		free(st->blobs[i]);
	free(st->blobs);
	free(st->syms);
	memset(st, 0, sizeof(*st));
}
