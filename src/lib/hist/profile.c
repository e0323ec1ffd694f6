// SPDX-License-Identifier: GPL-2.0-only
/* A profile from a perf.data file: every record decoded (typed decoders),
 * threads, maps and symbols into the machine, samples aggregated into a hist
 * on two threads. See profile.h. */
#include "hist/profile.h"
#include "perfdata/offcpu.h"
#include "off_cpu_data.h"
#include "hist/aggregate.h"
#include "hist/hist.h"
#include "hist/tpkeys.h"
#include "log.h"
#include "perfdata/bpf_info.h"
#include "perfdata/decode.h"
#include "perfdata/reader.h"
#include "sym/machine.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum addr_space profile_addr_space(uint16_t misc)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL: return AS_KERNEL;
	case PERF_RECORD_MISC_USER: return AS_USER;
	case PERF_RECORD_MISC_GUEST_KERNEL: return AS_GUEST_KERNEL;
	case PERF_RECORD_MISC_GUEST_USER: return AS_GUEST_USER;
	default: return AS_UNKNOWN;
	}
}

/* The task state an offcpu-time sample carries in its RAW data (see
 * record/off_cpu.h), as a letter; 0 for other samples. */
static int off_cpu_sample_state(const struct pd_event *ev, const struct pd_sample *s)
{
	struct off_cpu_raw raw;
	if (!s->raw || s->raw_size < sizeof(raw) || strcmp(ev->name, OFF_CPU_EVENT_NAME))
		return 0;
	memcpy(&raw, s->raw, sizeof(raw));
	return off_cpu_state_char(raw.state);
}

/* profile_build_set's pass: the profiles, and which one each of the file's
 * events goes to. */
struct profile_set {
	struct profile *ps;
	size_t n;
	const struct pd_event *ev0;	/* the file's events, ev0[0..nev) */
	size_t nev;
	int16_t *route;			/* event index -> ps index; -1: none */
};

static void on_sample(const struct profile_set *set, const struct pd_record *r)
{
	const struct pd_sample *s = &r->s;
	const struct pd_event *ev = r->event;
	size_t ei = ev ? (size_t)(ev - set->ev0) : SIZE_MAX;
	if (ei >= set->nev || set->route[ei] < 0)
		return;	/* none, a dummy event or one not asked for */
	int k = set->route[ei];
	struct profile *rp = &set->ps[k];
	if ((rp->nranges && time_ranges_skip(rp->ranges, rp->nranges, s->time)) ||
	    (rp->cpus && ((int)s->cpu >= rp->ncpus || !rp->cpus[s->cpu]))) {
		rp->dropped++;
		return;
	}
	if ((int32_t)s->pid == -1)
		rp->no_task++;
	if (!rp->sample_event)
		rp->sample_event = ev;
	struct agg_sample as = {
		.pid = (int)s->pid,
		.tid = (int)s->tid,
		.cpu = (ev->attr.sample_type & PERF_SAMPLE_CPU) ? (int)s->cpu : -1,	/* perf's -1 ("-001") */
		/* Without PERIOD in the samples, every sample weighs the fixed
		 * period (perf -c N); with a frequency it is 1. */
		.period = (ev->attr.sample_type & PERF_SAMPLE_PERIOD) ? s->period
			  : (!ev->attr.freq && ev->attr.sample_period ? ev->attr.sample_period : 1),
		.space = profile_addr_space(r->hdr->misc),
		.callchain = s->callchain,
		.nr_callchain = s->nr_callchain,
		.ip = s->ip,
		.state = off_cpu_sample_state(ev, s),
		.tp = rp->tpk && ev == rp->tp_event ? tpkeys_values(rp->tpk, s->raw, s->raw_size) : NULL,
		.max_frames = rp->max_stack,
		.keep_outer = rp->max_stack_outer,
		.hist = (uint8_t)k,
	};
	agg_add(rp->agg, &as);
	rp->samples++;
}

/* A side-band record the decoders refused: skipped, counted, and the first
 * one named in a warning after the report. */
static void malformed(struct profile *rp, const struct pd_record *r)
{
	if (!rp->malformed++) {
		rp->malformed_type = r->hdr->type;
		rp->malformed_offset = r->offset;
	}
}

static int sideband_mmap(struct machine *m, const struct perf_event_header *h)
{
	bool kernel = profile_addr_space(h->misc) == AS_KERNEL;
	if (h->type == PERF_RECORD_MMAP) {
		struct pd_mmap mm;
		if (pd_decode_mmap(h, h->size, &mm) < 0)
			return -EINVAL;
		/* MMAP records are for executable maps. */
		machine_mmap(m, (int)mm.rec.pid, (int)mm.rec.tid, mm.rec.start, mm.rec.len,
			     mm.rec.pgoff, mm.filename, NULL, 0, PROT_EXEC, kernel);
		return 0;
	}
	struct pd_mmap2 mm;
	if (pd_decode_mmap2(h, h->size, &mm) < 0)
		return -EINVAL;
	bool has_bid = mm.rec.header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID;
	machine_mmap(m, (int)mm.rec.pid, (int)mm.rec.tid, mm.rec.start, mm.rec.len, mm.rec.pgoff,
		     mm.filename, has_bid ? mm.rec.build_id : NULL, has_bid ? mm.rec.build_id_size : 0,
		     mm.rec.prot, kernel);
	return 0;
}

int profile_sideband(struct machine *m, const struct pd_record *r)
{
	const struct perf_event_header *h = r->hdr;
	switch (h->type) {
	case PERF_RECORD_COMM: {
		struct pd_comm c;
		if (pd_decode_comm(h, h->size, &c) < 0)
			return -EINVAL;
		machine_comm(m, (int)c.rec.pid, (int)c.rec.tid, c.comm,
			     h->misc & PERF_RECORD_MISC_COMM_EXEC);
		return 0;
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return sideband_mmap(m, h);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		struct pd_fork fk;
		if (pd_decode_fork(h, h->size, &fk) < 0)
			return -EINVAL;
		if (h->type == PERF_RECORD_FORK)
			machine_fork(m, (int)fk.rec.pid, (int)fk.rec.tid, (int)fk.rec.ppid,
				     (int)fk.rec.ptid);
		else
			machine_exit(m, (int)fk.rec.pid, (int)fk.rec.tid);
		return 0;
	}
	case PERF_RECORD_KSYMBOL: {
		struct pd_ksymbol k;
		if (pd_decode_ksymbol(h, h->size, &k) < 0)
			return -EINVAL;
		machine_ksymbol(m, k.rec.addr, k.rec.len, k.name,
				k.rec.flags & PD_KSYMBOL_FLAGS_UNREGISTER);
		return 0;
	}
	default:
		return 0;
	}
}

/* --stats: records by type, samples by event (counts of the whole file:
 * ps[0] keeps them, share_file_counts gives them to the others). */
static void count_record(struct profile *rp, const struct pd_record *r)
{
	const struct perf_event_header *h = r->hdr;
	if (h->type < PROFILE_RECORD_TYPES)
		rp->nr_records[h->type]++;
	if (h->type == PERF_RECORD_SAMPLE && r->event)
		for (size_t i = 0; i < pd_nr_events(rp->file) && i < PROFILE_MAX_EVENTS; i++)
			if (pd_event_at(rp->file, i) == r->event)
				rp->event_samples[i]++;
}

/* The counts of the file's LOST and LOST_SAMPLES records, into rp (ps[0]). */
static int on_lost(struct profile *rp, const struct perf_event_header *h)
{
	if (h->type == PERF_RECORD_LOST) {
		struct pd_lost l;
		if (pd_decode_lost(h, h->size, &l) < 0)
			return -EINVAL;
		rp->lost += l.rec.lost;
		return 0;
	}
	struct pd_lost_samples l;
	if (pd_decode_lost_samples(h, h->size, &l) < 0)
		return -EINVAL;
	if (h->misc & PD_RECORD_MISC_LOST_SAMPLES_BPF)
		rp->filtered += l.rec.lost;	/* dropped on purpose by a BPF filter */
	else
		rp->lost += l.rec.lost;
	return 0;
}

/* What ps[0] counted of the whole file (lost and filtered samples,
 * malformed records, --stats), given to every profile of the set, as a
 * pass of its own counted them. */
static void share_file_counts(struct profile *ps, size_t n)
{
	for (size_t k = 1; k < n; k++) {
		ps[k].lost = ps[0].lost;
		ps[k].filtered = ps[0].filtered;
		ps[k].malformed = ps[0].malformed;
		ps[k].malformed_type = ps[0].malformed_type;
		ps[k].malformed_offset = ps[0].malformed_offset;
		memcpy(ps[k].nr_records, ps[0].nr_records, sizeof(ps[0].nr_records));
		memcpy(ps[k].event_samples, ps[0].event_samples, sizeof(ps[0].event_samples));
	}
}

static int on_record(void *ctx, const struct pd_record *r)
{
	const struct profile_set *set = ctx;
	const struct perf_event_header *h = r->hdr;

	if (set->ps[0].count_records)
		count_record(&set->ps[0], r);
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		on_sample(set, r);
		return 0;
	case PERF_RECORD_COMM:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_KSYMBOL:
		if (profile_sideband(set->ps[0].m, r) < 0)
			break;
		return 0;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		if (on_lost(&set->ps[0], h) < 0)
			break;
		return 0;
	default:
		return 0;
	}
	malformed(&set->ps[0], r);
	return 0;
}

static int on_first_comm(void *ctx, const struct pd_record *r)
{
	struct profile *rp = ctx;
	struct pd_comm c;
	if (pd_decode_comm(r->hdr, r->hdr->size, &c) == 0)
		machine_comm_first(rp->m, (int)c.rec.pid, (int)c.rec.tid, c.comm);
	return 0;
}

/* HEADER_BUILD_ID: the build-ids of user files, for the maps that have none,
 * and the kernel's (a recording of another kernel takes its symbols from the
 * build-id cache). */
static void on_build_id(void *ctx, uint16_t misc, int32_t pid, const uint8_t *id, size_t idlen,
			const char *name)
{
	(void)pid;
	uint16_t mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (mode == PERF_RECORD_MISC_USER || mode == PERF_RECORD_MISC_KERNEL)
		machine_dso_header(ctx, name, mode == PERF_RECORD_MISC_KERNEL);
	if (mode == PERF_RECORD_MISC_USER ||
	    (mode == PERF_RECORD_MISC_KERNEL && !strcmp(name, "[kernel.kallsyms]")))
		machine_build_id(ctx, name, id, idlen);
}

struct time_bounds {
	uint64_t first, last;
	bool any;
};

static int on_sample_time(void *ctx, const struct pd_record *r)
{
	struct time_bounds *b = ctx;
	if (!r->s.has_time)
		return 0;
	if (!b->any || r->s.time < b->first)
		b->first = r->s.time;
	if (!b->any || r->s.time > b->last)
		b->last = r->s.time;
	b->any = true;
	return 0;
}

/* The time ranges of o->time: percent slices are of the span from the
 * first sample to the last (the SAMPLE_TIME header feature perf record
 * writes, else a pass over the samples). */
static int parse_time_ranges(struct profile *rp, struct pd_file *f, const struct profile_opts *o)
{
	char err[512];
	struct time_bounds b = { 0 };
	size_t len;
	const void *st = pd_feature(f, PD_FEAT_SAMPLE_TIME, &len);

	if (!o->time)
		return 0;
	if (time_ranges_need_bounds(o->time)) {
		if (st && len >= 16) {
			memcpy(&b.first, st, 8);
			memcpy(&b.last, (const char *)st + 8, 8);
			b.any = b.first || b.last;
		}
		if (!b.any && pd_process_type(f, PERF_RECORD_SAMPLE, on_sample_time, &b) < 0)
			return -EINVAL;	/* the reader said why */
		if (!b.any) {
			pr_err("%s: the samples carry no time, so no time range can select them; "
			       "record with timestamps (perf record -T, or bpfperf record)", o->name);
			return -EINVAL;
		}
	}
	int n = time_ranges_parse(o->time, b.first, b.last, &rp->ranges, err, sizeof(err));
	if (n < 0) {
		pr_err("invalid time range '%s': %s", o->time, err);
		return -EINVAL;
	}
	rp->nranges = (size_t)n;
	return 0;
}

static void on_bpf_prog(void *ctx, const struct bpf_prog_info *info)
{
	machine_bpf_prog_info(ctx, info);
}

struct machine *profile_machine_new(const struct pd_file *f, const struct profile_opts *o)
{
	struct machine_opts mo = { .no_demangle = o->no_demangle, .live = true,
				   .kallsyms = o->kallsyms, .buildid_dir = o->buildid_dir };
	struct machine *m = machine_new(&mo);
	/* The idle task has no COMM record; perf calls it swapper. */
	machine_comm(m, 0, 0, "swapper", false);
	size_t flen;
	const void *feat = pd_feature(f, PD_FEAT_BUILD_ID, &flen);
	if (feat && pd_build_ids_decode(feat, flen, on_build_id, m) < 0)
		pr_warn("%s: the build-id section is malformed; files rebuilt since the recording "
			"may show wrong symbols", o->name);
	feat = pd_feature(f, PD_FEAT_BPF_PROG_INFO, &flen);
	if (feat && pd_bpf_progs_decode(feat, flen, on_bpf_prog, m) < 0)
		pr_warn("%s: the BPF program info section is malformed; BPF programs are named from "
			"KSYMBOL records only", o->name);
	return m;
}

/* Tracepoint keys: expanded for the event of the pass, from the file's
 * formats (kept until profile_free: the hist's column names are theirs). */
static void setup_tp_keys(struct profile *rp, const struct pd_file *f, const struct profile_opts *o,
			  struct hist_opts *ho)
{
	bool any = false;
	for (int k = 0; k < ho->nkeys; k++)
		any |= sort_key_is_tp(ho->keys[k]);
	if (!any || !o->tp_names)
		return;
	const struct pd_event *ev = o->only_event;
	for (size_t i = 0; !ev && i < pd_nr_events(f); i++) {
		const struct pd_event *e = pd_event_at(f, i);
		if (!pd_event_is_dummy(e))
			ev = e;
	}
	const struct tp_formats *fs = o->tp_formats;
	if (!fs) {
		size_t len;
		const void *td = pd_feature(f, PD_FEAT_TRACING_DATA, &len);
		rp->tp_formats = xcalloc(1, sizeof(*rp->tp_formats));
		tp_formats_load(rp->tp_formats, td, td ? len : 0);
		fs = rp->tp_formats;
	}
	const struct tp_format *fmt = ev && ev->attr.type == PERF_TYPE_TRACEPOINT
				      ? tp_formats_by_id(fs, ev->attr.config) : NULL;
	struct tpkey tk[HIST_TP_MAX];
	int n = tpkeys_expand(ho->keys, ho->nkeys, o->tp_names, ev ? ev->name : NULL, fmt, o->raw_trace, ho, tk);
	if (n) {
		rp->tpk = tpkeys_new(tk, n, o->raw_trace);
		rp->tp_event = ev;
	}
}

static uint32_t dso_rank_of(const void *m, const char *dso)
{
	return machine_dso_rank(m, dso);
}

static const char *thread_comm_of(void *m, int tid)
{
	return machine_thread_comm(m, tid);
}

/* ps[k]'s own part: its options (tracepoint keys for its event) and hist. */
static void profile_init(struct profile *rp, struct pd_file *f, const struct profile_opts *o,
			 const struct pd_event *only_event, struct machine *m)
{
	memset(rp, 0, sizeof(*rp));
	struct profile_opts oe = *o;
	oe.only_event = only_event;
	rp->m = m;
	struct hist_opts ho = o->hist;
	setup_tp_keys(rp, f, &oe, &ho);
	rp->h = hist_new(&ho);
	rp->only_event = only_event;
	rp->file = f;
	rp->cpus = o->cpus;
	rp->ncpus = o->ncpus;
	rp->count_records = o->count_records;
	rp->max_stack = o->max_stack;
	/* perf resolves call graphs in its display order: caller order
	 * (children, -G) keeps the outermost frames */
	rp->max_stack_outer = hist_outer_first(&o->hist);
}

/* Which profile each of the file's events goes to (-1: none). */
static int16_t *route_events(const struct pd_file *f, size_t n, const struct pd_event *const *events)
{
	size_t nev = pd_nr_events(f);
	int16_t *route = xmalloc((nev ? nev : 1) * sizeof(*route));
	for (size_t i = 0; i < nev; i++) {
		const struct pd_event *e = pd_event_at(f, i);
		route[i] = -1;
		if (pd_event_is_dummy(e))
			continue;
		for (size_t k = 0; k < n && route[i] < 0; k++)
			if (events[k] == e || (n == 1 && !events[0]))
				route[i] = (int16_t)k;
	}
	return route;
}

int profile_build_set(struct profile *ps, size_t n, struct pd_file *f, const struct profile_opts *o,
		      const struct pd_event *const *events)
{
	struct machine *m = profile_machine_new(f, o);
	struct hist *hs[PROFILE_MAX_EVENTS];
	for (size_t k = 0; k < n; k++) {
		profile_init(&ps[k], f, o, events[k], m);
		ps[k].shares = k > 0;
		hs[k] = ps[k].h;
	}
	struct profile *rp = &ps[0];

	/* The aggregation thread reads kallsyms while the records are validated
	 * and ordered, then fills the hists while this thread decodes samples and
	 * resolves user space; kernel addresses go to whichever thread is less
	 * busy (see agg_add). */
	uint64_t t_start = now_ns();
	rp->agg = agg_new(m, hs, n, true);
	for (size_t k = 1; k < n; k++)
		ps[k].agg = rp->agg;
	int err = pd_index(f);	/* the reader logs what is wrong */
	if (err < 0)
		return err;

	if (parse_time_ranges(rp, f, o) < 0)
		return -EINVAL;
	for (size_t k = 1; k < n; k++) {
		ps[k].ranges = rp->ranges;
		ps[k].nranges = rp->nranges;
	}
	uint64_t t_indexed = now_ns();
	struct profile_set set = { .ps = ps, .n = n, .ev0 = pd_nr_events(f) ? pd_event_at(f, 0) : NULL,
				   .nev = pd_nr_events(f), .route = route_events(f, n, events) };
	if ((err = pd_process_type(f, PERF_RECORD_COMM, on_first_comm, rp)) >= 0)
		err = pd_process(f, on_record, &set);
	free(set.route);
	if (err < 0)
		return err;
	share_file_counts(ps, n);
	uint64_t t_decoded = now_ns();
	agg_finish(rp->agg);
	uint64_t t_joined = now_ns();
	for (size_t k = 0; k < n; k++) {
		hist_dso_order(ps[k].h, dso_rank_of, m);
		hist_finish(ps[k].h);
		hist_thread_comms(ps[k].h, thread_comm_of, m);
	}
	pr_debug("profile: %.1f ms to index the records, %.1f ms to decode them, %.1f ms more for "
		 "the aggregation thread, %.1f ms to finish %zu hist%s",
		 (double)(t_indexed - t_start) / 1e6, (double)(t_decoded - t_indexed) / 1e6,
		 (double)(t_joined - t_decoded) / 1e6, (double)(now_ns() - t_joined) / 1e6, n,
		 n == 1 ? "" : "s");
	return 0;
}

int profile_build(struct profile *rp, struct pd_file *f, const struct profile_opts *o)
{
	return profile_build_set(rp, 1, f, o, &o->only_event);
}

void profile_free(struct profile *p)
{
	if (!p->shares) {
		agg_free(p->agg);
		free(p->ranges);
	}
	hist_free(p->h);
	if (!p->shares)
		machine_free(p->m);
	tpkeys_free(p->tpk);
	p->tpk = NULL;
	if (p->tp_formats)
		tp_formats_free(p->tp_formats);
	free(p->tp_formats);
	p->tp_formats = NULL;
	p->ranges = NULL;
	p->nranges = 0;
	p->agg = NULL;
	p->h = NULL;
	p->m = NULL;
}

/* The aggregator (ps[0]'s) stops first: it may still be filling every
 * hist; the hists hold the machine's strings, so ps[0], which owns it, is
 * freed last. */
void profile_set_free(struct profile *ps, size_t n)
{
	if (!n)
		return;
	agg_free(ps[0].agg);
	for (size_t k = 0; k < n; k++)
		ps[k].agg = NULL;
	for (size_t k = n; k-- > 0;)
		profile_free(&ps[k]);
}
