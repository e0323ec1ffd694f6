// SPDX-License-Identifier: GPL-2.0-only
/* Interned strings: pointers into large arena chunks, found by an index
 * (oa.h), so interning costs no malloc per string and equal strings share
 * one pointer for the life of the table. */
#include "oa.h"
#include "sym_int.h"
#include "util.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct strtab {
	const char **strs;	/* in order of interning */
	size_t n, cap;
	struct oa_index index;
	struct chunk *chunks;
	bool locked;		/* shared between threads: intern under lock */
	pthread_mutex_t lock;
};

static uint64_t hash_len(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

struct strtab *strtab_new(void)
{
	struct strtab *t = xcalloc(1, sizeof(*t));
	oa_init(&t->index, 512);
	pthread_mutex_init(&t->lock, NULL);
	return t;
}

void strtab_free(struct strtab *t)
{
	if (!t)
		return;
	struct chunk *c = t->chunks;
	while (c) {
		struct chunk *n = c->next;
		free(c);
		c = n;
	}
	free(t->strs);
	oa_free(&t->index);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

size_t strtab_count(const struct strtab *t)
{
	return t->n;
}

static char *arena_copy(struct strtab *t, const char *s, size_t len)
{
	struct chunk *c = t->chunks;
	if (!c || c->size - c->used < len + 1) {
		size_t sz = len + 1 > CHUNK_SIZE / 4 ? len + 1 : CHUNK_SIZE;
		c = xmalloc(sizeof(*c) + sz);
		c->size = sz;
		c->used = 0;
		if (sz == CHUNK_SIZE || !t->chunks) {
			c->next = t->chunks;
			t->chunks = c;
		} else {	/* a big string: keep the current chunk for small ones */
			c->next = t->chunks->next;
			t->chunks->next = c;
		}
	}
	char *p = c->data + c->used;
	memcpy(p, s, len);
	p[len] = '\0';
	c->used += len + 1;
	return p;
}

void strtab_set_locked(struct strtab *t, bool on)
{
	t->locked = on;
}

static const char *intern_unlocked(struct strtab *t, const char *s, size_t len)
{
	struct oa_probe p = oa_probe(&t->index, hash_len(s, len));
	for (uint32_t i; (i = oa_next(&t->index, &p)) != OA_NONE;)
		if (strncmp(t->strs[i], s, len) == 0 && t->strs[i][len] == '\0')
			return t->strs[i];
	const char *str = arena_copy(t, s, len);
	ARRAY_GROW_RAW(t->strs, t->cap, t->n + 1);
	t->strs[t->n] = str;
	oa_insert(&t->index, &p, (uint32_t)t->n++);
	return str;
}

const char *strtab_intern_len(struct strtab *t, const char *s, size_t len)
{
	if (!t->locked)
		return intern_unlocked(t, s, len);
	pthread_mutex_lock(&t->lock);
	const char *p = intern_unlocked(t, s, len);
	pthread_mutex_unlock(&t->lock);
	return p;
}

const char *strtab_intern(struct strtab *t, const char *s)
{
	return strtab_intern_len(t, s ? s : "", s ? strlen(s) : 0);
}
