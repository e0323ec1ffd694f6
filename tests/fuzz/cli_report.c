// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf report's parse stage for fuzz_cli (see cli_cmds.h). */
#include "cmd/report.c"
#include "cli_cmds.h"

int fuzz_cli_report(int argc, char **argv)
{
	static struct report_cli c;	/* large (the CPU mask), as in cmd_report */
	cli_init(&c);
	int rc = parse_args(&c, argc, argv);
	if (rc == CLI_OK) {
		struct hist_opts ho = { 0 };
		rc = report_cli_views(&c, &ho);	/* sort keys, -F, --cpu, --time, --parent */
	}
	cli_free(&c);
	return rc;
}
