/* SPDX-License-Identifier: GPL-2.0-only */
/* Member paths by BTF: what lies at an offset inside a struct, named the way
 * C would reach it (`ext4_inode_info.vfs_inode.i_rwsem`, `zone.free_area[3]`),
 * and the struct a slab cache holds, guessed from the cache's name.
 *
 * Used by lock contention to name a lock inside a slab object; works on any
 * BTF (the running kernel's, or one built with btf__new_empty in tests).
 * The BTF may be untrusted: recursion is capped and a malformed type gives
 * a negative errno. No messages: the caller decides what a miss means. */
#ifndef BPFPERF_BTF_PATH_H
#define BPFPERF_BTF_PATH_H

#include <stddef.h>
#include <stdint.h>

struct btf;

/* The path of the member at byte offset off inside struct/union type_id
 * whose type is one of names (a struct, union or typedef name, e.g.
 * "rw_semaphore", "spinlock_t"; NULL-terminated), as
 * "<struct>.<member>[.<member>|[i]]...", in buf. Anonymous structs and
 * unions add no component; of overlapping union members the first that
 * reaches a matching type wins; of nested members at the same offset the
 * outermost matching one (a spinlock_t, not its raw_spinlock). An offset
 * equal to 0 in a type that is itself one of names gives the struct name.
 * Returns 0, -ENOENT (no member of those types there), -EINVAL (not a
 * struct or union, malformed BTF), -E2BIG (buf too small). */
int btf_member_path(const struct btf *btf, uint32_t type_id, uint64_t off, const char *const *names, char *buf,
		    size_t len);

/* The struct a slab cache holds: the cache's name as a struct name, a
 * known mapping (inode_cache: inode, ext4_inode_cache: ext4_inode_info,
 * sock_inode_cache: socket_alloc, filp: file, TCP: tcp_sock...), or a
 * naming rule (X_cache: X, X_struct; X_inode_cache: X_inode_info,
 * X_inode), kept only if the struct fits in object_size bytes (0: not
 * checked). kmalloc caches hold no one type. Returns the type id, or 0. */
uint32_t btf_slab_struct(const struct btf *btf, const char *cache, uint32_t object_size);

#endif
