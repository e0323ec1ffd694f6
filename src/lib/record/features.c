// SPDX-License-Identifier: GPL-2.0-only
/* The header feature sections of a recording: host, CPUs, memory, the
 * command line, tracepoint formats and the BPF programs seen. */
#include "record/internal.h"
#include "log.h"
#include "skel/skel.h"
#include "perfdata/bpf_info.h"
#include "perfdata/tracing_data.h"
#include "perfdata/writer.h"
#include "util.h"

#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

static void add_string_feature(struct pd_writer *w, enum pd_feature f, const char *s)
{
	struct strbuf b = { 0 };
	pd_feat_put_string(&b, s);
	pd_writer_add_feature(w, f, b.buf, b.len);
	sb_free(&b);
}

/* perf needs the tracepoints' formats to read a file that has any. */
static void add_tracing_data(struct recording *r, struct strbuf *b)
{
	const struct perf_event_attr **attrs = xcalloc(r->nevents, sizeof(*attrs));
	bool has_tp = false;
	for (size_t i = 0; i < r->nevents; i++) {
		attrs[i] = &r->events[i].attr;
		has_tp |= attrs[i]->type == PERF_TYPE_TRACEPOINT;
	}
	const char *tfs = has_tp ? tracefs_dir() : NULL;
	if (tfs) {
		int err = pd_tracing_data_build(b, tfs, attrs, r->nevents);
		if (err)
			pr_warn("cannot read the tracepoint formats from %s (%s): perf will not read "
				"this file's tracepoint events", tfs, log_strerr(err));
		else
			pd_writer_add_feature(r->w, PD_FEAT_TRACING_DATA, b->buf, b->len);
		sb_reset(b);
	}
	free(attrs);
}

/* Event groups ({a,b} in -e) as perf writes them: the count, then per
 * group its name, the leader's attr index and the number of members. */
static void add_group_desc(struct recording *r, struct strbuf *b)
{
	uint32_t ngroups = 0;
	for (size_t i = 0; i < r->nevents; i++)
		ngroups += r->events[i].leader == (int)i;
	if (!ngroups)
		return;
	pd_feat_put_u32(b, ngroups);
	for (size_t i = 0; i < r->nevents; i++) {
		if (r->events[i].leader != (int)i)
			continue;
		uint32_t members = 0;
		for (size_t j = 0; j < r->nevents; j++)
			members += r->events[j].leader == (int)i;
		pd_feat_put_string(b, "{anon_group}");
		pd_feat_put_u32(b, (uint32_t)i);
		pd_feat_put_u32(b, members);
	}
	pd_writer_add_feature(r->w, PD_FEAT_GROUP_DESC, b->buf, b->len);
	sb_reset(b);
}

void rec_add_features(struct recording *r)
{
	struct utsname u;
	if (uname(&u) == 0) {
		add_string_feature(r->w, PD_FEAT_HOSTNAME, u.nodename);
		add_string_feature(r->w, PD_FEAT_OSRELEASE, u.release);
		add_string_feature(r->w, PD_FEAT_ARCH, u.machine);
	}
	add_string_feature(r->w, PD_FEAT_VERSION, "bpfperf " BPFPERF_VERSION);

	struct strbuf b = { 0 };
	uint32_t avail = (uint32_t)cpu_count_possible(), online = 0;
	bool *on = cpu_online_mask();
	for (uint32_t i = 0; i < avail; i++)
		online += on[i];
	free(on);
	pd_feat_put_u32(&b, avail);
	pd_feat_put_u32(&b, online);
	pd_writer_add_feature(r->w, PD_FEAT_NRCPUS, b.buf, b.len);
	sb_reset(&b);

	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	pd_feat_put_u64(&b, (uint64_t)pages * (uint64_t)psz / 1024);
	pd_writer_add_feature(r->w, PD_FEAT_TOTAL_MEM, b.buf, b.len);
	sb_reset(&b);

	pd_feat_put_u32(&b, (uint32_t)r->opts.cmdline_argc);
	for (int i = 0; i < r->opts.cmdline_argc; i++)
		pd_feat_put_string(&b, r->opts.cmdline_argv[i]);
	pd_writer_add_feature(r->w, PD_FEAT_CMDLINE, b.buf, b.len);
	sb_reset(&b);

	add_tracing_data(r, &b);
	add_group_desc(r, &b);
	if (r->synth.nprogs) {
		pd_bpf_progs_encode(&b, r->synth.progs, r->synth.nprogs);
		pd_writer_add_feature(r->w, PD_FEAT_BPF_PROG_INFO, b.buf, b.len);
		sb_reset(&b);
	}
	if (r->synth.nbtfs) {
		pd_btfs_encode(&b, r->synth.btfs, r->synth.nbtfs);
		pd_writer_add_feature(r->w, PD_FEAT_BPF_BTF, b.buf, b.len);
	}
	sb_free(&b);
}
