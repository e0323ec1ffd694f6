// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf record's parse stage for fuzz_cli (see cli_cmds.h). */
#include "cmd/record.c"
#include "event/event.h"
#include "cli_cmds.h"

int fuzz_cli_record(int argc, char **argv)
{
	struct cli_args args;
	memset(&o, 0, sizeof(o));
	o.output = "perf.data";
	o.pages = RECORDING_DEFAULT_PAGES;
	o.off_cpu_thresh_ms = o.stack_skip = UINT64_MAX;
	int rc = cli_parse(&record_cmd, argc, argv, &args);
	if (rc == CLI_OK) {
		o.target.argv = args.cmd;
		size_t *first = xcalloc(o.events.n + 1, sizeof(*first));
		struct event_list ev = { 0 };
		if (check_options() == 0 && split_events(&ev, first) == 0) {
			for (size_t i = 0; i < ev.n; i++) {
				struct perf_event_attr attr;
				char *name = NULL, err[256];
				if (event_parse(ev.spec[i], &attr, &name, err, sizeof(err)) == 0)
					free(name);
			}
			struct sf_expr e;
			if (o.off_cpu && off_cpu_filter(&e) == 0)
				rc = (int)e.n;
		}
		event_list_free(&ev);
		free(first);
		cli_args_free(&args);
	}
	free(o.filters);
	free(o.target.pids);
	free(o.target.tids);
	free(o.events.v);
	free(o.sets.v);
	return rc;
}
