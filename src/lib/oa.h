/* SPDX-License-Identifier: GPL-2.0-only */
/* The one open-addressing hash index of the tool: it maps a key to the index
 * of its entry in the caller's own dense array (entries stay where they are,
 * in order of insertion, typed by the caller). Each slot keeps 32 bits of
 * the key's hash beside the index, so a probe compares an entry only when
 * those bits match, and growing the index rehashes the slots alone, without
 * reading one entry.
 *
 *	struct oa_probe p = oa_probe(&t->index, hash);
 *	for (uint32_t i; (i = oa_next(&t->index, &p)) != OA_NONE; )
 *		if (same(&t->v[i], key))
 *			return i;
 *	i = t->n++;  ... fill t->v[i] ...
 *	oa_insert(&t->index, &p, i);
 *
 * Linear probing, load at most 1/2, a power of two slots; no removal. Not
 * thread-safe. */
#ifndef BPFPERF_OA_H
#define BPFPERF_OA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define OA_NONE UINT32_MAX

struct oa_slot {
	uint32_t hash;		/* the key's hash, folded to 32 bits */
	uint32_t idx;		/* entry index + 1; 0: empty */
};

struct oa_index {
	struct oa_slot *slots;
	size_t mask;		/* slots - 1 (slots NULL: none yet) */
	size_t n;		/* entries indexed */
};

struct oa_probe {
	size_t at;		/* the slot looked at next; after a miss, the free one */
	uint32_t hash;
};

/* Room for expect entries before the first growth (0: the first insert makes
 * a small index). Zeroed memory is an empty index too. */
void oa_init(struct oa_index *ix, size_t expect);
void oa_free(struct oa_index *ix);
/* Double the slots (oa_insert does it when half are used). */
void oa_grow(struct oa_index *ix);

static inline uint32_t oa_fold(uint64_t hash)
{
	return (uint32_t)(hash ^ hash >> 32);
}

static inline struct oa_probe oa_probe(const struct oa_index *ix, uint64_t hash)
{
	uint32_t h = oa_fold(hash);
	return (struct oa_probe){ .at = ix->slots ? h & ix->mask : 0, .hash = h };
}

/* The next entry whose hash matches, or OA_NONE at the end of the probe
 * (p->at is then the free slot oa_insert fills). */
static inline uint32_t oa_next(const struct oa_index *ix, struct oa_probe *p)
{
	if (!ix->slots)
		return OA_NONE;
	for (;;) {
		const struct oa_slot *s = &ix->slots[p->at];
		if (!s->idx)
			return OA_NONE;
		p->at = (p->at + 1) & ix->mask;
		if (s->hash == p->hash)
			return s->idx - 1;
	}
}

/* Index entry idx (< OA_NONE - 1) at the free slot a probe that found no
 * match ended on. */
static inline void oa_insert(struct oa_index *ix, struct oa_probe *p, uint32_t idx)
{
	if (!ix->slots) {
		oa_grow(ix);
		*p = oa_probe(ix, p->hash);
		(void)oa_next(ix, p);
	}
	ix->slots[p->at] = (struct oa_slot){ .hash = p->hash, .idx = idx + 1 };
	if (++ix->n * 2 > ix->mask + 1)
		oa_grow(ix);
}

/* Find or add: the index of the entry matching a key (same(ctx, i) true), or
 * OA_NONE with *p ready for oa_insert. For callers that do not inline their
 * own loop. */
uint32_t oa_find(const struct oa_index *ix, uint64_t hash, int (*same)(const void *ctx, uint32_t i),
		 const void *ctx, struct oa_probe *p);

/* ---- an integer -> pointer map on the index (threads by tid, processes by
 * pid, a tid's pending state): its entries in order of insertion, m->v[0,
 * m->n), for the caller to walk (free the values). Zeroed memory is an empty
 * map. */
struct oa_imap_entry {
	int64_t key;
	void *val;
};

struct oa_imap {
	struct oa_imap_entry *v;
	size_t n, cap;
	struct oa_index index;
};

/* key's entry, or NULL (*p then ready for oa_imap_add). */
static inline struct oa_imap_entry *oa_imap_find(const struct oa_imap *m, int64_t key, struct oa_probe *p)
{
	*p = oa_probe(&m->index, hash_u64((uint64_t)key));
	for (uint32_t i; (i = oa_next(&m->index, p)) != OA_NONE;)
		if (m->v[i].key == key)
			return &m->v[i];
	return NULL;
}

/* key's value, NULL if none. */
static inline void *oa_imap_get(const struct oa_imap *m, int64_t key)
{
	struct oa_probe p;
	const struct oa_imap_entry *e = oa_imap_find(m, key, &p);
	return e ? e->val : NULL;
}

/* Add key (absent: oa_imap_find's miss left *p) with val. */
void oa_imap_add(struct oa_imap *m, struct oa_probe *p, int64_t key, void *val);
/* Add key (absent: *p from oa_imap_find's miss) with a new value of size
 * zeroed bytes, returned. */
void *oa_imap_add_new(struct oa_imap *m, struct oa_probe *p, int64_t key, size_t size);

/* key's value; if none, a new one of size zeroed bytes is added (*added
 * true), the caller's to fill (and to free, as every value). */
static inline void *oa_imap_findnew(struct oa_imap *m, int64_t key, size_t size, bool *added)
{
	struct oa_probe p;
	const struct oa_imap_entry *e = oa_imap_find(m, key, &p);
	*added = !e;
	return e ? e->val : oa_imap_add_new(m, &p, key, size);
}
/* The entries and the index freed (not the values); empty again. */
void oa_imap_free(struct oa_imap *m);

#endif
