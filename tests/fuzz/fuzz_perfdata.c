// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the perf.data reader: header, attrs, feature sections, every record
 * (and the typed decoders of the side-band ones), the records in perf's
 * order as report -D prints them, the BPF program info and BTF sections, and
 * the tracepoint formats of HEADER_TRACING_DATA with the tracepoint samples
 * printed by them as report's views do (trace, trace_fields, a field). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hist/tpkeys.h"
#include "log.h"
#include "perfdata/bpf_info.h"
#include "perfdata/decode.h"
#include "perfdata/dump.h"
#include "perfdata/reader.h"
#include "perfdata/tp_format.h"

static uint64_t sink;

/* The typed decoders report uses for side-band records. */
static void decode_record(const struct perf_event_header *h)
{
	union pd_sideband d;
	switch (h->type) {
	case PERF_RECORD_MMAP:
		if (!pd_decode_mmap(h, h->size, &d.mmap))
			sink += strlen(d.mmap.filename) + d.mmap.rec.start;
		break;
	case PERF_RECORD_MMAP2:
		if (!pd_decode_mmap2(h, h->size, &d.mmap2))
			sink += strlen(d.mmap2.filename) + d.mmap2.rec.prot +
				((d.mmap2.rec.header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && d.mmap2.rec.build_id_size
				 ? d.mmap2.rec.build_id[d.mmap2.rec.build_id_size - 1] : 0);
		break;
	case PERF_RECORD_COMM:
		if (!pd_decode_comm(h, h->size, &d.comm))
			sink += strlen(d.comm.comm) + d.comm.rec.tid;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (!pd_decode_fork(h, h->size, &d.fork))
			sink += d.fork.rec.ppid + d.fork.rec.time;
		break;
	case PERF_RECORD_LOST:
		if (!pd_decode_lost(h, h->size, &d.lost))
			sink += d.lost.rec.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (!pd_decode_lost_samples(h, h->size, &d.lost_samples))
			sink += d.lost_samples.rec.lost;
		break;
	case PERF_RECORD_KSYMBOL:
		if (!pd_decode_ksymbol(h, h->size, &d.ksymbol))
			sink += strlen(d.ksymbol.name) + d.ksymbol.rec.addr;
		break;
	case PERF_RECORD_BPF_EVENT:
		if (!pd_decode_bpf_event(h, h->size, &d.bpf_event))
			sink += d.bpf_event.rec.id + d.bpf_event.rec.tag[PD_BPF_TAG_SIZE - 1];
		break;
	default:
		break;
	}
	sink += pd_record_true_size(h, h->size, 16, 0);
}

/* A tracepoint sample through its format: the trace line, the raw fields,
 * and the sort key values of trace, trace_fields and each field, as report's
 * views compute them. */
static void print_tp(const struct tp_formats *fs, const struct pd_record *r)
{
	if (!r->event || r->event->attr.type != PERF_TYPE_TRACEPOINT || r->hdr->type != PERF_RECORD_SAMPLE)
		return;
	const struct tp_format *f = tp_formats_by_id(fs, r->event->attr.config);
	if (!f)
		return;
	struct strbuf sb = { 0 };
	tp_print_event(&sb, f, r->s.raw, r->s.raw_size);
	tp_print_fields(&sb, f, r->s.raw, r->s.raw_size);
	struct tpkey tk[HIST_TP_MAX];
	int n = 0;
	tk[n++] = (struct tpkey){ .fmt = f, .field = NULL };
	for (size_t i = 0; i < f->nfields && n < HIST_TP_MAX; i++)
		tk[n++] = (struct tpkey){ .fmt = f, .field = &f->fields[i] };
	for (int raw = 0; raw < 2; raw++) {
		struct tpkeys *t = tpkeys_new(tk, n, raw);
		const struct hist_tp *v = tpkeys_values(t, r->s.raw, r->s.raw_size);
		sink += v != NULL;
		tpkeys_free(t);
	}
	sink += sb.len;
	sb_free(&sb);
}

static int touch_record(void *ctx, const struct pd_record *r)
{
	print_tp(ctx, r);
	decode_record(r->hdr);
	sink += r->hdr->type + r->s.ip + r->s.pid + r->s.time;
	for (uint64_t i = 0; i < r->s.nr_callchain; i++)
		sink += r->s.callchain[i];
	if (r->s.raw_size)
		sink += ((const uint8_t *)r->s.raw)[r->s.raw_size - 1];
	return 0;
}

/* perf report -D's text of every record, in perf's order, to /dev/null. */
static int dump_record(void *ctx, const struct pd_record *r)
{
	struct pd_file *f = ctx;
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	if (null)
		pd_dump_record(null, f, r, "fuzz.data");
	return 0;
}

static void touch_prog(void *ctx, const struct bpf_prog_info *info)
{
	(void)ctx;
	const uint64_t *ksyms = (const uint64_t *)(uintptr_t)info->jited_ksyms;
	for (uint32_t i = 0; ksyms && i < info->nr_jited_ksyms; i++)
		sink += ksyms[i];
	const uint8_t *tags = (const uint8_t *)(uintptr_t)info->prog_tags;
	for (uint32_t i = 0; tags && i < info->nr_prog_tags * 8; i++)
		sink += tags[i];
}

static void touch_btf(void *ctx, uint32_t id, const void *data, uint32_t size)
{
	(void)ctx;
	sink += id + (size ? ((const uint8_t *)data)[size - 1] : 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	log_set_verbosity(LOG_SILENT);	/* the reader's errors: not formatted */
	/* A private copy: the reader must not depend on the buffer's alignment. */
	uint8_t *copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy + 1, data, size);
	struct pd_file *f = pd_open_mem(copy + 1, size, NULL);
	if (f) {
		size_t len;
		const void *p = pd_feature(f, PD_FEAT_BPF_PROG_INFO, &len);
		if (p)
			pd_bpf_progs_decode(p, len, touch_prog, NULL);
		p = pd_feature(f, PD_FEAT_BPF_BTF, &len);
		if (p)
			pd_btfs_decode(p, len, touch_btf, NULL);
		for (size_t i = 0; i < pd_nr_events(f); i++)
			sink += strlen(pd_event_at(f, i)->name);
		struct tp_formats fs;
		p = pd_feature(f, PD_FEAT_TRACING_DATA, &len);
		tp_formats_load(&fs, p, p ? len : 0);
		pd_process(f, touch_record, &fs);
		tp_formats_free(&fs);
		pd_process_perf_order(f, dump_record, f);
		pd_close(f);
	}
	free(copy);
	return 0;
}
