// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf report: read a perf.data file (ours or perf's), symbolize in
 * process and print the profile as perf does, or as JSON, folded stacks or a
 * flame graph. */
#include "cmds.h"
#include "cli.h"
#include "hist/filter.h"
#include "hist/profile.h"
#include "hist/tpkeys.h"
#include "log.h"
#include "out/ofile.h"
#include "out/dump.h"
#include "out/header.h"
#include "out/out.h"
#include "perfdata/decode.h"
#include "perfdata/reader.h"
#include "perfdata/offcpu.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct report {
	const char *input;
	int input_fd;		/* -i -: the standard input as a file, else -1 */
	const char *sort;
	int children;		/* -1 = default (children when callchains exist) */
	int callgraph;		/* -1 = default (when callchains exist) */
	double percent_limit;
	bool json, folded;
	const char *flamegraph;
	const char *output;
	bool no_demangle;
	const char *kallsyms;	/* --kallsyms: this file, not the build-id cache copy */
	const char *event;	/* --event: only this event's samples */
	bool force;		/* -f: read a file another user owns */
	FILE *out;		/* -o FILE or standard output, opened once for every pass */
	bool header, header_only, show_info;
	const char *buildid_dir;
	struct profile p;
	struct out_folded_opts folded_opts;
	/* views */
	struct hist_filter filter;	/* --comm, --pid, --tid, --dsos, --symbols */
	const char *cpu_list;		/* --cpu */
	bool cpus[4096];
	const char *time;		/* --time */
	bool show_nr_samples;		/* -n */
	bool show_total_period;		/* --show-total-period */
	bool quiet;			/* -q */
	bool hide_unresolved;		/* --hide-unresolved */
	const char *sym_filter;		/* --symbol-filter */
	const char *fields;		/* -F */
	bool fields_strict;		/* -F without '+': perf's strict field order */
	const char *parent_regex;	/* -p */
	enum sort_key field_keys[SORT__MAX];
	int nfields;
	enum sort_key col_keys[2 * SORT__MAX];	/* the columns before the sort keys (resolve_order) */
	int ncols;
	char *tp_names[TPKEYS_MAX_NAMES];	/* --sort's tracepoint keys (SORT_TP0 + j) */
	struct tp_formats tp_formats;		/* the file's, loaded once for them */
	int ntp_names;
	bool raw_trace;			/* --raw-trace */
	int percentage;			/* 0 absolute, 1 relative */
	bool stats;			/* --stats */
	bool dump;			/* -D */
	uint64_t max_stack;		/* --max-stack, 0: all */
	bool inverted;			/* -G */
	double cg_threshold;		/* -g's percent, < 0: default */
	double cg_limit;		/* the call graphs' threshold in effect (percent) */
	int cg_order;			/* -g's caller (0) / callee (1); -1: default */
	enum out_cg_mode cg_mode;	/* -g's graph, fractal, flat or folded */
	enum out_cg_value cg_value;	/* -g's percent, period or count */
	unsigned cg_print_limit;	/* -g's second number (0: all) */
	struct profile_opts po;		/* what every pass shares (views, symbols) */
	const struct pd_file *file;	/* of the current pass */
};

/* -g [none|graph|caller...]: perf also takes the mode as the next word. */
static bool callgraph_word(const char *w)
{
	static const char *const words[] = { "none", "graph", "caller", "callee", "flat", "fractal",
					     "folded", "function", "address", "percent", "period", "count",
					     "srcline" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strncmp(w, words[i], strlen(words[i])))
			return true;
	return w[0] >= '0' && w[0] <= '9';
}

/* perf's -g TYPE,MIN_PERCENT[,PRINT_LIMIT],ORDER,KEY[,branch],VALUE: the
 * words in any order; the first number is the threshold, the second the
 * print limit. What we cannot draw is refused by name. */
static const char *parse_callgraph(const char *arg, void *dst)
{
	struct report *rp = dst;
	char buf[256];
	int nums = 0;
	uint64_t lim;

	rp->callgraph = 1;
	if (!arg)
		return NULL;
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
			pr_err("invalid -g/--call-graph '%s': '%s' is not supported; call graphs are keyed "
			       "by function (-g graph,0.5,caller,function)", arg, w);
			return CLI_REPORTED;
		} else {
			return "graph, fractal, flat, folded or none; a threshold percentage and a print "
			       "limit; caller or callee; percent, period or count; comma-separated "
			       "(e.g. graph,0.5,caller)";
		}
	}
	return NULL;
}

static const char *add_comms(const char *arg, void *dst)
{
	return hist_filter_add_comms(dst, arg) < 0 ? "command names separated by commas" : NULL;
}

static const char *add_dsos(const char *arg, void *dst)
{
	return hist_filter_add_dsos(dst, arg) < 0 ? "shared object names separated by commas" : NULL;
}

static const char *add_syms(const char *arg, void *dst)
{
	return hist_filter_add_syms(dst, arg) < 0 ? "symbol names separated by commas" : NULL;
}

static const char *add_pids(const char *arg, void *dst)
{
	char err[256];
	return hist_filter_add_pids(dst, arg, err, sizeof(err)) < 0 ? "process ids separated by commas" : NULL;
}

static const char *add_tids(const char *arg, void *dst)
{
	char err[256];
	return hist_filter_add_tids(dst, arg, err, sizeof(err)) < 0 ? "thread ids separated by commas" : NULL;
}

static const char *parse_percent(const char *arg, void *dst)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", arg);
	buf[strcspn(buf, "%")] = '\0';
	double *p = dst;
	if (!parse_double(buf, p) || !(*p >= 0) || *p > 100)
		return "a percentage from 0 to 100";
	return NULL;
}

/* --children / --no-children: the last one given wins, as in perf. */
static const char *set_children(const char *arg, void *dst)
{
	(void)arg;
	*(int *)dst = 1;
	return NULL;
}

static const char *set_no_children(const char *arg, void *dst)
{
	(void)arg;
	*(int *)dst = 0;
	return NULL;
}

static const char *const percentage_choices[] = { "absolute", "relative", NULL };

static int parse_args(struct report *rp, int argc, char **argv)
{
	bool stdio_ignored = false;
	const struct cli_opt opts[] = {
		CLI_STR('i', "input", "FILE", "perf.data from bpfperf record or perf record (default perf.data)",
			&rp->input),
		CLI_STR('s', "sort", "KEYS", "comma-separated: comm,pid,tid,dso,sym,cpu,state,parent,srcline\n"
			"(default comm,dso,sym; state: S, D or I of off-CPU samples;\nparent: see -p; srcline: "
			"file:line from DWARF), the\ncolumns period and sample; on tracepoint events: trace\n"
			"(the formatted line, the default when every event is a\ntracepoint), trace_fields, "
			"or a field: FIELD or\nSYS:EVENT.FIELD",
			&rp->sort),
		CLI_FLAG(0, "raw-trace", "tracepoint keys show the fields' raw values, not the\n"
			 "print format's", &rp->raw_trace),
		CLI_STR('F', "fields", "FIELDS", "these columns first: overhead, overhead_children, sample,\n"
			"period and sort keys, then the --sort keys not among them;\nthey sort after "
			"the --sort keys (without --sort: they alone);\n+FIELDS: after the default columns",
			&rp->fields),
		CLI_FLAG('n', "show-nr-samples", "a Samples column", &rp->show_nr_samples),
		CLI_FLAG(0, "show-total-period", "a Period column", &rp->show_total_period),
		CLI_FLAG('q', "quiet", "the entries only: no header lines, no warnings", &rp->quiet),
		CLI_FLAG(0, "hide-unresolved", "leave out the samples whose address has no symbol\n"
			 "(from the totals too)", &rp->hide_unresolved),
		CLI_STR(0, "symbol-filter", "STR", "only the entries whose symbol contains STR",
			&rp->sym_filter),
		CLI_STR('p', "parent", "REGEX", "the sort key parent: the first frame matching REGEX\n"
			"(default ^sys_|^do_page_fault)", &rp->parent_regex),
		CLI_CALL(0, "comm", "COMMS", "only the samples of these commands (comma-separated)", &rp->filter,
			 add_comms),
		CLI_CALL(0, "pid", "PIDS", "only the samples of these processes", &rp->filter, add_pids),
		CLI_CALL(0, "tid", "TIDS", "only the samples of these threads", &rp->filter, add_tids),
		CLI_CALL('d', "dsos", "DSOS", "only the samples in these shared objects (names as shown)",
			 &rp->filter, add_dsos),
		CLI_CALL('S', "symbols", "SYMS", "only the samples in these symbols", &rp->filter, add_syms),
		CLI_STR('C', "cpu", "CPUS", "only the samples of these CPUs (e.g. 0-1,3)", &rp->cpu_list),
		CLI_STR(0, "time", "RANGES", "only the samples in these times: START,STOP in seconds (either\n"
			"may be empty), several separated by spaces; or percent\nslices: 10%/2 (the second tenth), "
			"0%-10%,30%-40%", &rp->time),
		CLI_CHOICE(0, "percentage", "absolute|relative", "percentages of every sample (default) or of\n"
			   "those --comm/--pid/--tid/--dsos/--symbols keep", &rp->percentage, percentage_choices),
		CLI_FLAG(0, "stats", "only the counts of the file's records, by type", &rp->stats),
		CLI_FLAG('D', "dump-raw-trace", "every record, one line each, as perf report -D starts them",
			 &rp->dump),
		CLI_CALL(0, "children", NULL, "accumulate callees' time into callers (default with call graphs)",
			 &rp->children, set_children),
		CLI_CALL(0, "no-children", NULL, "self time only", &rp->children, set_no_children),
		{ .kind = CLI_K_CALL, .short_name = 'g', .long_name = "call-graph", .arg_name = "MODE",
		  .optional_arg = true, .help = "call graphs under entries (default when recorded with -g):\n"
		  "none, or MODE[,THRESHOLD%[,PRINT_LIMIT]][,caller|callee]\n[,percent|period|count]; MODE: graph, "
		  "fractal, flat\nor folded (default graph,0.5,percent; caller with\n--children, else callee)",
		  .dst = rp, .cb = parse_callgraph, .accepts = callgraph_word },
		CLI_FLAG('G', "inverted", "call graphs from the outermost caller (-g caller)", &rp->inverted),
		CLI_U64(0, "max-stack", "N", "use at most N frames of each call chain (in caller order the outermost)",
			&rp->max_stack, 1, 65535, "a number of frames from 1 to 65535"),
		CLI_CALL(0, "percent-limit", "P", "hide entries below P percent", &rp->percent_limit,
			 parse_percent),
		CLI_FLAG(0, "json", "JSON: total_samples, lost_samples, entries", &rp->json),
		CLI_FLAG(0, "folded", "folded stacks: comm;outer;...;inner count", &rp->folded),
		CLI_STR(0, "flamegraph", "FILE", "write a self-contained flame graph HTML page", &rp->flamegraph),
		CLI_STR('o', "output", "FILE", "write to FILE instead of standard output", &rp->output),
		CLI_FLAG(0, "no-demangle", "keep C++ symbols mangled", &rp->no_demangle),
		CLI_STR(0, "kallsyms", "FILE", "kernel symbols from FILE (default: the copy perf record\n"
			"keeps in ~/.debug when it matches the running kernel,\nelse /proc/kallsyms)", &rp->kallsyms),
		CLI_STR(0, "event", "NAME", "only the samples of event NAME (e.g. offcpu-time); default: a\n"
			"block per event in the text output, and with --folded on a\n"
			"recording with off-CPU samples both in one picture (ns)", &rp->event),
		CLI_FLAG('f', "force", "read FILE even when another user owns it (as perf, refused by\n"
			 "default: its contents are not trusted)", &rp->force),
		CLI_FLAG(0, "header", "print the file's header and feature sections first (as perf)",
			 &rp->header),
		CLI_FLAG(0, "header-only", "print the header and feature sections only", &rp->header_only),
		CLI_FLAG('I', "show-info", "with --header: also the CPU/NUMA/memory topology and caches",
			 &rp->show_info),
		CLI_STR(0, "buildid-dir", "DIR", "build-id cache: files recorded are looked up there first by\n"
			"build-id (default $PERF_BUILDID_DIR, else ~/.debug)", &rp->buildid_dir),
		CLI_FLAG(0, "stdio", "accepted for perf compatibility (text is the default)", &stdio_ignored),
		CLI_END,
	};
	const struct cli_cmd cmd = {
		.name = "report",
		.synopsis = "[-i FILE] [--header | --header-only [-I]] [--sort KEYS] [-F FIELDS] [-n]\n"
			    "                      [--children | --no-children]\n"
			    "                      [-g [none|graph|fractal|flat|folded,0.5,caller|callee]] [-G]\n"
			    "                      [--max-stack N]\n"
			    "                      [--comm C] [--pid P] [--tid T] [--dsos D] [-S SYMS] [--cpu CPUS]\n"
			    "                      [--time RANGES] [--percentage absolute|relative]\n"
			    "                      [--percent-limit P] [--json | --folded | --flamegraph FILE.html]\n"
			    "                      [--stats | -D] [-o FILE] [-f]",
		.opts = opts,
		.positional = CLI_POS_NONE,
	};
	struct cli_args args;
	int rc = cli_parse(&cmd, argc, argv, &args);
	if (rc != CLI_OK)
		return rc;
	cli_args_free(&args);
	if (rp->json + rp->folded + (rp->flamegraph != NULL) > 1) {
		pr_err("choose one of --json, --folded and --flamegraph");
		return CLI_USAGE_ERROR;
	}
	if (rp->header && (rp->json || rp->folded) && !rp->output) {
		pr_err("--header prints text before the report: not with --json or --folded on "
		       "standard output; use --header-only, or -o FILE for the report");
		return CLI_USAGE_ERROR;
	}
	return CLI_OK;
}

/* The input, refused like perf does when another user owns it, unless -f.
 * The first open of a run says when -f let such a file through. Each pass
 * opens it again. */
static struct pd_file *open_input(const struct report *rp, bool first)
{
	char err[1024];
	long owner = -1;
	/* -i - reads the standard input once (pd_stdin_file), the passes map that file */
	struct pd_file *f = rp->input_fd >= 0 ? pd_open_fd(rp->input_fd, "standard input", err, sizeof(err))
					     : pd_open_owned(rp->input, rp->force, &owner, err, sizeof(err));
	if (!f) {
		pr_err("%s%s", err, owner >= 0 ? "; check where it came from, or use -f to read it anyway" : "");
		return NULL;
	}
	if (owner >= 0 && first)
		pr_warn("reading %s although uid %ld owns it, as -f asks", rp->input, owner);
	return f;
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
		  : out_flamegraph_html(ofile_stream(of), rp->p.h, oo);
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
		.event_name = rp->p.sample_event ? rp->p.sample_event->name : "cpu-clock",
		/* perf counts the filtered samples too, unless relative */
		.total_samples = rp->percentage ? hist_total_samples(rp->p.h)
						: rp->p.samples - hist_hidden_samples(rp->p.h),
		.show_nr_samples = rp->show_nr_samples,
		.show_total_period = rp->show_total_period,
		.fields = rp->ncols ? rp->col_keys : NULL,
		.nfields = rp->ncols,
		.fields_strict = rp->fields_strict,
		.quiet = rp->quiet,
		.graph_skip_sym = rp->sort && !rp->fields && !strncmp(rp->sort, "sym", 3),
		.time_slices = rp->time,
		.elide = { [SORT_COMM] = rp->filter.ncomms == 1 ? rp->filter.comms[0] : NULL,
			   [SORT_DSO] = rp->filter.ndsos == 1 ? rp->filter.dsos[0] : NULL,
			   [SORT_SYM] = rp->filter.nsyms == 1 ? rp->filter.syms[0] : NULL },
		.lost_samples = rp->p.lost,
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
			ev[nev++] = (struct out_stats_event){ pd_event_at(rp->file, i)->name, rp->p.event_samples[i] };
		r = out_record_stats(rp->out, rp->p.nr_records, PROFILE_RECORD_TYPES, pd_record_type_name, ev, nev);
	} else if (rp->flamegraph) {
		r = write_flamegraph(rp, NULL, NULL, 0, false, &oo);
		if (r == 0)
			fprintf(stderr, "flame graph of %llu samples written to %s\n",
				(unsigned long long)rp->p.samples, rp->flamegraph);
	} else if (rp->json) {
		r = out_json(rp->out, rp->p.h, &oo);
	} else if (rp->folded) {
		r = out_folded_ex(rp->out, rp->p.h, &rp->folded_opts);
	} else if (rp->p.samples || !(rp->time || rp->cpu_list)) {
		r = out_table(rp->out, rp->p.h, &oo);
	} else {
		r = 0;	/* perf skips an event whose samples --time/--cpu all dropped */
	}
	pr_debug("report: %.1f ms to write the output", (double)(now_ns() - t0) / 1e6);
	return r < 0 ? -1 : 0;	/* write errors: when the output is closed */
}

static bool is_sampled(const struct pd_event *e);

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
	char err[256], per[96];
	if (pd_process(f, note_task_time, &sp, err, sizeof(err)) < 0)
		return;
	if (!e)
		for (size_t i = 0; i < pd_nr_events(f) && !e; i++)
			if (pd_event_at(f, i)->attr.sample_period || pd_event_at(f, i)->attr.freq)
				e = pd_event_at(f, i);
	if (!e || !is_sampled(e))
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
		fprintf(stderr, "0 samples of event '%s' in %s: no recorded task was seen running "
			"(the workload was gone before it started, or the targets slept; %s)\n",
			e->name, rp->input, per);
		return;
	}
	double ran = (double)(sp.last - sp.first) / 1e6;
	fprintf(stderr, "0 samples of event '%s' in %s: the recorded tasks ran for %.1f ms (first to "
		"last task record)%s (%s); record a longer run%s\n", e->name, rp->input, ran,
		period_ms > ran ? ", less than one sample period" : " and no sample fell in that time",
		per, period_ms ? " or a higher -F" : " or a smaller -c");
}

/* One pass over the file: build the profile of event idx (SIZE_MAX:
 * every event) and write it. The notes on the file come with the first. */
static int report_pass(struct report *rp, const struct hist_opts *ho, bool callgraph, size_t idx, bool first)
{
	int ret = -1;
	struct pd_file *f = open_input(rp, false);
	if (!f)
		return -1;
	struct profile_opts po = rp->po;
	po.hist = *ho;
	po.only_event = idx == SIZE_MAX ? NULL : pd_event_at(f, idx);
	rp->file = f;
	if (profile_build(&rp->p, f, &po) < 0 || report_write(rp, callgraph) < 0)
		goto out;
	if (rp->p.samples == 0 && !rp->p.filtered && !rp->p.lost && !rp->stats && !rp->time && !rp->cpu_list &&
	    !rp->quiet)
		explain_no_samples(rp, f, po.only_event);
	if (first && rp->p.no_task && !rp->stats && !rp->quiet)
		fprintf(stderr, "%llu samples have no task (pid -1: the kernel could not name it, e.g. "
			"it was exiting); they are shown as the thread ':-1', as perf does\n",
			(unsigned long long)rp->p.no_task);
	if (first && rp->p.malformed)
		pr_warn("%llu malformed records were skipped, the first a %s record at offset %llu "
			"(-vv tells why); threads, maps or symbols may be missing from the profile",
			(unsigned long long)rp->p.malformed, pd_record_type_name(rp->p.malformed_type),
			(unsigned long long)rp->p.malformed_offset);
	if (first && rp->p.filtered && !rp->quiet)
		fprintf(stderr, "%llu samples were dropped by the BPF filter (record --filter or --bpf-object)\n",
			(unsigned long long)rp->p.filtered);
	if (first && rp->p.lost && !rp->json)
		pr_warn("%llu samples were lost while recording (ring buffer full); the profile is "
			"incomplete: record with a larger -m or a lower -F",
			(unsigned long long)rp->p.lost);
	ret = 0;
out:
	profile_free(&rp->p);
	pd_close(f);
	return ret;
}

/* Every picked event's profile in one output: --json (the first event's
 * keys at the top, then "events"), or --flamegraph on a recording with
 * off-CPU samples (widths in ns, the off-CPU stacks under an [off-cpu]
 * frame). */
static int report_multi(struct report *rp, const struct hist_opts *ho, const size_t *idx,
			const bool *off_cpu, size_t n)
{
	struct profile p[64];
	struct pd_file *f[64];
	const struct hist *hs[64];
	const char *roots[64];
	struct out_opts oo[64];
	size_t built = 0;
	int ret = -1;
	for (; built < n; built++) {
		f[built] = open_input(rp, false);
		if (!f[built])
			goto out;
		struct profile_opts po = rp->po;
		po.hist = *ho;
		po.only_event = pd_event_at(f[built], idx[built]);
		if (profile_build(&p[built], f[built], &po) < 0) {
			profile_free(&p[built]);
			pd_close(f[built]);
			goto out;
		}
		hs[built] = p[built].h;
		roots[built] = off_cpu[built] ? "[off-cpu]" : NULL;
		oo[built] = (struct out_opts){ .event_name = pd_event_at(f[built], idx[built])->name,
					       .total_samples = p[built].samples - hist_hidden_samples(p[built].h),
					       .lost_samples = p[built].lost,
					       .percent_limit = rp->percent_limit, .title = rp->input };
	}
	if (rp->json) {
		ret = out_json_multi(rp->out, hs, oo, n) < 0 ? -1 : 0;	/* write errors: at close */
		goto out;
	}
	ret = write_flamegraph(rp, hs, roots, n, true, &oo[0]);
	if (ret == 0)
		fprintf(stderr, "flame graph of on- and off-CPU time (ns) written to %s\n", rp->flamegraph);
out:
	for (size_t i = 0; i < built; i++) {
		profile_free(&p[i]);
		pd_close(f[i]);
	}
	return ret;
}

static bool is_sampled(const struct pd_event *e)
{
	return !(e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_DUMMY);
}

/* Which events get a pass of their own: --event's; a block per sampled
 * event in the text output and in JSON ("events"); with --folded, every
 * event weighted by period with the off-CPU ones under an [off-cpu] frame
 * when the recording has off-CPU samples. Else one pass over every event
 * (the flame graph, folded stacks). *n = 0 means that single pass. -1
 * after an error. */
static int pick_events(struct report *rp, const struct pd_file *f, bool text, size_t *idx, size_t *n)
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
		if (!is_sampled(e))
			continue;
		nsampled++;
		off_cpu |= !strcmp(e->name, OFF_CPU_EVENT_NAME);
	}
	if (rp->event) {
		pr_err("%s has no event '%s'; its events:", rp->input, rp->event);
		for (size_t i = 0; i < pd_nr_events(f); i++)
			if (is_sampled(pd_event_at(f, i)))
				fprintf(stderr, "  %s\n", pd_event_at(f, i)->name);
		return -1;
	}
	if (nsampled < 2 || !(text || rp->json || ((rp->folded || rp->flamegraph) && off_cpu)))
		return 0;
	for (size_t i = 0; i < pd_nr_events(f) && *n < 64; i++)
		if (is_sampled(pd_event_at(f, i)))
			idx[(*n)++] = i;
	return 0;
}

/* One list of keys (--sort or -F; tracepoint keys in --sort only, checked
 * against the file later): 0, or 2 after naming the bad key. */
static int parse_keys(struct report *rp, const char *opt, const char *list, enum sort_key *keys, int *n)
{
	const char *bad = NULL;
	if (rp) {
		tpkeys_names_free(rp->tp_names, rp->ntp_names);
		*n = sort_keys_parse_tp(list, keys, SORT__MAX, rp->tp_names, &rp->ntp_names, &bad);
	} else {
		*n = sort_keys_parse(list, keys, SORT__MAX, &bad);
	}
	if (*n > 0)
		return 0;
	if (bad && sort_key_perf_only(bad))
		pr_err("sort key '%s' in %s is not supported by bpfperf (perf has it); use %s",
		       bad, opt, sort_keys_known());
	else
		pr_err("unknown sort key '%s' in %s; use %s", bad && *bad ? bad : list, opt, sort_keys_known());
	return 2;
}

/* --sort and -F into the hist's keys and the table's columns; the views
 * (filters, --cpu, --time, --max-stack) into the profile options. 0 or 2. */
static int resolve_views(struct report *rp, struct hist_opts *ho)
{
	rp->fields_strict = rp->fields && rp->fields[0] != '+';
	if (rp->fields && parse_keys(NULL, "-F/--fields", rp->fields + !rp->fields_strict, rp->field_keys,
				     &rp->nfields))
		return 2;
	/* perf's sort list: --sort's keys; without them comm,dso,sym, or none
	 * after a strict -F (resolve_order completes it) */
	if (rp->sort || !rp->fields_strict) {
		if (parse_keys(rp, "--sort", rp->sort ? rp->sort : "comm,dso,sym", ho->keys, &ho->nkeys))
			return 2;
	}
	if (rp->cpu_list && parse_cpu_list(rp->cpu_list, rp->cpus, (int)ARRAY_SIZE(rp->cpus)) < 0) {
		pr_err("invalid --cpu '%s': expected CPU numbers and ranges below %zu, e.g. 0-1,3",
		       rp->cpu_list, ARRAY_SIZE(rp->cpus));
		return 2;
	}
	if ((rp->stats || rp->dump) && (rp->json || rp->folded || rp->flamegraph)) {
		pr_err("--stats and -D print no profile: drop --json, --folded or --flamegraph");
		return 2;
	}
	if (rp->time) {
		/* the syntax now (a usage error); percent slices get their
		 * bounds from the file when it is read */
		char err[512];
		struct time_range *r;
		if (time_ranges_parse(rp->time, 0, 1000000000, &r, err, sizeof(err)) < 0) {
			pr_err("invalid --time '%s': expected START,STOP ranges in seconds or percent "
			       "slices (see --help): %s", rp->time, err);
			return 2;
		}
		free(r);
	}
	if (rp->parent_regex && !hist_parent_regex_ok(rp->parent_regex)) {
		pr_err("invalid --parent '%s': expected a POSIX extended regular expression",
		       rp->parent_regex);
		return 2;
	}
	ho->parent_regex = rp->parent_regex;
	ho->sym_filter = rp->sym_filter;
	/* the table and JSON list entries; folded stacks and flame graphs
	 * show whole stacks, so there the filters keep samples by their leaf */
	ho->filter_entries = !rp->folded && !rp->flamegraph;
	ho->hide_unresolved = rp->hide_unresolved;
	if (rp->quiet)
		log_set_verbosity(-1);
	ho->filter = hist_filter_active(&rp->filter) ? &rp->filter : NULL;
	ho->relative = rp->percentage == 1;
	rp->po = (struct profile_opts){ .no_demangle = rp->no_demangle, .kallsyms = rp->kallsyms,
					.buildid_dir = rp->buildid_dir, .name = rp->input, .time = rp->time,
					.cpus = rp->cpu_list ? rp->cpus : NULL,
					.ncpus = (int)ARRAY_SIZE(rp->cpus), .max_stack = (unsigned)rp->max_stack,
					.count_records = rp->stats, .tp_names = rp->tp_names,
					.raw_trace = rp->raw_trace };
	return 0;
}

/* Tracepoint keys against the file: perf's default "trace" (trace_fields
 * with --raw-trace) when every event is a tracepoint and no key was
 * asked for; every name must be a field of one of its events. 0 or 2. */
static int resolve_tp_keys(struct report *rp, const struct pd_file *f, struct hist_opts *ho)
{
	bool all_tp = false;
	for (size_t i = 0; i < pd_nr_events(f); i++) {
		/* as perf: any other event, a dummy one too, keeps comm,dso,sym */
		const struct pd_event *e = pd_event_at(f, i);
		if (e->attr.type != PERF_TYPE_TRACEPOINT) {
			all_tp = false;
			break;
		}
		all_tp = true;
	}
	if (!rp->sort && !rp->fields_strict && all_tp &&
	    parse_keys(rp, "--sort", rp->raw_trace ? "trace_fields" : "trace", ho->keys, &ho->nkeys))
		return 2;
	if (!rp->ntp_names)
		return 0;
	size_t len;
	const void *td = pd_feature(f, PD_FEAT_TRACING_DATA, &len);
	struct tp_formats *fs = &rp->tp_formats;	/* kept for every pass */
	tp_formats_free(fs);
	tp_formats_load(fs, td, td ? len : 0);
	rp->po.tp_formats = fs;
	int ret = 0;
	for (int j = 0; j < rp->ntp_names && !ret; j++) {
		char *hint = NULL;
		if (tpkeys_known(rp->tp_names[j], fs, &hint))
			continue;
		if (!fs->n)
			pr_err("unknown sort key '%s' in --sort; use %s (tracepoint fields, trace and "
			       "trace_fields need a recording of tracepoint events, and %s has none)",
			       rp->tp_names[j], sort_keys_known(), rp->input);
		else
			pr_err("unknown sort key '%s' in --sort%s%s%s; use %s, trace, trace_fields, or a field "
			       "of %s's tracepoint events as FIELD or SYS:EVENT.FIELD", rp->tp_names[j],
			       *hint ? " (did you mean: " : "", hint, *hint ? "?)" : "", sort_keys_known(),
			       rp->input);
		free(hint);
		ret = 2;
	}
	return ret;
}

static bool has_key(const struct hist_opts *ho, enum sort_key k)
{
	for (int i = 0; i < ho->nkeys; i++)
		if (ho->keys[i] == k)
			return true;
	return false;
}

/* The rest of perf's setup_sorting: unless -F is strict, the overheads go
 * before the sort keys that lack them, and the default columns (overheads,
 * -n's samples, --show-total-period's period) before -F's; then every
 * column not among the sort keys is appended to them. The columns
 * themselves are -F's (or the defaults) then the sort keys (out.c). */
static void resolve_order(struct report *rp, struct hist_opts *ho)
{
	enum sort_key *cols = rp->col_keys;
	int ncols = 0;
	if (!rp->fields_strict) {
		enum sort_key pre[2];
		int npre = 0;
		if (ho->children && !has_key(ho, SORT_OVERHEAD_CHILDREN))
			pre[npre++] = SORT_OVERHEAD_CHILDREN;
		if (!has_key(ho, SORT_OVERHEAD))
			pre[npre++] = SORT_OVERHEAD;
		if (npre && ho->nkeys + npre <= SORT__MAX) {
			memmove(ho->keys + npre, ho->keys, (size_t)ho->nkeys * sizeof(*ho->keys));
			memcpy(ho->keys, pre, (size_t)npre * sizeof(*pre));
			ho->nkeys += npre;
		}
		if (ho->children)
			cols[ncols++] = SORT_OVERHEAD_CHILDREN;
		cols[ncols++] = SORT_OVERHEAD;
		if (rp->show_nr_samples)
			cols[ncols++] = SORT_SAMPLE;
		if (rp->show_total_period)
			cols[ncols++] = SORT_PERIOD;
	}
	for (int i = 0; i < rp->nfields; i++)
		cols[ncols++] = rp->field_keys[i];
	rp->ncols = ncols;
	ho->exact_order = true;
	for (int i = 0; i < ncols; i++)
		if (!has_key(ho, cols[i]) && ho->nkeys < SORT__MAX)
			ho->keys[ho->nkeys++] = cols[i];
}

/* Call graphs: shown or not, order, threshold; 0, or 2 for a combination we
 * cannot draw. perf files recorded with DWARF call graphs get a warning. */
static int resolve_callgraph(struct report *rp, const struct pd_file *f, struct hist_opts *ho, bool *callgraph)
{
	bool has_callchain = false, dwarf = false;
	for (size_t i = 0; i < pd_nr_events(f); i++) {
		uint64_t st = pd_event_at(f, i)->attr.sample_type;
		has_callchain |= (st & PERF_SAMPLE_CALLCHAIN) != 0;
		dwarf |= (st & (PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_USER)) != 0;
	}
	if (dwarf)
		pr_warn("%s was recorded with --call-graph dwarf: its user-space call graphs need DWARF "
			"unwinding, which bpfperf does not do yet, so they stop at the sampled function "
			"(kernel frames are complete); use perf report for them, or record with "
			"--call-graph fp and frame pointers", rp->input);
	for (int k = 0; k < ho->nkeys; k++)
		if (ho->keys[k] == SORT_PARENT && !has_callchain) {
			pr_err("the sort key parent needs call graphs, and %s has none: record with -g",
			       rp->input);
			return 2;
		}
	ho->children = rp->children < 0 ? has_callchain : rp->children;
	*callgraph = rp->callgraph < 0 ? has_callchain : rp->callgraph;
	if (*callgraph && !has_callchain && rp->callgraph == 1) {
		pr_warn("%s has no call graphs (record with -g); showing flat entries", rp->input);
		*callgraph = false;
	}
	bool caller = rp->inverted || rp->cg_order == 0;
	ho->caller_order = !ho->children && caller;
	ho->callee_children = ho->children && !caller && rp->cg_order == 1;
	/* Call-graph trees are only built for the text output; like perf,
	 * --percent-limit also prunes their branches (default 0.5%). */
	bool text = !rp->json && !rp->folded && !rp->flamegraph && !rp->stats && !rp->dump;
	ho->callchains = has_callchain && *callgraph && text;
	rp->cg_limit = rp->cg_threshold >= 0 ? rp->cg_threshold
		       : rp->percent_limit > 0 ? rp->percent_limit : 0.5;
	/* fractal's threshold is relative, and flat and folded show the chains
	 * ending at a node: their trees are built whole and cut when printed */
	ho->callgraph_limit = rp->cg_mode == OUT_CG_GRAPH ? rp->cg_limit : 0;
	ho->skip_children_sums = text;	/* the table shows them with --children only */
	return 0;
}

/* The input's events decide the passes; each pass reads it again. The
 * output (a report is meant to be shared: 0644, written whole or not at
 * all) is opened once for every pass. */
static int report_input(struct report *rp, struct hist_opts *ho)
{
	int ret = 1;
	struct pd_file *f = open_input(rp, true);
	if (!f)
		return 1;
	struct ofile *of = NULL;
	if (!rp->flamegraph || rp->header_only) {
		if (ofile_open(rp->output ? rp->output : "-", OFILE_SHARED, 0, &of) < 0) {
			pd_close(f);
			return 1;
		}
		rp->out = ofile_stream(of);
	}
	if (rp->header || rp->header_only) {
		int r = out_header(rp->out ? rp->out : stdout, f, rp->input, rp->show_info);
		if (r < 0 || rp->header_only) {
			pd_close(f);
			if (r < 0 && !(rp->out && ferror(rp->out)))
				pr_err("cannot print the header of %s", rp->input);
			return ofile_close(of) < 0 || r < 0 ? 1 : 0;	/* a write error: named at close */
		}
	}
	if (rp->dump) {
		int r = out_dump(rp->out, f, rp->input, &rp->po);
		pd_close(f);
		if (r < 0 && !ferror(rp->out)) {
			ofile_abort(of);
			return 1;
		}
		return ofile_close(of) < 0 || r < 0 ? 1 : 0;	/* a write error: named at close */
	}
	bool callgraph, has_cpu = false;
	for (size_t i = 0; i < pd_nr_events(f); i++)
		has_cpu |= (pd_event_at(f, i)->attr.sample_type & PERF_SAMPLE_CPU) != 0;
	if (rp->cpu_list && !has_cpu) {
		pr_err("%s: the samples carry no CPU, so --cpu cannot select them; record system-wide "
		       "(-a), or with perf record --sample-cpu", rp->input);
		goto fail;
	}
	size_t flen;
	const void *nrc = pd_feature(f, PD_FEAT_NRCPUS, &flen);
	uint32_t online = 0;	/* NRCPUS: available, online (u32 each; sections are not aligned) */
	if (nrc && flen >= 8)
		memcpy(&online, (const char *)nrc + 4, sizeof(online));
	for (size_t c = online ? online : ARRAY_SIZE(rp->cpus); rp->cpu_list && c < ARRAY_SIZE(rp->cpus); c++) {
		if (rp->cpus[c]) {
			pr_err("--cpu %s: CPU %zu is not in %s, recorded on %u CPUs", rp->cpu_list, c, rp->input,
			       online);
			goto fail;
		}
	}
	if (resolve_callgraph(rp, f, ho, &callgraph) || resolve_tp_keys(rp, f, ho)) {
		ret = 2;
		goto fail;
	}
	resolve_order(rp, ho);
	bool text = !rp->json && !rp->folded && !rp->flamegraph && !rp->stats;
	size_t idx[64], n = 0;
	if (!rp->stats && pick_events(rp, f, text, idx, &n) < 0) {
		ret = 2;
		goto fail;
	}
	bool combined = (rp->folded || rp->flamegraph) && n > 1;
	bool off_cpu[64];
	for (size_t i = 0; i < n; i++)
		off_cpu[i] = !strcmp(pd_event_at(f, idx[i])->name, OFF_CPU_EVENT_NAME);
	pd_close(f);	/* each pass opens it again */
	if (n == 0) {
		ret = report_pass(rp, ho, callgraph, SIZE_MAX, true) < 0;
	} else if ((combined && rp->flamegraph) || (rp->json && n > 1)) {
		ret = report_multi(rp, ho, idx, off_cpu, n) < 0;
	} else {
		for (size_t i = 0; i < n; i++) {
			/* off-CPU samples weigh their nanoseconds */
			rp->folded_opts = (struct out_folded_opts){
				.by_period = combined || off_cpu[i],
				.root = combined && off_cpu[i] ? "[off-cpu]" : NULL };
			if (i > 0 && text)
				fputs("\n", rp->out);
			if ((ret = report_pass(rp, ho, callgraph, idx[i], i == 0) < 0))
				break;
		}
	}
	if (ret) {
		if (of && ferror(rp->out))
			ofile_close(of);	/* a write error: it names the file */
		else
			ofile_abort(of);	/* a file given with -o is left as it was */
		return 1;
	}
	return ofile_close(of) < 0 ? 1 : 0;
fail:
	pd_close(f);
	ofile_abort(of);
	return ret;
}

/* The options (a usage error: 2), the input (-i -: the standard input,
 * spooled once), then report_input. */
int cmd_report(int argc, char **argv)
{
	static struct report rp;	/* large (the CPU mask): not on the stack */
	rp = (struct report){ .input = "perf.data", .input_fd = -1, .children = -1, .callgraph = -1,
			      .cg_threshold = -1, .cg_order = -1 };
	char err[1024];
	int ret = 1;
	int rc = parse_args(&rp, argc, argv);
	if (rc != CLI_OK)
		return cli_exit(rc);
	struct hist_opts ho = { 0 };
	if (resolve_views(&rp, &ho))
		goto usage;
	if (!strcmp(rp.input, "-")) {
		if ((rp.input_fd = pd_stdin_file(err, sizeof(err))) < 0) {
			pr_err("%s", err);
			return 1;
		}
		rp.input = "standard input";
	}
	/* Reports allocate a few times the file's size in many blocks. */
	struct stat st;
	if ((rp.input_fd >= 0 ? fstat(rp.input_fd, &st) : stat(rp.input, &st)) == 0 &&
	    S_ISREG(st.st_mode) && st.st_size > (64 << 20) / 4)
		mem_reserve_huge((size_t)st.st_size * 4);
	ret = report_input(&rp, &ho);
	if (rp.input_fd >= 0)
		close(rp.input_fd);
	hist_filter_free(&rp.filter);
	tpkeys_names_free(rp.tp_names, rp.ntp_names);
	tp_formats_free(&rp.tp_formats);
	return ret;
usage:
	hist_filter_free(&rp.filter);
	tpkeys_names_free(rp.tp_names, rp.ntp_names);
	return 2;
}

