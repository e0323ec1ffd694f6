// SPDX-License-Identifier: GPL-2.0-only
/* What each program's section needs from the running kernel (kprobes,
 * uprobes, BPF trampolines, a tracepoint, ...), probed before load so that a
 * missing feature is named instead of surfacing as a load or attach error. */
#include "bpfobj_int.h"
#include "skel/kfunc_attach.h"
#include "skel/skel.h"
#include "log.h"
#include "util.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static bool path_exists(const char *p)
{
	return access(p, F_OK) == 0;
}

static int probe_prog_type(enum bpf_prog_type t)
{
	static int cache[64];
	if ((unsigned)t >= 64)
		return 0;
	if (!cache[t])
		cache[t] = libbpf_probe_bpf_prog_type(t, NULL) == 1 ? 1 : -1;
	return cache[t] == 1;
}

/* Tracing programs (fentry/fexit/...) need the kernel to accept
 * BPF_PROG_TYPE_TRACING with a BTF target: try a trivial fentry program
 * (load and attach, kfunc_fentry_trial). */
static bool probe_fentry(void)
{
	static int cached;
	if (cached)
		return cached > 0;
	struct btf *vm = btf__load_vmlinux_btf();
	int id = vm ? btf__find_by_name_kind(vm, "bpf_fentry_test1", BTF_KIND_FUNC) : -1;
	if (id < 0 && vm)
		id = btf__find_by_name_kind(vm, "do_nanosleep", BTF_KIND_FUNC);
	btf__free(vm);
	if (id < 0) {
		cached = -1;
		return false;
	}
	const char *step;
	cached = kfunc_fentry_trial(id, &step) == 0 ? 1 : -1;
	return cached > 0;
}

static const char *tracepoint_missing(const char *sec, char *buf, size_t len)
{
	const char *tfs = tracefs_dir();
	const char *tp = strchr(sec, '/') + 1;
	if (!tfs)
		return "tracefs is not mounted and cannot be mounted (mount -t tracefs nodev /sys/kernel/tracing)";
	snprintf(buf, len, "%s/events/%s", tfs, tp);
	if (!path_exists(buf)) {
		snprintf(buf, len, "tracepoint '%s' does not exist in this kernel "
			 "(see %s/available_events)", tp, tfs);
		return buf;
	}
	return NULL;
}

const char *bpfobj_feature_missing(const char *sec)
{
	static char buf[512];

	if (bpfobj_has_prefix(sec, "kprobe") || bpfobj_has_prefix(sec, "kretprobe") ||
	    bpfobj_has_prefix(sec, "ksyscall") || bpfobj_has_prefix(sec, "kretsyscall")) {
		const char *tfs = tracefs_dir();
		char p[256];
		snprintf(p, sizeof(p), "%s/kprobe_events", tfs ? tfs : "/sys/kernel/tracing");
		if (!path_exists("/sys/bus/event_source/devices/kprobe/type") && !path_exists(p))
			return "kprobes are not available in this kernel (CONFIG_KPROBES / "
			       "CONFIG_KPROBE_EVENTS is off); use a tracepoint (tp/CATEGORY/NAME) instead";
		return NULL;
	}
	if (bpfobj_has_prefix(sec, "uprobe") || bpfobj_has_prefix(sec, "uretprobe") ||
	    bpfobj_has_prefix(sec, "usdt")) {
		if (!path_exists("/sys/bus/event_source/devices/uprobe/type"))
			return "uprobes are not available in this kernel (CONFIG_UPROBE_EVENTS is off)";
		return NULL;
	}
	if (bpfobj_has_prefix(sec, "fentry") || bpfobj_has_prefix(sec, "fexit") ||
	    bpfobj_has_prefix(sec, "fmod_ret") || bpfobj_has_prefix(sec, "lsm") ||
	    bpfobj_has_prefix(sec, "iter")) {
		if (!probe_fentry())
			return "BPF tracing programs (fentry/fexit, BPF trampolines) are not supported "
			       "by this kernel; use tp_btf/ or raw_tp/ on a tracepoint instead";
		return NULL;
	}
	if (bpfobj_has_prefix(sec, "tp_btf/") || bpfobj_has_prefix(sec, "raw_tp") ||
	    bpfobj_has_prefix(sec, "raw_tracepoint")) {
		if (bpfobj_has_prefix(sec, "tp_btf/") && !path_exists("/sys/kernel/btf/vmlinux"))
			return "tp_btf programs need the kernel's BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF)";
		if (!probe_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT))
			return "raw tracepoint programs are not supported by this kernel";
		return NULL;
	}
	if (bpfobj_has_prefix(sec, "tp/") || bpfobj_has_prefix(sec, "tracepoint/"))
		return tracepoint_missing(sec, buf, sizeof(buf));
	if (bpfobj_has_prefix(sec, "perf_event"))
		return NULL;
	snprintf(buf, sizeof(buf), "section '%s' is not a tracing attach point that can be "
		 "attached here (tracepoint/, tp/, raw_tp/, tp_btf/, uprobe/, uretprobe/, usdt/, "
		 "perf_event, kprobe/, kretprobe/, fentry/, fexit/)", sec);
	return buf;
}

int bpfobj_check_support(struct bpfobj *bo, bool skip_unsupported)
{
	int bad = 0, enabled = 0;
	if (bpf_privileges_check(bo->path))
		return -EPERM;
	for (int i = 0; i < bo->nr_progs; i++) {
		struct bpf_program *p = bo->progs[i];
		if (!bpf_program__autoload(p))
			continue;
		const char *sec = bpf_program__section_name(p);
		const char *why = bpfobj_feature_missing(sec);
		if (!why) {
			enabled++;
			continue;
		}
		if (skip_unsupported) {
			pr_warn("skipping program '%s' (section '%s'): %s",
				bpf_program__name(p), sec, why);
			bpf_program__set_autoload(p, false);
		} else {
			pr_err("program '%s' (section '%s') cannot run here: %s; "
			       "or skip the unsupported programs to run the other ones",
			       bpf_program__name(p), sec, why);
			bad++;
		}
	}
	if (bad)
		return -EOPNOTSUPP;
	return enabled;
}
