// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf report's parse stage for fuzz_cli (see cli_cmds.h). */
#include "cmd/report.c"
#include "cli_cmds.h"

int fuzz_cli_report(int argc, char **argv)
{
	static struct report rp;	/* large (the CPU mask), as in cmd_report */
	rp = (struct report){ .input = "perf.data", .input_fd = -1, .children = -1, .callgraph = -1,
			      .cg_threshold = -1, .cg_order = -1 };
	int rc = parse_args(&rp, argc, argv);
	if (rc == CLI_OK) {
		struct hist_opts ho = { 0 };
		rc = resolve_views(&rp, &ho);	/* sort keys, -F, --cpu, --time, --parent */
	}
	hist_filter_free(&rp.filter);
	tpkeys_names_free(rp.tp_names, rp.ntp_names);
	return rc;
}
