/* SPDX-License-Identifier: GPL-2.0-only */
/* core_compat.h: CO-RE helpers for kernel fields that were renamed or changed
 * type between kernel versions, shared by every BPF program (BPF side only).
 *
 * The pattern: a "flavour" struct named <type>___<suffix> with
 * preserve_access_index declares only the field one kernel generation has;
 * libbpf ignores the ___suffix when it matches the flavour against the
 * running kernel's BTF, so `bpf_core_field_exists(((struct x___old *)p)->f)`
 * is decided at load time and the dead branch is removed before the verifier
 * sees it. The flavours are declared here rather than taken from vmlinux.h,
 * so that the helpers compile against any kernel's header (the build host's
 * or the vendored one). */
#ifndef BPFPERF_CORE_COMPAT_H
#define BPFPERF_CORE_COMPAT_H

#include <bpf/bpf_core_read.h>

/* Linux 5.14 renamed task_struct::state (long) to __state (unsigned int). */
struct task_struct___state_new {
	unsigned int __state;
} __attribute__((preserve_access_index));

struct task_struct___state_old {
	long state;
} __attribute__((preserve_access_index));

/* The scheduler state of task (TASK_RUNNING 0, TASK_INTERRUPTIBLE 1, ...),
 * as off-CPU analysis reads it for a task being switched out. */
static __always_inline unsigned int core_task_state(const void *task)
{
	const struct task_struct___state_new *t = task;
	const struct task_struct___state_old *o = task;

	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return (unsigned int)BPF_CORE_READ(o, state);
}

#endif
