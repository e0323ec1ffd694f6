// SPDX-License-Identifier: GPL-2.0-only
/* btf/btf_path: the member path at an offset, on a BTF built here (nested
 * structs, arrays, an anonymous union, typedefs of the lock types) and on the
 * running kernel's when it is readable; the struct of a slab cache by name. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf/btf_path.h"

static const char *const rwsem[] = { "rw_semaphore", NULL };
static const char *const mutex[] = { "mutex", NULL };
static const char *const spin[] = { "spinlock_t", "raw_spinlock_t", NULL };

static struct {
	struct btf *btf;
	int i32, ext4, inode, sock_like, files, foo_info;
} T;

/* Offsets (bytes):
 *   struct raw_spinlock { int raw_lock; }                       4
 *   struct spinlock { union { raw_spinlock_t rlock; }; }         4
 *   struct rw_semaphore { long count; long owner; raw_spinlock_t wait_lock; int pad; }  24
 *   struct mutex { long owner; raw_spinlock_t wait_lock; int pad; }                     16
 *   struct inode { int i_mode; int pad; struct rw_semaphore i_rwsem (8); spinlock_t i_lock (32);
 *                  int pad2 (36); }                                                     40
 *   struct ext4_inode_info { int a; int b; struct mutex locks[2] (8); struct inode vfs_inode (40); } 80
 *   struct sock_like { union { struct { int x; spinlock_t slock; }; long y; }; }         8 */
static int setup(void **state)
{
	(void)state;
	struct btf *b = btf__new_empty();
	T.btf = b;
	T.i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int i64 = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	int raw = btf__add_struct(b, "raw_spinlock", 4);
	btf__add_field(b, "raw_lock", T.i32, 0, 0);
	int raw_t = btf__add_typedef(b, "raw_spinlock_t", raw);
	int anon_u = btf__add_union(b, NULL, 4);
	btf__add_field(b, "rlock", raw_t, 0, 0);
	int sl = btf__add_struct(b, "spinlock", 4);
	btf__add_field(b, NULL, anon_u, 0, 0);
	int sl_t = btf__add_typedef(b, "spinlock_t", sl);
	int rw = btf__add_struct(b, "rw_semaphore", 24);
	btf__add_field(b, "count", i64, 0, 0);
	btf__add_field(b, "owner", i64, 64, 0);
	btf__add_field(b, "wait_lock", raw_t, 128, 0);
	btf__add_field(b, "pad", T.i32, 160, 0);
	int mx = btf__add_struct(b, "mutex", 16);
	btf__add_field(b, "owner", i64, 0, 0);
	btf__add_field(b, "wait_lock", raw_t, 64, 0);
	btf__add_field(b, "pad", T.i32, 96, 0);
	T.inode = btf__add_struct(b, "inode", 40);
	btf__add_field(b, "i_mode", T.i32, 0, 0);
	btf__add_field(b, "pad", T.i32, 32, 0);
	btf__add_field(b, "i_rwsem", rw, 64, 0);
	btf__add_field(b, "i_lock", sl_t, 256, 0);
	btf__add_field(b, "pad2", T.i32, 288, 0);
	int idx = btf__add_int(b, "unsigned int", 4, 0);
	int locks = btf__add_array(b, idx, mx, 2);
	T.ext4 = btf__add_struct(b, "ext4_inode_info", 80);
	btf__add_field(b, "a", T.i32, 0, 0);
	btf__add_field(b, "b", T.i32, 32, 0);
	btf__add_field(b, "locks", locks, 64, 0);
	btf__add_field(b, "vfs_inode", T.inode, 320, 0);
	int inner = btf__add_struct(b, NULL, 8);
	btf__add_field(b, "x", T.i32, 0, 0);
	btf__add_field(b, "slock", sl_t, 32, 0);
	int u = btf__add_union(b, NULL, 8);
	btf__add_field(b, NULL, inner, 0, 0);
	btf__add_field(b, "y", i64, 0, 0);
	T.sock_like = btf__add_struct(b, "sock_like", 8);
	btf__add_field(b, NULL, u, 0, 0);
	T.files = btf__add_struct(b, "files_struct", 16);
	btf__add_field(b, "file_lock", sl_t, 0, 0);
	T.foo_info = btf__add_struct(b, "foo_inode_info", 48);
	btf__add_field(b, "vfs_inode", T.inode, 0, 0);
	return T.sock_like > 0 && T.foo_info > 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	btf__free(T.btf);
	return 0;
}

static int path(int type, uint64_t off, const char *const *names, char *buf, size_t len)
{
	memset(buf, 0, len);
	return btf_member_path(T.btf, (uint32_t)type, off, names, buf, len);
}

static void test_paths(void **state)
{
	char buf[128];
	(void)state;
	assert_int_equal(path(T.ext4, 40 + 8, rwsem, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ext4_inode_info.vfs_inode.i_rwsem");
	/* the rwsem's own spinlock at its offset */
	assert_int_equal(path(T.ext4, 40 + 8 + 16, spin, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ext4_inode_info.vfs_inode.i_rwsem.wait_lock");
	/* the outermost member of a lock type: the spinlock_t, not its rlock */
	assert_int_equal(path(T.ext4, 40 + 32, spin, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ext4_inode_info.vfs_inode.i_lock");
	/* arrays: the element's index */
	assert_int_equal(path(T.ext4, 8 + 16, mutex, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ext4_inode_info.locks[1]");
	assert_int_equal(path(T.ext4, 8 + 16 + 8, spin, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ext4_inode_info.locks[1].wait_lock");
	/* anonymous struct in an anonymous union: no component of their own */
	assert_int_equal(path(T.sock_like, 4, spin, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sock_like.slock");
	/* the struct itself is a lock of the type */
	assert_int_equal(path(T.files, 0, spin, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "files_struct.file_lock");
}

static void test_misses(void **state)
{
	char buf[128], small[8];
	(void)state;
	/* an rwsem is no mutex: the type checks the offset */
	assert_int_equal(path(T.ext4, 40 + 8, mutex, buf, sizeof(buf)), -ENOENT);
	/* inside a lock but not at its start */
	assert_int_equal(path(T.ext4, 40 + 8 + 4, rwsem, buf, sizeof(buf)), -ENOENT);
	/* a plain int, past the end, in an array past its elements */
	assert_int_equal(path(T.ext4, 4, rwsem, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(path(T.ext4, 80, rwsem, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(path(T.ext4, 1u << 30, spin, buf, sizeof(buf)), -ENOENT);
	/* not a struct; an id out of range */
	assert_int_equal(path(T.i32, 0, spin, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(path(100000, 0, spin, buf, sizeof(buf)), -EINVAL);
	/* the buffer too small */
	assert_int_equal(path(T.ext4, 40 + 8, rwsem, small, sizeof(small)), -E2BIG);
}

static void test_slab_struct(void **state)
{
	(void)state;
	assert_int_equal(btf_slab_struct(T.btf, "ext4_inode_cache", 80), T.ext4);
	assert_int_equal(btf_slab_struct(T.btf, "ext4_inode_cache", 0), T.ext4);
	/* a struct larger than the cache's objects is not what it holds */
	assert_int_equal(btf_slab_struct(T.btf, "ext4_inode_cache", 79), 0);
	assert_int_equal(btf_slab_struct(T.btf, "inode_cache", 624), T.inode);
	assert_int_equal(btf_slab_struct(T.btf, "inode", 624), T.inode);
	assert_int_equal(btf_slab_struct(T.btf, "files_cache", 64), T.files);
	assert_int_equal(btf_slab_struct(T.btf, "foo_inode_cache", 64), T.foo_info);
	assert_int_equal(btf_slab_struct(T.btf, "kmalloc-192", 192), 0);
	assert_int_equal(btf_slab_struct(T.btf, "kmalloc-cg-64", 64), 0);
	assert_int_equal(btf_slab_struct(T.btf, "no_such_cache", 64), 0);
	assert_int_equal(btf_slab_struct(T.btf, "", 64), 0);
	assert_int_equal(btf_slab_struct(T.btf, NULL, 64), 0);
}

/* The byte offset of a member path ("a.b.c") in a struct, by name: the
 * other direction, to check btf_member_path against the kernel's BTF. */
static long long offset_of(const struct btf *btf, int id, const char *members)
{
	char dup[128];
	long long off = 0;
	snprintf(dup, sizeof(dup), "%s", members);
	for (char *save = NULL, *m = strtok_r(dup, ".", &save); m; m = strtok_r(NULL, ".", &save)) {
		const struct btf_type *t = btf__type_by_id(btf, (uint32_t)btf__resolve_type(btf, (uint32_t)id));
		bool found = false;
		if (!t || !btf_is_composite(t))
			return -1;
		for (uint16_t i = 0; i < btf_vlen(t) && !found; i++) {
			const struct btf_member *bm = btf_members(t) + i;
			if (!strcmp(btf__name_by_offset(btf, bm->name_off), m)) {
				off += btf_member_bit_offset(t, i) / 8;
				id = (int)bm->type;
				found = true;
			}
		}
		if (!found)
			return -1;
	}
	return off;
}

static void test_kernel_btf(void **state)
{
	char buf[256];
	(void)state;
	struct btf *k = btf__load_vmlinux_btf();
	if (!k) {
		skip();
		return;
	}
	uint32_t inode = btf_slab_struct(k, "inode_cache", 0);
	assert_int_not_equal(inode, 0);
	long long off = offset_of(k, (int)inode, "i_rwsem");
	assert_true(off > 0);
	assert_int_equal(btf_member_path(k, inode, (uint64_t)off, rwsem, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "inode.i_rwsem");
	uint32_t ext4 = btf_slab_struct(k, "ext4_inode_cache", 0);
	long long eoff = ext4 ? offset_of(k, (int)ext4, "vfs_inode") : -1;
	if (eoff >= 0) {
		assert_int_equal(btf_member_path(k, ext4, (uint64_t)(eoff + off), rwsem, buf, sizeof(buf)), 0);
		assert_string_equal(buf, "ext4_inode_info.vfs_inode.i_rwsem");
	}
	btf__free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_misses),
		cmocka_unit_test(test_slab_struct),
		cmocka_unit_test(test_kernel_btf),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
