/* SPDX-License-Identifier: GPL-2.0-only */
/* Samples into a hist, on two threads. The caller's thread feeds samples in
 * time order, between the side-band calls it makes on the machine, and
 * resolves what depends on time (user maps, BPF programs). A worker thread
 * first loads kallsyms, then resolves kernel text addresses and adds the
 * samples to the hist. The two meet through a queue of large chunks, so they
 * synchronize once per few thousand samples. Without a worker (threaded =
 * false, or when none can be started) everything runs on the caller's
 * thread, with the same result. */
#ifndef BPFPERF_HIST_AGGREGATE_H
#define BPFPERF_HIST_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist/hist.h"
#include "sym/machine.h"

struct agg_sample {
	int pid, tid, cpu;
	int state;			/* off-CPU samples' task state letter, else 0 */
	const struct hist_tp *tp;	/* tracepoint key values (interned by the caller) */
	uint64_t period;
	enum addr_space space;		/* of ip (the sample's cpumode) */
	const uint64_t *callchain;	/* perf.data layout: addresses and PERF_CONTEXT_*
					 * markers; may be empty */
	size_t nr_callchain;
	uint64_t ip;			/* the frame when the callchain has no address */
	uint32_t max_frames;		/* keep max_frames frames of the callchain; 0: all
					 * (perf report's --max-stack) */
	bool keep_outer;		/* ... the outermost ones, with the sampled one
					 * still first (perf's caller order); else the
					 * innermost */
	uint8_t hist;			/* into agg_new's hs[hist] */
};

struct aggregator;

/* Samples go to the hists hs[0..nh) (nh <= 256; one per event profiled,
 * made with the same options but for their tracepoint keys). The machine
 * and the hists must outlive the aggregator; until agg_finish(), the hists
 * belong to the aggregator and the machine is shared with it (only
 * side-band calls and reads of comms on the caller's side). */
struct aggregator *agg_new(struct machine *m, struct hist *const *hs, size_t nh, bool threaded);
void agg_add(struct aggregator *a, const struct agg_sample *s);
/* Returns when every sample added is in the hist (the worker has stopped). */
void agg_finish(struct aggregator *a);
void agg_free(struct aggregator *a);

#endif
