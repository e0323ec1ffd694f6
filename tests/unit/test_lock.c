// SPDX-License-Identifier: GPL-2.0-only
/* lock contention without the kernel: perf's lock type names of the
 * contention_begin flags, the -Y type masks, the time column, the frame
 * classes that find the caller (tracing machinery, lock functions), and the
 * kernel data symbols that name global locks (a kallsyms file of our own),
 * zone_lock's address test and a lock's offset in its slab object (with
 * synthetic addresses), the member path of a slab object's lock (a BTF
 * built here). No privileges needed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "feat/lock.h"
#include "out/lock_print.h"
#include "target/cgroup.h"
#include "sym/machine.h"

static void test_type_names(void **state)
{
	(void)state;
	assert_string_equal(lock_type_str(LOCK_F_SPIN), "spinlock");
	assert_string_equal(lock_type_str(LOCK_F_SPIN | LOCK_F_READ), "rwlock:R");
	assert_string_equal(lock_type_str(LOCK_F_SPIN | LOCK_F_WRITE), "rwlock:W");
	assert_string_equal(lock_type_str(LOCK_F_READ), "rwsem:R");
	assert_string_equal(lock_type_str(LOCK_F_WRITE), "rwsem:W");
	assert_string_equal(lock_type_str(LOCK_F_MUTEX), "mutex");
	assert_string_equal(lock_type_str(LOCK_F_MUTEX | LOCK_F_SPIN), "mutex");
	assert_string_equal(lock_type_str(0), "semaphore");
	assert_string_equal(lock_type_str(LOCK_F_PERCPU | LOCK_F_WRITE), "pcpu-sem:W");
	assert_string_equal(lock_type_str(LOCK_F_RT), "rt-mutex");
	assert_string_equal(lock_type_str(LOCK_F_PERCPU), "unknown");
	/* bits above the known flags are ignored, as perf does */
	assert_string_equal(lock_type_str(LOCK_F_WRITE | (1ull << 10)), "rwsem:W");
	assert_string_equal(lock_type_class(LOCK_F_READ), "rwsem");
	assert_string_equal(lock_type_class(LOCK_F_PERCPU | LOCK_F_READ), "percpu-rwsem");
}

static void test_type_masks(void **state)
{
	(void)state;
	assert_int_equal(lock_type_mask("rwsem"), (1ull << LOCK_F_READ) | (1ull << LOCK_F_WRITE));
	assert_int_equal(lock_type_mask("rwsem:W"), 1ull << LOCK_F_WRITE);
	assert_int_equal(lock_type_mask("spinlock"), 1ull << LOCK_F_SPIN);
	assert_int_equal(lock_type_mask("mutex"), (1ull << LOCK_F_MUTEX) | (1ull << (LOCK_F_MUTEX | LOCK_F_SPIN)));
	assert_int_equal(lock_type_mask("semaphore"), 1ull << 0);
	assert_int_equal(lock_type_mask("percpu-rwsem"),
			 (1ull << (LOCK_F_PERCPU | LOCK_F_READ)) | (1ull << (LOCK_F_PERCPU | LOCK_F_WRITE)));
	assert_int_equal(lock_type_mask("pcpu-sem"), lock_type_mask("percpu-rwsem"));
	assert_int_equal(lock_type_mask("bogus"), 0);
}

static void test_time_column(void **state)
{
	char b[32];
	(void)state;
	assert_string_equal(lock_fmt_time(0, 12, b, sizeof(b)), "        0 ns");
	assert_string_equal(lock_fmt_time(999, 12, b, sizeof(b)), "      999 ns");
	assert_string_equal(lock_fmt_time(1000, 12, b, sizeof(b)), "     1.00 us");
	assert_string_equal(lock_fmt_time(2670000, 12, b, sizeof(b)), "     2.67 ms");
	assert_string_equal(lock_fmt_time(1730000000ull, 12, b, sizeof(b)), "     1.73 s ");
	assert_string_equal(lock_fmt_time(90000000000ull, 12, b, sizeof(b)), "     1.50 m ");
	assert_string_equal(lock_fmt_time(7200000000000ull, 12, b, sizeof(b)), "     2.00 h ");
	assert_string_equal(lock_fmt_time(1234, 0, b, sizeof(b)), "1234");
	assert_int_equal(strlen(lock_fmt_time(123456789, 12, b, sizeof(b))), 12);
}

static void test_frame_classes(void **state)
{
	(void)state;
	const char *tracing[] = { "bpf_prog_6deef7357e7b4530_btf_begin", "bpf_trace_run2",
				  "__traceiter_contention_begin", "perf_trace_contention_begin",
				  "trace_call_bpf", "__bpf_trace_contention_begin" };
	const char *locks[] = { "_raw_spin_lock", "_raw_spin_lock_irqsave", "queued_spin_lock_slowpath",
				"__mutex_lock", "mutex_lock", "rwsem_down_write_slowpath",
				"down_write_killable", "down_read", "down", "__down_common",
				"percpu_down_write", "schedule", "__pv_queued_spin_lock_slowpath" };
	const char *callers[] = { "vm_mmap_pgoff", "__vm_munmap", "lock_mm_and_find_vma",
				  "do_mprotect_pkey", "pipe_write", "downgrade_write_x", "try_to_wake_up",
				  "", NULL };
	for (size_t i = 0; i < sizeof(tracing) / sizeof(*tracing); i++)
		assert_int_equal(lock_frame_class(tracing[i]), LOCK_FRAME_TRACING);
	for (size_t i = 0; i < sizeof(locks) / sizeof(*locks); i++)
		assert_int_equal(lock_frame_class(locks[i]), LOCK_FRAME_LOCK);
	for (size_t i = 0; i < sizeof(callers) / sizeof(*callers); i++)
		assert_int_equal(lock_frame_class(callers[i]), LOCK_FRAME_OTHER);
}

/* Global locks are named by the data symbol covering their address. */
static void test_data_symbols(void **state)
{
	(void)state;
	char path[] = "/tmp/test_lock_kallsymsXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fprintf(f, "ffffffff81000000 T _text\n"
		   "ffffffff81000100 T do_something\n"
		   "ffffffff82264dc0 T __sched_text_start\n"
		   "ffffffff82264dc0 T schedule\n"
		   "ffffffff8226dae2 T __sched_text_end\n"
		   "ffffffff83000000 D jiffies_lock\n"
		   "ffffffff83000040 d tasklist_lock\n"
		   "ffffffff83000080 b some_bss\n");
	fclose(f);
	struct machine *m = machine_new(&(struct machine_opts){ .kallsyms = path, .modules = "/nonexistent" });
	const char *name;
	uint64_t off;
	assert_true(machine_kernel_data_symbol(m, 0xffffffff83000000ull, &name, &off));
	assert_string_equal(name, "jiffies_lock");
	assert_int_equal(off, 0);
	assert_true(machine_kernel_data_symbol(m, 0xffffffff83000048ull, &name, &off));
	assert_string_equal(name, "tasklist_lock");
	assert_int_equal(off, 8);
	/* a text address is not a variable */
	assert_false(machine_kernel_data_symbol(m, 0xffffffff81000104ull, &name, &off) &&
		     !strcmp(name, "do_something"));
	/* the section markers, aliases included */
	const char *names[] = { "__sched_text_start", "__sched_text_end", "__lock_text_start" };
	uint64_t a[3];
	assert_int_equal(machine_kernel_symbol_addrs(m, names, a, 3), 2);
	assert_true(a[0] == 0xffffffff82264dc0ull && a[1] == 0xffffffff8226dae2ull && a[2] == 0);
	machine_free(m);
	unlink(path);
}

/* The printers: sorting by -k, the owner and cgroup tables, JSON keys. */
static void test_print(void **state)
{
	(void)state;
	struct lock_entry e[3] = {
		{ .key = { .id = 101 }, .v = { .count = 5, .total = 5000, .max = 2000, .min = 500, .flags = LOCK_F_MUTEX },
		  .name = "writer" },
		{ .key = { .id = 0 }, .v = { .count = 9, .total = 900, .max = 200, .min = 50, .flags = LOCK_F_WRITE },
		  .name = "" },
		{ .key = { .id = 102 }, .v = { .count = 1, .total = 7000, .max = 7000, .min = 7000, .flags = LOCK_F_MUTEX },
		  .name = "other" },
	};
	struct lock_result r = { .e = e, .n = 3 };
	char *buf = NULL;
	size_t len = 0;
	lock_result_sort(&r, LOCK_KEY_WAIT_TOTAL);
	assert_int_equal(r.e[0].key.id, 102);
	assert_int_equal(r.e[2].key.id, 0);
	lock_result_sort(&r, LOCK_KEY_CONTENDED);
	assert_int_equal(r.e[0].key.id, 0);
	FILE *f = open_memstream(&buf, &len);
	lock_print_text(f, NULL, &r, LOCK_AGGR_OWNER, 2, false);
	fclose(f);
	assert_non_null(strstr(buf, "pid   owner\n"));
	assert_non_null(strstr(buf, "         9 "));
	assert_non_null(strstr(buf, "           0   [unknown]\n"));
	assert_non_null(strstr(buf, "         101   writer\n"));
	assert_null(strstr(buf, "other"));	/* -E 2 */
	free(buf);
	e[0].name = "/system.slice/x.service";
	f = open_memstream(&buf, &len);
	lock_print_json(f, NULL, &r, LOCK_AGGR_CGROUP, 1);
	fclose(f);
	assert_non_null(strstr(buf, "\"aggregation\": \"cgroup\""));
	assert_non_null(strstr(buf, "\"cgroup_id\": 0"));
	free(buf);
}

/* cgroup v2 ids and paths (reading /sys/fs/cgroup needs no privileges):
 * the root is "/", and a path's id maps back to the path. */
static void test_cgroup_paths(void **state)
{
	(void)state;
	uint64_t id;
	char path[4096], own[4300] = "";
	if (!cgroup2_mount())
		skip();
	assert_int_equal(cgroup_id_of_path("/", &id), 0);
	assert_int_equal(cgroup_path_of_id(id, path, sizeof(path)), 0);
	assert_string_equal(path, "/");
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[4200];
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3))
			snprintf(own, sizeof(own), "%s", line + 3);
	if (f)
		fclose(f);
	own[strcspn(own, "\n")] = '\0';
	if (own[0] && cgroup_id_of_path(own, &id) == 0) {
		assert_int_equal(cgroup_path_of_id(id, path, sizeof(path)), 0);
		assert_string_equal(path, own);
	}
	assert_int_equal(cgroup_path_of_id(1ull << 62, path, sizeof(path)), -ENOENT);
	assert_int_not_equal(cgroup_id_of_path("/no/such/cgroup/here", &id), 0);
}

/* zone_lock: the lock of node_zones[i] (synthetic layout: 5 zones of 1600
 * bytes, the lock 1280 bytes into each) */
static void test_zone_lock(void **state)
{
	const uint64_t zones = 0xffff88863ffd5000ull, sz = 1600, off = 1280;
	(void)state;
	assert_int_equal(lock_zone_index(zones + off, zones, sz, off, 5), 0);
	assert_int_equal(lock_zone_index(zones + 3 * sz + off, zones, sz, off, 5), 3);
	assert_int_equal(lock_zone_index(zones + 4 * sz + off, zones, sz, off, 5), 4);
	/* past the last zone, inside a zone but not its lock, before the array */
	assert_int_equal(lock_zone_index(zones + 5 * sz + off, zones, sz, off, 5), -1);
	assert_int_equal(lock_zone_index(zones + sz + off + 8, zones, sz, off, 5), -1);
	assert_int_equal(lock_zone_index(zones + off - sz, zones, sz, off, 5), -1);
	assert_int_equal(lock_zone_index(zones, zones, sz, off, 5), -1);
	/* no node (its pglist_data not found), no zone type */
	assert_int_equal(lock_zone_index(off, 0, sz, off, 5), -1);
	assert_int_equal(lock_zone_index(zones + off, zones, 0, off, 5), -1);
}

/* The lock's offset in its slab object: ext4_inode_cache's layout here
 * (1128-byte objects, 14 in a 4-page slab), then with a left red zone. */
static void test_slab_offset(void **state)
{
	const uint64_t slab = 0xffff888195cd8000ull;	/* 16 KiB aligned */
	struct lock_slab_info si = { .name = "ext4_inode_cache", .size = 1128, .object_size = 1128, .order = 2 };
	(void)state;
	assert_int_equal(lock_slab_obj_offset(slab + 3 * 1128 + 160, 12, &si), 160);
	assert_int_equal(lock_slab_obj_offset(slab + 160, 12, &si), 160);
	assert_int_equal(lock_slab_obj_offset(slab + 13 * 1128 + 1127, 12, &si), 1127);
	/* the slab's tail after its 14 objects holds none */
	assert_true(lock_slab_obj_offset(slab + 14 * 1128 + 8, 12, &si) == LOCK_OBJ_OFF_NONE);
	/* the padding after a smaller object */
	si.object_size = 1100;
	assert_true(lock_slab_obj_offset(slab + 2 * 1128 + 1110, 12, &si) == LOCK_OBJ_OFF_NONE);
	/* debugging red zones: each object 64 bytes into its 1200 */
	struct lock_slab_info rz = { .size = 1200, .object_size = 1000, .red_left_pad = 64, .order = 2 };
	assert_int_equal(lock_slab_obj_offset(slab + 1200 + 64 + 40, 12, &rz), 40);
	assert_true(lock_slab_obj_offset(slab + 10, 12, &rz) == LOCK_OBJ_OFF_NONE);
	/* no layout read */
	struct lock_slab_info none = { 0 };
	assert_true(lock_slab_obj_offset(slab, 12, &none) == LOCK_OBJ_OFF_NONE);
}

/* A lock in a slab object named by its member path: the cache's struct by
 * its name, the member of the lock's type at the offset. */
static void test_slab_member(void **state)
{
	char buf[128];
	(void)state;
	struct btf *b = btf__new_empty();
	int i64 = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int raw = btf__add_struct(b, "raw_spinlock", 4);
	btf__add_field(b, "raw_lock", i32, 0, 0);
	int raw_t = btf__add_typedef(b, "raw_spinlock_t", raw);
	int rw = btf__add_struct(b, "rw_semaphore", 16);
	btf__add_field(b, "count", i64, 0, 0);
	btf__add_field(b, "wait_lock", raw_t, 64, 0);
	int inode = btf__add_struct(b, "inode", 24);
	btf__add_field(b, "i_mode", i64, 0, 0);
	btf__add_field(b, "i_rwsem", rw, 64, 0);
	int info = btf__add_struct(b, "ext4_inode_info", 32);
	btf__add_field(b, "i_flags", i64, 0, 0);
	btf__add_field(b, "vfs_inode", inode, 64, 0);
	assert_true(info > 0);
	struct lock_slab_info si = { .name = "ext4_inode_cache", .size = 64, .object_size = 32, .order = 0 };

	assert_int_equal(lock_slab_member_name(b, &si, 16, LOCK_F_WRITE, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "&ext4_inode_info.vfs_inode.i_rwsem");
	assert_int_equal(lock_slab_member_name(b, &si, 16, LOCK_F_READ, buf, sizeof(buf)), 0);
	assert_int_equal(lock_slab_member_name(b, &si, 24, LOCK_F_SPIN, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "&ext4_inode_info.vfs_inode.i_rwsem.wait_lock");
	/* a mutex is not there; no offset; a cache of no known struct */
	assert_int_equal(lock_slab_member_name(b, &si, 16, LOCK_F_MUTEX, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(lock_slab_member_name(b, &si, LOCK_OBJ_OFF_NONE, LOCK_F_WRITE, buf, sizeof(buf)),
			 -ENOENT);
	struct lock_slab_info km = { .name = "kmalloc-64", .size = 64, .object_size = 64 };
	assert_int_equal(lock_slab_member_name(b, &km, 16, LOCK_F_WRITE, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(lock_slab_member_name(NULL, &si, 16, LOCK_F_WRITE, buf, sizeof(buf)), -ENOENT);
	/* the lock types' BTF names */
	assert_string_equal(lock_btf_types(LOCK_F_WRITE)[0], "rw_semaphore");
	assert_string_equal(lock_btf_types(LOCK_F_MUTEX)[0], "mutex");
	assert_string_equal(lock_btf_types(LOCK_F_SPIN)[0], "spinlock_t");
	assert_string_equal(lock_btf_types(LOCK_F_SPIN | LOCK_F_READ)[0], "rwlock_t");
	assert_null(lock_btf_types(LOCK_F_PERCPU));
	btf__free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_type_names),
		cmocka_unit_test(test_type_masks),
		cmocka_unit_test(test_time_column),
		cmocka_unit_test(test_frame_classes),
		cmocka_unit_test(test_data_symbols),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_cgroup_paths),
		cmocka_unit_test(test_zone_lock),
		cmocka_unit_test(test_slab_offset),
		cmocka_unit_test(test_slab_member),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
