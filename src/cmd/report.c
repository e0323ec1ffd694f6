// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf report: read a perf.data file (ours or perf's), symbolize in
 * process and print the profile as perf does, or as JSON, folded stacks or a
 * flame graph. */
#include "cmds.h"
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
#include <getopt.h>
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

static void usage(FILE *f)
{
	fprintf(f,
"usage: bpfperf report [-i FILE] [--sort KEYS] [--children | --no-children] [-g [none]]\n"
"                      [--percent-limit P] [--json | --folded | --flamegraph FILE.html]\n\n"
"  -i, --input FILE       perf.data from bpfperf record or perf record (default perf.data)\n"
"  -s, --sort KEYS        comma-separated: comm,pid,tid,dso,sym,cpu (default comm,dso,sym)\n"
"      --children         accumulate callees' time into callers (default with call graphs)\n"
"      --no-children      self time only\n"
"  -g [none|graph]        show call graphs under entries (default when recorded with -g)\n"
"      --percent-limit P  hide entries below P percent\n"
"      --json             JSON: total_samples, lost_samples, entries\n"
"      --folded           folded stacks: comm;outer;...;inner count\n"
"      --flamegraph FILE  write a self-contained flame graph HTML page\n"
"  -o, --output FILE      write to FILE instead of standard output\n"
"      --no-demangle      keep C++ symbols mangled\n"
"      --kallsyms FILE    kernel symbols from FILE (default: the copy perf record\n"
"                         keeps in ~/.debug when it matches the running kernel,\n"
"                         else /proc/kallsyms)\n"
"      --stdio            accepted for perf compatibility (text is the default)\n");
}

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

static int parse_args(struct report *rp, int argc, char **argv)
{
	enum { OPT_CHILDREN = 256, OPT_NO_CHILDREN, OPT_PLIMIT, OPT_JSON, OPT_FOLDED, OPT_FLAME,
	       OPT_STDIO, OPT_NO_DEMANGLE, OPT_KALLSYMS };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "children", no_argument, NULL, OPT_CHILDREN },
		{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
		{ "call-graph", optional_argument, NULL, 'g' },
		{ "percent-limit", required_argument, NULL, OPT_PLIMIT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "flamegraph", required_argument, NULL, OPT_FLAME },
		{ "output", required_argument, NULL, 'o' },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, verbose = log_verbosity();
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:s:g::o:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'i': rp->input = optarg; break;
		case 's': rp->sort = optarg; break;
		case OPT_CHILDREN: rp->children = 1; break;
		case OPT_NO_CHILDREN: rp->children = 0; break;
		case 'g':
			if (!optarg && optind < argc && argv[optind][0] != '-' &&
			    (!strcmp(argv[optind], "none") || !strncmp(argv[optind], "graph", 5)))
				optarg = argv[optind++];
			if (optarg && !strcmp(optarg, "none"))
				rp->callgraph = 0;
			else if (!optarg || !strncmp(optarg, "graph", 5) || !strncmp(optarg, "caller", 6))
				rp->callgraph = 1;
			else {
				pr_err("unsupported call-graph mode '%s' for -g; use 'graph' or 'none'", optarg);
				return -1;
			}
			break;
		case OPT_PLIMIT: {
			const char *p = optarg;
			char buf[64];
			snprintf(buf, sizeof(buf), "%s", p);
			buf[strcspn(buf, "%")] = '\0';
			if (!parse_double(buf, &rp->percent_limit) || rp->percent_limit < 0 ||
			    rp->percent_limit > 100) {
				pr_err("bad --percent-limit '%s': expected a percentage from 0 to 100", optarg);
				return -1;
			}
			break;
		}
		case OPT_JSON: rp->json = true; break;
		case OPT_FOLDED: rp->folded = true; break;
		case OPT_FLAME: rp->flamegraph = optarg; break;
		case 'o': rp->output = optarg; break;
		case OPT_STDIO: break;
		case OPT_NO_DEMANGLE: rp->no_demangle = true; break;
		case OPT_KALLSYMS: rp->kallsyms = optarg; break;
		case 'v': log_set_verbosity(++verbose); break;
		case 'h': usage(stdout); exit(0);
		default:
			fprintf(stderr, "see 'bpfperf report --help'\n");
			return -1;
		}
	}
	if (optind < argc) {
		pr_err("unexpected argument '%s'; the input file is given with -i", argv[optind]);
		return -1;
	}
	if (rp->json + rp->folded + (rp->flamegraph != NULL) > 1) {
		pr_err("choose one of --json, --folded and --flamegraph");
		return -1;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report rp = { .input = "perf.data", .sort = "comm,dso,sym", .children = -1,
			     .callgraph = -1 };
	char err[1024];
	int ret = 1;
	FILE *out = stdout;

	if (parse_args(&rp, argc, argv) < 0)
		return 2;

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

	struct machine_opts mo = { .no_demangle = rp.no_demangle, .live = true,
				   .kallsyms = rp.kallsyms };
	rp.m = machine_new(&mo);
	rp.h = hist_new(&ho);
	/* The idle task has no COMM record; perf calls it swapper. */
	machine_comm(rp.m, 0, 0, "swapper", false);

	/* The aggregation thread reads kallsyms while the records are validated
	 * and ordered, then fills the hist while this thread decodes samples and
	 * resolves user space; kernel addresses go to whichever thread is less
	 * busy (see agg_add). */
	uint64_t t_start = now_ns();
	rp.agg = agg_new(rp.m, rp.h, true);
	if (pd_index(f, err, sizeof(err)) < 0) {
		pr_err("%s: %s", rp.input, err);
		goto out;
	}

	size_t flen;
	const void *feat = pd_feature(f, PD_FEAT_BPF_PROG_INFO, &flen);
	if (feat && pd_bpf_progs_decode(feat, flen, on_bpf_prog, rp.m) < 0)
		pr_warn("%s: the BPF program info section is malformed; BPF programs are named from "
			"KSYMBOL records only", rp.input);

	uint64_t t_indexed = now_ns();
	if (pd_process(f, on_record, &rp, err, sizeof(err)) < 0) {
		pr_err("%s: %s", rp.input, err);
		goto out;
	}
	uint64_t t_decoded = now_ns();
	agg_finish(rp.agg);
	uint64_t t_joined = now_ns();
	hist_finish(rp.h);
	uint64_t t_finished = now_ns();
	pr_debug("report: %.1f ms to index the records, %.1f ms to decode them, %.1f ms more for "
		 "the aggregation thread, %.1f ms to finish the hist",
		 (double)(t_indexed - t_start) / 1e6, (double)(t_decoded - t_indexed) / 1e6,
		 (double)(t_joined - t_decoded) / 1e6, (double)(t_finished - t_joined) / 1e6);

	if (rp.output) {
		out = fopen(rp.output, "w");
		if (!out) {
			pr_err("cannot create %s: %s", rp.output, strerror(errno));
			out = stdout;
			goto out;
		}
	}
	struct out_opts oo = {
		.event_name = rp.sample_event ? rp.sample_event->name : "cpu-clock",
		.total_samples = rp.samples,
		.lost_samples = rp.lost,
		.percent_limit = rp.percent_limit,
		.callgraph = callgraph,
		.callgraph_limit = ho.callgraph_limit,
		.title = rp.input,
	};
	int r;
	if (rp.flamegraph) {
		FILE *fg = fopen(rp.flamegraph, "w");
		if (!fg) {
			pr_err("cannot create %s: %s", rp.flamegraph, strerror(errno));
			goto out;
		}
		r = out_flamegraph_html(fg, rp.h, &oo);
		if (fclose(fg) != 0)
			r = -1;
		if (r == 0)
			fprintf(stderr, "flame graph of %llu samples written to %s\n",
				(unsigned long long)rp.samples, rp.flamegraph);
	} else if (rp.json) {
		r = out_json(out, rp.h, &oo);
	} else if (rp.folded) {
		r = out_folded(out, rp.h);
	} else {
		r = out_table(out, rp.h, &oo);
	}
	pr_debug("report: %.1f ms to write the output", (double)(now_ns() - t_finished) / 1e6);
	if (r < 0 || ferror(out)) {
		pr_err("cannot write the report: %s", strerror(errno));
		goto out;
	}
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
	if (out != stdout && fclose(out) != 0)
		ret = 1;
	agg_free(rp.agg);
	hist_free(rp.h);
	machine_free(rp.m);
	pd_close(f);
	return ret;
}
