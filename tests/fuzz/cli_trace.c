// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf trace's parse stage for fuzz_cli (see cli_cmds.h); -e is fuzzed by
 * fuzz_syscalls (sc_select). */
#include "cmd/trace.c"
#include "cli_cmds.h"

int fuzz_cli_trace(int argc, char **argv)
{
	struct trace_cli o = { .buffer_size = TRACE_DEFAULT_BUFFER_SIZE };
	int rc = parse_args(argc, argv, &o);
	free(o.target.pids);
	return rc;
}
