/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf record --filter: layouts shared by sample_filter.bpf.c and
 * src/lib/feat/sample_filter*.c. A filter is compiled to an array of
 * fixed-width entries evaluated in order on every sample:
 *
 *   term op value          one comparison; all of them must hold (','), except
 *   GROUP_BEGIN ... END    inside a group, where one of them must hold ('||')
 *
 * 'A || B, C' is: GROUP_BEGIN, A, B, GROUP_END, C. */
#ifndef BPFPERF_SAMPLE_FILTER_DATA_H
#define BPFPERF_SAMPLE_FILTER_DATA_H

#include "shared_defs.h"	/* __u32, __u64 */

#define SF_MAX_ENTRIES 64	/* entries per filter, group markers included */

/* What a term compares: a field of the sample, or of the task it hit. */
enum sf_term {
	SF_TERM_NONE = 0,	/* group markers */
	SF_TERM_IP,		/* sample ip */
	SF_TERM_ID,		/* sample id (the event's primary id) */
	SF_TERM_TID,		/* thread id */
	SF_TERM_PID,		/* process id (tgid) */
	SF_TERM_CPU,
	SF_TERM_TIME,		/* sample time (perf clock, ns) */
	SF_TERM_ADDR,		/* sample addr (page faults, memory events) */
	SF_TERM_PERIOD,
	SF_TERM_WEIGHT,
	SF_TERM_PHYS_ADDR,
	SF_TERM_DATA_SRC,	/* a sub-field of data_src: part below */
	SF_TERM_CGROUP,		/* cgroup v2 id of the task */
	SF_TERM_UID,
	SF_TERM_GID,
	SF_NR_TERMS,
};

enum sf_op {
	SF_OP_EQ = 0,
	SF_OP_NE,
	SF_OP_GT,
	SF_OP_GE,
	SF_OP_LT,
	SF_OP_LE,
	SF_OP_AND,		/* (field & value) != 0 */
	SF_OP_GROUP_BEGIN,
	SF_OP_GROUP_END,
};

/* data_src sub-fields (SF_TERM_DATA_SRC's part): bits of
 * union perf_mem_data_src's val. SNOOP is mem_snoop with mem_snoopx above
 * it (snoopx << 5 | snoop), so that 'fwd' and 'peer' are distinct values. */
enum sf_mem_part {
	SF_MEM_OP = 1,		/* bits 0-4 */
	SF_MEM_LVL,		/* mem_lvl_num: bits 33-36 */
	SF_MEM_SNOOP,		/* bits 19-23, snoopx: 38-39 */
	SF_MEM_REMOTE,		/* bit 37 */
	SF_MEM_LOCK,		/* bits 24-25 */
	SF_MEM_DTLB,		/* bits 26-32 */
	SF_MEM_BLK,		/* bits 40-42 */
	SF_MEM_HOPS,		/* bits 43-45 */
};

struct sample_filter_entry {
	__u32 term;		/* enum sf_term */
	__u16 op;		/* enum sf_op */
	__u16 part;		/* SF_TERM_DATA_SRC: enum sf_mem_part */
	__u64 value;
};

/* Per-CPU counters (a per-CPU array, key = index). */
enum sf_counter {
	SF_CNT_KEPT = 0,
	SF_CNT_DROPPED,
	SF_NR_COUNTERS,
};

/* The evaluation, shared by the BPF program and the unit tests: for each
 * entry in order, sf_step() with the term's value (ignored for group
 * markers); a negative return drops the sample. Inside a group whose term
 * already held, sf_skip() says the remaining terms need not be read. */
struct sf_state {
	__u32 in_group;
	__u32 group_ok;
};

SHARED_INLINE int sf_compare(__u32 op, __u64 v, __u64 value)
{
	switch (op) {
	case SF_OP_EQ: return v == value;
	case SF_OP_NE: return v != value;
	case SF_OP_GT: return v > value;
	case SF_OP_GE: return v >= value;
	case SF_OP_LT: return v < value;
	case SF_OP_LE: return v <= value;
	case SF_OP_AND: return (v & value) != 0;
	default: return 0;
	}
}

SHARED_INLINE int sf_skip(const struct sf_state *s, __u32 op)
{
	return s->in_group && s->group_ok && op < SF_OP_GROUP_BEGIN;
}

SHARED_INLINE int sf_step(struct sf_state *s, __u32 op, __u64 v, __u64 value)
{
	if (op == SF_OP_GROUP_BEGIN) {
		s->in_group = 1;
		s->group_ok = 0;
		return 0;
	}
	if (op == SF_OP_GROUP_END) {
		s->in_group = 0;
		return s->group_ok ? 0 : -1;
	}
	int ok = sf_compare(op, v, value);
	if (s->in_group) {
		s->group_ok |= (__u32)ok;
		return 0;
	}
	return ok ? 0 : -1;
}

#endif
