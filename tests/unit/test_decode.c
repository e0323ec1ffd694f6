// SPDX-License-Identifier: GPL-2.0-only
/* perf.data record decoders: each one on a valid record (also at an odd
 * address), and on records that are too short, of the wrong type, or whose
 * string does not end inside the record; the true size of KSYMBOL and
 * BPF_EVENT records with inflated headers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "log.h"
#include "perfdata/decode.h"

/* Records are built in buf + 1 to check that decoders do not need alignment;
 * the last 16 bytes stand for a sample_id trailer. */
static uint8_t store[1024];
static uint8_t *const buf = store + 1;
#define TRAILER 16

/* fixed part, string padded to 8 with NULs, trailer; returns the size */
static size_t build(const void *fixed, size_t fixed_size, const char *str)
{
	size_t n = fixed_size;
	memset(store, 0, sizeof(store));
	memcpy(buf, fixed, fixed_size);
	if (str) {
		size_t l = strlen(str) + 1;
		memcpy(buf + n, str, l);
		n += (l + 7) / 8 * 8;
	}
	memset(buf + n, 0xa5, TRAILER);	/* no NUL in the trailer */
	n += TRAILER;
	uint16_t size = (uint16_t)n;
	memcpy(buf + offsetof(struct perf_event_header, size), &size, sizeof(size));
	return n;
}

static void test_mmap(void **state)
{
	(void)state;
	struct pd_rec_mmap r = { .header = { .type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_USER },
				 .pid = 7, .tid = 8, .start = 0x400000, .len = 0x1000, .pgoff = 0x2000 };
	size_t n = build(&r, sizeof(r), "/usr/bin/true");
	struct pd_mmap m;
	assert_int_equal(pd_decode_mmap(buf, n, &m), 0);
	assert_int_equal(m.rec.pid, 7);
	assert_int_equal(m.rec.tid, 8);
	assert_int_equal(m.rec.start, 0x400000);
	assert_int_equal(m.rec.len, 0x1000);
	assert_int_equal(m.rec.pgoff, 0x2000);
	assert_int_equal(m.rec.header.misc, PERF_RECORD_MISC_USER);
	assert_string_equal(m.filename, "/usr/bin/true");
	assert_ptr_equal(m.filename, (const char *)buf + sizeof(r));
	/* shorter than the fixed part, or than a header */
	assert_int_equal(pd_decode_mmap(buf, sizeof(r) - 1, &m), -EINVAL);
	assert_int_equal(pd_decode_mmap(buf, 4, &m), -EINVAL);
	assert_int_equal(pd_decode_mmap(buf, 0, &m), -EINVAL);
	/* exactly the fixed part: no room for the string */
	assert_int_equal(pd_decode_mmap(buf, sizeof(r), &m), -EINVAL);
	/* cut inside the name: not terminated */
	assert_int_equal(pd_decode_mmap(buf, sizeof(r) + 5, &m), -EINVAL);
	/* a name that runs into the trailer up to the end of the record */
	n = build(&r, sizeof(r), NULL);
	memset(buf + sizeof(r), 'x', n - sizeof(r));
	assert_int_equal(pd_decode_mmap(buf, n, &m), -EINVAL);
	/* the wrong decoder for the type */
	struct pd_mmap2 m2;
	n = build(&r, sizeof(r), "/usr/bin/true");
	assert_int_equal(pd_decode_mmap2(buf, n, &m2), -EINVAL);
}

static void test_mmap2(void **state)
{
	(void)state;
	struct pd_rec_mmap2 r = { .header = { .type = PERF_RECORD_MMAP2 }, .pid = 1, .tid = 2,
				  .start = 0x7f0000000000, .len = 0x21000, .pgoff = 0,
				  .maj = 8, .min = 1, .ino = 1234, .ino_generation = 5,
				  .prot = 5, .flags = 2 };
	size_t n = build(&r, sizeof(r), "/lib/libc.so.6");
	struct pd_mmap2 m;
	assert_int_equal(pd_decode_mmap2(buf, n, &m), 0);
	assert_int_equal(m.rec.maj, 8);
	assert_int_equal(m.rec.min, 1);
	assert_int_equal(m.rec.ino, 1234);
	assert_int_equal(m.rec.ino_generation, 5);
	assert_int_equal(m.rec.prot, 5);
	assert_int_equal(m.rec.flags, 2);
	assert_int_equal(m.rec.start, 0x7f0000000000);
	assert_string_equal(m.filename, "/lib/libc.so.6");
	/* an inode number whose low byte is above 20 is no build-id size */
	r.ino = 0;
	r.maj = 0xff;
	n = build(&r, sizeof(r), "/lib/libc.so.6");
	assert_int_equal(pd_decode_mmap2(buf, n, &m), 0);

	/* the build-id variant */
	struct pd_rec_mmap2 b = { .header = { .type = PERF_RECORD_MMAP2,
					      .misc = PERF_RECORD_MISC_USER |
						      PERF_RECORD_MISC_MMAP_BUILD_ID },
				  .pid = 1, .tid = 2, .start = 0x1000, .len = 0x1000,
				  .build_id_size = 20, .prot = 5 };
	for (int i = 0; i < PD_BUILD_ID_MAX; i++)
		b.build_id[i] = (uint8_t)(0xa0 + i);
	n = build(&b, sizeof(b), "/bin/sh");
	assert_int_equal(pd_decode_mmap2(buf, n, &m), 0);
	assert_int_equal(m.rec.build_id_size, 20);
	assert_memory_equal(m.rec.build_id, b.build_id, PD_BUILD_ID_MAX);
	assert_int_equal(m.rec.prot, 5);
	assert_string_equal(m.filename, "/bin/sh");
	/* a build-id longer than its field: the flag leaked by the kernel
	 * from another listener's event onto a device/inode record (major
	 * 254 where the size is): read as device and inode */
	struct pd_rec_mmap2 leak = r;
	leak.header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	leak.maj = 254;
	leak.min = 3;
	leak.ino = 77;
	n = build(&leak, sizeof(leak), "/bin/sh");
	assert_int_equal(pd_decode_mmap2(buf, n, &m), 0);
	assert_false(m.rec.header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
	assert_int_equal(m.rec.maj, 254);
	assert_int_equal(m.rec.ino, 77);
	assert_string_equal(m.filename, "/bin/sh");

	/* truncated */
	assert_int_equal(pd_decode_mmap2(buf, sizeof(b) - 8, &m), -EINVAL);
	assert_int_equal(pd_decode_mmap2(buf, sizeof(b) + 3, &m), -EINVAL);
}

static void test_comm(void **state)
{
	(void)state;
	struct pd_rec_comm r = { .header = { .type = PERF_RECORD_COMM,
					     .misc = PERF_RECORD_MISC_COMM_EXEC },
				 .pid = 42, .tid = 43 };
	size_t n = build(&r, sizeof(r), "worker");
	struct pd_comm c;
	assert_int_equal(pd_decode_comm(buf, n, &c), 0);
	assert_int_equal(c.rec.pid, 42);
	assert_int_equal(c.rec.tid, 43);
	assert_true(c.rec.header.misc & PERF_RECORD_MISC_COMM_EXEC);
	assert_string_equal(c.comm, "worker");
	/* an empty name is still a name */
	n = build(&r, sizeof(r), "");
	assert_int_equal(pd_decode_comm(buf, n, &c), 0);
	assert_string_equal(c.comm, "");
	/* too short, and a name that never ends */
	assert_int_equal(pd_decode_comm(buf, sizeof(r) - 4, &c), -EINVAL);
	n = build(&r, sizeof(r), "0123456");	/* fills 8 bytes exactly, NUL last */
	buf[sizeof(r) + 7] = 'x';
	assert_int_equal(pd_decode_comm(buf, n, &c), -EINVAL);
	/* the size bounds the string, not the header's size */
	n = build(&r, sizeof(r), "worker");
	assert_int_equal(pd_decode_comm(buf, sizeof(r) + 6, &c), -EINVAL);
	assert_int_equal(pd_decode_comm(buf, sizeof(r) + 7, &c), 0);
}

static void test_fork_exit(void **state)
{
	(void)state;
	struct pd_rec_fork r = { .header = { .type = PERF_RECORD_FORK }, .pid = 10, .ppid = 1,
				 .tid = 11, .ptid = 1, .time = 123456789 };
	size_t n = build(&r, sizeof(r), NULL);
	struct pd_fork f;
	assert_int_equal(pd_decode_fork(buf, n, &f), 0);
	assert_int_equal(f.rec.header.type, PERF_RECORD_FORK);
	assert_int_equal(f.rec.pid, 10);
	assert_int_equal(f.rec.ppid, 1);
	assert_int_equal(f.rec.tid, 11);
	assert_int_equal(f.rec.ptid, 1);
	assert_int_equal(f.rec.time, 123456789);
	r.header.type = PERF_RECORD_EXIT;
	n = build(&r, sizeof(r), NULL);
	assert_int_equal(pd_decode_fork(buf, n, &f), 0);
	assert_int_equal(f.rec.header.type, PERF_RECORD_EXIT);
	assert_int_equal(f.rec.tid, 11);
	/* no trailer is fine; a missing time is not */
	assert_int_equal(pd_decode_fork(buf, sizeof(r), &f), 0);
	assert_int_equal(pd_decode_fork(buf, sizeof(r) - 8, &f), -EINVAL);
	assert_int_equal(pd_decode_fork(buf, 6, &f), -EINVAL);
	r.header.type = PERF_RECORD_COMM;
	n = build(&r, sizeof(r), NULL);
	assert_int_equal(pd_decode_fork(buf, n, &f), -EINVAL);
}

static void test_lost(void **state)
{
	(void)state;
	struct pd_rec_lost r = { .header = { .type = PERF_RECORD_LOST }, .id = 3, .lost = 99 };
	size_t n = build(&r, sizeof(r), NULL);
	struct pd_lost l;
	assert_int_equal(pd_decode_lost(buf, n, &l), 0);
	assert_int_equal(l.rec.id, 3);
	assert_int_equal(l.rec.lost, 99);
	assert_int_equal(pd_decode_lost(buf, sizeof(r) - 1, &l), -EINVAL);

	struct pd_rec_lost_samples s = { .header = { .type = PERF_RECORD_LOST_SAMPLES,
						     .misc = PD_RECORD_MISC_LOST_SAMPLES_BPF },
					 .lost = 17 };
	n = build(&s, sizeof(s), NULL);
	struct pd_lost_samples ls;
	assert_int_equal(pd_decode_lost_samples(buf, n, &ls), 0);
	assert_int_equal(ls.rec.lost, 17);
	assert_true(ls.rec.header.misc & PD_RECORD_MISC_LOST_SAMPLES_BPF);
	assert_int_equal(pd_decode_lost_samples(buf, 8, &ls), -EINVAL);
	/* LOST and LOST_SAMPLES are not interchangeable */
	assert_int_equal(pd_decode_lost(buf, n, &l), -EINVAL);
}

static void test_ksymbol(void **state)
{
	(void)state;
	struct pd_rec_ksymbol r = { .header = { .type = PERF_RECORD_KSYMBOL },
				    .addr = 0xffffffffc0001000ull, .len = 312,
				    .ksym_type = PD_KSYMBOL_TYPE_BPF,
				    .flags = PD_KSYMBOL_FLAGS_UNREGISTER };
	const char *name = "bpf_prog_0123456789abcdef_handler";
	size_t n = build(&r, sizeof(r), name);
	struct pd_ksymbol k;
	assert_int_equal(pd_decode_ksymbol(buf, n, &k), 0);
	assert_int_equal(k.rec.addr, 0xffffffffc0001000ull);
	assert_int_equal(k.rec.len, 312);
	assert_int_equal(k.rec.ksym_type, PD_KSYMBOL_TYPE_BPF);
	assert_int_equal(k.rec.flags, PD_KSYMBOL_FLAGS_UNREGISTER);
	assert_string_equal(k.name, name);
	assert_int_equal(pd_decode_ksymbol(buf, sizeof(r), &k), -EINVAL);
	assert_int_equal(pd_decode_ksymbol(buf, sizeof(r) - 2, &k), -EINVAL);
	assert_int_equal(pd_decode_ksymbol(buf, sizeof(r) + strlen(name), &k), -EINVAL);
	assert_int_equal(pd_decode_ksymbol(buf, sizeof(r) + strlen(name) + 1, &k), 0);
}

static void test_bpf_event(void **state)
{
	(void)state;
	struct pd_rec_bpf_event r = { .header = { .type = PERF_RECORD_BPF_EVENT },
				      .type = PD_BPF_EVENT_PROG_LOAD, .flags = 0, .id = 77,
				      .tag = { 1, 2, 3, 4, 5, 6, 7, 8 } };
	size_t n = build(&r, sizeof(r), NULL);
	struct pd_bpf_event e;
	assert_int_equal(pd_decode_bpf_event(buf, n, &e), 0);
	assert_int_equal(e.rec.type, PD_BPF_EVENT_PROG_LOAD);
	assert_int_equal(e.rec.id, 77);
	assert_memory_equal(e.rec.tag, r.tag, PD_BPF_TAG_SIZE);
	assert_int_equal(pd_decode_bpf_event(buf, sizeof(r), &e), 0);
	assert_int_equal(pd_decode_bpf_event(buf, sizeof(r) - 8, &e), -EINVAL);
	struct pd_ksymbol k;
	assert_int_equal(pd_decode_ksymbol(buf, n, &k), -EINVAL);
}

static void set_size(size_t n)
{
	uint16_t size = (uint16_t)n;
	memcpy(buf + offsetof(struct perf_event_header, size), &size, sizeof(size));
}

static void test_true_size(void **state)
{
	(void)state;
	struct pd_rec_ksymbol k = { .header = { .type = PERF_RECORD_KSYMBOL }, .addr = 1, .len = 2 };
	size_t n = build(&k, sizeof(k), "bpf_prog_x");	/* 24 + 16 + 16 */
	assert_int_equal(n, 56);
	/* right header: unchanged */
	assert_int_equal(pd_record_true_size(buf, n, TRAILER, 0), n);
	/* inflated by two more trailers: garbage follows */
	set_size(n + 2 * TRAILER);
	assert_int_equal(pd_record_true_size(buf, n + 2 * TRAILER, TRAILER, 0), n);
	/* the name must end within name_max to be trusted */
	assert_int_equal(pd_record_true_size(buf, n + 2 * TRAILER, TRAILER, 4), n + 2 * TRAILER);
	assert_int_equal(pd_record_true_size(buf, n + 2 * TRAILER, TRAILER, 11), n);
	/* a name without its NUL: the header is all there is to go by */
	memset(buf + sizeof(k), 'x', n + 2 * TRAILER - sizeof(k));
	assert_int_equal(pd_record_true_size(buf, n + 2 * TRAILER, TRAILER, 0), n + 2 * TRAILER);
	/* only the fixed part */
	assert_int_equal(pd_record_true_size(buf, sizeof(k), TRAILER, 0), sizeof(k));

	struct pd_rec_bpf_event e = { .header = { .type = PERF_RECORD_BPF_EVENT }, .id = 5 };
	n = build(&e, sizeof(e), NULL);
	assert_int_equal(pd_record_true_size(buf, n, TRAILER, 0), n);
	assert_int_equal(pd_record_true_size(buf, n + 24, TRAILER, 0), n);
	assert_int_equal(pd_record_true_size(buf, n, 0, 0), sizeof(e));

	/* other records and short buffers are left alone */
	struct pd_rec_comm c = { .header = { .type = PERF_RECORD_COMM } };
	n = build(&c, sizeof(c), "a");
	assert_int_equal(pd_record_true_size(buf, n + 64, TRAILER, 0), n + 64);
	assert_int_equal(pd_record_true_size(buf, 3, TRAILER, 0), 3);
}

int main(void)
{
	log_set_verbosity(-1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmap),
		cmocka_unit_test(test_mmap2),
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_fork_exit),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_ksymbol),
		cmocka_unit_test(test_bpf_event),
		cmocka_unit_test(test_true_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
