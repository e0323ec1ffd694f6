// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf run's parse stage for fuzz_cli (see cli_cmds.h). */
#include "cmd/run.c"
#include "cli_cmds.h"

int fuzz_cli_run(int argc, char **argv)
{
	static struct run_opts initial;
	static bool saved;
	if (!saved) {
		initial = run_opts;
		saved = true;
	}
	run_opts = initial;
	struct cli_args args = { 0 };
	int rc = run_parse(argc, argv, &args);
	cli_args_free(&args);
	free(run_opts.target.pids);
	free(run_opts.sets.v);
	free(run_opts.events);
	return rc;
}
