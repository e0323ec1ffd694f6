// SPDX-License-Identifier: GPL-2.0-only
/* Declarative option tables: usage text, getopt_long tables and value
 * checks generated from one declaration per option (see cli.h). */
#include "cli.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* -v and -h belong to every command: appended when the table lacks them. */
static const struct cli_opt builtin_opts[] = {
	{ .kind = CLI_K_COUNT, .short_name = 'v', .long_name = "verbose",
	  .help = "more messages (-vv debug, -vvv libbpf debug)" },
	{ .kind = CLI_K_FLAG, .short_name = 'h', .long_name = "help", .help = "this help" },
};
#define OPT_VAL_BASE 256

static size_t table_len(const struct cli_opt *o)
{
	size_t n = 0;
	while (o[n].kind != CLI_K_END)
		n++;
	return n;
}

static bool table_has(const struct cli_opt *o, size_t n, char s, const char *l)
{
	for (size_t i = 0; i < n; i++)
		if ((s && o[i].short_name == s) || (l && o[i].long_name && !strcmp(o[i].long_name, l)))
			return true;
	return false;
}

/* The command's table followed by the built-ins it does not define itself. */
static struct cli_opt *full_table(const struct cli_opt *opts, size_t *n_out)
{
	size_t n = table_len(opts);
	struct cli_opt *all = xcalloc(n + ARRAY_SIZE(builtin_opts) + 1, sizeof(*all));
	memcpy(all, opts, n * sizeof(*all));
	for (size_t i = 0; i < ARRAY_SIZE(builtin_opts); i++)
		if (!table_has(opts, n, builtin_opts[i].short_name, builtin_opts[i].long_name))
			all[n++] = builtin_opts[i];
	*n_out = n;
	return all;
}

/* "--name" when the option has a long name, else "-x". */
static const char *opt_display(const struct cli_opt *o, char *buf, size_t len)
{
	if (o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
	return buf;
}

void cli_usage(const struct cli_cmd *cmd, FILE *f)
{
	size_t n;
	struct cli_opt *all = full_table(cmd->opts, &n);
	fprintf(f, "usage: bpfperf %s %s\n", cmd->name, cmd->synopsis ? cmd->synopsis : "[OPTIONS]");
	if (cmd->description)
		fprintf(f, "\n%s", cmd->description);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = &all[i];
		if (!o->help)
			continue;
		char left[64];
		int w = snprintf(left, sizeof(left), "  %c%c%s%s%s%s%s", o->short_name ? '-' : ' ',
				 o->short_name ? o->short_name : ' ',
				 o->short_name && o->long_name ? ", " : "  ",
				 o->long_name ? "--" : "", o->long_name ? o->long_name : "",
				 o->arg_name ? (o->optional_arg ? "[=" : " ") : "",
				 o->arg_name ? o->arg_name : "");
		if (o->arg_name && o->optional_arg && w > 0 && (size_t)w + 1 < sizeof(left))
			strcat(left, "]");
		/* Help text may hold newlines: continuation lines are indented. */
		const char *h = o->help;
		fprintf(f, "%-25s", left);
		if (strlen(left) >= 25)
			fprintf(f, "\n%-25s", "");
		for (const char *nl; (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(f, "%.*s\n%-25s", (int)(nl - h), h, "");
		fprintf(f, "%s\n", h);
	}
	if (cmd->footer)
		fprintf(f, "\n%s", cmd->footer);
	free(all);
}

int cli_bad_value(const char *opt, const char *value, const char *expected)
{
	pr_err("invalid %s '%s': expected %s", opt, value, expected);
	return CLI_USAGE_ERROR;
}

static bool parse_size_arg(const char *s, uint64_t *out)
{
	char *end;
	if (!*s || *s == '-')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s)
		return false;
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return false;
	*out = (uint64_t)v << shift;
	return true;
}

/* Store one option's value; CLI_OK or CLI_USAGE_ERROR (reported). */
static int apply(const struct cli_opt *o, const char *arg, const char *shown)
{
	uint64_t u;
	double d;
	switch (o->kind) {
	case CLI_K_FLAG:
		*(bool *)o->dst = true;
		return CLI_OK;
	case CLI_K_FLAG_OFF:
		*(bool *)o->dst = false;
		return CLI_OK;
	case CLI_K_COUNT:
		if (o->dst)
			(*(int *)o->dst)++;
		else
			log_set_verbosity(log_verbosity() + 1);
		return CLI_OK;
	case CLI_K_STR:
		*(const char **)o->dst = arg;
		return CLI_OK;
	case CLI_K_STRV: {
		struct cli_strv *sv = o->dst;
		ARRAY_GROW(sv->v, sv->cap, sv->n + 1);
		sv->v[sv->n++] = (char *)arg;
		return CLI_OK;
	}
	case CLI_K_U64:
		if (!parse_u64(arg, &u) || (double)u < o->min || (double)u > o->max)
			return cli_bad_value(shown, arg, o->expect);
		*(uint64_t *)o->dst = u;
		return CLI_OK;
	case CLI_K_SIZE:
		if (!parse_size_arg(arg, &u) || (double)u < o->min || (double)u > o->max)
			return cli_bad_value(shown, arg, o->expect);
		*(uint64_t *)o->dst = u;
		return CLI_OK;
	case CLI_K_DOUBLE:
		if (!parse_duration(arg, o->min, o->max, true, &d))
			return cli_bad_value(shown, arg, o->expect);
		*(double *)o->dst = d;
		return CLI_OK;
	case CLI_K_CHOICE: {
		struct strbuf sb = { 0 };
		for (int i = 0; o->choices[i]; i++) {
			if (!strcmp(o->choices[i], arg)) {
				*(int *)o->dst = i;
				sb_free(&sb);
				return CLI_OK;
			}
			sb_printf(&sb, "%s%s", i ? (o->choices[i + 1] ? ", " : " or ") : "one of ", o->choices[i]);
		}
		cli_bad_value(shown, arg, sb.buf ? sb.buf : "nothing");
		sb_free(&sb);
		return CLI_USAGE_ERROR;
	}
	case CLI_K_CALL: {
		const char *why = o->cb(arg, o->dst);
		if (!why)
			return CLI_OK;
		if (why != CLI_REPORTED)
			cli_bad_value(shown, arg ? arg : "", why);
		return CLI_USAGE_ERROR;
	}
	case CLI_K_END:
		break;
	}
	return CLI_USAGE_ERROR;
}

/* getopt_long's tables for the full option table. */
static struct option *getopt_tables(const struct cli_opt *all, size_t n, char *shorts, size_t slen)
{
	struct option *lo = xcalloc(n + 1, sizeof(*lo));
	size_t nl = 0, ns = 0;
	shorts[ns++] = '+';	/* stop at the first word that is not an option */
	shorts[ns++] = ':';	/* ':' for a missing argument, '?' for an unknown option */
	for (size_t i = 0; i < n; i++) {
		int has = !all[i].arg_name ? no_argument
			  : all[i].optional_arg ? optional_argument : required_argument;
		if (all[i].long_name)
			lo[nl++] = (struct option){ all[i].long_name, has, NULL, OPT_VAL_BASE + (int)i };
		if (all[i].short_name && ns + 3 < slen) {
			shorts[ns++] = all[i].short_name;
			for (int c = 0; c < has; c++)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	return lo;
}

static int index_of_short(const struct cli_opt *all, size_t n, int c)
{
	for (size_t i = 0; i < n; i++)
		if (all[i].short_name == c)
			return (int)i;
	return -1;
}

/* A word that is not an option: positional or the start of the command.
 * Returns true when parsing goes on. */
static bool take_positional(const struct cli_cmd *cmd, int argc, char **argv, struct cli_args *a)
{
	bool after_dashes = optind > 1 && !strcmp(argv[optind - 1], "--");
	if (optind >= argc)
		return false;
	if (cmd->positional == CLI_POS_ARGS && !after_dashes && strcmp(argv[optind], "--")) {
		a->pos[a->nr_pos++] = argv[optind++];
		return true;
	}
	if (cmd->positional == CLI_POS_ARGS && !after_dashes)
		optind++;	/* the "--" before the command */
	if (optind < argc)
		a->cmd = &argv[optind];
	return false;
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, struct cli_args *a)
{
	size_t n;
	struct cli_opt *all = full_table(cmd->opts, &n);
	char shorts[256];
	struct option *lo = getopt_tables(all, n, shorts, sizeof(shorts));
	int rc = CLI_OK;
	char shown[80];

	memset(a, 0, sizeof(*a));
	a->pos = xcalloc((size_t)argc + 1, sizeof(char *));
	optind = 0;	/* 0, not 1: glibc then forgets a previous parse's state */
	opterr = 0;
	while (rc == CLI_OK) {
		int c = getopt_long(argc, argv, shorts, lo, NULL);
		if (c == -1) {
			if (take_positional(cmd, argc, argv, a))
				continue;
			break;
		}
		int idx = c >= OPT_VAL_BASE ? c - OPT_VAL_BASE
			  : (c == ':' || c == '?') ? -1 : index_of_short(all, n, c);
		if (c == ':') {
			int o = optopt >= OPT_VAL_BASE ? optopt - OPT_VAL_BASE : index_of_short(all, n, optopt);
			const struct cli_opt *op = o >= 0 ? &all[o] : NULL;
			pr_err("option %s needs an argument (%s); see 'bpfperf %s --help'",
			       op ? opt_display(op, shown, sizeof(shown)) : argv[optind - 1],
			       op && op->arg_name ? op->arg_name : "a value", cmd->name);
			rc = CLI_USAGE_ERROR;
		} else if (idx < 0) {
			if (optopt >= OPT_VAL_BASE && (size_t)(optopt - OPT_VAL_BASE) < n)
				pr_err("option %s takes no argument; see 'bpfperf %s --help'",
				       opt_display(&all[optopt - OPT_VAL_BASE], shown, sizeof(shown)), cmd->name);
			else if (optopt > 0 && optopt < OPT_VAL_BASE)
				pr_err("unknown option '-%c'; see 'bpfperf %s --help'", optopt, cmd->name);
			else
				pr_err("unknown option '%s'; see 'bpfperf %s --help'", argv[optind - 1], cmd->name);
			rc = CLI_USAGE_ERROR;
		} else if (all[idx].short_name == 'h' && !all[idx].dst) {
			cli_usage(cmd, stdout);
			rc = CLI_HELP;
		} else {
			const struct cli_opt *op = &all[idx];
			if (op->optional_arg && !optarg && op->accepts && optind < argc &&
			    argv[optind][0] != '-' && op->accepts(argv[optind]))
				optarg = argv[optind++];
			rc = apply(op, optarg, opt_display(op, shown, sizeof(shown)));
		}
	}
	if (rc == CLI_OK && cmd->positional == CLI_POS_NONE && (a->cmd || a->nr_pos)) {
		pr_err("unexpected argument '%s'; see 'bpfperf %s --help'", a->cmd ? a->cmd[0] : a->pos[0],
		       cmd->name);
		rc = CLI_USAGE_ERROR;
	}
	free(lo);
	free(all);
	if (rc != CLI_OK)
		cli_args_free(a);
	return rc;
}

void cli_args_free(struct cli_args *a)
{
	free(a->pos);
	a->pos = NULL;
	a->nr_pos = 0;
}

const char *cli_parse_seconds(const char *arg, void *dst)
{
	if (!parse_duration(arg, 0, CLI_SECONDS_MAX, false, dst))
		return "a number of seconds above 0 and at most 1e7 (115 days), e.g. 5 or 0.5";
	return NULL;
}

int cli_parse_cmd(const struct cli_cmd *cmd, int argc, char **argv, char ***workload)
{
	struct cli_args args;
	int rc = cli_parse(cmd, argc, argv, &args);
	if (rc != CLI_OK)
		return rc;
	*workload = args.cmd;
	cli_args_free(&args);
	return CLI_OK;
}
