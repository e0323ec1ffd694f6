// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf report's checks, see report_check.h: the library decides
 * (hist/report_setup.h, out/report.h) and returns what it refused; the
 * messages here name the options. */
#include "report_check.h"
#include "hist/report_setup.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>

/* What report_keys_* returned: 0, or 2 after naming the refused key with
 * its option. */
static int keys_checked(const struct report *rp, int err)
{
	const struct report_keys *k = &rp->keys;
	const char *opt = k->bad_in_fields ? "-F/--fields" : "--sort";
	if (!err)
		return 0;
	if (err == -EINVAL && k->bad && sort_key_perf_only(k->bad))
		pr_err("sort key '%s' in %s is not supported by bpfperf (perf has it); use %s",
		       k->bad, opt, sort_keys_known());
	else if (err == -EINVAL)
		pr_err("unknown sort key '%s' in %s; use %s", k->bad && *k->bad ? k->bad : k->bad_list, opt,
		       sort_keys_known());
	else if (!k->tp_formats.n)
		pr_err("unknown sort key '%s' in --sort; use %s (tracepoint fields, trace and "
		       "trace_fields need a recording of tracepoint events, and %s has none)",
		       k->bad, sort_keys_known(), rp->input);
	else
		pr_err("unknown sort key '%s' in --sort%s%s%s; use %s, trace, trace_fields, or a field "
		       "of %s's tracepoint events as FIELD or SYS:EVENT.FIELD", k->bad,
		       *k->hint ? " (did you mean: " : "", k->hint, *k->hint ? "?)" : "", sort_keys_known(),
		       rp->input);
	return 2;
}

/* --sort, -F and --cpu (hist/report_setup.h), the combinations of options;
 * the views (filters, --cpu, --time, --max-stack) into the profile
 * options. 0 or 2. */
int report_cli_views(struct report_cli *c, struct hist_opts *ho)
{
	struct report *rp = &c->rp;
	char err[512];
	if (keys_checked(rp, report_keys_parse(&rp->keys, ho)))
		return 2;
	if (rp->cpu_list && report_cpus_parse(rp->cpu_list, rp->cpus, ARRAY_SIZE(rp->cpus), err, sizeof(err)) < 0) {
		pr_err("invalid --cpu '%s': %s", rp->cpu_list, err);
		return 2;
	}
	if ((rp->stats || rp->dump) && (rp->json || rp->folded || rp->flamegraph)) {
		pr_err("--stats and -D print no profile: drop --json, --folded or --flamegraph");
		return 2;
	}
	if (rp->time) {
		/* the syntax now (a usage error); percent slices get their
		 * bounds from the file when it is read */
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
	if (rp->quiet)
		log_set_verbosity(-1);
	report_views(rp, ho);
	return 0;
}

/* --cpu against the file: its samples carry their CPU, and it was recorded
 * on those CPUs. 0, or -1 after saying why not. */
int report_cli_cpus(const struct report *rp, const struct pd_file *f)
{
	size_t bad;
	uint32_t online;
	int err = report_cpus_check(f, rp->cpus, ARRAY_SIZE(rp->cpus), &bad, &online);
	if (err == -ENODATA)
		pr_err("%s: the samples carry no CPU, so --cpu cannot select them; record system-wide "
		       "(-a), or with perf record --sample-cpu", rp->input);
	else if (err)
		pr_err("--cpu %s: CPU %zu is not in %s, recorded on %u CPUs", rp->cpu_list, bad, rp->input,
		       online);
	return err ? -1 : 0;
}

/* Call graphs (out/report.h) with the notes on them: 0, or 2 for a
 * combination we cannot draw. */
int report_cli_callgraph(struct report *rp, const struct pd_file *f, struct hist_opts *ho, bool *callgraph)
{
	int err = report_cg_resolve(rp, f, ho, callgraph);
	if (rp->cg_dwarf)
		pr_warn("%s was recorded with --call-graph dwarf: its user-space call graphs need DWARF "
			"unwinding, which bpfperf does not do yet, so they stop at the sampled function "
			"(kernel frames are complete); use perf report for them, or record with "
			"--call-graph fp and frame pointers", rp->input);
	if (err) {
		pr_err("the sort key parent needs call graphs, and %s has none: record with -g", rp->input);
		return 2;
	}
	if (rp->cg_missing)
		pr_warn("%s has no call graphs (record with -g); showing flat entries", rp->input);
	return 0;
}

int report_cli_tp_keys(struct report *rp, const struct pd_file *f, struct hist_opts *ho)
{
	return keys_checked(rp, report_keys_tp(&rp->keys, f, ho, &rp->po));
}
