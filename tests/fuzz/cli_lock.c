// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf lock contention's parse stage for fuzz_cli (see cli_cmds.h). */
#include "cmd/lock.c"
#include "cli_cmds.h"

int fuzz_cli_lock(int argc, char **argv)
{
	struct lock_cli o = { .stack_skip = UINT64_MAX };
	uint64_t type_mask = 0;
	int rc = parse_args(argc, argv, &o, &type_mask);
	free(o.target.pids);
	return rc;
}
