// SPDX-License-Identifier: GPL-2.0-only
/* Loading into the kernel: verifier rejections explained, the translated
 * instructions dumped, and the perf_event programs of a sample filter. */
#include "bpfobj_int.h"
#include "log.h"
#include "util.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libbpf's print callback has no context pointer, so what it needs to know
 * during bpfobj_load lives here (loads are not concurrent). */
static libbpf_print_fn_t saved_print;
static bool quiet_btf_retry;

/* While loading, libbpf's copy of the verifier log is dropped: we print a
 * shorter one with the program's name and section. */
static int load_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (strstr(fmt, "PROG LOAD LOG") || strstr(fmt, "-- BEGIN") ||
	    strstr(fmt, "BPF program load failed") || strstr(fmt, "failed to load: %d"))
		return 0;
	/* ring buffers declared with a value type: expected, see setup_object in open.c */
	if (quiet_btf_retry && strstr(fmt, "Retrying without BTF"))
		return 0;
	if (saved_print) {
		va_list c;
		va_copy(c, ap);
		int r = saved_print(level, fmt, c);
		va_end(c);
		return r;
	}
	return 0;
}

/* log.h formats one message into 4 KiB: leave room for its prefix. */
#define VERIFIER_MSG_MAX 3900

/* One message: the reason, then the last (up to 21) lines of the log, fewer
 * if they would not fit in one message. */
static void report_verifier(struct bpfobj *bo, int idx, int err)
{
	struct bpf_program *p = bo->progs[idx];
	char *log = bo->logs[idx], *save = NULL;
	/* Split into lines and drop the statistics at the end. */
	char **lines = NULL;
	size_t n = 0, cap = 0;
	for (char *s = strtok_r(log, "\n", &save); s; s = strtok_r(NULL, "\n", &save)) {
		ARRAY_GROW(lines, cap, n + 1);
		lines[n++] = s;
	}
	while (n > 0 && (bpfobj_has_prefix(lines[n - 1], "processed ") ||
			 bpfobj_has_prefix(lines[n - 1], "verification time") ||
			 bpfobj_has_prefix(lines[n - 1], "stack depth") ||
			 !*lines[n - 1]))
		n--;
	const char *reason = n ? lines[n - 1] : "no verifier log";
	struct strbuf sb = {0};
	sb_printf(&sb, "program '%s' (section '%s') in %s was rejected by the kernel verifier: %s (%s); "
		  "fix the program (the verifier's last instructions are below; libbpf's debug "
		  "output has the full log)",
		  bpf_program__name(p), bpf_program__section_name(p), bo->path, reason, log_strerr(err));
	size_t first = n > 21 ? n - 21 : 0, room = sb.len + 80;
	for (size_t i = first; i < n; i++)
		room += strlen(lines[i]) + 1;
	for (; first + 1 < n && room > VERIFIER_MSG_MAX; first++)
		room -= strlen(lines[first]) + 1;
	if (n > 1) {
		sb_printf(&sb, "\n--- verifier log (last %zu of %zu lines) ---\n", n - first, n);
		for (size_t i = first; i < n; i++)
			sb_printf(&sb, "%s\n", lines[i]);
		sb_append(&sb, "--- end of verifier log ---");
	}
	pr_err("%s", sb.buf);
	sb_free(&sb);
	free(lines);
}

int bpfobj_load(struct bpfobj *bo)
{
	struct bpf_map *m;
	quiet_btf_retry = false;
	bpf_object__for_each_map(m, bo->obj)
		if (bpf_map__type(m) == BPF_MAP_TYPE_RINGBUF &&
		    bpfobj_map_def_value_type(bo->btf, bpf_map__name(m)))
			quiet_btf_retry = true;
	saved_print = libbpf_set_print(load_print);
	log_libbpf_limit_error();	/* only what this load reports counts */
	int err = bpf_object__load(bo->obj);
	libbpf_set_print(saved_print);
	corebtf_prep_done(&bo->core);	/* libbpf has read it */
	if (!err)
		return 0;
	/* A limit first: under EMFILE libbpf's feature probes fail quietly and
	 * the verifier then rejects what libbpf rewrote for an older kernel. */
	int cause = log_limit_cause(err);
	const char *limit = log_limit_hint(cause);
	if (limit) {
		pr_err("cannot load %s into the kernel: %s; %s", bo->path, log_strerr(cause), limit);
		return cause;
	}
	for (int i = 0; i < bo->nr_progs; i++) {
		if (bo->logs[i][0]) {
			report_verifier(bo, i, err);
			return err;
		}
	}
	if (err == -EPERM || err == -EACCES) {
		pr_err("cannot load %s: %s; run as root (or with CAP_BPF and CAP_PERFMON)%s",
		       bo->path, log_strerr(err),
		       geteuid() == 0 ? ", and check kernel.unprivileged_bpf_disabled / lockdown" : "");
		return err;
	}
	pr_err("cannot load %s into the kernel: %s (the libbpf messages above say which map "
	       "or program failed)", bo->path, log_strerr(err));
	return err;
}

int bpfobj_open_perf_event_progs(const char *path, const struct bpfobj_open_opts *opts,
				 struct bpfobj **out, int **fds, int *nr_fds)
{
	struct bpfobj *bo;
	*out = NULL;
	*fds = NULL;
	*nr_fds = 0;
	int err = bpfobj_open(path, opts, &bo);
	if (err)
		return err;
	int n = 0;
	for (int i = 0; i < bo->nr_progs; i++) {
		bool pe = bpfobj_has_prefix(bpf_program__section_name(bo->progs[i]), "perf_event");
		bpf_program__set_autoload(bo->progs[i], pe);
		n += pe;
	}
	if (!n) {
		pr_err("%s has no SEC(\"perf_event\") program to use as a sample filter", path);
		bpfobj_close(bo);
		return -ENOENT;
	}
	err = bpfobj_load(bo);
	if (err) {
		bpfobj_close(bo);
		return err;
	}
	int *v = xcalloc((size_t)n, sizeof(int));
	int k = 0;
	for (int i = 0; i < bo->nr_progs; i++)
		if (bpf_program__autoload(bo->progs[i]))
			v[k++] = bpf_program__fd(bo->progs[i]);
	*out = bo;
	*fds = v;
	*nr_fds = k;
	return 0;
}

/* ---------------------------------------------------------------- xlated */

static char *map_name_by_id(uint32_t id)
{
	int fd = bpf_map_get_fd_by_id(id);
	struct bpf_map_info mi;
	uint32_t len = sizeof(mi);
	memset(&mi, 0, sizeof(mi));
	if (fd < 0)
		return xasprintf("map#?");
	int r = bpf_obj_get_info_by_fd(fd, &mi, &len);
	close(fd);
	return r ? xasprintf("map#?") : xasprintf("map:%s", mi.name);
}

static void print_xlated(FILE *out, const struct bpf_program *p, const struct bpf_insn *insns, size_t n)
{
	fprintf(out, "PROG %s %s %zu\n", bpf_program__name(p), bpf_program__section_name(p), n);
	for (size_t k = 0; k < n; k++) {
		const struct bpf_insn *x = &insns[k];
		bool ld64 = x->code == (BPF_LD | BPF_IMM | BPF_DW);
		if (ld64 && (x->src_reg == BPF_PSEUDO_MAP_FD || x->src_reg == BPF_PSEUDO_MAP_VALUE)) {
			char *mn = map_name_by_id((uint32_t)x->imm);
			fprintf(out, "%zu: %02x %u %u %d %s\n", k, x->code, x->dst_reg, x->src_reg, x->off, mn);
			free(mn);
		} else {
			fprintf(out, "%zu: %02x %u %u %d %d\n", k, x->code, x->dst_reg, x->src_reg, x->off, x->imm);
		}
	}
}

static int dump_prog_xlated(const struct bpf_program *p, int fd, FILE *out)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		int err = -errno;
		pr_err("program '%s': cannot read its info from the kernel: %s", bpf_program__name(p),
		       log_strerr(err));
		return err;
	}
	uint32_t nbytes = info.xlated_prog_len, nmaps = info.nr_map_ids;
	struct bpf_insn *insns = xcalloc(nbytes / sizeof(*insns) + 1, sizeof(*insns));
	uint32_t *ids = xcalloc(nmaps + 1, sizeof(*ids));
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = nbytes;
	info.xlated_prog_insns = (uint64_t)(uintptr_t)insns;
	info.nr_map_ids = nmaps;
	info.map_ids = (uint64_t)(uintptr_t)ids;
	len = sizeof(info);
	int err = 0;
	if (bpf_obj_get_info_by_fd(fd, &info, &len) || info.xlated_prog_len != nbytes) {
		err = errno ? -errno : -EAGAIN;
		pr_err("program '%s': cannot read its translated instructions: %s%s",
		       bpf_program__name(p), log_strerr(err),
		       nbytes ? "" : " (the kernel hides them: needs root / bpf_dump_raw_ok)");
	} else {
		print_xlated(out, p, insns, nbytes / sizeof(*insns));
	}
	free(insns);
	free(ids);
	return err;
}

int bpfobj_dump_xlated(struct bpfobj *bo, FILE *out)
{
	for (int i = 0; i < bo->nr_progs; i++) {
		struct bpf_program *p = bo->progs[i];
		int fd = bpf_program__fd(p);
		if (fd < 0)
			continue;
		int err = dump_prog_xlated(p, fd, out);
		if (err)
			return err;
	}
	return 0;
}
