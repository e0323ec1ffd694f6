// SPDX-License-Identifier: GPL-2.0-only
/* The BPF sample filter hook: see filter.h. */
#include "record/filter.h"
#include "bpfobj/bpfobj.h"
#include "log.h"
#include "util.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>

struct record_filter {
	const char *path;
	char *const *sets;
	int nr_sets;
	struct bpfobj *filter;	/* the object, once open */
	int *prog_fds, nr_prog_fds;
	bool counted;		/* dropped is known */
	uint64_t dropped;
};

struct record_filter *record_filter_new(const char *path, char *const *sets, int nr_sets)
{
	struct record_filter *f = xcalloc(1, sizeof(*f));
	f->path = path;
	f->sets = sets;
	f->nr_sets = nr_sets;
	return f;
}

/* The kernel counts the samples a program drops only with the lost counts. */
static int filter_configure(void *ctx, struct recording *r)
{
	(void)ctx;
	recording_want_lost_counts(r);
	return 0;
}

/* The object's perf_event program filters every sampling event. */
static int filter_attach(void *ctx, struct recording *r)
{
	struct record_filter *f = ctx;
	struct bpfobj_open_opts oo = { .sets = f->sets, .nr_sets = f->nr_sets };
	int err = bpfobj_open_perf_event_progs(f->path, &oo, &f->filter, &f->prog_fds, &f->nr_prog_fds);
	if (err)	/* reported (also a missing perf_event program) */
		return err < 0 ? err : -EINVAL;
	if (f->nr_prog_fds != 1) {
		pr_err("%s has %d perf_event programs; a sample filter object must have exactly one",
		       f->path, f->nr_prog_fds);
		return -EINVAL;
	}
	char what[300];
	snprintf(what, sizeof(what), "the filter from %s", f->path);
	return recording_attach_bpf(r, SIZE_MAX, f->prog_fds[0], what);
}

/* The filter's own count of dropped samples: a global `__u64 dropped` in
 * its .bss (the convention of examples/sample_filter.bpf.c). -1 if absent. */
static int64_t filter_dropped_global(struct record_filter *r)
{
	uint64_t d;
	return bpfobj_global_u64(r->filter, ".bss", "dropped", &d) ? -1 : (int64_t)d;
}

/* The number of dropped samples as a LOST_SAMPLES record marked as BPF
 * drops. The kernel counts filter drops from Linux 6.13 on, but only in
 * its lost count (with ring buffer losses); a filter that counts its own
 * drops is exact. */
static int filter_finish(void *ctx, struct recording *r)
{
	struct record_filter *f = ctx;
	int64_t dropped = filter_dropped_global(f);
	if (dropped < 0) {
		int64_t lost_total = recording_kernel_lost(r);
		struct recording_stats st;
		recording_stats_now(r, &st);
		if (lost_total >= 0)
			dropped = (uint64_t)lost_total > st.lost ? lost_total - (int64_t)st.lost : 0;
	}
	if (dropped < 0) {
		pr_warn("the number of samples the filter dropped is unknown: this kernel does not "
			"count them and %s has no `__u64 dropped` counter", f->path);
		return 0;
	}
	f->dropped = (uint64_t)dropped;
	f->counted = true;
	return recording_write_bpf_dropped(r, 0, f->dropped);
}

struct recording_hook record_filter_hook(struct record_filter *f)
{
	return (struct recording_hook){
		.name = "BPF sample filter",
		.configure = filter_configure,
		.after_open = filter_attach,
		.before_finish = filter_finish,
		.ctx = f,
	};
}

bool record_filter_dropped(const struct record_filter *f, uint64_t *dropped)
{
	*dropped = f->dropped;
	return f->counted;
}

void record_filter_free(struct record_filter *f)
{
	if (!f)
		return;
	free(f->prog_fds);
	if (f->filter)
		bpfobj_close(f->filter);
	free(f);
}
