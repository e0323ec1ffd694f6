/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf report's checks (report_check.c), for report.c: of the options
 * against each other and against the input file, with the messages on what
 * the library refused, which name the options. */
#ifndef BPFPERF_CMD_REPORT_CHECK_H
#define BPFPERF_CMD_REPORT_CHECK_H

#include "out/report.h"

/* The library's report and what only the command uses. */
struct report_cli {
	struct report rp;
	int input_fd;		/* -i -: the standard input as a file, else -1 */
	bool force;		/* -f: read a file another user owns */
	const char *output;	/* -o FILE, else standard output, opened once for every pass */
	bool header, header_only, show_info;
};

/* --sort, -F, --cpu, --time, --parent and their combinations; the views
 * into ho and the profile options. 0 or 2 (a usage error, reported). */
int report_cli_views(struct report_cli *c, struct hist_opts *ho);
/* --cpu against f: 0, or -1 after saying why not. */
int report_cli_cpus(const struct report *rp, const struct pd_file *f);
/* Call graphs against f, with the notes on them: 0, or 2. */
int report_cli_callgraph(struct report *rp, const struct pd_file *f, struct hist_opts *ho, bool *callgraph);
/* Tracepoint sort keys against f: 0, or 2. */
int report_cli_tp_keys(struct report *rp, const struct pd_file *f, struct hist_opts *ho);

#endif
