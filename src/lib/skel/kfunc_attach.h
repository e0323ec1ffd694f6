/* SPDX-License-Identifier: GPL-2.0-only */
/* An entry/exit pair of BPF programs on a kernel function, with the best
 * mechanism the running kernel offers:
 *
 *   fentry/fexit        BPF trampolines: the cheapest, need the function in
 *                       the kernel's BTF (CONFIG_DEBUG_INFO_BTF) and
 *                       CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
 *   kprobe/kretprobe    the fallback (CONFIG_KPROBES, CONFIG_KPROBE_EVENTS)
 *
 * The BPF object holds both pairs, sharing their body through a static
 * __always_inline function (src/bpf/func_count.bpf.c is the example), with
 * sections that name no function: SEC("fentry"), SEC("fexit"),
 * SEC("kprobe"), SEC("kretprobe"). Calls, in order:
 *
 *   kfunc_attach_prepare()  after the skeleton's open, before its load:
 *                           probes the kernel, picks the mechanism (-v says
 *                           which and why), turns the other pair's autoload
 *                           off, sets fentry's attach target
 *   (the skeleton's load)
 *   kfunc_attach_links()    attaches the chosen pair
 *   kfunc_attach_destroy()  detaches (the skeleton may be destroyed after)
 *
 * Test only: BPFPERF_FORCE_KPROBE=1 in the environment (or the force_kprobe
 * field) takes the kprobe fallback where fentry would work, so that both
 * paths run on one kernel. Not for users.
 *
 * Errors follow log.h: a negative errno after one message. */
#ifndef BPFPERF_KFUNC_ATTACH_H
#define BPFPERF_KFUNC_ATTACH_H

#include <stdbool.h>

struct bpf_program;
struct bpf_link;

enum kfunc_mech {
	KFUNC_MECH_NONE = 0,
	KFUNC_MECH_FENTRY,	/* fentry/fexit */
	KFUNC_MECH_KPROBE,	/* kprobe/kretprobe */
};

struct kfunc_pair {
	struct bpf_program *entry, *exit;
};

struct kfunc_attach_opts {
	const char *func;		/* the kernel function, as in /proc/kallsyms */
	struct kfunc_pair fentry;	/* SEC("fentry"), SEC("fexit") */
	struct kfunc_pair kprobe;	/* SEC("kprobe"), SEC("kretprobe") */
	bool force_kprobe;		/* test only: as BPFPERF_FORCE_KPROBE=1 */
};

struct kfunc_attach {
	const char *func;
	enum kfunc_mech mech;
	char btf_name[128];		/* func, or its alias that the kernel's BTF has */
	struct kfunc_pair pair;		/* the chosen pair */
	struct bpf_link *entry_link, *exit_link;
	char why[512];			/* why not fentry/fexit, when kprobes were chosen */
};

/* Probe and choose for o->func (o must outlive k). 0, else -ENOENT (no such
 * kernel function), -EOPNOTSUPP (the kernel has neither mechanism: the
 * message names what is missing and the kernel options that give it) or
 * another negative errno, each after one message. */
int kfunc_attach_prepare(const struct kfunc_attach_opts *o, struct kfunc_attach *k);
/* Whether name is a kernel function: in the kernel's BTF, else a text symbol
 * of /proc/kallsyms (kfunc_attach_prepare's -ENOENT test, for a command that
 * checks its names before it opens anything). */
bool kfunc_exists(const char *name);
/* Attach the chosen pair of the loaded object: the exit program first, so
 * that no entry seen misses its return. 0 or a negative errno (reported). */
int kfunc_attach_links(struct kfunc_attach *k);
/* Detach; k can be prepared again. */
void kfunc_attach_destroy(struct kfunc_attach *k);
/* "fentry", "kprobe" (the names tests look for), "none". */
const char *kfunc_mech_name(enum kfunc_mech m);

/* A trial: load a two-instruction fentry program on the vmlinux BTF
 * function btf_id and attach it, then close both. 0 when BPF trampolines
 * work there, else the negative errno of the failing step, named in *step
 * ("load" or "attach"). Nothing is logged. */
int kfunc_fentry_trial(int btf_id, const char **step);

#endif
