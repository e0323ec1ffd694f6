// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the JIT symbol maps, /tmp/perf-PID.map ("START SIZE name" in hex):
 * the input is the map. Loaded as a DSO (from a memfd), every symbol looked
 * up at its start, middle and end and its name demangled; then through the
 * machine as perf report reads it: an anonymous mapping of this process,
 * whose map is /tmp/perf-<our pid>.map (written for the run, removed at
 * exit), resolved at the addresses the map names. A machine costs more than
 * all the rest, so that second part runs for one input in four (by size). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "sym/machine.h"
#include "sym/sym_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char map_path[64];
static uint64_t sink;

static void remove_map(void)
{
	unlink(map_path);
}

static void as_dso(const char *path)
{
	struct dso *d = calloc(1, sizeof(*d));
	if (!d)
		abort();
	d->kind = DSO_PERFMAP;
	d->path = d->name = path;
	struct dso_load_opts o = { 0 };
	dso_load(d, &o);
	for (size_t i = 0; i < d->st.n; i++) {
		const struct sym *s = &d->st.syms[i];
		/* the table is sorted and its entries are [start, end) */
		if (i && s->start < d->st.syms[i - 1].start)
			abort();
		const struct sym *f = symtab_find(&d->st, s->start);
		if (f && f->start > s->start)
			abort();
		if (s->end > s->start)
			(void)symtab_find(&d->st, s->start + (s->end - s->start) / 2);
		(void)symtab_find(&d->st, s->end - 1);
		sink += strlen(s->name);
		char *dm = sym_demangle_opts(s->name, i & 1);
		if (dm)
			sink += strlen(dm);
		free(dm);
	}
	dso_free(d);
}

static void through_machine(const uint8_t *data, size_t size)
{
	if (!map_path[0]) {
		snprintf(map_path, sizeof(map_path), "/tmp/perf-%d.map", (int)getpid());
		atexit(remove_map);
	}
	/* the machine opens the map by name: the file, written afresh */
	FILE *out = fopen(map_path, "w");
	if (!out)
		return;
	fwrite(data, 1, size, out);
	fclose(out);
	int pid = (int)getpid();
	struct machine_opts mo = { .kallsyms = "/dev/null", .modules = "/dev/null" };
	struct machine *m = machine_new(&mo);
	const uint64_t base = 0x7f0000000000ull, len = 1ull << 32;
	machine_mmap(m, pid, pid, base, len, 0, "//anon", NULL, 0, PROT_READ | PROT_EXEC, false);
	/* the addresses the map names (a line's START), and around the mapping */
	char *text = fuzz_cstr(data, size);
	int probes = 0;
	for (char *p = text; p && probes < 64; probes++) {
		uint64_t a = strtoull(p, NULL, 16);
		for (int k = 0; k < 2; k++) {
			struct resolved r;
			machine_resolve(m, pid, pid, a + (uint64_t)k, AS_USER, &r);
			if (!r.sym || !r.dso)
				abort();
			sink += strlen(r.sym);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	free(text);
	uint64_t edge[] = { base, base + 0x1000, base + len - 1, base + len };
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		struct resolved r;
		machine_resolve(m, pid, pid, edge[i], AS_USER, &r);
		if (!r.sym || !r.dso)
			abort();
	}
	machine_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file mf;
	if (fuzz_file_set(&mf, data, size))
		as_dso(mf.path);
	if (size % 4 == 0)
		through_machine(data, size);
	return 0;
}
