// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the perf.data reader: header, attrs, feature sections, every record,
 * the BPF program info and BTF sections. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "perfdata/bpf_info.h"
#include "perfdata/reader.h"

static uint64_t sink;

static int touch_record(void *ctx, const struct pd_record *r)
{
	(void)ctx;
	sink += r->hdr->type + r->s.ip + r->s.pid + r->s.time;
	for (uint64_t i = 0; i < r->s.nr_callchain; i++)
		sink += r->s.callchain[i];
	if (r->s.raw_size)
		sink += ((const uint8_t *)r->s.raw)[r->s.raw_size - 1];
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
	char err[512];
	log_set_verbosity(-1);
	/* A private copy: the reader must not depend on the buffer's alignment. */
	uint8_t *copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy + 1, data, size);
	struct pd_file *f = pd_open_mem(copy + 1, size, err, sizeof(err));
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
		pd_process(f, touch_record, NULL, err, sizeof(err));
		pd_close(f);
	}
	free(copy);
	return 0;
}
