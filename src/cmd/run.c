// SPDX-License-Identifier: GPL-2.0-only
#include "cmds.h"
#include "log.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	pr_err("'run' is not built yet");
	return 1;
}
