// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf report: read a perf.data file (ours or perf's), symbolize in
 * process and print the profile as perf does, or as JSON, folded stacks or a
 * flame graph. The options and the order of the steps; their checks and
 * the messages on what the library refused are in report_check.c, the
 * report itself is the library's (hist/report_setup.h: sort keys, columns,
 * CPUs; out/report.h: call graphs, events, the passes and their output). */
#include "cmds.h"
#include "cli.h"
#include "report_check.h"
#include "hist/report_setup.h"
#include "log.h"
#include "out/ofile.h"
#include "out/dump.h"
#include "out/header.h"
#include "out/report.h"
#include "perfdata/reader.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* -g: perf's TYPE,MIN_PERCENT[,PRINT_LIMIT],ORDER,KEY[,branch],VALUE (out/report.h). */
static const char *parse_callgraph(const char *arg, void *dst)
{
	char bad[256];
	int err = report_cg_parse(dst, arg, bad, sizeof(bad));
	if (err == -EOPNOTSUPP) {
		pr_err("invalid -g/--call-graph '%s': '%s' is not supported; call graphs are keyed "
		       "by function (-g graph,0.5,caller,function)", arg, bad);
		return CLI_REPORTED;
	}
	if (err)
		return "graph, fractal, flat, folded or none; a threshold percentage and a print "
		       "limit; caller or callee; percent, period or count; comma-separated "
		       "(e.g. graph,0.5,caller)";
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

/* Over 80 lines: the option table (one entry per option, perf report's) and
 * the checks between options that the table cannot express. */
static int parse_args(struct report_cli *c, int argc, char **argv)
{
	struct report *rp = &c->rp;
	bool stdio_ignored = false;
	const struct cli_opt opts[] = {
		CLI_STR('i', "input", "FILE", "perf.data from bpfperf record or perf record (default perf.data)",
			&rp->input),
		CLI_STR('s', "sort", "KEYS", "comma-separated: comm,pid,tid,dso,sym,cpu,state,parent,srcline\n"
			"(default comm,dso,sym; state: S, D or I of off-CPU samples;\nparent: see -p; srcline: "
			"file:line from DWARF), the\ncolumns period and sample; on tracepoint events: trace\n"
			"(the formatted line, the default when every event is a\ntracepoint), trace_fields, "
			"or a field: FIELD or\nSYS:EVENT.FIELD",
			&rp->keys.sort),
		CLI_FLAG(0, "raw-trace", "tracepoint keys show the fields' raw values, not the\n"
			 "print format's", &rp->keys.raw_trace),
		CLI_STR('F', "fields", "FIELDS", "these columns first: overhead, overhead_children, sample,\n"
			"period and sort keys, then the --sort keys not among them;\nthey sort after "
			"the --sort keys (without --sort: they alone);\n+FIELDS: after the default columns",
			&rp->keys.fields),
		CLI_FLAG('n', "show-nr-samples", "a Samples column", &rp->keys.show_nr_samples),
		CLI_FLAG(0, "show-total-period", "a Period column", &rp->keys.show_total_period),
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
		  .dst = rp, .cb = parse_callgraph, .accepts = report_cg_word },
		CLI_FLAG('G', "inverted", "call graphs from the outermost caller (-g caller)", &rp->inverted),
		CLI_U64(0, "max-stack", "N", "use at most N frames of each call chain (in caller order the outermost)",
			&rp->max_stack, 1, 65535, "a number of frames from 1 to 65535"),
		CLI_CALL(0, "percent-limit", "P", "hide entries below P percent", &rp->percent_limit,
			 parse_percent),
		CLI_FLAG(0, "json", "JSON: total_samples, lost_samples, entries", &rp->json),
		CLI_FLAG(0, "folded", "folded stacks: comm;outer;...;inner count", &rp->folded),
		CLI_STR(0, "flamegraph", "FILE", "write a self-contained flame graph HTML page", &rp->flamegraph),
		CLI_STR('o', "output", "FILE", "write to FILE instead of standard output", &c->output),
		CLI_FLAG(0, "no-demangle", "keep C++ symbols mangled", &rp->no_demangle),
		CLI_STR(0, "kallsyms", "FILE", "kernel symbols from FILE (default: the copy perf record\n"
			"keeps in ~/.debug when it matches the running kernel,\nelse /proc/kallsyms)", &rp->kallsyms),
		CLI_STR(0, "event", "NAME", "only the samples of event NAME (e.g. offcpu-time); default: a\n"
			"block per event in the text output, and with --folded on a\n"
			"recording with off-CPU samples both in one picture (ns)", &rp->event),
		CLI_FLAG('f', "force", "read FILE even when another user owns it (as perf, refused by\n"
			 "default: its contents are not trusted)", &c->force),
		CLI_FLAG(0, "header", "print the file's header and feature sections first (as perf)",
			 &c->header),
		CLI_FLAG(0, "header-only", "print the header and feature sections only", &c->header_only),
		CLI_FLAG('I', "show-info", "with --header: also the CPU/NUMA/memory topology and caches",
			 &c->show_info),
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
	if (c->header && (rp->json || rp->folded) && !c->output) {
		pr_err("--header prints text before the report: not with --json or --folded on "
		       "standard output; use --header-only, or -o FILE for the report");
		return CLI_USAGE_ERROR;
	}
	return CLI_OK;
}

/* The input, refused like perf does when another user owns it, unless -f
 * (which is said when it let such a file through). */
static struct pd_file *open_input(const struct report_cli *c)
{
	const struct report *rp = &c->rp;
	long owner = -1;
	/* -i - reads the standard input once (pd_stdin_file) and maps that
	 * file; the reader names what is wrong (with the hints of
	 * cli_init) */
	struct pd_file *f = c->input_fd >= 0 ? pd_open_fd(c->input_fd, "standard input", NULL)
					    : pd_open_owned(rp->input, c->force, &owner, NULL);
	if (!f)
		return NULL;
	if (owner >= 0)
		pr_warn("reading %s although uid %ld owns it, as -f asks", rp->input, owner);
	return f;
}

/* The input's events decide the profiles, all made in one pass. The
 * output (a report is meant to be shared: 0644, written whole or not at
 * all) is opened once for all of them. */
static int report_input(struct report_cli *c, struct hist_opts *ho)
{
	struct report *rp = &c->rp;
	int ret = 1;
	struct pd_file *f = open_input(c);
	if (!f)
		return 1;
	struct ofile *of = NULL;
	if (!rp->flamegraph || c->header_only) {
		if (ofile_open(c->output ? c->output : "-", OFILE_SHARED, 0, &of) < 0) {
			pd_close(f);
			return 1;
		}
		rp->out = ofile_stream(of);
	}
	if (c->header || c->header_only) {
		int r = out_header(rp->out ? rp->out : stdout, f, rp->input, c->show_info);
		if (r < 0 || c->header_only) {
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
	bool callgraph;
	if (rp->cpu_list && report_cli_cpus(rp, f) < 0)
		goto fail;
	if (report_cli_callgraph(rp, f, ho, &callgraph) || report_cli_tp_keys(rp, f, ho)) {
		ret = 2;
		goto fail;
	}
	report_keys_order(&rp->keys, ho);
	bool text = !rp->json && !rp->folded && !rp->flamegraph && !rp->stats;
	size_t idx[64], n = 0;
	if (!rp->stats && report_pick_events(rp, f, text, idx, &n) < 0) {
		ret = 2;
		goto fail;
	}
	if (report_passes(rp, ho, callgraph, f, idx, n, text) < 0) {	/* f is closed */
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

/* Defaults, the notes' hints (the options of record and -v), and the
 * library's (-i, -f, --kallsyms: log_hint). */
static void cli_init(struct report_cli *c)
{
	log_set_hint(LOG_HINT_INPUT_MISSING, "; record one first with 'bpfperf record' or give -i FILE");
	log_set_hint(LOG_HINT_INPUT_FOREIGN, "; check where it came from, or use -f to read it anyway");
	log_set_hint(LOG_HINT_INPUT_TERMINAL, " ('bpfperf record -o - ... | bpfperf report -i -') or give -i FILE");
	log_set_hint(LOG_HINT_OTHER_KALLSYMS, " with --kallsyms");
	*c = (struct report_cli){ .rp = { .input = "perf.data", .children = -1, .callgraph = -1,
					  .cg_threshold = -1, .cg_order = -1, .notes = stderr },
				  .input_fd = -1 };
	c->rp.hints = (struct report_hints){ .malformed = " (-vv tells why)",
					     .filtered = " (record --filter or --bpf-object)",
					     .lost = ": record with a larger -m or a lower -F",
					     .more_freq = " or a higher -F", .more_period = " or a smaller -c" };
}

static void cli_free(struct report_cli *c)
{
	hist_filter_free(&c->rp.filter);
	report_keys_free(&c->rp.keys);
}

/* The options (a usage error: 2), the input (-i -: the standard input,
 * spooled once), then report_input. */
int cmd_report(int argc, char **argv)
{
	static struct report_cli c;	/* large (the CPU mask): not on the stack */
	cli_init(&c);
	int ret = 1;
	int rc = parse_args(&c, argc, argv);
	if (rc != CLI_OK)
		return cli_exit(rc);
	struct hist_opts ho = { 0 };
	if (report_cli_views(&c, &ho)) {
		cli_free(&c);
		return 2;
	}
	if (!strcmp(c.rp.input, "-")) {
		if ((c.input_fd = pd_stdin_file()) < 0)
			return 1;
		c.rp.input = "standard input";
	}
	/* Reports allocate a few times the file's size in many blocks. */
	struct stat st;
	if ((c.input_fd >= 0 ? fstat(c.input_fd, &st) : stat(c.rp.input, &st)) == 0 &&
	    S_ISREG(st.st_mode) && st.st_size > (64 << 20) / 4)
		mem_reserve_huge((size_t)st.st_size * 4);
	ret = report_input(&c, &ho);
	if (c.input_fd >= 0)
		close(c.input_fd);
	cli_free(&c);
	return ret;
}
