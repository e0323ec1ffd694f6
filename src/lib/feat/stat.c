// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf stat's counting engine: see stat.h. */
#include "feat/stat.h"

#include "event/event.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* perf 6.1's default set, in its order. The clock is cpu-clock when
 * counting on CPUs (as perf does). */
static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
};

struct stat_ctr {
	struct stat_counter pub;
	struct perf_event_attr attr;
	int *fds;		/* nr_slots x nr_fds_per_slot; -1: not opened */
};

struct stat {
	struct stat_ctr *ctrs;
	int nr_ctrs;
	int nr_slots;		/* CPUs, or 1 */
	int *slot_cpu;
	int fds_per_slot;	/* task mode: threads (or 1 for the workload) */
	const pid_t *pids;	/* task mode: what each fd of a slot counts */
	pid_t *pid_store;
	bool hw_missing;
};

double stat_scaled(const struct stat_value *v)
{
	if (!v->run)
		return 0;
	if (v->run >= v->ena)
		return (double)v->val;
	return (double)v->val * (double)v->ena / (double)v->run;
}

static int add_counter(struct stat *s, const char *spec, bool dflt, char *err, size_t errlen)
{
	struct stat_ctr c;
	memset(&c, 0, sizeof(c));
	int r = event_parse(spec, &c.attr, &c.pub.name, err, errlen);
	if (r < 0)
		return r;
	c.pub.supported = true;
	c.pub.scale = 1;
	c.pub.unit = "";
	if (c.attr.type == PERF_TYPE_SOFTWARE &&
	    (c.attr.config == PERF_COUNT_SW_TASK_CLOCK || c.attr.config == PERF_COUNT_SW_CPU_CLOCK)) {
		c.pub.is_clock = true;
		c.pub.unit = "msec";
		c.pub.scale = 1e-6;
	}
	if (dflt && (c.attr.type == PERF_TYPE_HARDWARE) && !event_hw_available()) {
		c.pub.supported = false;
		s->hw_missing = true;
	}
	s->ctrs = xrealloc(s->ctrs, (s->nr_ctrs + 1) * sizeof(*s->ctrs));
	s->ctrs[s->nr_ctrs++] = c;
	return 0;
}

static int parse_events(struct stat *s, const struct stat_opts *o, char *err, size_t errlen)
{
	if (!o->events) {
		for (size_t i = 0; i < ARRAY_SIZE(default_events); i++) {
			const char *e = default_events[i];
			if (i == 0 && o->per_cpu)
				e = "cpu-clock";
			int r = add_counter(s, e, true, err, errlen);
			if (r < 0)
				return r;
		}
		return 0;
	}
	char *list = xstrdup(o->events), *save = NULL;
	int r = 0;
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if ((r = add_counter(s, tok, false, err, errlen)) < 0)
			break;
	if (!r && !s->nr_ctrs) {
		snprintf(err, errlen, "the event list '%s' is empty", o->events);
		r = -EINVAL;
	}
	free(list);
	return r;
}

/* Events this kernel or machine does not have: perf's "<not supported>". */
static bool not_supported_errno(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV || e == ENOSYS;
}

static int open_counter(struct stat *s, struct stat_ctr *c, const struct stat_opts *o)
{
	int n = s->nr_slots * s->fds_per_slot;
	c->fds = xmalloc(n * sizeof(int));
	for (int i = 0; i < n; i++)
		c->fds[i] = -1;
	if (!c->pub.supported)
		return 0;
	c->attr.size = sizeof(c->attr);
	c->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	c->attr.disabled = 1;
	if (!o->per_cpu && o->workload > 0) {
		c->attr.inherit = 1;
		c->attr.enable_on_exec = 1;
	} else if (!o->per_cpu) {
		c->attr.inherit = 1;
	}
	for (int slot = 0; slot < s->nr_slots; slot++) {
		for (int k = 0; k < s->fds_per_slot; k++) {
			pid_t pid = o->per_cpu ? -1 : s->pids[k];
			int cpu = o->per_cpu ? s->slot_cpu[slot] : -1;
			int fd = sys_perf_event_open(&c->attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
			if (fd >= 0) {
				c->fds[slot * s->fds_per_slot + k] = fd;
				continue;
			}
			int e = errno;
			if (not_supported_errno(e)) {
				pr_debug("event '%s' is not supported here: %s", c->pub.name, strerror(e));
				c->pub.supported = false;
				return 0;
			}
			if (e == ESRCH && !o->per_cpu && o->workload <= 0) {
				pr_debug("thread %d exited before its counter was opened", (int)pid);
				continue;
			}
			pr_err("cannot open the perf event '%s' (%s %d): %s%s", c->pub.name,
			       o->per_cpu ? "CPU" : "task", o->per_cpu ? cpu : (int)pid, strerror(e),
			       e == EACCES || e == EPERM
				       ? "; run as root or lower /proc/sys/kernel/perf_event_paranoid"
				       : e == EMFILE ? "; raise the open file limit (ulimit -n)" : "");
			return -e;
		}
	}
	return 0;
}

int stat_open(const struct stat_opts *o, struct stat **out, char *err, size_t errlen)
{
	struct stat *s = xcalloc(1, sizeof(*s));
	int r = parse_events(s, o, err, errlen);
	if (r < 0)
		goto fail;
	if (o->per_cpu) {
		s->slot_cpu = xmalloc(o->nr_cpus * sizeof(int));
		for (int c = 0; c < o->nr_cpus; c++)
			if (o->cpus[c])
				s->slot_cpu[s->nr_slots++] = c;
		s->fds_per_slot = 1;
	} else {
		s->nr_slots = 1;
		if (o->workload > 0) {
			s->pid_store = xmalloc(sizeof(pid_t));
			s->pid_store[0] = o->workload;
			s->pids = s->pid_store;
			s->fds_per_slot = 1;
		} else {
			s->pids = o->tids;
			s->fds_per_slot = (int)o->nr_tids;
		}
	}
	for (int i = 0; i < s->nr_ctrs; i++)
		if ((r = open_counter(s, &s->ctrs[i], o)) < 0)
			goto fail;
	*out = s;
	return 0;
fail:
	stat_close(s);
	return r;
}

int stat_nr_counters(const struct stat *s) { return s->nr_ctrs; }
const struct stat_counter *stat_counter(const struct stat *s, int i) { return &s->ctrs[i].pub; }
int stat_nr_slots(const struct stat *s) { return s->nr_slots; }
int stat_slot_cpu(const struct stat *s, int slot) { return s->slot_cpu ? s->slot_cpu[slot] : -1; }
bool stat_hw_missing(const struct stat *s) { return s->hw_missing; }

static int ioctl_all(struct stat *s, unsigned long req)
{
	for (int i = 0; i < s->nr_ctrs; i++)
		for (int k = 0; s->ctrs[i].fds && k < s->nr_slots * s->fds_per_slot; k++)
			if (s->ctrs[i].fds[k] >= 0 && ioctl(s->ctrs[i].fds[k], req, 0) < 0) {
				pr_err("cannot %s the counter '%s': %s", req == PERF_EVENT_IOC_ENABLE ? "enable" : "disable",
				       s->ctrs[i].pub.name, strerror(errno));
				return -errno;
			}
	return 0;
}

int stat_enable(struct stat *s) { return ioctl_all(s, PERF_EVENT_IOC_ENABLE); }
int stat_disable(struct stat *s) { return ioctl_all(s, PERF_EVENT_IOC_DISABLE); }

int stat_read(struct stat *s, struct stat_value *values)
{
	for (int i = 0; i < s->nr_ctrs; i++) {
		for (int slot = 0; slot < s->nr_slots; slot++) {
			struct stat_value *v = &values[i * s->nr_slots + slot];
			memset(v, 0, sizeof(*v));
			for (int k = 0; k < s->fds_per_slot; k++) {
				int fd = s->ctrs[i].fds ? s->ctrs[i].fds[slot * s->fds_per_slot + k] : -1;
				uint64_t buf[3];
				if (fd < 0)
					continue;
				if (read_full(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
					pr_err("cannot read the counter '%s': %s", s->ctrs[i].pub.name, strerror(errno));
					return -EIO;
				}
				v->val += buf[0];
				v->ena += buf[1];
				v->run += buf[2];
			}
		}
	}
	return 0;
}

void stat_close(struct stat *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nr_ctrs; i++) {
		for (int k = 0; s->ctrs[i].fds && k < s->nr_slots * s->fds_per_slot; k++)
			if (s->ctrs[i].fds[k] >= 0)
				close(s->ctrs[i].fds[k]);
		free(s->ctrs[i].fds);
		free(s->ctrs[i].pub.name);
	}
	free(s->ctrs);
	free(s->slot_cpu);
	free(s->pid_store);
	free(s);
}
