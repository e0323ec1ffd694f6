// SPDX-License-Identifier: GPL-2.0-only
/* A BPF entry/exit pair on a kernel function: fentry/fexit where the kernel
 * has BPF trampolines for it, kprobe/kretprobe otherwise, and a message
 * naming what is missing where it has neither (kfunc_attach.h).
 *
 * How the choice is made, cheapest and most certain first:
 *   1. the function must exist: in the kernel's BTF (which also makes it an
 *      fentry target) or else as a text symbol of /proc/kallsyms (a kprobe
 *      target only: static functions renamed by the compiler, module
 *      functions, kernels without BTF);
 *   2. fentry: BPF_PROG_TYPE_TRACING known to the kernel
 *      (libbpf_probe_bpf_prog_type), the function in vmlinux's BTF, and a
 *      trial: a two-instruction fentry program loaded and attached on that
 *      very function, then closed. Only the trial is certain: a kernel can
 *      know the program type and still refuse the trampoline (EPERM on the
 *      6.18 VM here with CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y; arm64
 *      before 6.0 loaded fentry programs and failed to attach them), and
 *      some functions cannot take one (notrace, too many arguments). A
 *      trial that passes means the real load and attach of the same kind
 *      will, so no load has to be redone with the other pair;
 *   3. kprobes: the kprobe PMU (/sys/bus/event_source/devices/kprobe) or
 *      tracefs's kprobe_events, which exist exactly when the kernel has
 *      CONFIG_KPROBES and CONFIG_KPROBE_EVENTS; whether this function can
 *      take a kprobe (the kprobe blacklist) is seen at attach, and named. */
#include "skel/kfunc_attach.h"
#include "skel/skel.h"
#include "log.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FORCE_ENV "BPFPERF_FORCE_KPROBE"

const char *kfunc_mech_name(enum kfunc_mech m)
{
	switch (m) {
	case KFUNC_MECH_FENTRY:
		return "fentry";
	case KFUNC_MECH_KPROBE:
		return "kprobe";
	default:
		return "none";
	}
}

int kfunc_fentry_trial(int btf_id, const char **step)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = (__u32)btf_id);
	*step = "load";
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "kfunc_trial", "GPL", insns, 2, &o);
	if (fd < 0)
		return -errno;
	*step = "attach";
	/* the attach call every kernel with fentry has (5.5+) */
	int lfd = bpf_raw_tracepoint_open(NULL, fd);
	int err = lfd < 0 ? -errno : 0;
	if (lfd >= 0)
		close(lfd);
	close(fd);
	return err;
}

/* The address of the text symbol (t/T) name of /proc/kallsyms, when
 * name_out is NULL; else the first other text symbol at address *addr that
 * vm's BTF has as a function, into name_out. Names stay readable where
 * kptr_restrict hides addresses (then 0). */
static bool kallsyms_scan(const char *name, uint64_t *addr, const struct btf *vm, char *name_out,
			  size_t out_len)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	if (!f)
		return false;
	char line[512];
	bool found = false;
	size_t len = strlen(name);
	while (!found && fgets(line, sizeof(line), f)) {
		char *type = strchr(line, ' ');
		if (!type || (type[1] != 't' && type[1] != 'T') || type[2] != ' ')
			continue;
		char *sym = type + 3;
		sym[strcspn(sym, "\t\n")] = '\0';
		if (!name_out) {
			found = strncmp(sym, name, len) == 0 && sym[len] == '\0';
			if (found)
				*addr = strtoull(line, NULL, 16);
		} else if (*addr && strtoull(line, NULL, 16) == *addr && strcmp(sym, name) &&
			   btf__find_by_name_kind(vm, sym, BTF_KIND_FUNC) > 0 &&
			   strlen(sym) < out_len) {
			memcpy(name_out, sym, strlen(sym) + 1);
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool kprobes_present(void)
{
	if (access("/sys/bus/event_source/devices/kprobe/type", F_OK) == 0)
		return true;
	const char *tfs = tracefs_dir();
	char p[512];
	snprintf(p, sizeof(p), "%s/kprobe_events", tfs ? tfs : "/sys/kernel/tracing");
	return access(p, F_OK) == 0;
}

/* Can fentry/fexit attach to func here? Else why not, in why. btf_id < 0:
 * func is not in vmlinux's BTF (or there is none, have_btf false). */
static bool fentry_usable(const char *func, int btf_id, bool have_btf, char *why, size_t len)
{
	if (!have_btf) {
		snprintf(why, len, "the kernel has no BTF (/sys/kernel/btf/vmlinux: "
			 "CONFIG_DEBUG_INFO_BTF is off)");
		return false;
	}
	if (btf_id < 0) {
		snprintf(why, len, "'%s' is not in the kernel's BTF (a module's or a renamed "
			 "static function)", func);
		return false;
	}
	const char *step;
	int err = kfunc_fentry_trial(btf_id, &step);
	if (err) {
		/* only to say more: libbpf's probe of the type fails on
		 * kernels whose trampolines fail, and on some that have them */
		bool no_type = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_TRACING, NULL) == 0;
		snprintf(why, len, "a trial fentry program on '%s' failed to %s: %s%s; BPF "
			 "trampolines need CONFIG_FUNCTION_TRACER, "
			 "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS and a function ftrace can "
			 "patch", func, step, log_strerr(err),
			 no_type ? ", and libbpf's probe of BPF tracing programs fails" : "");
		return false;
	}
	return true;
}

static void set_autoload(const struct kfunc_pair *p, bool on)
{
	if (p->entry)
		bpf_program__set_autoload(p->entry, on);
	if (p->exit)
		bpf_program__set_autoload(p->exit, on);
}

/* Over 80 lines: the choice in its order (the function found, the fentry
 * trial, the kprobe fallback, the message naming what is missing), each
 * step's reason kept for the -v line and the error. */
bool kfunc_exists(const char *name)
{
	struct btf *vm = btf__load_vmlinux_btf();
	bool found = vm && btf__find_by_name_kind(vm, name, BTF_KIND_FUNC) > 0;
	btf__free(vm);
	uint64_t addr = 0;
	return found || kallsyms_scan(name, &addr, NULL, NULL, 0);
}

int kfunc_attach_prepare(const struct kfunc_attach_opts *o, struct kfunc_attach *k)
{
	memset(k, 0, sizeof(*k));
	k->func = o->func;
	const char *env = getenv(FORCE_ENV);
	bool forced = o->force_kprobe || (env && strcmp(env, "1") == 0);

	/* The function's name in the kernel's BTF: its own, else that of an
	 * alias at the same address (__x64_sys_getppid is __do_sys_getppid's
	 * code, and only the latter is in BTF). */
	struct btf *vm = btf__load_vmlinux_btf();
	bool have_btf = vm != NULL;
	int btf_id = vm ? btf__find_by_name_kind(vm, o->func, BTF_KIND_FUNC) : -1;
	snprintf(k->btf_name, sizeof(k->btf_name), "%s", o->func);
	if (btf_id < 0) {
		uint64_t addr = 0;
		if (!kallsyms_scan(o->func, &addr, NULL, NULL, 0)) {
			btf__free(vm);
			pr_err("cannot attach to kernel function '%s': it is neither in the kernel's "
			       "BTF nor a text symbol of /proc/kallsyms; check the name (it may be "
			       "inlined, renamed, e.g. '%s.isra.0', or in a module that is not "
			       "loaded)", o->func, o->func);
			return -ENOENT;
		}
		if (vm && kallsyms_scan(o->func, &addr, vm, k->btf_name, sizeof(k->btf_name)))
			btf_id = btf__find_by_name_kind(vm, k->btf_name, BTF_KIND_FUNC);
	}
	btf__free(vm);

	char fwhy[sizeof(k->why)];
	bool fe = false;
	if (forced)
		snprintf(fwhy, sizeof(fwhy), "not tried: the kprobe fallback is forced (%s=1, "
			 "for tests)", FORCE_ENV);
	else
		fe = fentry_usable(k->btf_name, btf_id, have_btf, fwhy, sizeof(fwhy));
	bool kp = !fe && kprobes_present();

	if (!fe && !kp) {
		pr_err("cannot attach to kernel function '%s': this kernel has neither BPF "
		       "trampolines for fentry/fexit (%s) nor kprobes (CONFIG_KPROBES and "
		       "CONFIG_KPROBE_EVENTS are off: no /sys/bus/event_source/devices/kprobe); "
		       "run on a kernel built with CONFIG_KPROBES=y, or with "
		       "CONFIG_FUNCTION_TRACER=y, CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y and "
		       "CONFIG_DEBUG_INFO_BTF=y (distribution kernels have both), or use a "
		       "tracepoint instead", o->func, fwhy);
		return -EOPNOTSUPP;
	}
	if (fe) {
		k->mech = KFUNC_MECH_FENTRY;
		k->pair = o->fentry;
		struct bpf_program *progs[2] = { o->fentry.entry, o->fentry.exit };
		for (int i = 0; i < 2 && progs[i]; i++) {
			int err = bpf_program__set_attach_target(progs[i], 0, k->btf_name);
			if (err) {
				pr_err("cannot set '%s' as the attach target of BPF program '%s': "
				       "%s; is the BPF object opened and not yet loaded?", o->func,
				       bpf_program__name(progs[i]), log_strerr(err));
				return err;
			}
		}
		if (strcmp(k->btf_name, o->func))
			pr_info("kernel function %s: fentry/fexit (BPF trampolines) on %s, its "
				"name in the kernel's BTF (same address)", o->func, k->btf_name);
		else
			pr_info("kernel function %s: fentry/fexit (BPF trampolines)", o->func);
	} else {
		k->mech = KFUNC_MECH_KPROBE;
		k->pair = o->kprobe;
		snprintf(k->why, sizeof(k->why), "%s", fwhy);
		pr_info("kernel function %s: kprobe/kretprobe, not fentry/fexit: %s", o->func, fwhy);
	}
	if (!k->pair.entry || !k->pair.exit) {
		pr_err("cannot attach to kernel function '%s' with %s: the BPF object has no "
		       "entry/exit program pair for it", o->func, kfunc_mech_name(k->mech));
		return -EINVAL;
	}
	set_autoload(k->mech == KFUNC_MECH_FENTRY ? &o->kprobe : &o->fentry, false);
	set_autoload(&k->pair, true);
	return 0;
}

static struct bpf_link *attach_one(const struct kfunc_attach *k, struct bpf_program *p, bool ret)
{
	if (k->mech == KFUNC_MECH_FENTRY)
		return bpf_program__attach_trace(p);
	LIBBPF_OPTS(bpf_kprobe_opts, o, .retprobe = ret);
	return bpf_program__attach_kprobe_opts(p, k->func, &o);
}

int kfunc_attach_links(struct kfunc_attach *k)
{
	struct bpf_program *progs[2] = { k->pair.exit, k->pair.entry };
	struct bpf_link **links[2] = { &k->exit_link, &k->entry_link };
	for (int i = 0; i < 2; i++) {
		struct bpf_link *l = attach_one(k, progs[i], i == 0);
		if (!l) {
			int err = -errno;
			const char *limit = log_limit_hint(err);
			pr_err("cannot attach BPF program '%s' to kernel function '%s' as %s: %s; %s",
			       bpf_program__name(progs[i]), k->func,
			       k->mech == KFUNC_MECH_FENTRY ? (i ? "fentry" : "fexit") :
							     (i ? "kprobe" : "kretprobe"),
			       log_strerr(err), limit ? limit :
			       k->mech == KFUNC_MECH_KPROBE ? "the function may be on the kernel's "
			       "kprobe blacklist (/sys/kernel/debug/kprobes/blacklist): choose "
			       "another" : "choose another function");
			return err;
		}
		*links[i] = l;
	}
	return 0;
}

void kfunc_attach_destroy(struct kfunc_attach *k)
{
	bpf_link__destroy(k->entry_link);
	bpf_link__destroy(k->exit_link);
	k->entry_link = k->exit_link = NULL;
}
