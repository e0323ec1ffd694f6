// SPDX-License-Identifier: GPL-2.0-only
/* perf report -D (see dump.h). */
#include "out/dump.h"
#include "hist/profile.h"
#include "log.h"
#include "out/out.h"
#include "perfdata/dump.h"
#include "perfdata/reader.h"
#include "sym/machine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct dump_ctx {
	FILE *out;
	const struct pd_file *f;
	const char *name;
	struct machine *m;
	uint64_t nr[PROFILE_RECORD_TYPES];
	uint64_t samples[PROFILE_MAX_EVENTS];
};

/* perf's machine__resolve in dump mode: the sample's thread as it is named
 * now, and the file of the map its ip is in. */
static void sample_lines(struct dump_ctx *d, const struct pd_record *r)
{
	const struct pd_sample *s = &r->s;
	struct resolved res;
	fprintf(d->out, " ... thread: %s:%d\n", machine_thread_comm(d->m, (int)s->tid),
		(int)s->tid);
	machine_resolve(d->m, (int)s->pid, (int)s->tid, s->ip, profile_addr_space(r->hdr->misc), &res);
	fprintf(d->out, " ...... dso: %s\n",
		(r->hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_HYPERVISOR
			? "[hypervisor]"
		: !strcmp(res.dso, "[unknown]") ? "<not found>" : res.dso_path);
}

static int dump_one(void *ctx, const struct pd_record *r)
{
	struct dump_ctx *d = ctx;
	uint32_t type = r->hdr->type;
	if (type < PROFILE_RECORD_TYPES)
		d->nr[type]++;
	if (pd_dump_record(d->out, d->f, r, d->name) < 0)
		return -1;
	if (type == PERF_RECORD_SAMPLE && r->event) {
		for (size_t i = 0; i < pd_nr_events(d->f) && i < PROFILE_MAX_EVENTS; i++)
			if (pd_event_at(d->f, i) == r->event)
				d->samples[i]++;
		sample_lines(d, r);
	} else if (profile_sideband(d->m, r) < 0) {
		pr_debug("%s: %s record at offset %#llx is malformed: not applied", d->name,
			 pd_record_type_name(type), (unsigned long long)r->offset);
	}
	return ferror(d->out) ? -1 : 0;
}

int out_dump(FILE *out, struct pd_file *f, const char *name, const struct profile_opts *o)
{
	struct dump_ctx *d = calloc(1, sizeof(*d));
	if (!d) {
		pr_err("dumping %s: out of memory", name);
		return -1;
	}
	*d = (struct dump_ctx){ .out = out, .f = f, .name = name, .m = profile_machine_new(f, o) };
	fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
	      out);
	int r = pd_process_perf_order(f, dump_one, d);
	if (r == 0) {
		struct out_stats_event ev[PROFILE_MAX_EVENTS];
		size_t nev = 0;
		for (size_t i = 0; i < pd_nr_events(f) && i < PROFILE_MAX_EVENTS; i++)
			ev[nev++] = (struct out_stats_event){ pd_event_at(f, i)->name, d->samples[i] };
		r = out_record_stats(out, d->nr, PROFILE_RECORD_TYPES, pd_record_type_name, ev, nev);
	} else if (r == -1) {
		pr_err("writing the dump of %s: %s; check the output file and the free space", name,
		       strerror(errno ? errno : EIO));
	}	/* else the reader said what is wrong with the file */
	machine_free(d->m);
	free(d);
	return r < 0 ? -1 : 0;
}
