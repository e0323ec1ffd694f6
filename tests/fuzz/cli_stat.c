// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf stat's parse stage for fuzz_cli (see cli_cmds.h). */
#include "cmd/stat.c"
#include "cli_cmds.h"

int fuzz_cli_stat(int argc, char **argv)
{
	struct stat_cli o = { .big_num = true };
	int rc = parse_args(argc, argv, &o);
	free_cli(&o);
	return rc;
}
