// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf latency's parse stage for fuzz_cli (see cli_cmds.h). */
#include "cmd/latency.c"
#include "cli_cmds.h"

int fuzz_cli_latency(int argc, char **argv)
{
	struct latency_cli o = { 0 };
	int rc = parse_args(argc, argv, &o);
	latency_cli_free(&o);
	return rc;
}
