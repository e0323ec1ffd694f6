// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf report's parse stage for fuzz_cli (see cli_cmds.h). */
#include "cmd/report.c"
#include "cli_cmds.h"

int fuzz_cli_report(int argc, char **argv)
{
	struct report rp = { .input = "perf.data", .sort = "comm,dso,sym", .children = -1,
			     .callgraph = -1 };
	int rc = parse_args(&rp, argc, argv);
	if (rc == CLI_OK) {
		enum sort_key keys[SORT__MAX];
		const char *bad = NULL;
		rc = sort_keys_parse(rp.sort, keys, SORT__MAX, &bad);
	}
	return rc;
}
