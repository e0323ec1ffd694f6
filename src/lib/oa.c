// SPDX-License-Identifier: GPL-2.0-only
/* The open-addressing hash index, see oa.h. */
#include "oa.h"
#include "util.h"

#include <stdlib.h>

#define OA_MIN_SLOTS 16

void oa_init(struct oa_index *ix, size_t expect)
{
	size_t n = OA_MIN_SLOTS;
	while (n < expect * 2 + 2)
		n *= 2;
	ix->slots = xcalloc(n, sizeof(*ix->slots));
	ix->mask = n - 1;
	ix->n = 0;
}

void oa_free(struct oa_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->mask = 0;
	ix->n = 0;
}

void oa_grow(struct oa_index *ix)
{
	if (!ix->slots) {
		oa_init(ix, 0);
		return;
	}
	size_t old = ix->mask + 1, n = old * 2, mask = n - 1;
	struct oa_slot *s = xcalloc(n, sizeof(*s));
	for (size_t i = 0; i < old; i++) {
		const struct oa_slot *o = &ix->slots[i];
		if (!o->idx)
			continue;
		size_t j = o->hash & mask;
		while (s[j].idx)
			j = (j + 1) & mask;
		s[j] = *o;
	}
	free(ix->slots);
	ix->slots = s;
	ix->mask = mask;
}

uint32_t oa_find(const struct oa_index *ix, uint64_t hash, int (*same)(const void *ctx, uint32_t i),
		 const void *ctx, struct oa_probe *p)
{
	*p = oa_probe(ix, hash);
	for (uint32_t i; (i = oa_next(ix, p)) != OA_NONE;)
		if (same(ctx, i))
			return i;
	return OA_NONE;
}

void oa_imap_add(struct oa_imap *m, struct oa_probe *p, int64_t key, void *val)
{
	ARRAY_GROW_RAW(m->v, m->cap, m->n + 1);
	m->v[m->n] = (struct oa_imap_entry){ .key = key, .val = val };
	oa_insert(&m->index, p, (uint32_t)m->n++);
}

void *oa_imap_add_new(struct oa_imap *m, struct oa_probe *p, int64_t key, size_t size)
{
	void *val = xcalloc(1, size);
	oa_imap_add(m, p, key, val);
	return val;
}

void oa_imap_free(struct oa_imap *m)
{
	free(m->v);
	oa_free(&m->index);
	*m = (struct oa_imap){ 0 };
}
