/* SPDX-License-Identifier: GPL-2.0-only */
/* perf events: event name parsing, perf_event_open, mmapped ring buffers and
 * run-time feature probes. */
#ifndef BPFPERF_EVENT_H
#define BPFPERF_EVENT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags);

/* Parse perf's event syntax into attr (type/config and exclude bits only):
 * hardware (cycles, instructions, ...), software (cpu-clock, task-clock,
 * page-faults, context-switches, ...), tracepoints "sys:name", raw "rNNNN",
 * with modifiers ":u", ":k". *name gets the canonical name (malloc'd).
 * Returns 0, or -ENOENT (unknown event; err says so and lists close
 * matches) or -EINVAL (bad syntax). */
int event_parse(const char *spec, struct perf_event_attr *attr, char **name, char *err, size_t errlen);

/* The specs of -e values, perf's syntax: "a,b" is two events, "{a,b}" a
 * group led by a (opened with the leader's fd, scheduled together), and
 * "{a,b}:u" applies the modifier to every member. */
struct event_list {
	char **spec;		/* malloc'd, one per event */
	int *leader;		/* index of the spec's group leader, -1 outside a group */
	size_t n, cap;
	size_t ngroups;
};
/* Append the events of one -e value. 0, or -EINVAL (unbalanced braces,
 * nested or empty groups, an empty name; err says which), -E2BIG (more
 * than max events). */
int event_list_add(struct event_list *l, const char *value, size_t max, char *err, size_t errlen);
void event_list_free(struct event_list *l);

/* Does this machine have a hardware PMU that can count/sample cycles? */
bool event_hw_available(void);

/* perf's sample clock (the kernel's local_clock, the time of every record)
 * minus CLOCK_MONOTONIC (bpf_ktime_get_ns), measured by a COMM record of our
 * own: add it to a BPF program's timestamps to place them among the samples.
 * Accurate to a few microseconds. 0, or -errno (not reported). */
int perf_clock_offset(int64_t *offset);

/* A perf mmap ring: 1 control page + 2^n data pages. */
struct perf_ring {
	int fd;
	int cpu;
	void *base;
	size_t mmap_len;
	size_t data_size;
	uint8_t *data;
};

int perf_ring_map(struct perf_ring *r, int fd, size_t data_pages);
void perf_ring_unmap(struct perf_ring *r);
/* Up to two iovecs covering all complete records now in the ring (in order);
 * returns their byte count (0 if empty). Call perf_ring_consume(r, bytes)
 * once they have been used. */
size_t perf_ring_peek(struct perf_ring *r, struct iovec iov[2]);
void perf_ring_consume(struct perf_ring *r, size_t bytes);

#endif
