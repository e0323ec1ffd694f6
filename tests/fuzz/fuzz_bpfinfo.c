// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the BPF program info saved in perf.data (HEADER_BPF_PROG_INFO) and the
 * BTF section (HEADER_BPF_BTF): the input is a section's body, decoded as
 * both. Each decoded program has every array it claims read in full (ASan
 * checks that they lie in the private copy) and is given to a machine, as
 * perf report does, which names its JITed functions; the machine then
 * resolves the program addresses. A decoded entry is encoded again and must
 * decode to the same arrays. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "perfdata/bpf_info.h"
#include "perfdata/format.h"
#include "sym/machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t sink;

struct ctx {
	struct machine *m;
	uint64_t addrs[16];
	size_t naddrs;
	int progs;
	bool no_machine;	/* the round trip: decoding only */
};

static void touch(uint64_t ptr, uint64_t bytes)
{
	const volatile uint8_t *p = (const volatile uint8_t *)(uintptr_t)ptr;
	if (!bytes)
		return;
	if (!p)
		abort();	/* a claimed array without memory */
	sink += p[0] + p[bytes - 1];
}

static void on_prog(void *arg, const struct bpf_prog_info *info)
{
	struct ctx *c = arg;
	c->progs++;
	touch(info->jited_prog_insns, info->jited_prog_len);
	touch(info->xlated_prog_insns, info->xlated_prog_len);
	touch(info->map_ids, (uint64_t)info->nr_map_ids * 4);
	touch(info->jited_ksyms, (uint64_t)info->nr_jited_ksyms * 8);
	touch(info->jited_func_lens, (uint64_t)info->nr_jited_func_lens * 4);
	touch(info->func_info, (uint64_t)info->nr_func_info * info->func_info_rec_size);
	touch(info->line_info, (uint64_t)info->nr_line_info * info->line_info_rec_size);
	touch(info->jited_line_info, (uint64_t)info->nr_jited_line_info * info->jited_line_info_rec_size);
	touch(info->prog_tags, (uint64_t)info->nr_prog_tags * 8);
	/* a machine only when there is something to give it (it costs more
	 * than the rest) */
	if (!c->m && !c->no_machine && info->nr_jited_ksyms) {
		/* a one-line kallsyms: the kernel side of the resolution costs
		 * nothing (/dev/null would be read as /proc/kallsyms is, for
		 * which a table of 128Ki symbols is made ready) */
		static struct fuzz_file ks;
		static const char line[] = "ffffffff81000000 T _text\n";
		if (ks.fd <= 0 && !fuzz_file_set(&ks, line, sizeof(line) - 1))
			abort();
		c->m = machine_new(&(struct machine_opts){ .kallsyms = ks.path,
							   .modules = "/dev/null" });
	}
	if (c->m)
		machine_bpf_prog_info(c->m, info);
	/* arrays may be unaligned (bpf_info.h) */
	const uint8_t *ksyms = (const uint8_t *)(uintptr_t)info->jited_ksyms;
	for (uint32_t i = 0; ksyms && i < info->nr_jited_ksyms && c->naddrs < 16; i++)
		memcpy(&c->addrs[c->naddrs++], ksyms + (size_t)i * 8, 8);
}

static void on_btf(void *arg, uint32_t id, const void *btf, uint32_t size)
{
	(void)arg;
	touch((uint64_t)(uintptr_t)btf, size);
	sink += id;
}

/* Encode the first entry again (its stored form) and decode it. */
static void roundtrip(const uint8_t *data, size_t size)
{
	if (size < 20)
		return;
	uint32_t info_len, data_len;
	uint64_t arrays;
	memcpy(&info_len, data + 4, 4);
	memcpy(&data_len, data + 8, 4);
	memcpy(&arrays, data + 12, 8);
	if (info_len > size - 20 || data_len > size - 20 - info_len)
		return;
	struct pd_bpf_prog p = { .arrays = arrays, .data_len = data_len };
	memcpy(&p.info, data + 20, info_len < sizeof(p.info) ? info_len : sizeof(p.info));
	p.data = (uint8_t *)data + 20 + info_len;
	struct pd_bpf_prog *one = &p;
	struct strbuf sb = { 0 };
	pd_bpf_progs_encode(&sb, &one, 1);
	struct ctx c = { .no_machine = true };
	int n = pd_bpf_progs_decode(sb.buf, sb.len, on_prog, &c);
	if (n < 0)
		abort();	/* what we encode must decode */
	machine_free(c.m);
	sb_free(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a private copy: the decoders must not read past it */
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	struct ctx c = { 0 };
	int n = pd_bpf_progs_decode(buf, size, on_prog, &c);
	if (n >= 0 && n != c.progs)
		abort();
	for (size_t i = 0; i < c.naddrs; i++) {
		for (uint64_t d = 0; d < 2; d++) {
			struct resolved r;
			machine_resolve(c.m, -1, -1, c.addrs[i] + d, AS_KERNEL, &r);
			if (!r.sym || !r.dso)
				abort();
		}
	}
	machine_free(c.m);
	pd_btfs_decode(buf, size, on_btf, NULL);
	roundtrip(buf, size);
	free(buf);
	return 0;
}
