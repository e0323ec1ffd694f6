// SPDX-License-Identifier: GPL-2.0-only
/* Attaching every loaded program by its section name: perf events opened per
 * CPU (or for a pid), uprobes and USDT probes limited to a pid, the rest by
 * libbpf's auto-attach. */
#include "bpfobj_int.h"
#include "event/event.h"
#include "log.h"
#include "util.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void add_link(struct bpfobj *bo, struct bpf_link *l)
{
	if (bo->nr_links == bo->cap_links)
		ARRAY_GROW(bo->links, bo->cap_links, bo->nr_links + 1);
	bo->links[bo->nr_links++] = l;
}

int bpfobj_nr_links(const struct bpfobj *bo) { return (int)bo->nr_links; }

int bpfobj_parse_perf_event(const char *spec, struct bpfobj_perf_event *ev)
{
	char buf[128], err[256];
	struct perf_event_attr attr;
	char *name = NULL;
	if (strlen(spec) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", spec);
	memset(ev, 0, sizeof(*ev));
	ev->freq = 99;
	/* A trailing ":NUMBER" is the frequency; the rest is perf's event syntax. */
	char *colon = strrchr(buf, ':');
	if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		uint64_t f;
		if (!parse_u64(colon + 1, &f) || f == 0)
			return -EINVAL;
		ev->freq = f;
		*colon = '\0';
	}
	if (event_parse(buf, &attr, &name, err, sizeof(err)) < 0)
		return -EINVAL;
	ev->type = attr.type;
	ev->config = attr.config;
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	free(name);
	return 0;
}

/* Event ev on cpu (-1: follow pid), attached to program p. */
static int attach_one_event(struct bpfobj *bo, struct bpf_program *p, const struct bpfobj_perf_event *ev,
			    const struct bpfobj_attach_opts *o, int cpu)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = ev->type, .config = ev->config,
		.freq = ev->freq ? 1 : 0,
		.inherit = o->pid > 0 && o->inherit,
	};
	if (ev->freq)
		a.sample_freq = ev->freq;
	else
		a.sample_period = ev->period;
	int fd = (int)syscall(SYS_perf_event_open, &a, o->pid > 0 ? o->pid : -1, cpu, -1,
			      PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int err = -errno;
		if (ev->type == PERF_TYPE_HARDWARE && (errno == ENOENT || errno == EOPNOTSUPP))
			pr_err("program '%s': cannot open event %s: this machine has no hardware "
			       "PMU counters (%s); use a software event such as cpu-clock",
			       bpf_program__name(p), ev->name, strerror(errno));
		else
			pr_err("program '%s': cannot open perf event %s on %s %d: %s%s",
			       bpf_program__name(p), ev->name, cpu >= 0 ? "CPU" : "pid",
			       cpu >= 0 ? cpu : o->pid, strerror(errno),
			       errno == EACCES || errno == EPERM ? "; run as root or with CAP_PERFMON" : "");
		return err;
	}
	struct bpf_link *l = bpf_program__attach_perf_event(p, fd);
	if (!l) {
		int err = -errno;
		close(fd);
		pr_err("program '%s': cannot attach to perf event %s: %s",
		       bpf_program__name(p), ev->name, log_strerr(err));
		return err;
	}
	add_link(bo, l);	/* the link owns and closes fd */
	return 0;
}

static int attach_perf_event(struct bpfobj *bo, struct bpf_program *p, const struct bpfobj_attach_opts *o)
{
	struct bpfobj_perf_event def = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
					 .freq = 99, .name = "cpu-clock" };
	const struct bpfobj_perf_event *evs = o->nr_events ? o->events : &def;
	int nev = o->nr_events ? o->nr_events : 1;
	int ncpu = cpu_count_possible();
	bool *online = cpu_online_mask();
	int ret = 0;

	for (int e = 0; e < nev && !ret; e++) {
		for (int cpu = o->pid > 0 ? -1 : 0; cpu < (o->pid > 0 ? 0 : ncpu) && !ret; cpu++) {
			if (cpu >= 0 && !online[cpu])
				continue;
			ret = attach_one_event(bo, p, &evs[e], o, cpu);
		}
	}
	free(online);
	return ret;
}

/* "uprobe/PATH:FUNC[+OFF]" (and uretprobe) with a pid: libbpf's
 * auto-attach always traces every process, so attach by hand. */
static struct bpf_link *attach_uprobe_pid(struct bpf_program *p, const char *sec, pid_t pid)
{
	bool ret = bpfobj_has_prefix(sec, "uretprobe");
	const char *spec = strchr(sec, '/');
	if (!spec || !spec[1]) {
		errno = EINVAL;
		return NULL;
	}
	spec++;
	const char *colon = strrchr(spec, ':');
	if (!colon) {
		errno = EINVAL;
		return NULL;
	}
	char *path = xstrndup(spec, (size_t)(colon - spec));
	char *func = xstrdup(colon + 1);
	size_t off = 0;
	char *plus = strchr(func, '+');
	if (plus) {
		*plus = 0;
		off = strtoul(plus + 1, NULL, 0);
	}
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .retprobe = ret, .func_name = *func ? func : NULL);
	struct bpf_link *l = bpf_program__attach_uprobe_opts(p, pid, path, off, &uo);
	free(path);
	free(func);
	return l;
}

static struct bpf_link *attach_usdt_pid(struct bpf_program *p, const char *sec, pid_t pid)
{
	/* usdt/PATH:PROVIDER:NAME */
	const char *spec = strchr(sec, '/');
	if (!spec) {
		errno = EINVAL;
		return NULL;
	}
	char *s = xstrdup(spec + 1);
	char *n2 = strrchr(s, ':');
	char *n1 = n2 ? memrchr(s, ':', (size_t)(n2 - s)) : NULL;
	struct bpf_link *l = NULL;
	if (!n1) {
		errno = EINVAL;
	} else {
		*n1 = *n2 = 0;
		l = bpf_program__attach_usdt(p, pid, s, n1 + 1, n2 + 1, NULL);
	}
	free(s);
	return l;
}

/* Any program but a perf_event one. 0 or -errno (reported). */
static int attach_prog(struct bpfobj *bo, struct bpf_program *p, const char *sec, pid_t pid)
{
	struct bpf_link *l;
	if (pid > 0 && (bpfobj_has_prefix(sec, "uprobe/") || bpfobj_has_prefix(sec, "uretprobe/")))
		l = attach_uprobe_pid(p, sec, pid);
	else if (pid > 0 && bpfobj_has_prefix(sec, "usdt/"))
		l = attach_usdt_pid(p, sec, pid);
	else
		l = bpf_program__attach(p);
	if (!l) {
		int err = -errno;
		const char *why = bpfobj_feature_missing(sec);
		if (err == -EOPNOTSUPP || err == -ESRCH)
			why = why ? why : "libbpf has no auto-attach target in this section name "
			       "(uprobe/ and usdt/ need PATH:FUNCTION, e.g. SEC(\"uprobe//bin/bash:readline\"))";
		pr_err("cannot attach program '%s' (section '%s'): %s%s%s", bpf_program__name(p), sec,
		       log_strerr(err), why ? "; " : "", why ? why : "");
		return err ? err : -EINVAL;
	}
	/* the mechanism the kernel attached it with, as libbpf names it */
	const char *pt = libbpf_bpf_prog_type_str(bpf_program__type(p));
	const char *at = bpf_program__type(p) == BPF_PROG_TYPE_TRACING ||
			 bpf_program__type(p) == BPF_PROG_TYPE_LSM ?
			 libbpf_bpf_attach_type_str(bpf_program__expected_attach_type(p)) : NULL;
	pr_info("program '%s' (section '%s') runs as a %s program%s%s", bpf_program__name(p), sec,
		pt ? pt : "BPF", at ? ", attach type " : "", at ? at : "");
	pr_debug("attached '%s' at %s (program fd %d)", bpf_program__name(p), sec, bpf_program__fd(p));
	add_link(bo, l);
	return 0;
}

int bpfobj_attach(struct bpfobj *bo, const struct bpfobj_attach_opts *o)
{
	int failed = 0;
	for (int i = 0; i < bo->nr_progs; i++) {
		struct bpf_program *p = bo->progs[i];
		if (!bpf_program__autoload(p) || bpf_program__fd(p) < 0)
			continue;
		const char *sec = bpf_program__section_name(p);
		int err = bpfobj_has_prefix(sec, "perf_event") ? attach_perf_event(bo, p, o)
							       : attach_prog(bo, p, sec, o->pid);
		if (err) {
			failed++;
			if (!o->skip_unsupported)
				return err;
		}
	}
	if (failed && !bo->nr_links) {
		pr_err("%s: no program could be attached", bo->path);
		return -ENOENT;
	}
	return 0;
}
