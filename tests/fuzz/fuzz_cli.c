// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the command lines: each command's parse stage (cli_<cmd>.c: the
 * option table, the checks of combinations, the value parsers) and the value
 * parsers themselves on the first four words: event specs (-e of
 * record/stat, run's perf events), --filter expressions (with a cgroup
 * resolver that accepts any path, and with the real one), -p/-t lists, CPU
 * lists, lock types, --sort keys, kwork classes and keys, durations.
 * Input: a first byte that picks the command, then argv words separated by
 * NUL bytes (argv[0] is the command's name). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpfobj/bpfobj.h"
#include "cli.h"
#include "cli_cmds.h"
#include "event/event.h"
#include "feat/kwork.h"
#include "feat/lock.h"
#include "feat/sample_filter.h"
#include "hist/hist.h"
#include "log.h"
#include "target/target.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t sink;

static int any_cgroup(const char *path, uint64_t *id)
{
	*id = str_hash(path);
	return 0;
}

static void values(const char *w)
{
	struct perf_event_attr attr;
	char *name = NULL, err[256];
	if (event_parse(w, &attr, &name, err, sizeof(err)) == 0) {
		sink += attr.type + attr.config;
		free(name);
	}
	struct sf_expr e;
	struct sf_error fe;
	char buf[1024];
	for (int real = 0; real < 2; real++) {
		if (sf_parse(w, &e, &fe, real ? NULL : any_cgroup) == 0) {
			sink += sf_sample_type(&e) + e.n;
			struct sf_expr both = e;
			if (sf_expr_and(&both, &e) == 0)
				sink += both.n;
			for (uint32_t i = 0; i < e.n; i++)
				sink += strlen(sf_term_name(e.e[i].term, e.e[i].part)) +
					sf_term_needs_kctx(e.e[i].term);
		} else {
			sf_format_error(w, &fe, buf, sizeof(buf));
			sink += strlen(buf);
		}
		if (!strstr(w, "cgroup"))
			break;	/* the real resolver only matters for cgroup terms */
	}
	struct target t = { 0 };
	target_cli_pids(w, &t);
	target_cli_tids(w, &t);
	free(t.pids);
	free(t.tids);
	bool mask[64];
	sink += (uint64_t)parse_cpu_list(w, mask, 64);
	struct bpfobj_perf_event pe;
	sink += (uint64_t)bpfobj_parse_perf_event(w, &pe);
	sink += lock_type_mask(w);
	enum sort_key keys[SORT__MAX];
	const char *bad;
	sink += (uint64_t)sort_keys_parse(w, keys, SORT__MAX, &bad);
	sink += kwork_parse_classes(w, &bad);
	enum kwork_sort_key kkeys[KWORK_SORT__MAX];
	sink += (uint64_t)kwork_parse_sort((enum kwork_view)(w[0] % 4), w, kkeys, &bad);
	double secs;
	sink += cli_parse_seconds(w, &secs) == NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct {
		const char *name;
		int (*parse)(int argc, char **argv);
	} cmds[] = {
		{ "record", fuzz_cli_record }, { "report", fuzz_cli_report },
		{ "stat", fuzz_cli_stat },     { "trace", fuzz_cli_trace },
		{ "contention", fuzz_cli_lock }, { "run", fuzz_cli_run },
		{ "latency", fuzz_cli_latency },
		{ "kwork", fuzz_cli_kwork },
	};
	if (!size)
		return 0;
	size_t c = data[0] % (sizeof(cmds) / sizeof(cmds[0]));
	/* words: private copies, NUL-terminated (ASan sees reads past them) */
	char *argv[65];
	int argc = 0;
	argv[argc++] = strdup(cmds[c].name);
	for (size_t pos = 1; pos <= size && argc < 64;) {
		const uint8_t *end = memchr(data + pos, 0, size - pos);
		size_t len = end ? (size_t)(end - (data + pos)) : size - pos;
		char *w = malloc(len + 1);
		memcpy(w, data + pos, len);
		w[len] = '\0';
		argv[argc++] = w;
		pos += len + 1;
	}
	argv[argc] = NULL;
	/* getopt permutes argv: keep the pointers to free them */
	char *words[65];
	memcpy(words, argv, sizeof(argv));
	/* the value parsers on the first words only: event_parse's suggestions
	 * (edit distances to every event name) make each word costly */
	for (int i = 1; i < argc && i <= 4; i++)
		values(argv[i]);
	sink += (uint64_t)cmds[c].parse(argc, argv);
	log_set_verbosity(0);	/* -v counts up across runs otherwise */
	for (int i = 0; i < argc; i++)
		free(words[i]);
	return 0;
}
