// SPDX-License-Identifier: GPL-2.0-only
/* A report of a perf.data file: call-graph options, the events picked, the
 * passes and their output, see out/report.h. */
#include "out/report.h"
#include "log.h"
#include "out/ofile.h"
#include "perfdata/decode.h"
#include "perfdata/offcpu.h"
#include "perfdata/reader.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A hint of rp->hints, or none. */
static const char *hint(const char *h)
{
	return h ? h : "";
}

void report_views(struct report *rp, struct hist_opts *ho)
{
	ho->parent_regex = rp->parent_regex;
	ho->sym_filter = rp->sym_filter;
	/* the table and JSON list entries; folded stacks and flame graphs
	 * show whole stacks, so there the filters keep samples by their leaf */
	ho->filter_entries = !rp->folded && !rp->flamegraph;
	ho->hide_unresolved = rp->hide_unresolved;
	ho->filter = hist_filter_active(&rp->filter) ? &rp->filter : NULL;
	ho->relative = rp->percentage == 1;
	rp->po = (struct profile_opts){ .no_demangle = rp->no_demangle, .kallsyms = rp->kallsyms,
					.buildid_dir = rp->buildid_dir, .name = rp->input, .time = rp->time,
					.cpus = rp->cpu_list ? rp->cpus : NULL,
					.ncpus = (int)ARRAY_SIZE(rp->cpus), .max_stack = (unsigned)rp->max_stack,
					.count_records = rp->stats, .tp_names = rp->keys.tp_names,
					.raw_trace = rp->keys.raw_trace };
}

/* perf also takes the mode as the word after its -g. */
bool report_cg_word(const char *w)
{
	static const char *const words[] = { "none", "graph", "caller", "callee", "flat", "fractal",
					     "folded", "function", "address", "percent", "period", "count",
					     "srcline" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strncmp(w, words[i], strlen(words[i])))
			return true;
	return w[0] >= '0' && w[0] <= '9';
}

/* The words in any order; the first number is the threshold, the second
 * the print limit. What we cannot draw is refused by name. */
int report_cg_parse(struct report *rp, const char *arg, char *bad, size_t badlen)
{
	char buf[256];
	int nums = 0;
	uint64_t lim;

	rp->callgraph = 1;
	if (!arg)
		return 0;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		double v;
		if (!strcmp(w, "none"))
			rp->callgraph = 0;
		else if (!strcmp(w, "graph"))
			rp->cg_mode = OUT_CG_GRAPH;
		else if (!strcmp(w, "fractal"))
			rp->cg_mode = OUT_CG_FRACTAL;
		else if (!strcmp(w, "flat"))
			rp->cg_mode = OUT_CG_FLAT;
		else if (!strcmp(w, "folded"))
			rp->cg_mode = OUT_CG_FOLDED;
		else if (!strcmp(w, "percent"))
			rp->cg_value = OUT_CG_PERCENT;
		else if (!strcmp(w, "period"))
			rp->cg_value = OUT_CG_PERIOD;
		else if (!strcmp(w, "count"))
			rp->cg_value = OUT_CG_COUNT;
		else if (!strcmp(w, "function"))
			;
		else if (!strcmp(w, "caller"))
			rp->cg_order = 0;
		else if (!strcmp(w, "callee"))
			rp->cg_order = 1;
		else if (nums == 0 && parse_double(w, &v) && v >= 0 && v <= 100) {
			rp->cg_threshold = v;
			nums++;
		} else if (nums == 1 && parse_u64(w, &lim) && lim <= UINT_MAX) {
			rp->cg_print_limit = (unsigned)lim;
			nums++;
		} else if (!strcmp(w, "address") || !strcmp(w, "srcline") || !strcmp(w, "branch")) {
			snprintf(bad, badlen, "%s", w);
			return -EOPNOTSUPP;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

/* perf files recorded with DWARF call graphs are noted (rp->cg_dwarf). */
int report_cg_resolve(struct report *rp, const struct pd_file *f, struct hist_opts *ho, bool *callgraph)
{
	bool has_callchain = false, dwarf = false;
	for (size_t i = 0; i < pd_nr_events(f); i++) {
		uint64_t st = pd_event_at(f, i)->attr.sample_type;
		has_callchain |= (st & PERF_SAMPLE_CALLCHAIN) != 0;
		dwarf |= (st & (PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_USER)) != 0;
	}
	rp->cg_dwarf = dwarf;
	for (int k = 0; k < ho->nkeys; k++)
		if (ho->keys[k] == SORT_PARENT && !has_callchain)
			return -EINVAL;
	ho->children = rp->children < 0 ? has_callchain : rp->children;
	*callgraph = rp->callgraph < 0 ? has_callchain : rp->callgraph;
	if (*callgraph && !has_callchain && rp->callgraph == 1) {
		rp->cg_missing = true;	/* flat entries */
		*callgraph = false;
	}
	bool caller = rp->inverted || rp->cg_order == 0;
	ho->caller_order = !ho->children && caller;
	ho->callee_children = ho->children && !caller && rp->cg_order == 1;
	/* Call-graph trees are only built for the text output; like perf,
	 * the percent limit also prunes their branches (default 0.5%). */
	bool text = !rp->json && !rp->folded && !rp->flamegraph && !rp->stats && !rp->dump;
	ho->callchains = has_callchain && *callgraph && text;
	rp->cg_limit = rp->cg_threshold >= 0 ? rp->cg_threshold
		       : rp->percent_limit > 0 ? rp->percent_limit : 0.5;
	/* fractal's threshold is relative, and flat and folded show the chains
	 * ending at a node: their trees are built whole and cut when printed */
	ho->callgraph_limit = rp->cg_mode == OUT_CG_GRAPH ? rp->cg_limit : 0;
	ho->skip_children_sums = text;	/* the table shows them with children only */
	return 0;
}

bool report_event_sampled(const struct pd_event *e)
{
	return !pd_event_is_dummy(e);
}

/* Which events get a profile of their own: rp->event's; a block per sampled
 * event in the text output and in JSON ("events"); with folded stacks,
 * every event weighted by period with the off-CPU ones under an [off-cpu]
 * frame when the recording has off-CPU samples. Else one profile of every
 * event (the flame graph, folded stacks). */
int report_pick_events(struct report *rp, const struct pd_file *f, bool text, size_t *idx, size_t *n)
{
	size_t nsampled = 0;
	bool off_cpu = false;
	*n = 0;
	for (size_t i = 0; i < pd_nr_events(f); i++) {
		const struct pd_event *e = pd_event_at(f, i);
		if (rp->event && !strcmp(e->name, rp->event)) {
			idx[(*n)++] = i;
			return 0;
		}
		if (!report_event_sampled(e))
			continue;
		nsampled++;
		off_cpu |= !strcmp(e->name, OFF_CPU_EVENT_NAME);
	}
	if (rp->event) {
		pr_err("%s has no event '%s'; its events:", rp->input, rp->event);
		for (size_t i = 0; i < pd_nr_events(f); i++)
			if (report_event_sampled(pd_event_at(f, i)))
				fprintf(rp->notes, "  %s\n", pd_event_at(f, i)->name);
		return -ENOENT;
	}
	if (nsampled < 2 || !(text || rp->json || ((rp->folded || rp->flamegraph) && off_cpu)))
		return 0;
	for (size_t i = 0; i < pd_nr_events(f) && *n < 64; i++)
		if (report_event_sampled(pd_event_at(f, i)))
			idx[(*n)++] = i;
	return 0;
}

/* A self-contained flame graph page at rp->flamegraph: 0644 (meant to be
 * shared), written whole or not at all. */
static int write_flamegraph(struct report *rp, const struct hist *const *hs, const char *const *roots,
			    size_t n, bool by_period, const struct out_opts *oo)
{
	struct ofile *of;
	if (ofile_open(rp->flamegraph, OFILE_SHARED, 0, &of) < 0)
		return -1;
	int r = n ? out_flamegraph_html_multi(ofile_stream(of), hs, roots, n, by_period, oo)
		  : out_flamegraph_html(ofile_stream(of), rp->p->h, oo);
	if (r < 0 && !ferror(ofile_stream(of))) {
		ofile_abort(of);
		return -1;
	}
	return ofile_close(of) < 0 || r < 0 ? -1 : 0;	/* a write error: named by ofile_close */
}

/* The chosen output of rp->h: flame graph, JSON, folded stacks or the table. */
static int report_write(struct report *rp, bool callgraph)
{
	uint64_t t0 = now_ns();
	struct out_opts oo = {
		.event_name = rp->p->sample_event ? rp->p->sample_event->name : "cpu-clock",
		/* perf counts the filtered samples too, unless relative */
		.total_samples = rp->percentage ? hist_total_samples(rp->p->h)
						: rp->p->samples - hist_hidden_samples(rp->p->h),
		.show_nr_samples = rp->keys.show_nr_samples,
		.show_total_period = rp->keys.show_total_period,
		.fields = rp->keys.ncols ? rp->keys.col_keys : NULL,
		.nfields = rp->keys.ncols,
		.fields_strict = rp->keys.fields_strict,
		.quiet = rp->quiet,
		.graph_skip_sym = rp->keys.sort && !rp->keys.fields && !strncmp(rp->keys.sort, "sym", 3),
		.time_slices = rp->time,
		.elide = { [SORT_COMM] = rp->filter.ncomms == 1 ? rp->filter.comms[0] : NULL,
			   [SORT_DSO] = rp->filter.ndsos == 1 ? rp->filter.dsos[0] : NULL,
			   [SORT_SYM] = rp->filter.nsyms == 1 ? rp->filter.syms[0] : NULL },
		.lost_samples = rp->p->lost,
		.percent_limit = rp->percent_limit,
		.callgraph = callgraph,
		.callgraph_limit = rp->cg_limit,
		.callgraph_mode = rp->cg_mode,
		.callgraph_value = rp->cg_value,
		.callgraph_print_limit = rp->cg_print_limit,
		.title = rp->input,
	};
	int r;
	if (rp->stats) {
		struct out_stats_event ev[PROFILE_MAX_EVENTS];
		size_t nev = 0;
		for (size_t i = 0; i < pd_nr_events(rp->file) && i < PROFILE_MAX_EVENTS; i++)
			ev[nev++] = (struct out_stats_event){ pd_event_at(rp->file, i)->name, rp->p->event_samples[i] };
		r = out_record_stats(rp->out, rp->p->nr_records, PROFILE_RECORD_TYPES, pd_record_type_name, ev, nev);
	} else if (rp->flamegraph) {
		r = write_flamegraph(rp, NULL, NULL, 0, false, &oo);
		if (r == 0)
			fprintf(rp->notes, "flame graph of %llu samples written to %s\n",
				(unsigned long long)rp->p->samples, rp->flamegraph);
	} else if (rp->json) {
		r = out_json(rp->out, rp->p->h, &oo);
	} else if (rp->folded) {
		r = out_folded_ex(rp->out, rp->p->h, &rp->folded_opts);
	} else if (rp->p->samples || !(rp->time || rp->cpu_list)) {
		r = out_table(rp->out, rp->p->h, &oo);
	} else {
		r = 0;	/* perf skips an event whose samples the times or CPUs all dropped */
	}
	pr_debug("report: %.1f ms to write the output", (double)(now_ns() - t0) / 1e6);
	return r < 0 ? -1 : 0;	/* write errors: when the output is closed */
}

/* When the recorded tasks ran: the first and last timed COMM, MMAP, FORK
 * or EXIT record (synthesized ones have no time). */
struct task_span {
	uint64_t first, last;
};

static int note_task_time(void *ctx, const struct pd_record *r)
{
	struct task_span *sp = ctx;
	uint32_t t = r->hdr->type;
	if (!r->s.has_time || !r->s.time ||
	    (t != PERF_RECORD_COMM && t != PERF_RECORD_MMAP && t != PERF_RECORD_MMAP2 &&
	     t != PERF_RECORD_FORK && t != PERF_RECORD_EXIT))
		return 0;
	if (!sp->first || r->s.time < sp->first)
		sp->first = r->s.time;
	if (r->s.time > sp->last)
		sp->last = r->s.time;
	return 0;
}

/* An empty profile says why: how long the recorded tasks ran against the
 * sampling period of the event (a workload killed in its first milliseconds
 * ends before the first sample is due). */
static void explain_no_samples(const struct report *rp, struct pd_file *f, const struct pd_event *e)
{
	struct task_span sp = { 0 };
	char per[96];
	if (pd_process(f, note_task_time, &sp) < 0)
		return;
	if (!e)
		for (size_t i = 0; i < pd_nr_events(f) && !e; i++)
			if (pd_event_at(f, i)->attr.sample_period || pd_event_at(f, i)->attr.freq)
				e = pd_event_at(f, i);
	if (!e || !report_event_sampled(e))
		return;
	double period_ms = 0;
	if (e->attr.freq && e->attr.sample_freq) {
		period_ms = 1000.0 / (double)e->attr.sample_freq;
		snprintf(per, sizeof(per), "one every %.4g ms on CPU at %llu Hz", period_ms,
			 (unsigned long long)e->attr.sample_freq);
	} else {
		snprintf(per, sizeof(per), "one every %llu events",
			 (unsigned long long)e->attr.sample_period);
	}
	if (sp.last == sp.first) {	/* none, or only an exit */
		fprintf(rp->notes, "0 samples of event '%s' in %s: no recorded task was seen running "
			"(the workload was gone before it started, or the targets slept; %s)\n",
			e->name, rp->input, per);
		return;
	}
	double ran = (double)(sp.last - sp.first) / 1e6;
	fprintf(rp->notes, "0 samples of event '%s' in %s: the recorded tasks ran for %.1f ms (first to "
		"last task record)%s (%s); record a longer run%s\n", e->name, rp->input, ran,
		period_ms > ran ? ", less than one sample period" : " and no sample fell in that time",
		per, hint(period_ms ? rp->hints.more_freq : rp->hints.more_period));
}

/* The profile of one event (or of every event), and the notes on the
 * file, which come with the first. */
static int report_one(struct report *rp, bool callgraph, struct pd_file *f, struct profile *p, bool first)
{
	rp->p = p;
	rp->file = f;
	if (report_write(rp, callgraph) < 0)
		return -1;
	if (p->samples == 0 && !p->filtered && !p->lost && !rp->stats && !rp->time && !rp->cpu_list &&
	    !rp->quiet)
		explain_no_samples(rp, f, p->only_event);
	if (first && p->no_task && !rp->stats && !rp->quiet)
		fprintf(rp->notes, "%llu samples have no task (pid -1: the kernel could not name it, e.g. "
			"it was exiting); they are shown as the thread ':-1', as perf does\n",
			(unsigned long long)p->no_task);
	if (first && p->malformed)
		pr_warn("%llu malformed records were skipped, the first a %s record at offset %llu"
			"%s; threads, maps or symbols may be missing from the profile",
			(unsigned long long)p->malformed, pd_record_type_name(p->malformed_type),
			(unsigned long long)p->malformed_offset, hint(rp->hints.malformed));
	if (first && p->filtered && !rp->quiet)
		fprintf(rp->notes, "%llu samples were dropped by the BPF filter%s\n",
			(unsigned long long)p->filtered, hint(rp->hints.filtered));
	if (first && p->lost && !rp->json)
		pr_warn("%llu samples were lost while recording (ring buffer full); the profile is "
			"incomplete%s", (unsigned long long)p->lost, hint(rp->hints.lost));
	return 0;
}

/* Every picked event's profile in one output: JSON (the first event's
 * keys at the top, then "events"), or a flame graph on a recording with
 * off-CPU samples (widths in ns, the off-CPU stacks under an [off-cpu]
 * frame). */
static int report_multi(struct report *rp, struct profile *p, const bool *off_cpu, size_t n)
{
	const struct hist *hs[PROFILE_MAX_EVENTS];
	const char *roots[PROFILE_MAX_EVENTS];
	struct out_opts oo[PROFILE_MAX_EVENTS];
	for (size_t i = 0; i < n; i++) {
		hs[i] = p[i].h;
		roots[i] = off_cpu[i] ? "[off-cpu]" : NULL;
		oo[i] = (struct out_opts){ .event_name = p[i].only_event->name,
					   .total_samples = p[i].samples - hist_hidden_samples(p[i].h),
					   .lost_samples = p[i].lost,
					   .percent_limit = rp->percent_limit, .title = rp->input };
	}
	if (rp->json)
		return out_json_multi(rp->out, hs, oo, n) < 0 ? -1 : 0;	/* write errors: at close */
	int ret = write_flamegraph(rp, hs, roots, n, true, &oo[0]);
	if (ret == 0)
		fprintf(rp->notes, "flame graph of on- and off-CPU time (ns) written to %s\n", rp->flamegraph);
	return ret;
}

/* The events picked, each with its profile, all from one pass over the
 * input (one index, one machine, one decoding of the records). */
int report_passes(struct report *rp, const struct hist_opts *ho, bool callgraph, struct pd_file *f,
		  const size_t *idx, size_t n, bool text)
{
	int ret = 0;
	bool combined = (rp->folded || rp->flamegraph) && n > 1;
	bool off_cpu[PROFILE_MAX_EVENTS];
	const struct pd_event *events[PROFILE_MAX_EVENTS] = { NULL };
	for (size_t i = 0; i < n; i++) {
		events[i] = pd_event_at(f, idx[i]);
		off_cpu[i] = !strcmp(events[i]->name, OFF_CPU_EVENT_NAME);
	}
	size_t np = n ? n : 1;
	struct profile *p = xcalloc(np, sizeof(*p));
	struct profile_opts po = rp->po;
	po.hist = *ho;
	if (profile_build_set(p, np, f, &po, events) < 0) {
		ret = -1;
	} else if ((combined && rp->flamegraph) || (rp->json && n > 1)) {
		ret = report_multi(rp, p, off_cpu, n);
	} else {
		for (size_t i = 0; i < np; i++) {
			/* off-CPU samples weigh their nanoseconds */
			rp->folded_opts = (struct out_folded_opts){
				.by_period = n && (combined || off_cpu[i]),
				.root = n && combined && off_cpu[i] ? "[off-cpu]" : NULL };
			if (i > 0 && text)
				fputs("\n", rp->out);
			if ((ret = report_one(rp, callgraph, f, &p[i], i == 0)) < 0)
				break;
		}
	}
	rp->p = NULL;
	profile_set_free(p, np);
	free(p);
	pd_close(f);
	return ret ? -1 : 0;
}
