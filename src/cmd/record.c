// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf record: sample a command, processes or the whole system into a
 * perf.data file that Linux perf reads too. Options follow perf record. */
#include "cmds.h"
#include "event/event.h"
#include "event/synth.h"
#include "log.h"
#include "bpfobj/bpfobj.h"
#include "perfdata/bpf_info.h"
#include "perfdata/tracing_data.h"
#include "perfdata/writer.h"
#include "util.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_FREQ 4000
#define MAX_EVENTS 16

struct rec_event {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nids, ids_cap;
};

struct record {
	/* options */
	char *events_spec[MAX_EVENTS];
	int nevents_spec;
	uint64_t freq, period;
	bool callchain;
	bool system_wide;
	char *pids, *tids, *cpu_list, *output;
	double duration;
	size_t mmap_pages;
	char **cmd;
	const char *bpf_object;
	char *sets[64];
	int nsets;
	int argc_all;
	char **argv_all;

	/* state */
	struct rec_event events[MAX_EVENTS + 1];	/* + side-band dummy */
	int nevents;
	int *fds;
	size_t nfds, fds_cap;
	struct perf_ring *rings;	/* one per CPU */
	int nrings;
	bool *cpus;
	int ncpus;
	pid_t *threads;
	size_t nthreads, threads_cap;
	pid_t child;
	int go_pipe[2], exec_pipe[2];
	struct pd_writer *w;
	struct synth synth;
	uint64_t samples, lost, records, filtered;
	size_t id_hdr_size;	/* sample_id trailer size of our events */
	struct bpfobj *filter;
	int *filter_fds, nfilter_fds;
	int *sample_fds;	/* fds of sampling events (not side-band) */
	size_t nsample_fds, sample_fds_cap;
	bool read_lost;		/* PERF_FORMAT_LOST available */
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig) { stop_signal = sig; }
static void on_sigchld(int sig) { (void)sig; }

static void usage(FILE *f)
{
	fprintf(f,
"usage: bpfperf record [-e EVENT]... [-F HZ | -c PERIOD] [-g] [-a | -p PID | -t TID]\n"
"                      [-C CPUS] [-o FILE] [-m PAGES] [--duration SEC] [-- CMD ARGS...]\n\n"
"  -e, --event EVENT      event to sample (default: cycles, or cpu-clock where there is no\n"
"                         hardware PMU); perf names or tracepoints SYSTEM:NAME\n"
"  -F, --freq HZ          sampling frequency (default %d)\n"
"  -c, --count PERIOD     sample every PERIOD events instead of a frequency\n"
"  -g                     record call graphs (frame pointers)\n"
"      --call-graph fp    the same\n"
"  -a, --all-cpus         system-wide (default when no command and no -p/-t)\n"
"  -p, --pid PID[,PID]    existing processes (and their threads)\n"
"  -t, --tid TID[,TID]    existing threads\n"
"  -C, --cpu CPUS         only these CPUs (e.g. 0-1,3)\n"
"  -o, --output FILE      output file (default perf.data; an existing one becomes FILE.old)\n"
"  -m, --mmap-pages N     ring buffer data pages per CPU, a power of two (default 128)\n"
"      --duration SEC     stop after SEC seconds\n"
"      --bpf-object OBJ   filter samples with OBJ's SEC(\"perf_event\") program (0 drops)\n"
"      --set NAME=VALUE   assign a const volatile global of the filter object\n"
"  -v                     more messages (-vv debug)\n", DEFAULT_FREQ);
}

static int emit_record(void *ctx, const void *rec, size_t len)
{
	struct record *r = ctx;
	r->records++;
	return pd_writer_write(r->w, rec, len);
}

static int add_thread(struct record *r, pid_t tid)
{
	ARRAY_GROW(r->threads, r->threads_cap, r->nthreads + 1);
	r->threads[r->nthreads++] = tid;
	return 0;
}

/* -p: every thread of every listed process. */
static int collect_targets(struct record *r)
{
	char *list = r->pids ? r->pids : r->tids;
	if (!list)
		return 0;
	char *dup = xstrdup(list), *save = NULL;
	int err = 0;
	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (!parse_u64(tok, &v) || v == 0 || v > 0x7fffffff) {
			pr_err("bad %s '%s': expected a positive number", r->pids ? "pid" : "tid", tok);
			err = -EINVAL;
			break;
		}
		char path[64];
		snprintf(path, sizeof(path), "/proc/%llu", (unsigned long long)v);
		if (access(path, F_OK) < 0) {
			pr_err("no such %s: %llu; check it with 'ps -%s %llu'", r->pids ? "process" : "thread",
			       (unsigned long long)v, r->pids ? "p" : "T", (unsigned long long)v);
			err = -ESRCH;
			break;
		}
		if (r->tids) {
			add_thread(r, (pid_t)v);
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%llu/task", (unsigned long long)v);
		DIR *d = opendir(path);
		struct dirent *de;
		while (d && (de = readdir(d)))
			if (isdigit((unsigned char)de->d_name[0]))
				add_thread(r, atoi(de->d_name));
		if (d)
			closedir(d);
	}
	free(dup);
	return err;
}

static void report_open_error(const struct rec_event *e, int err, int cpu)
{
	switch (-err) {
	case EACCES:
	case EPERM: {
		char *p = read_file("/proc/sys/kernel/perf_event_paranoid", NULL);
		pr_err("cannot open event '%s' on CPU %d: permission denied (kernel.perf_event_paranoid = %d); "
		       "run as root or grant CAP_PERFMON", e->name, cpu, p ? atoi(p) : -1);
		free(p);
		break;
	}
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		pr_err("event '%s' is not supported on this machine (%s); 'bpfperf record -e cpu-clock' "
		       "works everywhere", e->name, log_strerr(err));
		break;
	case EMFILE:
		pr_err("cannot open event '%s': too many open files; raise the limit with 'ulimit -n'",
		       e->name);
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

static int ring_for_cpu(struct record *r, int cpu)
{
	for (int i = 0; i < r->nrings; i++)
		if (r->rings[i].cpu == cpu)
			return i;
	return -1;
}

/* Open one fd; route it into the CPU's ring (creating it). */
static int open_one(struct record *r, struct rec_event *e, pid_t pid, int cpu)
{
	int fd = sys_perf_event_open(&e->attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EINVAL && (e->attr.read_format & PERF_FORMAT_LOST)) {
		/* Before Linux 6.0: no lost-sample count (BPF filter drops). */
		e->attr.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		r->read_lost = false;
		fd = sys_perf_event_open(&e->attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0 && errno == EINVAL && e->attr.build_id) {
		/* Kernels before 5.12 have no build ids in MMAP2. */
		e->attr.build_id = 0;
		fd = sys_perf_event_open(&e->attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	ARRAY_GROW(r->fds, r->fds_cap, r->nfds + 1);
	r->fds[r->nfds++] = fd;
	if (e->attr.type != PERF_TYPE_SOFTWARE || e->attr.config != PERF_COUNT_SW_DUMMY) {
		ARRAY_GROW(r->sample_fds, r->sample_fds_cap, r->nsample_fds + 1);
		r->sample_fds[r->nsample_fds++] = fd;
	}
	uint64_t id = 0;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -errno;
	ARRAY_GROW(e->ids, e->ids_cap, e->nids + 1);
	e->ids[e->nids++] = id;
	int ri = ring_for_cpu(r, cpu);
	if (ri < 0) {
		r->rings = xrealloc(r->rings, sizeof(*r->rings) * (size_t)(r->nrings + 1));
		struct perf_ring *ring = &r->rings[r->nrings];
		memset(ring, 0, sizeof(*ring));
		ring->cpu = cpu;
		int err = perf_ring_map(ring, fd, r->mmap_pages);
		if (err) {
			if (err == -EPERM || err == -ENOMEM)
				pr_err("cannot map a %zu KiB ring buffer for CPU %d: %s; use fewer pages with "
				       "-m or raise kernel.perf_event_mlock_kb", r->mmap_pages * 4, cpu,
				       log_strerr(err));
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

static int setup_events(struct record *r)
{
	bool per_task = r->child > 0 || r->nthreads > 0;
	uint64_t sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (r->callchain)
		sample_type |= PERF_SAMPLE_CALLCHAIN;

	/* Events to sample. */
	if (r->nevents_spec == 0) {
		if (event_hw_available()) {
			r->events_spec[r->nevents_spec++] = "cycles";
		} else {
			pr_warn("no hardware 'cycles' event on this machine (no PMU, e.g. a VM): "
				"sampling 'cpu-clock' instead");
			r->events_spec[r->nevents_spec++] = "cpu-clock";
		}
	}
	for (int i = 0; i < r->nevents_spec; i++) {
		struct rec_event *e = &r->events[r->nevents];
		char err[512];
		if (event_parse(r->events_spec[i], &e->attr, &e->name, err, sizeof(err)) < 0) {
			pr_err("%s", err);
			return -1;
		}
		e->attr.size = sizeof(e->attr);
		e->attr.sample_type = sample_type;
		if (r->period) {
			e->attr.sample_period = r->period;
		} else if (e->attr.type == PERF_TYPE_TRACEPOINT) {
			e->attr.sample_period = 1;	/* every tracepoint hit, like perf */
		} else {
			e->attr.freq = 1;
			e->attr.sample_freq = r->freq ? r->freq : DEFAULT_FREQ;
		}
		e->attr.sample_id_all = 1;
		if (r->bpf_object) {
			e->attr.read_format = PERF_FORMAT_LOST;
			r->read_lost = true;
		}
		e->attr.disabled = 1;
		e->attr.inherit = per_task && !r->tids;
		e->attr.enable_on_exec = r->child > 0;
		e->attr.exclude_guest = 1;
		e->attr.watermark = 1;
		e->attr.wakeup_watermark = (uint32_t)(r->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
		if (r->nevents == 0) {	/* the tracking event */
			e->attr.mmap = 1;
			e->attr.mmap2 = 1;
			e->attr.comm = 1;
			e->attr.comm_exec = 1;
			e->attr.task = 1;
			e->attr.build_id = 1;
		}
		r->nevents++;
	}
	r->id_hdr_size = pd_sample_id_size(sample_type);
	/* Side-band: BPF program loads/unloads, system-wide, waking us at once
	 * so that program info is read while the program exists. */
	struct rec_event *sb = &r->events[r->nevents++];
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

	for (int c = 0; c < r->ncpus; c++) {
		if (!r->cpus[c])
			continue;
		for (int i = 0; i < r->nevents; i++) {
			struct rec_event *e = &r->events[i];
			bool is_sb = i == r->nevents - 1;
			size_t nt = (per_task && !is_sb) ? (r->child > 0 ? 1 : r->nthreads) : 1;
			for (size_t t = 0; t < nt; t++) {
				pid_t pid = is_sb || !per_task ? -1 : (r->child > 0 ? r->child : r->threads[t]);
				int err = open_one(r, e, pid, c);
				if (err < 0) {
					if (is_sb) {
						pr_warn_once("cannot record BPF program load/unload events (%s): "
							     "BPF programs loaded during the recording may show as "
							     "unknown; needs Linux 5.1+ and CAP_PERFMON",
							     log_strerr(err));
						continue;
					}
					if (err == -ESRCH && r->nthreads > 1)
						continue;	/* a thread exited meanwhile */
					report_open_error(e, err, c);
					return -1;
				}
				if (err > 0)
					return -1;
			}
		}
	}
	if (r->nrings == 0) {
		pr_err("no event could be opened on the selected CPUs");
		return -1;
	}
	return 0;
}

/* --bpf-object: the object's perf_event program filters every sampling
 * event (returning 0 drops the sample). */
static int attach_filter(struct record *r)
{
	struct bpfobj_open_opts oo = { .sets = r->sets, .nr_sets = r->nsets };
	int err = bpfobj_open_perf_event_progs(r->bpf_object, &oo, &r->filter,
					       &r->filter_fds, &r->nfilter_fds);
	if (err) {
		if (err == -ENOENT)
			pr_err("%s has no SEC(\"perf_event\") program to use as a sample filter",
			       r->bpf_object);
		return -1;
	}
	if (r->nfilter_fds != 1) {
		pr_err("%s has %d perf_event programs; a sample filter object must have exactly one",
		       r->bpf_object, r->nfilter_fds);
		return -1;
	}
	for (size_t i = 0; i < r->nsample_fds; i++) {
		if (ioctl(r->sample_fds[i], PERF_EVENT_IOC_SET_BPF, r->filter_fds[0]) < 0) {
			int e = errno;
			pr_err("cannot attach the filter from %s to the sampled event: %s%s", r->bpf_object,
			       strerror(e), e == EEXIST ? " (the event already has a program)" : "");
			return -1;
		}
	}
	return 0;
}

/* The filter's own count of dropped samples: a global `__u64 dropped` in
 * its .bss (the convention of examples/sample_filter.bpf.c). -1 if absent. */
static int64_t filter_dropped_global(struct record *r)
{
	uint64_t d;
	return bpfobj_global_u64(r->filter, ".bss", "dropped", &d) ? -1 : (int64_t)d;
}

/* Samples the kernel dropped at overflow (BPF filter or full ring), summed
 * over the sampling events; -1 if the kernel cannot tell. */
static int64_t read_lost_samples(struct record *r)
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

/* Copy n bytes at offset off of the (possibly wrapped) region iov[0..1]. */
static void iov_copy(const struct iovec *iov, size_t off, void *dst, size_t n)
{
	uint8_t *d = dst;
	for (int k = 0; k < 2 && n; k++) {
		if (off >= iov[k].iov_len) {
			off -= iov[k].iov_len;
			continue;
		}
		size_t take = iov[k].iov_len - off < n ? iov[k].iov_len - off : n;
		memcpy(d, (uint8_t *)iov[k].iov_base + off, take);
		d += take;
		n -= take;
		off = 0;
	}
}

/* Append bytes [from, to) of the (possibly wrapped) ring region. */
static int write_range(struct record *r, const struct iovec *iov, size_t from, size_t to)
{
	struct iovec out[2];
	int n = 0;
	size_t base = 0;
	for (int k = 0; k < 2; k++) {
		size_t s = base, e = base + iov[k].iov_len;
		size_t a = from > s ? from : s, b = to < e ? to : e;
		if (a < b) {
			out[n].iov_base = (uint8_t *)iov[k].iov_base + (a - s);
			out[n].iov_len = b - a;
			n++;
		}
		base = e;
	}
	return n ? pd_writer_writev(r->w, out, n) : 0;
}

/* The real size of a KSYMBOL or BPF_EVENT record. The kernel computes their
 * header size once and adds the sample_id size for every event it writes
 * the record to (perf_event_ksymbol_output/perf_event_bpf_output do not
 * restore it), so when several events listen (another profiler, or one per
 * CPU and task), the size in the header is too large and garbage follows the
 * record. Returns 0 when the header is right. */
static size_t sideband_true_size(struct record *r, const struct iovec *iov, size_t off,
				 const struct perf_event_header *h)
{
	size_t body;
	if (h->type == PERF_RECORD_KSYMBOL) {
		char name[512];
		size_t max = h->size > 24 ? h->size - 24 : 0;
		if (max > sizeof(name))
			max = sizeof(name);
		iov_copy(iov, off + 24, name, max);
		size_t n = strnlen(name, max);
		if (n == max)
			return 0;
		body = 16 + ALIGN_UP(n + 1, 8);
	} else if (h->type == PERF_RECORD_BPF_EVENT) {
		body = 16;
	} else {
		return 0;
	}
	size_t want = sizeof(*h) + body + r->id_hdr_size;
	return want < h->size ? want : 0;
}

/* Look at the records (counts, BPF loads), then append them to the file. */
static int drain_ring(struct record *r, struct perf_ring *ring)
{
	struct iovec iov[2];
	size_t len = perf_ring_peek(ring, iov);
	if (!len)
		return 0;
	size_t off = 0, done = 0;
	int err = 0;
	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;
		iov_copy(iov, off, &h, sizeof(h));
		if (h.size < sizeof(h) || off + h.size > len)
			break;
		switch (h.type) {
		case PERF_RECORD_SAMPLE:
			r->samples++;
			break;
		case PERF_RECORD_LOST: {
			uint64_t v[2];
			iov_copy(iov, off + sizeof(h), v, sizeof(v));
			r->lost += v[1];
			break;
		}
		case PERF_RECORD_BPF_EVENT: {
			uint16_t type;
			uint32_t id;
			iov_copy(iov, off + sizeof(h), &type, 2);
			iov_copy(iov, off + sizeof(h) + 4, &id, 4);
			if (type == PD_BPF_EVENT_PROG_LOAD) {
				int e = synth_bpf_program(&r->synth, id, false);
				if (e)
					pr_debug("BPF program %u was unloaded before its info could be "
						 "saved: %s", id, log_strerr(e));
			}
			break;
		}
		default:
			break;
		}
		size_t fixed = sideband_true_size(r, iov, off, &h);
		if (fixed && !err) {
			/* Write what precedes it, then the record with its real size. */
			uint8_t rec[65536];
			err = write_range(r, iov, done, off);
			iov_copy(iov, off, rec, fixed);
			struct perf_event_header *fh = (void *)rec;
			fh->size = (uint16_t)fixed;
			if (!err)
				err = pd_writer_write(r->w, rec, fixed);
			done = off + h.size;
		}
		r->records++;
		off += h.size;
	}
	if (!err)
		err = write_range(r, iov, done, off);
	perf_ring_consume(ring, off);
	return err;
}

static int drain_all(struct record *r)
{
	for (int i = 0; i < r->nrings; i++) {
		int err = drain_ring(r, &r->rings[i]);
		if (err)
			return err;
	}
	return pd_writer_commit(r->w);
}

static void add_string_feature(struct pd_writer *w, enum pd_feature f, const char *s)
{
	struct strbuf b = { 0 };
	pd_feat_put_string(&b, s);
	pd_writer_add_feature(w, f, b.buf, b.len);
	sb_free(&b);
}

static void add_features(struct record *r)
{
	struct utsname u;
	if (uname(&u) == 0) {
		add_string_feature(r->w, PD_FEAT_HOSTNAME, u.nodename);
		add_string_feature(r->w, PD_FEAT_OSRELEASE, u.release);
		add_string_feature(r->w, PD_FEAT_ARCH, u.machine);
	}
	add_string_feature(r->w, PD_FEAT_VERSION, "bpfperf " BPFPERF_VERSION);

	struct strbuf b = { 0 };
	uint32_t avail = (uint32_t)cpu_count_possible(), online = 0;
	bool *on = cpu_online_mask();
	for (uint32_t i = 0; i < avail; i++)
		online += on[i];
	free(on);
	pd_feat_put_u32(&b, avail);
	pd_feat_put_u32(&b, online);
	pd_writer_add_feature(r->w, PD_FEAT_NRCPUS, b.buf, b.len);
	sb_reset(&b);

	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	pd_feat_put_u64(&b, (uint64_t)pages * (uint64_t)psz / 1024);
	pd_writer_add_feature(r->w, PD_FEAT_TOTAL_MEM, b.buf, b.len);
	sb_reset(&b);

	pd_feat_put_u32(&b, (uint32_t)r->argc_all);
	for (int i = 0; i < r->argc_all; i++)
		pd_feat_put_string(&b, r->argv_all[i]);
	pd_writer_add_feature(r->w, PD_FEAT_CMDLINE, b.buf, b.len);
	sb_reset(&b);

	/* perf needs the tracepoints' formats to read a file that has any. */
	const struct perf_event_attr *attrs[MAX_EVENTS + 1];
	bool has_tp = false;
	for (int i = 0; i < r->nevents; i++) {
		attrs[i] = &r->events[i].attr;
		has_tp |= attrs[i]->type == PERF_TYPE_TRACEPOINT;
	}
	const char *tfs = has_tp ? tracefs_path() : NULL;
	if (tfs) {
		int err = pd_tracing_data_build(&b, tfs, attrs, (size_t)r->nevents);
		if (err)
			pr_warn("cannot read the tracepoint formats from %s (%s): perf will not read "
				"this file's tracepoint events", tfs, log_strerr(err));
		else
			pd_writer_add_feature(r->w, PD_FEAT_TRACING_DATA, b.buf, b.len);
		sb_reset(&b);
	}
	if (r->synth.nprogs) {
		pd_bpf_progs_encode(&b, r->synth.progs, r->synth.nprogs);
		pd_writer_add_feature(r->w, PD_FEAT_BPF_PROG_INFO, b.buf, b.len);
		sb_reset(&b);
	}
	if (r->synth.nbtfs) {
		pd_btfs_encode(&b, r->synth.btfs, r->synth.nbtfs);
		pd_writer_add_feature(r->w, PD_FEAT_BPF_BTF, b.buf, b.len);
	}
	sb_free(&b);
}

/* Fork the workload stopped before exec; released by start_child(). */
static int prepare_child(struct record *r)
{
	if (pipe2(r->go_pipe, O_CLOEXEC) < 0 || pipe2(r->exec_pipe, O_CLOEXEC) < 0) {
		pr_err("cannot create pipes for the workload: %s", strerror(errno));
		return -1;
	}
	r->child = fork();
	if (r->child < 0) {
		pr_err("cannot fork the workload: %s", strerror(errno));
		return -1;
	}
	if (r->child == 0) {
		char c;
		close(r->go_pipe[1]);
		close(r->exec_pipe[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(r->go_pipe[0], &c, 1) != 1)
			_exit(127);
		execvp(r->cmd[0], r->cmd);
		int e = errno;
		if (write(r->exec_pipe[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(r->go_pipe[0]);
	close(r->exec_pipe[1]);
	return 0;
}

static int start_child(struct record *r)
{
	int e = 0;
	if (write(r->go_pipe[1], "g", 1) != 1) {
		pr_err("cannot start the workload: %s", strerror(errno));
		return -1;
	}
	close(r->go_pipe[1]);
	ssize_t n;
	do
		n = read(r->exec_pipe[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(r->exec_pipe[0]);
	if (n == sizeof(e)) {
		pr_err("cannot run '%s': %s%s", r->cmd[0], strerror(e),
		       e == ENOENT ? "; check the command name and PATH" : "");
		waitpid(r->child, NULL, 0);
		r->child = -1;
		return -1;
	}
	return 0;
}

static int parse_args(struct record *r, int argc, char **argv)
{
	enum { OPT_DURATION = 256, OPT_CALLGRAPH, OPT_BPF_OBJECT, OPT_SET };
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "freq", required_argument, NULL, 'F' },
		{ "count", required_argument, NULL, 'c' },
		{ "call-graph", required_argument, NULL, OPT_CALLGRAPH },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "bpf-object", required_argument, NULL, OPT_BPF_OBJECT },
		{ "set", required_argument, NULL, OPT_SET },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, verbose = log_verbosity();
	uint64_t v;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:F:c:gap:t:C:o:m:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'e': {
			char *dup = xstrdup(optarg), *save = NULL;
			for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				if (r->nevents_spec >= MAX_EVENTS) {
					pr_err("too many events (at most %d)", MAX_EVENTS);
					return -1;
				}
				r->events_spec[r->nevents_spec++] = xstrdup(t);
			}
			free(dup);
			break;
		}
		case 'F':
			if (!strcmp(optarg, "max")) {
				char *s = read_file("/proc/sys/kernel/perf_event_max_sample_rate", NULL);
				r->freq = s ? strtoull(s, NULL, 10) : DEFAULT_FREQ;
				free(s);
			} else if (!parse_u64(optarg, &r->freq) || r->freq == 0) {
				pr_err("bad frequency '%s' for -F: expected a positive number of Hz", optarg);
				return -1;
			}
			break;
		case 'c':
			if (!parse_u64(optarg, &r->period) || r->period == 0) {
				pr_err("bad period '%s' for -c: expected a positive count", optarg);
				return -1;
			}
			break;
		case 'g':
			r->callchain = true;
			break;
		case OPT_CALLGRAPH:
			if (strcmp(optarg, "fp") && strncmp(optarg, "fp,", 3)) {
				pr_err("call-graph mode '%s' is not supported; use 'fp' (frame pointers)", optarg);
				return -1;
			}
			r->callchain = true;
			break;
		case 'a': r->system_wide = true; break;
		case 'p': r->pids = optarg; break;
		case 't': r->tids = optarg; break;
		case 'C': r->cpu_list = optarg; break;
		case 'o': r->output = optarg; break;
		case 'm':
			if (!parse_u64(optarg, &v) || v == 0 || (v & (v - 1)) || v > (1u << 20)) {
				pr_err("bad -m '%s': the number of data pages must be a power of two", optarg);
				return -1;
			}
			r->mmap_pages = v;
			break;
		case OPT_DURATION:
			if (!parse_double(optarg, &r->duration) || r->duration <= 0) {
				pr_err("bad --duration '%s': expected seconds > 0", optarg);
				return -1;
			}
			break;
		case OPT_BPF_OBJECT:
			r->bpf_object = optarg;
			break;
		case OPT_SET:
			if (r->nsets >= (int)ARRAY_SIZE(r->sets)) {
				pr_err("too many --set assignments (at most %zu)", ARRAY_SIZE(r->sets));
				return -1;
			}
			r->sets[r->nsets++] = optarg;
			break;
		case 'v':
			log_set_verbosity(++verbose);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			fprintf(stderr, "see 'bpfperf record --help'\n");
			return -1;
		}
	}
	if (r->freq && r->period) {
		pr_err("-F and -c both given: choose a frequency or a period");
		return -1;
	}
	if (optind < argc)
		r->cmd = argv + optind;
	if (r->nsets && !r->bpf_object) {
		pr_err("--set needs --bpf-object");
		return -1;
	}
	int targets = (r->pids != NULL) + (r->tids != NULL) + (r->cmd != NULL);
	if (targets > 1 || (r->system_wide && (r->pids || r->tids))) {
		pr_err("choose one target: a command, -p, -t or -a");
		return -1;
	}
	if (r->system_wide && r->cmd)
		r->cmd = r->cmd;	/* -a with a command: system-wide while it runs */
	if (!r->cmd && !r->pids && !r->tids)
		r->system_wide = true;
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record r = { 0 };
	int ret = 1;
	r.output = "perf.data";
	r.mmap_pages = 128;
	r.argc_all = argc;
	r.argv_all = argv;
	r.child = -1;
	if (parse_args(&r, argc, argv) < 0)
		return 2;

	r.ncpus = cpu_count_possible();
	r.cpus = cpu_online_mask();
	if (r.cpu_list) {
		bool *sel = xcalloc((size_t)r.ncpus, sizeof(bool));
		if (parse_cpu_list(r.cpu_list, sel, r.ncpus) < 0) {
			pr_err("bad CPU list '%s' for -C: expected e.g. 0-1,3 with CPUs below %d",
			       r.cpu_list, r.ncpus);
			free(sel);
			return 2;
		}
		for (int i = 0; i < r.ncpus; i++)
			sel[i] = sel[i] && r.cpus[i];
		free(r.cpus);
		r.cpus = sel;
	}
	if (collect_targets(&r) < 0)
		return 2;

	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct sigaction sc = { .sa_handler = on_sigchld, .sa_flags = SA_NOCLDSTOP };
	sigaction(SIGCHLD, &sc, NULL);

	if (r.cmd && prepare_child(&r) < 0)
		goto out;
	pid_t traced_child = r.child;
	if (r.system_wide)
		r.child = -1;	/* -a CMD: per-CPU events, the command only bounds the time */
	if (setup_events(&r) < 0)
		goto out;
	r.child = traced_child;
	if (r.bpf_object && attach_filter(&r) < 0)
		goto out;

	int err;
	r.w = pd_writer_create(r.output, &err);
	if (!r.w) {
		pr_err("cannot create %s: %s; check the directory and permissions or use -o", r.output,
		       log_strerr(err));
		goto out;
	}
	for (int i = 0; i < r.nevents; i++)
		pd_writer_add_attr(r.w, &r.events[i].attr, r.events[i].name, r.events[i].ids,
				   r.events[i].nids);
	if ((err = pd_writer_begin(r.w))) {
		pr_err("cannot write %s: %s", r.output, log_strerr(err));
		goto out;
	}

	/* State that exists before the recording, as perf synthesizes it. */
	r.synth.emit = emit_record;
	r.synth.ctx = &r;
	r.synth.sample_type = r.events[0].attr.sample_type;
	r.synth.id = r.events[0].nids ? r.events[0].ids[0] : 0;
	if ((err = synth_kernel_mmap(&r.synth)))
		goto write_err;
	if (r.system_wide)
		err = synth_all_processes(&r.synth, r.child);
	else
		for (size_t i = 0; i < r.nthreads && !err; i++) {
			int e2 = synth_process(&r.synth, r.threads[i]);
			err = e2 == -ESRCH ? 0 : e2;
		}
	if (err)
		goto write_err;
	if ((err = synth_bpf_programs(&r.synth)) && err != -EPERM)
		goto write_err;
	pd_writer_commit(r.w);

	/* Go. Per-task events of a workload start at its exec (enable_on_exec);
	 * the side-band event is enabled from its open. */
	if (!r.cmd || r.system_wide)
		for (size_t i = 0; i < r.nfds; i++)
			ioctl(r.fds[i], PERF_EVENT_IOC_ENABLE, 0);
	if (r.cmd && start_child(&r) < 0) {
		ret = 127;
		goto finish;
	}
	uint64_t deadline = r.duration > 0 ? now_ns() + (uint64_t)(r.duration * 1e9) : 0;
	struct pollfd *pfd = xcalloc((size_t)r.nrings, sizeof(*pfd));
	for (int i = 0; i < r.nrings; i++) {
		pfd[i].fd = r.rings[i].fd;
		pfd[i].events = POLLIN;
	}
	int child_status = 0;
	bool child_done = false;
	while (!stop_signal) {
		poll(pfd, (nfds_t)r.nrings, 100);
		if ((err = drain_all(&r)))
			break;
		if (r.child > 0) {
			pid_t w = waitpid(r.child, &child_status, WNOHANG);
			if (w == r.child) {
				child_done = true;
				break;
			}
		}
		if (deadline && now_ns() >= deadline)
			break;
	}
	free(pfd);
	if (err)
		goto write_err;
	if (r.child > 0 && !child_done) {
		kill(r.child, SIGTERM);
		waitpid(r.child, &child_status, 0);
		child_done = true;
	}
	for (size_t i = 0; i < r.nfds; i++)
		ioctl(r.fds[i], PERF_EVENT_IOC_DISABLE, 0);
	if ((err = drain_all(&r)))
		goto write_err;
	if (r.bpf_object) {
		/* The kernel counts filter drops from Linux 6.13 on, but only in
		 * its lost count (with ring buffer losses); a filter that counts
		 * its own drops is exact. */
		int64_t dropped = filter_dropped_global(&r);
		if (dropped < 0) {
			int64_t lost_total = read_lost_samples(&r);
			if (lost_total >= 0)
				dropped = (uint64_t)lost_total > r.lost ? lost_total - (int64_t)r.lost : 0;
		}
		if (dropped >= 0) {
			r.filtered = (uint64_t)dropped;
			/* As perf: a LOST_SAMPLES record marked as BPF drops. */
			struct {
				struct perf_event_header h;
				uint64_t lost;
				uint64_t trailer[8];
			} rec = { 0 };
			rec.h.type = PERF_RECORD_LOST_SAMPLES;
			rec.h.misc = PD_RECORD_MISC_LOST_SAMPLES_BPF;
			rec.h.size = (uint16_t)(sizeof(rec.h) + 8 + r.id_hdr_size);
			rec.lost = r.filtered;
			rec.trailer[r.id_hdr_size / 8 - 1] = r.events[0].nids ? r.events[0].ids[0] : 0;
			if ((err = pd_writer_write(r.w, &rec, rec.h.size)) || (err = pd_writer_commit(r.w)))
				goto write_err;
		} else {
			pr_warn("the number of samples the filter dropped is unknown: this kernel does not "
				"count them and %s has no `__u64 dropped` counter", r.bpf_object);
		}
	}
	ret = 0;
	if (child_done) {
		if (WIFEXITED(child_status))
			ret = WEXITSTATUS(child_status);
		else if (WIFSIGNALED(child_status))
			ret = 128 + WTERMSIG(child_status);
	}
finish:
	add_features(&r);
	if ((err = pd_writer_finish(r.w))) {
		pr_err("cannot finish %s: %s", r.output, log_strerr(err));
		ret = 1;
		goto out;
	}
	{
		double mb = (double)pd_writer_data_size(r.w) / (1024.0 * 1024.0);
		fprintf(stderr, "[ bpfperf record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
			mb, r.output, (unsigned long long)r.samples);
		if (r.bpf_object)
			fprintf(stderr, "[ bpfperf record: the BPF filter %s dropped %llu samples ]\n",
				r.bpf_object, (unsigned long long)r.filtered);
		if (r.lost)
			fprintf(stderr, "[ bpfperf record: LOST %llu samples: the ring buffer was full; "
				"use a larger -m or a lower -F ]\n", (unsigned long long)r.lost);
		if (r.synth.progs_missed)
			pr_info("%llu BPF programs were unloaded before their info could be saved "
				"(their KSYMBOL names are still in the file)",
				(unsigned long long)r.synth.progs_missed);
	}
	goto out;
write_err:
	pr_err("cannot write %s: %s (disk full?)", r.output, log_strerr(err));
	ret = 1;
out:
	if (r.child > 0) {
		kill(r.child, SIGKILL);
		waitpid(r.child, NULL, 0);
	}
	for (int i = 0; i < r.nrings; i++)
		perf_ring_unmap(&r.rings[i]);
	for (size_t i = 0; i < r.nfds; i++)
		close(r.fds[i]);
	free(r.fds);
	free(r.rings);
	free(r.cpus);
	free(r.threads);
	for (int i = 0; i < r.nevents; i++) {
		free(r.events[i].name);
		free(r.events[i].ids);
	}
	synth_free(&r.synth);
	pd_writer_free(r.w);
	free(r.sample_fds);
	free(r.filter_fds);
	if (r.filter)
		bpfobj_close(r.filter);
	return ret;
}
