/* SPDX-License-Identifier: GPL-2.0-only */
/* stack_store.h: call stacks kept by their content, shared by the BPF
 * programs that aggregate by stack and by the user space that reads them.
 *
 * Why not BPF_MAP_TYPE_STACK_TRACE: it keeps one stack per hash bucket, and a
 * second stack whose hash lands in a taken bucket is refused (-EEXIST), or,
 * with BPF_F_REUSE_STACKID, overwrites the first and so renames the waits
 * already counted under its id. Here a stack's id is a 64-bit hash of its
 * frames and the map `stacks` is a hash map from id to frames: a stack is
 * lost only when the map is full. Two different stacks with one hash (about
 * 1 in 2^64 for a pair) are told apart by comparing the frames; the second
 * takes the next id (up to STACK_STORE_PROBES ids are tried).
 *
 * BPF side: include it after vmlinux.h and bpf_helpers.h; it defines the maps
 * `stacks` and `stack_scratch`, the rodata `stack_store_depth` and
 * stack_store_get(). User space sets the map's max_entries, and may keep
 * fewer frames per stack: stack_store_depth = D (1..STACK_STORE_MAX) with the
 * map's value size STACK_STORE_VAL_SIZE(D), so that a store of short stacks
 * costs what they need. User space: struct stack_store_val, and
 * stack_store_read() in src/lib/skel/skel.h. */
#ifndef BPFPERF_STACK_STORE_H
#define BPFPERF_STACK_STORE_H

#include "shared_defs.h"

#define STACK_STORE_MAX 127	/* frames kept per stack (perf's default max-stack) */
#define STACK_STORE_PROBES 4	/* ids tried for one hash */

struct stack_store_val {
	__u32 nr;		/* frames in ips (1..stack_store_depth) */
	__u32 pad;
	__u64 ips[STACK_STORE_MAX];	/* innermost first; after nr: undefined */
};

/* The map's value size for stacks of at most d frames. */
#define STACK_STORE_VAL_SIZE(d) (8 + 8 * (d))

/* Why stack_store_get() gave no id. */
enum stack_store_err {
	STACK_STORE_OK = 0,
	STACK_STORE_NONE,	/* the unwinder found no frame */
	STACK_STORE_FULL,	/* the map is full */
	STACK_STORE_CLASH,	/* every probed id held another stack */
};

/* The id of a stack of n frames: never 0 (no stack). The same function
 * on both sides, so that tests can check the BPF side's ids. */
SHARED_INLINE __u64 stack_store_hash(const __u64 *ips, __u32 n)
{
	__u64 h = 0x9e3779b97f4a7c15ULL ^ n;

	for (__u32 i = 0; i < STACK_STORE_MAX; i++) {
		if (i >= n)
			break;
		h ^= ips[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 33;
	}
	return h ? h : 1;
}

#ifdef __bpf__
const volatile __u32 stack_store_depth = STACK_STORE_MAX;	/* frames kept (set by user space) */

/* Sized by value_size rather than by BTF type, so that user space can
 * shorten the values to STACK_STORE_VAL_SIZE(stack_store_depth). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);	/* set by user space */
	__uint(key_size, sizeof(__u64));	/* the id */
	__uint(value_size, sizeof(struct stack_store_val));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct stack_store_val);
} stack_scratch SEC(".maps");

static __always_inline bool stack_store_same(const struct stack_store_val *a, const struct stack_store_val *b)
{
	if (a->nr != b->nr)
		return false;
	/* i < stack_store_depth (a constant to the verifier): within a map
	 * value of STACK_STORE_VAL_SIZE(stack_store_depth) bytes */
	for (__u32 i = 0; i < STACK_STORE_MAX; i++) {
		if (i >= a->nr || i >= stack_store_depth)
			break;
		if (a->ips[i] != b->ips[i])
			return false;
	}
	return true;
}

/* The current task's stack (flags as bpf_get_stack: 0 for the kernel's,
 * BPF_F_USER_STACK for user space's), at most max_frames (and
 * stack_store_depth) deep, stored; returns its id, or 0 with *err saying
 * why. */
static __always_inline __u64 stack_store_get(void *ctx, __u64 flags, __u32 max_frames, enum stack_store_err *err)
{
	__u32 zero = 0;
	struct stack_store_val *s = bpf_map_lookup_elem(&stack_scratch, &zero);
	long len;
	__u64 id;

	*err = STACK_STORE_NONE;
	if (!s)
		return 0;
	if (max_frames < 1 || max_frames > stack_store_depth)
		max_frames = stack_store_depth;
	if (max_frames < 1 || max_frames > STACK_STORE_MAX)
		max_frames = STACK_STORE_MAX;
	len = bpf_get_stack(ctx, s->ips, max_frames * sizeof(__u64), flags);
	if (len < (long)sizeof(__u64))
		return 0;
	s->nr = (__u32)(len / sizeof(__u64));
	if (s->nr > STACK_STORE_MAX)
		s->nr = STACK_STORE_MAX;
	s->pad = 0;
	id = stack_store_hash(s->ips, s->nr);
	for (int probe = 0; probe < STACK_STORE_PROBES; probe++) {
		struct stack_store_val *old = bpf_map_lookup_elem(&stacks, &id);

		if (!old) {
			long ret = bpf_map_update_elem(&stacks, &id, s, BPF_NOEXIST);

			if (!ret) {
				*err = STACK_STORE_OK;
				return id;
			}
			if (ret != -17) {	/* -EEXIST: another CPU stored one there */
				*err = STACK_STORE_FULL;
				return 0;
			}
			old = bpf_map_lookup_elem(&stacks, &id);
			if (!old)
				continue;	/* stored then deleted: try again */
		}
		if (stack_store_same(old, s)) {
			*err = STACK_STORE_OK;
			return id;
		}
		id = id + 1 ? id + 1 : 1;
	}
	*err = STACK_STORE_CLASH;
	return 0;
}
#endif

#endif
