// SPDX-License-Identifier: GPL-2.0-only
/* Privileges, tracefs, loading with fallbacks, ordered attach, per-CPU maps,
 * waiting for programs: see skel.h. The stop loop is in loop.c. */
#include "skel/skel.h"
#include "log.h"
#include "util.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/membarrier.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38
#define CAP_BPF_BIT 39

/* Effective capabilities from /proc/self/status, or all if unknown. */
static uint64_t cap_effective(void)
{
	char *s = read_file("/proc/self/status", NULL);
	uint64_t caps = ~0ULL;
	const char *p = s ? strstr(s, "\nCapEff:") : NULL;
	if (p)
		caps = strtoull(p + 8, NULL, 16);
	free(s);
	return caps;
}

int bpf_privileges_check(const char *what)
{
	uint64_t caps = cap_effective();
	bool admin = caps >> CAP_SYS_ADMIN_BIT & 1;
	bool bpf = caps >> CAP_BPF_BIT & 1, perfmon = caps >> CAP_PERFMON_BIT & 1;
	if (admin || (bpf && perfmon))
		return 0;
	pr_err("no permission to load %s: BPF tracing programs need root, or CAP_BPF and "
	       "CAP_PERFMON; run as root (sudo) or grant bpfperf those capabilities", what);
	return -EPERM;
}

const char *tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;
	char p[64];
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(p, sizeof(p), "%s/events", dirs[i]);
		if (stat(p, &st) == 0)
			return dirs[i];
	}
	mkdir(dirs[0], 0755);
	if (mount("nodev", dirs[0], "tracefs", 0, NULL) == 0 &&
	    stat("/sys/kernel/tracing/events", &st) == 0) {
		pr_info("mounted tracefs at %s", dirs[0]);
		return dirs[0];
	}
	return NULL;
}

bool skel_task_storage_usable(const char **why)
{
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) != 1) {
		*why = "the kernel has no BPF task storage (BPF_MAP_TYPE_TASK_STORAGE, Linux 5.11+)";
		return false;
	}
	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_FUNC_task_storage_get, NULL) != 1 ||
	    libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_FUNC_get_current_task_btf, NULL) != 1) {
		*why = "raw tracepoint programs cannot use task storage on this kernel";
		return false;
	}
	return true;
}

int skel_load_error(int err, const char *what)
{
	err = log_limit_cause(err);
	const char *limit = log_limit_hint(err);
	if (limit)
		pr_err("cannot load %s: %s; %s", what, log_strerr(err), limit);
	else if (err == -EPERM || err == -EACCES)
		pr_err("cannot load %s: %s; run as root (CAP_BPF and CAP_PERFMON are needed)", what,
		       log_strerr(err));
	else
		pr_err("cannot load %s: %s; the verifier log is in libbpf's debug output%s", what,
		       log_strerr(err), log_hint(LOG_HINT_OPT_LIBBPF_DEBUG));
	return err;
}

int skel_load_designs(const struct skel_design *d, int n, int (*load)(void *ctx, int design),
		      void *ctx, const char *what, int *chosen, const char **why)
{
	int err = -EOPNOTSUPP;
	*why = NULL;
	log_libbpf_limit_error();	/* only what this load reports counts */
	for (int i = 0; i < n; i++) {
		const char *missing = NULL;
		if (d[i].usable && !d[i].usable(ctx, &missing)) {
			pr_debug("%s: not using %s: %s", what, d[i].name, missing);
			if (!*why)
				*why = missing;
			continue;
		}
		err = load(ctx, i);
		if (!err) {
			*chosen = i;
			return 0;
		}
		if (i + 1 < n) {
			/* Probes passed but the load did not: fall back, say why at -v. */
			pr_info("loading %s with %s failed (%s); falling back to %s", what, d[i].name,
				log_strerr(err), d[i + 1].name);
			static char failed[96];
			snprintf(failed, sizeof(failed), "the %s design did not load", d[i].name);
			if (!*why)
				*why = failed;
		}
	}
	return skel_load_error(err, what);
}

const char *skel_prog_feature(const struct bpf_program *p)
{
	switch (bpf_program__type(p)) {
	case BPF_PROG_TYPE_TRACEPOINT:
		return "tracepoints for BPF (CONFIG_BPF_EVENTS, tracefs)";
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
		return "raw tracepoints (CONFIG_BPF_EVENTS)";
	case BPF_PROG_TYPE_KPROBE:
		return "kprobes/uprobes (CONFIG_KPROBE_EVENTS, CONFIG_UPROBE_EVENTS)";
	case BPF_PROG_TYPE_PERF_EVENT:
		return "perf events with BPF programs";
	case BPF_PROG_TYPE_TRACING:
		switch (bpf_program__expected_attach_type(p)) {
		case BPF_TRACE_RAW_TP:
			return "BTF tracepoints (CONFIG_DEBUG_INFO_BTF)";
		case BPF_TRACE_FENTRY:
		case BPF_TRACE_FEXIT:
			return "BPF trampolines for fentry/fexit (CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)";
		default:
			return "BPF tracing programs (CONFIG_DEBUG_INFO_BTF)";
		}
	default:
		return "this BPF program type";
	}
}

int skel_attach_ordered(struct bpf_program *const *progs, struct bpf_link **const *links, int n)
{
	for (int i = 0; i < n; i++) {
		if (!progs[i] || !bpf_program__autoload(progs[i]))
			continue;
		struct bpf_link *l = bpf_program__attach(progs[i]);
		if (!l) {
			int err = -errno;
			const char *limit = log_limit_hint(err);
			pr_err("cannot attach BPF program '%s' (section '%s'): %s; %s%s",
			       bpf_program__name(progs[i]), bpf_program__section_name(progs[i]),
			       log_strerr(err), limit ? limit : "the kernel needs ",
			       limit ? "" : skel_prog_feature(progs[i]));
			return err;
		}
		*links[i] = l;
	}
	return 0;
}

int percpu_nr_cpus(void)
{
	int n = libbpf_num_possible_cpus();
	return n > 0 ? n : 1;
}

size_t percpu_stride(size_t value_size)
{
	return ALIGN_UP(value_size, 8);
}

void *percpu_alloc(size_t value_size)
{
	return xcalloc((size_t)percpu_nr_cpus(), percpu_stride(value_size));
}

int percpu_lookup(int map_fd, const void *key, void *values)
{
	return bpf_map_lookup_elem(map_fd, key, values) ? -errno : 0;
}

void percpu_counters_read(int map_fd, uint64_t *out, uint32_t n)
{
	int ncpu = percpu_nr_cpus();
	size_t stride = percpu_stride(sizeof(uint64_t));
	unsigned char *vals = percpu_alloc(sizeof(uint64_t));
	for (uint32_t i = 0; i < n; i++) {
		out[i] = 0;
		if (percpu_lookup(map_fd, &i, vals))
			continue;
		for (int c = 0; c < ncpu; c++) {
			uint64_t v;
			memcpy(&v, vals + (size_t)c * stride, sizeof(v));
			out[i] += v;
		}
	}
	free(vals);
}

void bpf_wait_for_programs(void)
{
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0)
		return;
	pr_debug("membarrier(MEMBARRIER_CMD_GLOBAL) failed (%s); sleeping 100 ms instead", strerror(errno));
	usleep(100 * 1000);
}
