// SPDX-License-Identifier: GPL-2.0-only
/* Member paths by BTF and the struct of a slab cache: see btf_path.h. */
#include "btf/btf_path.h"
#include "util.h"

#include <bpf/btf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define PATH_MAX_DEPTH 32

static bool name_in(const char *name, const char *const *names)
{
	if (!name || !*name)
		return false;
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* Does the type go by one of names: a typedef on its way to the struct, or
 * the struct or union itself (const/volatile looked through)? */
static bool type_named(const struct btf *btf, uint32_t id, const char *const *names)
{
	for (int depth = 0; depth < PATH_MAX_DEPTH; depth++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (!t)
			return false;
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF:
			if (name_in(btf__name_by_offset(btf, t->name_off), names))
				return true;
			/* fall through */
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			continue;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			return name_in(btf__name_by_offset(btf, t->name_off), names);
		default:
			return false;
		}
	}
	return false;
}

struct walk {
	const struct btf *btf;
	const char *const *names;
	struct strbuf sb;
};

static int walk(struct walk *w, uint32_t id, uint64_t off, int depth);

/* A component (".name" or "[i]") added, then the walk below it; the
 * component taken back when nothing of the types is found there. */
static int descend(struct walk *w, const char *comp, uint32_t type, uint64_t off, int depth)
{
	size_t mark = w->sb.len;
	sb_append(&w->sb, comp);
	if (off == 0 && type_named(w->btf, type, w->names))
		return 0;
	int err = walk(w, type, off, depth + 1);
	if (err) {
		w->sb.len = mark;
		w->sb.buf[mark] = '\0';
	}
	return err;
}

static int walk(struct walk *w, uint32_t id, uint64_t off, int depth)
{
	const struct btf *btf = w->btf;
	char comp[64];
	int rid;

	if (depth > PATH_MAX_DEPTH)
		return -EINVAL;
	rid = btf__resolve_type(btf, id);
	if (rid < 0)
		return -EINVAL;
	const struct btf_type *t = btf__type_by_id(btf, (uint32_t)rid);
	if (!t)
		return -EINVAL;
	if (btf_is_composite(t)) {
		const struct btf_member *m = btf_members(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
			if (btf_member_bitfield_size(t, i))
				continue;	/* no lock is a bit field */
			uint64_t moff = btf_member_bit_offset(t, i) / 8;
			long long msz = btf__resolve_size(btf, m->type);
			if (msz <= 0 || off < moff || off - moff >= (uint64_t)msz)
				continue;
			const char *name = btf__name_by_offset(btf, m->name_off);
			if (name && *name)
				snprintf(comp, sizeof(comp), ".%s", name);
			else
				comp[0] = '\0';	/* an anonymous struct or union */
			if (descend(w, comp, m->type, off - moff, depth) == 0)
				return 0;
		}
		return -ENOENT;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		long long esz = btf__resolve_size(btf, a->type);
		if (esz <= 0)
			return -ENOENT;
		uint64_t idx = off / (uint64_t)esz;
		if (idx >= a->nelems)
			return -ENOENT;
		snprintf(comp, sizeof(comp), "[%" PRIu64 "]", idx);
		return descend(w, comp, a->type, off - idx * (uint64_t)esz, depth);
	}
	return -ENOENT;
}

int btf_member_path(const struct btf *btf, uint32_t type_id, uint64_t off, const char *const *names, char *buf,
		    size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, type_id);
	struct walk w = { .btf = btf, .names = names };
	int err = 0;

	if (!t || !btf_is_composite(t) || !len)
		return -EINVAL;
	const char *name = btf__name_by_offset(btf, t->name_off);
	sb_append(&w.sb, name && *name ? name : "(anon)");
	if (!(off == 0 && type_named(btf, type_id, names)))
		err = walk(&w, type_id, off, 0);
	if (!err) {
		if (w.sb.len >= len)
			err = -E2BIG;
		else
			memcpy(buf, w.sb.buf, w.sb.len + 1);
	}
	sb_free(&w.sb);
	return err;
}

/* Caches whose struct is not named by a rule (mm/, fs/, net/). */
static const struct {
	const char *cache, *type;
} slab_types[] = {
	{ "inode_cache", "inode" },
	{ "ext4_inode_cache", "ext4_inode_info" },
	{ "shmem_inode_cache", "shmem_inode_info" },
	{ "sock_inode_cache", "socket_alloc" },
	{ "proc_inode_cache", "proc_inode" },
	{ "bdev_cache", "bdev_inode" },
	{ "nfs_inode_cache", "nfs_inode" },
	{ "filp", "file" },
	{ "cred_jar", "cred" },
	{ "eventpoll_epi", "epitem" },
	{ "eventpoll_pwq", "eppoll_entry" },
	{ "TCP", "tcp_sock" },
	{ "TCPv6", "tcp6_sock" },
	{ "UDP", "udp_sock" },
	{ "UDPv6", "udp6_sock" },
	{ "UNIX", "unix_sock" },
	{ "RAW", "raw_sock" },
	{ "RAWv6", "raw6_sock" },
};

static uint32_t struct_fits(const struct btf *btf, const char *name, uint32_t object_size)
{
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
	if (id <= 0)
		return 0;
	const struct btf_type *t = btf__type_by_id(btf, (uint32_t)id);
	if (!t || (object_size && t->size > object_size))
		return 0;
	return (uint32_t)id;
}

static bool ends_with(const char *s, const char *suffix, size_t *stem)
{
	size_t n = strlen(s), m = strlen(suffix);
	if (n <= m || strcmp(s + n - m, suffix))
		return false;
	*stem = n - m;
	return true;
}

uint32_t btf_slab_struct(const struct btf *btf, const char *cache, uint32_t object_size)
{
	char name[128];
	uint32_t id;
	size_t stem;

	if (!cache || !*cache || strlen(cache) >= 64 || strstr(cache, "kmalloc-") || cache[0] == ':')
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(slab_types); i++)
		if (!strcmp(cache, slab_types[i].cache))
			return struct_fits(btf, slab_types[i].type, object_size);
	if ((id = struct_fits(btf, cache, object_size)))
		return id;
	if (ends_with(cache, "_inode_cache", &stem)) {
		snprintf(name, sizeof(name), "%.*s_inode_info", (int)stem, cache);
		if ((id = struct_fits(btf, name, object_size)))
			return id;
		snprintf(name, sizeof(name), "%.*s_inode", (int)stem, cache);
		if ((id = struct_fits(btf, name, object_size)))
			return id;
	}
	if (ends_with(cache, "_cache", &stem) || ends_with(cache, "_cachep", &stem)) {
		snprintf(name, sizeof(name), "%.*s", (int)stem, cache);
		if ((id = struct_fits(btf, name, object_size)))
			return id;
		snprintf(name, sizeof(name), "%.*s_struct", (int)stem, cache);
		if ((id = struct_fits(btf, name, object_size)))
			return id;
	}
	return 0;
}
