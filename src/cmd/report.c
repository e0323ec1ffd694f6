// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf report: read a perf.data file (ours or perf's), symbolize in
 * process and print the profile as perf does, or as JSON, folded stacks or a
 * flame graph. */
#include "cmds.h"
#include "cli.h"
#include "hist/aggregate.h"
#include "hist/hist.h"
#include "log.h"
#include "out/out.h"
#include "perfdata/bpf_info.h"
#include "perfdata/decode.h"
#include "perfdata/reader.h"
#include "sym/machine.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

struct report {
	const char *input;
	const char *sort;
	int children;		/* -1 = default (children when callchains exist) */
	int callgraph;		/* -1 = default (when callchains exist) */
	double percent_limit;
	bool json, folded;
	const char *flamegraph;
	const char *output;
	bool no_demangle;
	const char *kallsyms;	/* --kallsyms: this file, not the build-id cache copy */

	struct machine *m;
	struct hist *h;
	struct aggregator *agg;
	uint64_t lost, filtered, samples;
	const struct pd_event *sample_event;
	uint64_t malformed;	/* side-band records skipped */
	uint32_t malformed_type;
	uint64_t malformed_offset;
	bool bad;
};

static enum addr_space misc_space(uint16_t misc)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL: return AS_KERNEL;
	case PERF_RECORD_MISC_USER: return AS_USER;
	case PERF_RECORD_MISC_GUEST_KERNEL: return AS_GUEST_KERNEL;
	case PERF_RECORD_MISC_GUEST_USER: return AS_GUEST_USER;
	default: return AS_UNKNOWN;
	}
}

static void on_sample(struct report *rp, const struct pd_record *r)
{
	const struct pd_sample *s = &r->s;
	const struct pd_event *ev = r->event;
	if (!ev || (ev->attr.type == PERF_TYPE_SOFTWARE && ev->attr.config == PERF_COUNT_SW_DUMMY))
		return;
	if (!rp->sample_event)
		rp->sample_event = ev;
	struct agg_sample as = {
		.pid = (int)s->pid,
		.tid = (int)s->tid,
		.cpu = (int)s->cpu,
		/* Without PERIOD in the samples, every sample weighs the fixed
		 * period (perf -c N); with a frequency it is 1. */
		.period = (ev->attr.sample_type & PERF_SAMPLE_PERIOD) ? s->period
			  : (!ev->attr.freq && ev->attr.sample_period ? ev->attr.sample_period : 1),
		.space = misc_space(r->hdr->misc),
		.callchain = s->callchain,
		.nr_callchain = s->nr_callchain,
		.ip = s->ip,
	};
	agg_add(rp->agg, &as);
	rp->samples++;
}

/* A side-band record the decoders refused: skipped, counted, and the first
 * one named in a warning after the report. */
static void malformed(struct report *rp, const struct pd_record *r)
{
	if (!rp->malformed++) {
		rp->malformed_type = r->hdr->type;
		rp->malformed_offset = r->offset;
	}
}

static void on_mmap(struct report *rp, const struct pd_record *r)
{
	bool kernel = misc_space(r->hdr->misc) == AS_KERNEL;
	if (r->hdr->type == PERF_RECORD_MMAP) {
		struct pd_mmap m;
		if (pd_decode_mmap(r->hdr, r->hdr->size, &m) < 0) {
			malformed(rp, r);
			return;
		}
		/* MMAP records are for executable maps. */
		machine_mmap(rp->m, (int)m.rec.pid, (int)m.rec.tid, m.rec.start, m.rec.len,
			     m.rec.pgoff, m.filename, NULL, 0, PROT_EXEC, kernel);
		return;
	}
	struct pd_mmap2 m;
	if (pd_decode_mmap2(r->hdr, r->hdr->size, &m) < 0) {
		malformed(rp, r);
		return;
	}
	bool has_bid = m.rec.header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID;
	machine_mmap(rp->m, (int)m.rec.pid, (int)m.rec.tid, m.rec.start, m.rec.len, m.rec.pgoff,
		     m.filename, has_bid ? m.rec.build_id : NULL, has_bid ? m.rec.build_id_size : 0,
		     m.rec.prot, kernel);
}

static int on_record(void *ctx, const struct pd_record *r)
{
	struct report *rp = ctx;
	const struct perf_event_header *h = r->hdr;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		on_sample(rp, r);
		break;
	case PERF_RECORD_COMM: {
		struct pd_comm c;
		if (pd_decode_comm(h, h->size, &c) < 0)
			goto bad;
		machine_comm(rp->m, (int)c.rec.pid, (int)c.rec.tid, c.comm,
			     h->misc & PERF_RECORD_MISC_COMM_EXEC);
		break;
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		on_mmap(rp, r);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		struct pd_fork fk;
		if (pd_decode_fork(h, h->size, &fk) < 0)
			goto bad;
		if (h->type == PERF_RECORD_FORK)
			machine_fork(rp->m, (int)fk.rec.pid, (int)fk.rec.tid, (int)fk.rec.ppid,
				     (int)fk.rec.ptid);
		else
			machine_exit(rp->m, (int)fk.rec.pid, (int)fk.rec.tid);
		break;
	}
	case PERF_RECORD_KSYMBOL: {
		struct pd_ksymbol k;
		if (pd_decode_ksymbol(h, h->size, &k) < 0)
			goto bad;
		machine_ksymbol(rp->m, k.rec.addr, k.rec.len, k.name,
				k.rec.flags & PD_KSYMBOL_FLAGS_UNREGISTER);
		break;
	}
	case PERF_RECORD_LOST: {
		struct pd_lost l;
		if (pd_decode_lost(h, h->size, &l) < 0)
			goto bad;
		rp->lost += l.rec.lost;
		break;
	}
	case PERF_RECORD_LOST_SAMPLES: {
		struct pd_lost_samples l;
		if (pd_decode_lost_samples(h, h->size, &l) < 0)
			goto bad;
		if (h->misc & PD_RECORD_MISC_LOST_SAMPLES_BPF)
			rp->filtered += l.rec.lost;	/* dropped on purpose by a BPF filter */
		else
			rp->lost += l.rec.lost;
		break;
	}
	default:
		break;
	}
	return 0;
bad:
	malformed(rp, r);
	return 0;
}

static void on_bpf_prog(void *ctx, const struct bpf_prog_info *info)
{
	machine_bpf_prog_info(ctx, info);
}

/* -g [none|graph|caller...]: perf also takes the mode as the next word. */
static bool callgraph_word(const char *w)
{
	return !strcmp(w, "none") || !strncmp(w, "graph", 5);
}

static const char *parse_callgraph(const char *arg, void *dst)
{
	int *cg = dst;
	if (arg && !strcmp(arg, "none"))
		*cg = 0;
	else if (!arg || !strncmp(arg, "graph", 5) || !strncmp(arg, "caller", 6))
		*cg = 1;
	else
		return "'graph' or 'none'";
	return NULL;
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

static int parse_args(struct report *rp, int argc, char **argv)
{
	bool stdio_ignored = false;
	const struct cli_opt opts[] = {
		CLI_STR('i', "input", "FILE", "perf.data from bpfperf record or perf record (default perf.data)",
			&rp->input),
		CLI_STR('s', "sort", "KEYS", "comma-separated: comm,pid,tid,dso,sym,cpu (default comm,dso,sym)",
			&rp->sort),
		CLI_CALL(0, "children", NULL, "accumulate callees' time into callers (default with call graphs)",
			 &rp->children, set_children),
		CLI_CALL(0, "no-children", NULL, "self time only", &rp->children, set_no_children),
		{ .kind = CLI_K_CALL, .short_name = 'g', .long_name = "call-graph", .arg_name = "none|graph",
		  .optional_arg = true, .help = "show call graphs under entries (default when recorded with -g)",
		  .dst = &rp->callgraph, .cb = parse_callgraph, .accepts = callgraph_word },
		CLI_CALL(0, "percent-limit", "P", "hide entries below P percent", &rp->percent_limit,
			 parse_percent),
		CLI_FLAG(0, "json", "JSON: total_samples, lost_samples, entries", &rp->json),
		CLI_FLAG(0, "folded", "folded stacks: comm;outer;...;inner count", &rp->folded),
		CLI_STR(0, "flamegraph", "FILE", "write a self-contained flame graph HTML page", &rp->flamegraph),
		CLI_STR('o', "output", "FILE", "write to FILE instead of standard output", &rp->output),
		CLI_FLAG(0, "no-demangle", "keep C++ symbols mangled", &rp->no_demangle),
		CLI_STR(0, "kallsyms", "FILE", "kernel symbols from FILE (default: the copy perf record\n"
			"keeps in ~/.debug when it matches the running kernel,\nelse /proc/kallsyms)", &rp->kallsyms),
		CLI_FLAG(0, "stdio", "accepted for perf compatibility (text is the default)", &stdio_ignored),
		CLI_END,
	};
	const struct cli_cmd cmd = {
		.name = "report",
		.synopsis = "[-i FILE] [--sort KEYS] [--children | --no-children] [-g [none]]\n"
			    "                      [--percent-limit P] [--json | --folded | --flamegraph FILE.html]",
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
	return CLI_OK;
}

/* Decode every record of f into rp->h (machine, aggregation thread). */
static int report_aggregate(struct report *rp, struct pd_file *f, const struct hist_opts *ho)
{
	char err[1024];
	struct machine_opts mo = { .no_demangle = rp->no_demangle, .live = true,
				   .kallsyms = rp->kallsyms };
	rp->m = machine_new(&mo);
	rp->h = hist_new(ho);
	/* The idle task has no COMM record; perf calls it swapper. */
	machine_comm(rp->m, 0, 0, "swapper", false);

	/* The aggregation thread reads kallsyms while the records are validated
	 * and ordered, then fills the hist while this thread decodes samples and
	 * resolves user space; kernel addresses go to whichever thread is less
	 * busy (see agg_add). */
	uint64_t t_start = now_ns();
	rp->agg = agg_new(rp->m, rp->h, true);
	if (pd_index(f, err, sizeof(err)) < 0) {
		pr_err("%s: %s", rp->input, err);
		return -EINVAL;
	}

	size_t flen;
	const void *feat = pd_feature(f, PD_FEAT_BPF_PROG_INFO, &flen);
	if (feat && pd_bpf_progs_decode(feat, flen, on_bpf_prog, rp->m) < 0)
		pr_warn("%s: the BPF program info section is malformed; BPF programs are named from "
			"KSYMBOL records only", rp->input);

	uint64_t t_indexed = now_ns();
	if (pd_process(f, on_record, rp, err, sizeof(err)) < 0) {
		pr_err("%s: %s", rp->input, err);
		return -EINVAL;
	}
	uint64_t t_decoded = now_ns();
	agg_finish(rp->agg);
	uint64_t t_joined = now_ns();
	hist_finish(rp->h);
	pr_debug("report: %.1f ms to index the records, %.1f ms to decode them, %.1f ms more for "
		 "the aggregation thread, %.1f ms to finish the hist",
		 (double)(t_indexed - t_start) / 1e6, (double)(t_decoded - t_indexed) / 1e6,
		 (double)(t_joined - t_decoded) / 1e6, (double)(now_ns() - t_joined) / 1e6);
	return 0;
}

/* The chosen output of rp->h: flame graph, JSON, folded stacks or the table. */
static int report_write(struct report *rp, bool callgraph, double callgraph_limit)
{
	uint64_t t0 = now_ns();
	FILE *out = stdout;
	if (rp->output) {
		out = fopen(rp->output, "w");
		if (!out) {
			pr_err("cannot create %s: %s", rp->output, strerror(errno));
			return -errno;
		}
	}
	struct out_opts oo = {
		.event_name = rp->sample_event ? rp->sample_event->name : "cpu-clock",
		.total_samples = rp->samples,
		.lost_samples = rp->lost,
		.percent_limit = rp->percent_limit,
		.callgraph = callgraph,
		.callgraph_limit = callgraph_limit,
		.title = rp->input,
	};
	int r;
	if (rp->flamegraph) {
		FILE *fg = fopen(rp->flamegraph, "w");
		if (!fg) {
			pr_err("cannot create %s: %s", rp->flamegraph, strerror(errno));
			r = -1;
			goto done;
		}
		r = out_flamegraph_html(fg, rp->h, &oo);
		if (fclose(fg) != 0)
			r = -1;
		if (r == 0)
			fprintf(stderr, "flame graph of %llu samples written to %s\n",
				(unsigned long long)rp->samples, rp->flamegraph);
	} else if (rp->json) {
		r = out_json(out, rp->h, &oo);
	} else if (rp->folded) {
		r = out_folded(out, rp->h);
	} else {
		r = out_table(out, rp->h, &oo);
	}
	pr_debug("report: %.1f ms to write the output", (double)(now_ns() - t0) / 1e6);
	if (r < 0 || ferror(out)) {
		pr_err("cannot write the report: %s", strerror(errno));
		r = -1;
	}
done:
	if (out != stdout && fclose(out) != 0)
		r = -1;
	return r;
}

int cmd_report(int argc, char **argv)
{
	struct report rp = { .input = "perf.data", .sort = "comm,dso,sym", .children = -1,
			     .callgraph = -1 };
	char err[1024];
	int ret = 1;

	int rc = parse_args(&rp, argc, argv);
	if (rc != CLI_OK)
		return cli_exit(rc);

	struct hist_opts ho = { 0 };
	const char *bad = NULL;
	ho.nkeys = sort_keys_parse(rp.sort, ho.keys, SORT__MAX, &bad);
	if (ho.nkeys <= 0) {
		pr_err("unknown sort key '%s' in --sort; use comm, pid, tid, dso, sym or cpu",
		       bad ? bad : rp.sort);
		return 2;
	}

	/* Reports allocate a few times the file's size in many blocks. */
	struct stat st;
	if (stat(rp.input, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (64 << 20) / 4)
		mem_reserve_huge((size_t)st.st_size * 4);

	struct pd_file *f = pd_open(rp.input, err, sizeof(err));
	if (!f) {
		pr_err("%s", err);
		return 1;
	}
	bool has_callchain = false;
	for (size_t i = 0; i < pd_nr_events(f); i++)
		if (pd_event_at(f, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			has_callchain = true;
	ho.children = rp.children < 0 ? has_callchain : rp.children;
	bool callgraph = rp.callgraph < 0 ? has_callchain : rp.callgraph;
	if (callgraph && !has_callchain && rp.callgraph == 1) {
		pr_warn("%s has no call graphs (record with -g); showing flat entries", rp.input);
		callgraph = false;
	}
	/* Call-graph trees are only built for the text output; like perf,
	 * --percent-limit also prunes their branches (default 0.5%). */
	bool text = !rp.json && !rp.folded && !rp.flamegraph;
	ho.callchains = has_callchain && callgraph && text;
	ho.callgraph_limit = rp.percent_limit > 0 ? rp.percent_limit : 0.5;
	ho.skip_children_sums = text;	/* the table shows them with --children only */

	if (report_aggregate(&rp, f, &ho) < 0 || report_write(&rp, callgraph, ho.callgraph_limit) < 0)
		goto out;
	if (rp.malformed)
		pr_warn("%llu malformed records were skipped, the first a %s record at offset %llu "
			"(-vv tells why); threads, maps or symbols may be missing from the profile",
			(unsigned long long)rp.malformed, pd_record_type_name(rp.malformed_type),
			(unsigned long long)rp.malformed_offset);
	if (rp.filtered)
		fprintf(stderr, "%llu samples were dropped by the BPF filter (record --bpf-object)\n",
			(unsigned long long)rp.filtered);
	if (rp.lost && !rp.json)
		pr_warn("%llu samples were lost while recording (ring buffer full); the profile is "
			"incomplete: record with a larger -m or a lower -F",
			(unsigned long long)rp.lost);
	ret = 0;
out:
	agg_free(rp.agg);
	hist_free(rp.h);
	machine_free(rp.m);
	pd_close(f);
	return ret;
}
