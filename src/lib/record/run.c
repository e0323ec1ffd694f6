// SPDX-License-Identifier: GPL-2.0-only
/* What runs around a recording in bpfperf record, see record/run.h. */
#include "record/run.h"
#include "feat/sample_filter.h"
#include "log.h"
#include "record/filter.h"
#include "record/off_cpu.h"
#include "skel/skel.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

unsigned record_kernel_max_stack(void)
{
	char buf[32] = "";
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	uint64_t v = 127;
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
		if (!parse_u64(buf, &v))
			v = 127;
	}
	return (unsigned)v;
}

uint64_t record_max_sample_rate(void)
{
	char *s = read_file("/proc/sys/kernel/perf_event_max_sample_rate", NULL);
	uint64_t freq = s ? strtoull(s, NULL, 10) : RECORDING_DEFAULT_FREQ;
	free(s);
	return freq;
}

int record_clockid(const char *name, int *id)
{
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	const char *a = !strncasecmp(name, "CLOCK_", 6) ? name + 6 : name;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(a, clocks[i].name)) {
			*id = clocks[i].id;
			return 0;
		}
	uint64_t v;
	if (parse_u64(name, &v) && v < 64) {
		*id = (int)v;
		return 0;
	}
	return -EINVAL;
}

void record_session_free(struct record_session *s)
{
	recording_close(s->rec);
	record_filter_free(s->filter);
	sample_filter_free(s->sf);
	record_off_cpu_free(s->oc);
	if (s->cgroup_fd >= 0)
		close(s->cgroup_fd);
	for (size_t i = 0; s->filter_texts && i < s->nr_filter_texts; i++)
		free(s->filter_texts[i]);
	free(s->filter_texts);
	workload_destroy(&s->wl);
	free(s->cpus);
	free(s->threads);
}

int record_run(struct recording *rec, struct workload *wl, const struct target *t, double duration,
	       struct recording_stats *st, int *status)
{
	int err;
	*status = 0;
	recording_enable(rec);
	/* A stop signal while setting up: the workload is not released; the
	 * stop loop ends it at once. */
	if (wl->pid > 0 && !stop_signal_received() && (err = workload_start(wl)) < 0) {
		*status = workload_failed_status(err);
	} else {
		struct stop_loop loop = {
			.wl = wl->pid > 0 ? wl : NULL,
			.target = t,
			.duration = duration,
			.poll = recording_poll,
			.ctx = rec,
		};
		if (stop_loop_run(&loop) == STOP_ERROR)
			return loop.err < 0 ? loop.err : -EIO;	/* the write error is reported */
		*status = workload_exit_status(wl);
	}
	if ((err = recording_stop(rec)) || (err = recording_finish(rec, st)))
		return err < 0 ? err : -EIO;
	return 0;
}

/* A name of the caller's, or none. */
static const char *word(const char *w)
{
	return w ? w : "";
}

/* What each BPF filter dropped: the same line for a BPF object and a sample filter. */
static void print_filter_drops(FILE *f, const char *filter, const char *event, uint64_t dropped)
{
	fprintf(f, "[ bpfperf record: the BPF filter %s%s%s dropped %llu samples ]\n", filter,
		event ? " on " : "", event ? event : "", (unsigned long long)dropped);
}

/* An empty profile is explained: how long the workload ran and on CPU,
 * against the sampling period (a workload killed in its first milliseconds
 * is over before the first sample is due). */
static void explain_no_samples(FILE *f, const struct record_summary *s, const struct workload *wl)
{
	char per[96];
	double period_ms = s->period ? 0 : 1000.0 / (double)(s->freq ? s->freq : RECORDING_DEFAULT_FREQ);
	if (s->period)
		snprintf(per, sizeof(per), "one sample every %llu events at %s %llu",
			 (unsigned long long)s->period, word(s->period_name), (unsigned long long)s->period);
	else
		snprintf(per, sizeof(per), "one sample every %.4g ms on CPU at %s %llu", period_ms,
			 word(s->freq_name), (unsigned long long)(s->freq ? s->freq : RECORDING_DEFAULT_FREQ));
	if (!wl->pid || !wl->reaped || !wl->start_ns) {
		fprintf(f, "[ bpfperf record: 0 samples: the targets did not run long enough "
			"on a CPU while recording (%s) ]\n", per);
		return;
	}
	double ran = (double)(wl->end_ns - wl->start_ns) / 1e6, cpu = (double)wl->cpu_ns / 1e6;
	char how[64] = "";
	if (WIFSIGNALED(wl->status))
		snprintf(how, sizeof(how), "; it was killed by signal %d (%s)", WTERMSIG(wl->status),
			 strsignal(WTERMSIG(wl->status)));
	bool short_run = !s->period && cpu < period_ms;
	fprintf(f, "[ bpfperf record: 0 samples: the workload ran for %.1f ms and used %.1f ms "
		"of CPU, %s (%s)%s ]\n", ran, cpu,
		short_run ? "less than one sample period" : "and no sample fell in that time", per, how);
}

void record_summary(FILE *f, const struct record_summary *s)
{
	const struct recording_stats *st = s->st;
	double mb = (double)st->data_bytes / (1024.0 * 1024.0);
	fprintf(f, "[ bpfperf record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb,
		strcmp(s->output, "-") ? s->output : "to the standard output",
		(unsigned long long)st->samples);
	if (st->samples == 0 && !s->filter && !s->sf)
		explain_no_samples(f, s, s->wl);
	if (s->oc)
		record_off_cpu_summary(s->oc, f);
	if (s->filter) {
		uint64_t dropped;
		record_filter_dropped(s->filter, &dropped);
		print_filter_drops(f, s->bpf_object, NULL, dropped);
	}
	for (size_t i = 0; s->sf && i < sample_filter_count(s->sf); i++) {
		struct sample_filter_result r;
		sample_filter_result(s->sf, i, &r);
		char *q = xasprintf("'%s'", r.text);
		print_filter_drops(f, q, recording_nr_events(s->rec) > 2 ? recording_event_name(s->rec, r.event)
									 : NULL, r.dropped);
		free(q);
	}
	if (st->lost)
		fprintf(f, "[ bpfperf record: LOST %llu samples: the ring buffer was full%s ]\n",
			(unsigned long long)st->lost, word(s->lost_hint));
	if (st->bpf_progs_missed)
		pr_info("%llu BPF programs were unloaded before their info could be saved "
			"(their KSYMBOL names are still in the file)",
			(unsigned long long)st->bpf_progs_missed);
}
