// SPDX-License-Identifier: GPL-2.0-only
/* The recording's lifecycle and its events: see record.h. */
#include "record/internal.h"
#include "log.h"
#include "perfdata/format.h"
#include "perfdata/writer.h"
#include "target/cgroup.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int emit_record(void *ctx, const void *rec, size_t len)
{
	struct recording *r = ctx;
	r->records++;
	rec_hits_record(r, rec, len);
	return pd_writer_write(r->w, rec, len);
}

static struct rec_event *new_event(struct recording *r)
{
	ARRAY_GROW(r->events, r->events_cap, r->nevents + 1);
	struct rec_event *e = &r->events[r->nevents++];
	memset(e, 0, sizeof(*e));
	e->leader = -1;
	return e;
}

static int read_paranoid(void)
{
	char *p = read_file("/proc/sys/kernel/perf_event_paranoid", NULL);
	int v = p ? atoi(p) : -1;
	free(p);
	return v;
}

static void report_open_error(const struct rec_event *e, int err, int cpu, bool cgroup)
{
	if (cgroup && err == -ENOENT) {
		/* perf_cgroup_connect: the directory has no perf_event controller */
		pr_err("cannot open event '%s' on CPU %d for the cgroup%s: " CGROUP_PERF_ENOENT_WHY "%s",
		       e->name, cpu, log_hint(LOG_HINT_OPT_CGROUP), log_hint(LOG_HINT_CGROUP_BPF_FILTER));
		return;
	}
	switch (-err) {
	case EACCES:
	case EPERM:
		pr_err("cannot open event '%s' on CPU %d: permission denied (kernel.perf_event_paranoid = %d); "
		       "run as root or grant CAP_PERFMON", e->name, cpu, read_paranoid());
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		pr_err("event '%s' is not supported on this machine (%s); the 'cpu-clock' event "
		       "works everywhere", e->name, log_strerr(err));
		break;
	case EMFILE:
	case ENFILE:
	case ENOMEM:
		pr_err("cannot open event '%s' on CPU %d: %s; %s", e->name, cpu, log_strerr(err),
		       log_limit_hint(err));
		break;
	case ESRCH:
		pr_err("cannot open event '%s': the target process is gone", e->name);
		break;
	case EINVAL: {
		char *p = read_file("/proc/sys/kernel/perf_event_max_sample_rate", NULL);
		pr_err("cannot open event '%s' on CPU %d: invalid argument; the frequency may be above "
		       "kernel.perf_event_max_sample_rate (%d) or the event does not support sampling",
		       e->name, cpu, p ? atoi(p) : -1);
		free(p);
		break;
	}
	default:
		pr_err("cannot open event '%s' on CPU %d: %s", e->name, cpu, log_strerr(err));
	}
}

static int ring_for_cpu(struct recording *r, int cpu)
{
	for (int i = 0; i < r->nrings; i++)
		if (r->rings[i].cpu == cpu)
			return i;
	return -1;
}

/* Route fd's records into the CPU's ring (mapping it on first use).
 * 0, or 1 when the failure is already reported. */
static int route_to_ring(struct recording *r, int fd, int cpu)
{
	int ri = ring_for_cpu(r, cpu);
	if (ri < 0) {
		r->rings = xrealloc(r->rings, sizeof(*r->rings) * (size_t)(r->nrings + 1));
		struct perf_ring *ring = &r->rings[r->nrings];
		memset(ring, 0, sizeof(*ring));
		ring->cpu = cpu;
		int err = perf_ring_map(ring, fd, r->opts.mmap_pages);
		if (err) {
			if (err == -EPERM || err == -ENOMEM)
				pr_err("cannot map a %zu KiB ring buffer for CPU %d: %s; use fewer ring "
				       "buffer pages or raise kernel.perf_event_mlock_kb",
				       r->opts.mmap_pages * 4, cpu, log_strerr(err));
			else
				pr_err("cannot map the ring buffer for CPU %d: %s", cpu, log_strerr(err));
			return 1;
		}
		r->nrings++;
	} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->rings[ri].fd) < 0) {
		int err = -errno;
		pr_err("cannot share the CPU %d ring buffer between events: %s", cpu, log_strerr(err));
		return 1;
	}
	return 0;
}

/* At perf_event_paranoid 2 (or more) without CAP_PERFMON the kernel refuses
 * to sample the kernel, but a process may still sample its own user space:
 * like perf, fall back to the event's user-only form ("cpu-clock:u") with a
 * note, instead of failing. Not for an event the user limited to the kernel
 * or one that only fires in the kernel (tracepoints). */
static bool user_only_fallback(struct rec_event *e, pid_t pid)
{
	if (e->kind != REC_EV_SAMPLING || e->attr.exclude_kernel || e->attr.exclude_user ||
	    e->attr.type == PERF_TYPE_TRACEPOINT || pid < 0)
		return false;
	int paranoid = read_paranoid();
	if (paranoid < 2)
		return false;
	e->attr.exclude_kernel = 1;
	e->attr.exclude_hv = 1;
	e->attr.exclude_callchain_kernel = 1;
	char *name = xasprintf("%s%s", e->name, strchr(e->name, ':') ? "u" : ":u");
	pr_warn("kernel.perf_event_paranoid = %d and no CAP_PERFMON: kernel samples are not "
		"allowed, sampling '%s' (user space only) instead of '%s', as perf does; run as "
		"root or grant CAP_PERFMON to include the kernel", paranoid, name, e->name);
	free(e->name);
	e->name = name;
	return true;
}

/* Is event e opened for pid (-1: system wide) counting only -G's cgroup? */
static bool in_cgroup(const struct recording *r, const struct rec_event *e, pid_t pid)
{
	return pid < 0 && r->opts.cgroup_fd > 0 && e->kind == REC_EV_SAMPLING;
}

/* Open one fd; route it into the CPU's ring. -errno (not reported), or 1
 * (reported). */
static int open_one(struct recording *r, int ev, pid_t pid, int cpu)
{
	struct rec_event *e = &r->events[ev];
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	if (in_cgroup(r, e, pid)) {
		pid = r->opts.cgroup_fd;	/* the cgroup's tasks only */
		flags |= PERF_FLAG_PID_CGROUP;
	}
	int group_fd = -1;
	if (e->leader >= 0 && e->leader != ev) {	/* a group member: with its leader's fd */
		for (size_t i = 0; i < r->nfds && group_fd < 0; i++)
			if (r->fds[i].event == e->leader && r->fds[i].cpu == cpu && r->fds[i].pid == pid)
				group_fd = r->fds[i].fd;
		if (group_fd < 0)
			return -EBADF;
	}
	int fd = sys_perf_event_open(&e->attr, pid, cpu, group_fd, flags);
	if (fd < 0 && errno == EINVAL && (e->attr.read_format & PERF_FORMAT_LOST)) {
		/* Before Linux 6.0: no lost-sample count (BPF filter drops). */
		e->attr.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		r->read_lost = false;
		fd = sys_perf_event_open(&e->attr, pid, cpu, group_fd, flags);
	}
	if (fd < 0 && errno == EINVAL && e->attr.build_id) {
		/* Kernels before 5.12 have no build ids in MMAP2. */
		e->attr.build_id = 0;
		fd = sys_perf_event_open(&e->attr, pid, cpu, group_fd, flags);
	}
	if (fd < 0 && (errno == EACCES || errno == EPERM) && user_only_fallback(e, pid))
		fd = sys_perf_event_open(&e->attr, pid, cpu, -1, flags);
	if (fd < 0)
		return -errno;
	ARRAY_GROW(r->fds, r->fds_cap, r->nfds + 1);
	r->fds[r->nfds++] = (struct rec_fd){ .fd = fd, .event = ev, .cpu = cpu, .pid = pid };
	if (e->kind == REC_EV_SAMPLING) {
		ARRAY_GROW(r->sample_fds, r->sample_fds_cap, r->nsample_fds + 1);
		r->sample_fds[r->nsample_fds++] = fd;
	}
	uint64_t id = 0;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -errno;
	ARRAY_GROW(e->ids, e->ids_cap, e->nids + 1);
	e->ids[e->nids++] = id;
	return route_to_ring(r, fd, cpu);
}

static bool per_task(const struct recording *r)
{
	return !r->opts.system_wide && (r->opts.workload_pid > 0 || r->opts.nr_threads > 0);
}

/* The sampling events' attrs from their specs (the first one also tracks
 * mmaps, comms and tasks). */
static int parse_events(struct recording *r, uint64_t sample_type)
{
	const struct recording_opts *o = &r->opts;
	const char *fallback[1];
	const char *const *specs = o->events;
	size_t n = o->nr_events;
	if (n == 0) {
		if (event_hw_available()) {
			fallback[0] = "cycles";
		} else {
			pr_warn("no hardware 'cycles' event on this machine (no PMU, e.g. a VM): "
				"sampling 'cpu-clock' instead");
			fallback[0] = "cpu-clock";
		}
		specs = fallback;
		n = 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct rec_event *e = new_event(r);
		char err[512];
		if (event_parse(specs[i], &e->attr, &e->name, err, sizeof(err)) < 0) {
			pr_err("%s", err);
			return -EINVAL;
		}
		e->kind = REC_EV_SAMPLING;
		e->leader = o->event_leaders ? o->event_leaders[i] : -1;
		e->attr.size = sizeof(e->attr);
		e->attr.sample_type = sample_type;
		if (e->attr.type == PERF_TYPE_TRACEPOINT)
			e->attr.sample_type |= PERF_SAMPLE_RAW;	/* the fields perf script/sched read */
		if (sample_type & PERF_SAMPLE_CALLCHAIN)
			e->attr.sample_max_stack = (uint16_t)o->max_stack;
		if (o->period) {
			e->attr.sample_period = o->period;
		} else if (e->attr.type == PERF_TYPE_TRACEPOINT) {
			e->attr.sample_period = 1;	/* every tracepoint hit, like perf */
		} else {
			e->attr.freq = 1;
			e->attr.sample_freq = o->freq ? o->freq : RECORDING_DEFAULT_FREQ;
		}
		e->attr.sample_id_all = 1;
		/* a group's members follow their leader's enable */
		bool member = e->leader >= 0 && e->leader != (int)i;
		e->attr.disabled = !member;
		e->attr.inherit = per_task(r) && o->inherit;
		e->attr.enable_on_exec = !member && per_task(r) && o->workload_pid > 0;
		e->attr.exclude_guest = 1;
		e->attr.watermark = 1;
		e->attr.wakeup_watermark = (uint32_t)(o->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
		if (i == 0) {	/* the tracking event */
			e->attr.mmap = 1;
			e->attr.mmap2 = 1;
			e->attr.comm = 1;
			e->attr.comm_exec = 1;
			e->attr.task = 1;
			e->attr.build_id = 1;
		}
	}
	return 0;
}

/* Side band: BPF program loads/unloads, system-wide, waking us at once so
 * that program info is read while the program exists. */
static void add_sideband(struct recording *r, uint64_t sample_type)
{
	struct rec_event *sb = new_event(r);
	sb->kind = REC_EV_SIDEBAND;
	sb->name = xstrdup("dummy:u");
	sb->attr.size = sizeof(sb->attr);
	sb->attr.type = PERF_TYPE_SOFTWARE;
	sb->attr.config = PERF_COUNT_SW_DUMMY;
	sb->attr.sample_type = sample_type;
	sb->attr.sample_id_all = 1;
	sb->attr.ksymbol = 1;
	sb->attr.bpf_event = 1;
	sb->attr.exclude_kernel = 1;
	sb->attr.exclude_hv = 1;
	sb->attr.wakeup_events = 1;
	sb->attr.sample_period = 1;
}

/* Every sampling event excludes the kernel (user_only_fallback, or ':u'). */
static bool user_only(const struct recording *r)
{
	for (size_t i = 0; i < r->nevents; i++)
		if (r->events[i].kind == REC_EV_SAMPLING && !r->events[i].attr.exclude_kernel)
			return false;
	return true;
}

/* Open event ev on cpu: once system wide, or once per task. */
static int open_on_cpu(struct recording *r, int ev, int cpu)
{
	const struct recording_opts *o = &r->opts;
	struct rec_event *e = &r->events[ev];
	bool tasks = per_task(r) && (e->kind == REC_EV_SAMPLING || e->per_task);
	size_t nt = tasks ? (o->workload_pid > 0 ? 1 : o->nr_threads) : 1;
	for (size_t t = 0; t < nt; t++) {
		pid_t pid = !tasks ? -1 : (o->workload_pid > 0 ? o->workload_pid : o->threads[t]);
		int err = open_one(r, ev, pid, cpu);
		if (err < 0) {
			if (e->kind == REC_EV_SIDEBAND && user_only(r)) {
				/* no kernel samples: BPF programs cannot appear in them */
				pr_debug("no BPF program load/unload events: %s", log_strerr(err));
				continue;
			}
			if (e->kind == REC_EV_SIDEBAND) {
				pr_warn_once("cannot record BPF program load/unload events (%s): "
					     "BPF programs loaded during the recording may show as "
					     "unknown; needs Linux 5.1+ and CAP_PERFMON",
					     log_strerr(err));
				continue;
			}
			if (err == -ESRCH && o->nr_threads > 1)
				continue;	/* a thread exited meanwhile */
			report_open_error(e, err, cpu, in_cgroup(r, e, pid));
			return err;
		}
		if (err > 0)
			return -EIO;
	}
	return 0;
}

static int setup_events(struct recording *r)
{
	uint64_t sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (r->opts.callchain)
		sample_type |= PERF_SAMPLE_CALLCHAIN;
	int err = parse_events(r, sample_type);
	if (err)
		return err;
	r->id_hdr_size = pd_sample_id_size(sample_type);

	r->configuring = true;
	for (size_t h = 0; h < r->opts.nr_hooks && !err; h++)
		if (r->opts.hooks[h].configure)
			err = r->opts.hooks[h].configure(r->opts.hooks[h].ctx, r);
	r->configuring = false;
	if (err)
		return err;
	add_sideband(r, sample_type);
	for (size_t i = 0; i < r->nevents && r->opts.use_clockid; i++) {
		r->events[i].attr.use_clockid = 1;
		r->events[i].attr.clockid = r->opts.clockid;
	}

	for (int c = 0; c < r->opts.nr_cpus; c++) {
		if (!r->opts.cpus[c])
			continue;
		for (size_t i = 0; i < r->nevents; i++)
			if ((err = open_on_cpu(r, (int)i, c)))
				return err;
	}
	if (r->nrings == 0) {
		pr_err("no event could be opened on the selected CPUs");
		return -ENODEV;
	}
	r->pfd = xcalloc((size_t)r->nrings, sizeof(*r->pfd));
	for (int i = 0; i < r->nrings; i++) {
		r->pfd[i].fd = r->rings[i].fd;
		r->pfd[i].events = POLLIN;
	}
	return 0;
}

static bool to_stdout(const struct recording *r)
{
	return !strcmp(r->opts.output, "-");
}

static void report_write_error(const struct recording *r, int err)
{
	const char *limit = log_limit_hint(err);
	if (to_stdout(r))
		pr_err("cannot write perf.data to the standard output: %s%s", log_strerr(err),
		       err == -EPIPE ? " (the reader of the pipe has exited)" : "");
	else
		pr_err("cannot write %s: %s; %s", r->opts.output, log_strerr(err),
		       limit ? limit : err == -ENOSPC || err == -EDQUOT ? "free disk space" :
		       "check the file system");
}

/* The file with its attrs, then the state that exists before the
 * recording, as perf synthesizes it. */
static int create_file(struct recording *r)
{
	int err;
	r->w = pd_writer_create(r->opts.output, &err);
	if (!r->w) {
		if (to_stdout(r)) {	/* a file's errors are logged by the writer */
			const char *limit = log_limit_hint(err);
			pr_err("cannot duplicate the standard output's descriptor: %s%s%s", log_strerr(err),
			       limit ? "; " : "", limit ? limit : "");
		}
		return err;
	}
	for (size_t i = 0; i < r->nevents; i++)
		pd_writer_add_attr(r->w, &r->events[i].attr, r->events[i].name, r->events[i].ids,
				   r->events[i].nids);
	/* A stream sends its features before the records (perf reads them
	 * there); those that change meanwhile (BPF programs) again at finish. */
	if (pd_writer_is_pipe(r->w))
		rec_add_features(r);
	if ((err = pd_writer_begin(r->w))) {
		report_write_error(r, err);
		return err;
	}
	r->synth.emit = emit_record;
	r->synth.ctx = r;
	r->synth.sample_type = r->events[0].attr.sample_type;
	r->synth.id = r->events[0].nids ? r->events[0].ids[0] : 0;
	/* user space only (the paranoid fallback): no kernel map to name */
	if (!user_only(r) && (err = synth_kernel_mmap(&r->synth)))
		goto write_err;
	if (r->opts.system_wide)
		err = synth_all_processes(&r->synth, r->opts.workload_pid > 0 ? r->opts.workload_pid : -1);
	else
		for (size_t i = 0; i < r->opts.nr_threads && !err; i++) {
			int e2 = synth_process(&r->synth, r->opts.threads[i]);
			err = e2 == -ESRCH ? 0 : e2;
		}
	if (err)
		goto write_err;
	if ((err = synth_bpf_programs(&r->synth)) && err != -EPERM)
		goto write_err;
	pd_writer_commit(r->w);
	return 0;
write_err:
	report_write_error(r, err);
	return err;
}

int recording_open(const struct recording_opts *opts, struct recording **out)
{
	struct recording *r = xcalloc(1, sizeof(*r));
	int err;
	r->opts = *opts;
	if (!r->opts.mmap_pages)
		r->opts.mmap_pages = RECORDING_DEFAULT_PAGES;
	*out = NULL;
	if ((err = setup_events(r)))
		goto fail;
	for (size_t h = 0; h < r->opts.nr_hooks && !err; h++)
		if (r->opts.hooks[h].after_open)
			err = r->opts.hooks[h].after_open(r->opts.hooks[h].ctx, r);
	if (err)
		goto fail;
	rec_hits_init(r);
	r->samples_parsed = true;
	const uint64_t head = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	for (size_t i = 0; i < r->nevents; i++)
		if ((r->events[i].attr.sample_type & head) != head)
			r->samples_parsed = false;
	if ((err = create_file(r)))
		goto fail;
	*out = r;
	return 0;
fail:
	recording_close(r);
	return err < 0 ? err : -EIO;
}

int recording_enable(struct recording *r)
{
	/* Per-task events of a workload start at its exec (enable_on_exec);
	 * the side-band event is enabled from its open. */
	if (per_task(r) && r->opts.workload_pid > 0)
		return 0;
	for (size_t i = 0; i < r->nfds; i++)
		ioctl(r->fds[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	return 0;
}

int recording_poll(void *ctx, int timeout_ms)
{
	struct recording *r = ctx;
	if (poll(r->pfd, (nfds_t)r->nrings, timeout_ms) > 0)
		for (int i = 0; i < r->nrings; i++)
			/* The task of a per-task event exited: its fd reports
			 * POLLHUP at every poll from now on. Stop polling it (as
			 * perf does) rather than spin; its ring is still drained
			 * below, and events of other tasks that write into it
			 * are read at each poll timeout at the latest. */
			if (r->pfd[i].revents & (POLLHUP | POLLERR))
				r->pfd[i].fd = -1;
	int err = rec_drain_all(r);
	if (err) {
		report_write_error(r, err);
		return err;
	}
	for (size_t h = 0; h < r->opts.nr_hooks && !err; h++)
		if (r->opts.hooks[h].poll)
			err = r->opts.hooks[h].poll(r->opts.hooks[h].ctx, r);
	return err;
}

int recording_stop(struct recording *r)
{
	for (size_t i = 0; i < r->nfds; i++)
		ioctl(r->fds[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	int err = rec_drain_all(r);
	if (err)
		report_write_error(r, err);
	return err;
}

int recording_finish(struct recording *r, struct recording_stats *stats)
{
	int err = 0;
	for (size_t h = 0; h < r->opts.nr_hooks && !err; h++)
		if (r->opts.hooks[h].before_finish)
			err = r->opts.hooks[h].before_finish(r->opts.hooks[h].ctx, r);
	if (err)
		return err;
	if ((err = pd_writer_commit(r->w))) {
		report_write_error(r, err);
		return err;
	}
	rec_add_features(r);
	rec_hits_finish(r);
	if ((err = pd_writer_finish(r->w))) {
		if (to_stdout(r))
			report_write_error(r, err);
		else
			pr_err("cannot finish %s: %s", r->opts.output, log_strerr(err));
		return err;
	}
	if (stats)
		recording_stats_now(r, stats);
	return 0;
}

void recording_close(struct recording *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nrings; i++)
		perf_ring_unmap(&r->rings[i]);
	for (size_t i = 0; i < r->nfds; i++)
		close(r->fds[i].fd);
	free(r->fds);
	free(r->rings);
	free(r->pfd);
	for (size_t i = 0; i < r->nevents; i++) {
		free(r->events[i].name);
		free(r->events[i].ids);
	}
	free(r->events);
	synth_free(&r->synth);
	rec_hits_free(r);
	pd_writer_free(r->w);
	free(r->sample_fds);
	free(r);
}

/* ---- for hooks ---- */

const int *recording_sample_fds(const struct recording *r, size_t *n)
{
	*n = r->nsample_fds;
	return r->sample_fds;
}

size_t recording_nr_events(const struct recording *r)
{
	return r->nevents;
}

const struct perf_event_attr *recording_attr(const struct recording *r, size_t i)
{
	return i < r->nevents ? &r->events[i].attr : NULL;
}

const uint64_t *recording_ids(const struct recording *r, size_t i, size_t *n)
{
	*n = i < r->nevents ? r->events[i].nids : 0;
	return *n ? r->events[i].ids : NULL;
}

size_t recording_id_hdr_size(const struct recording *r)
{
	return r->id_hdr_size;
}

void recording_stats_now(const struct recording *r, struct recording_stats *s)
{
	s->samples = r->samples;
	s->lost = r->lost;
	s->records = r->records;
	s->data_bytes = r->w ? pd_writer_data_size(r->w) : 0;
	s->bpf_progs_missed = r->synth.progs_missed;
}

void recording_want_lost_counts(struct recording *r)
{
	for (size_t i = 0; i < r->nevents; i++)
		if (r->events[i].kind == REC_EV_SAMPLING)
			r->events[i].attr.read_format = PERF_FORMAT_LOST;
	r->read_lost = true;
}

int64_t recording_kernel_lost(const struct recording *r)
{
	if (!r->read_lost)
		return -1;
	int64_t total = 0;
	for (size_t i = 0; i < r->nsample_fds; i++) {
		uint64_t v[2];
		if (read(r->sample_fds[i], v, sizeof(v)) != (ssize_t)sizeof(v))
			return -1;
		total += (int64_t)v[1];
	}
	return total;
}

int recording_add_event(struct recording *r, const struct perf_event_attr *attr, const char *name,
			bool per_task_ev)
{
	if (!r->configuring) {
		pr_err("cannot add event '%s' to a recording that is already open", name);
		return -EBUSY;
	}
	struct rec_event *e = new_event(r);
	e->attr = *attr;
	e->attr.size = sizeof(e->attr);
	e->name = xstrdup(name);
	e->kind = REC_EV_ADDED;
	e->per_task = per_task_ev;
	return (int)(r->nevents - 1);
}

int recording_event_fd(const struct recording *r, size_t i, int cpu)
{
	for (size_t k = 0; k < r->nfds; k++)
		if ((size_t)r->fds[k].event == i && r->fds[k].cpu == cpu)
			return r->fds[k].fd;
	return -1;
}

int recording_write(struct recording *r, const void *rec, size_t len)
{
	int err = pd_writer_write(r->w, rec, len);
	if (err)
		report_write_error(r, err);
	return err;
}

const char *recording_event_name(const struct recording *r, size_t i)
{
	return i < r->nevents ? r->events[i].name : NULL;
}

int recording_add_sample_type(struct recording *r, size_t i, uint64_t bits)
{
	const uint64_t id_all = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
				PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	if (!r->configuring || i >= r->nevents || (bits & id_all)) {
		pr_err("cannot add sample fields 0x%llx to event %zu: only before the events are "
		       "open, and not the sample_id ones", (unsigned long long)bits, i);
		return -EINVAL;
	}
	r->events[i].attr.sample_type |= bits;
	return 0;
}

int recording_attach_bpf(struct recording *r, size_t i, int prog_fd, const char *what)
{
	for (size_t k = 0; k < r->nfds; k++) {
		const struct rec_event *e = &r->events[r->fds[k].event];
		if (e->kind != REC_EV_SAMPLING || (i != SIZE_MAX && (size_t)r->fds[k].event != i))
			continue;
		if (ioctl(r->fds[k].fd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0) {
			int err = -errno;
			pr_err("cannot attach %s to event '%s' on CPU %d: %s%s", what, e->name,
			       r->fds[k].cpu, log_strerr(err),
			       err == -EEXIST ? " (the event already has a program)" : "");
			return err;
		}
	}
	return 0;
}

int recording_write_bpf_dropped(struct recording *r, size_t i, uint64_t count)
{
	size_t nids;
	const uint64_t *ids = recording_ids(r, i, &nids);
	struct {
		struct perf_event_header h;
		uint64_t lost;
		uint64_t trailer[8];
	} rec = { 0 };
	rec.h.type = PERF_RECORD_LOST_SAMPLES;
	rec.h.misc = PD_RECORD_MISC_LOST_SAMPLES_BPF;
	rec.h.size = (uint16_t)(sizeof(rec.h) + 8 + r->id_hdr_size);
	rec.lost = count;
	/* the trailer's last u64 is the IDENTIFIER-style id (see pd_sample_id_size) */
	rec.trailer[r->id_hdr_size / 8 - 1] = nids ? ids[0] : 0;
	return recording_write(r, &rec, rec.h.size);
}
