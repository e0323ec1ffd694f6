// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf kwork's parse stage for fuzz_cli (see cli_cmds.h): the view is
 * picked from the input (the length of the first word), as cmd_kwork picks
 * it from its first word. */
#include "cmd/kwork.c"
#include "cli_cmds.h"

int fuzz_cli_kwork(int argc, char **argv)
{
	struct kwork_cli o = { 0 };
	o.view = (enum kwork_view)((argc > 1 ? strlen(argv[1]) : 0) % 4);
	int rc = parse_args(argc, argv, &o);
	kwork_cli_free(&o);
	return rc;
}
