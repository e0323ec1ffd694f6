// SPDX-License-Identifier: GPL-2.0-only
/* The machine's BPF programs and other KSYMBOL text: address ranges sorted
 * by start, from KSYMBOL records and from the recording's saved program
 * info (HEADER_BPF_PROG_INFO). */
#include "machine_int.h"
#include "util.h"

#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>

static size_t bpf_first_after(const struct machine *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nbpf;	/* first range with start > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->bpf[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct bpf_range *machine_bpf_find(const struct machine *m, uint64_t addr)
{
	size_t i = bpf_first_after(m, addr);
	if (!i || addr >= m->bpf[i - 1].end)
		return NULL;
	return &m->bpf[i - 1];
}

static bool bpf_overlaps(const struct machine *m, uint64_t start, uint64_t end)
{
	size_t i = bpf_first_after(m, start);
	if (i && m->bpf[i - 1].end > start)
		return true;
	return i < m->nbpf && m->bpf[i].start < end;
}

static void bpf_add(struct machine *m, uint64_t start, uint64_t end, const char *name)
{
	/* A new program replaces whatever overlapped it, unloaded or not. */
	size_t i = bpf_first_after(m, start);
	if (i && m->bpf[i - 1].end > start)
		i--;
	size_t j = i;
	while (j < m->nbpf && m->bpf[j].start < end)
		j++;
	size_t removed = j - i;
	ARRAY_GROW(m->bpf, m->capbpf, m->nbpf - removed + 1);
	if (m->nbpf > j)
		memmove(&m->bpf[i + 1], &m->bpf[j], (m->nbpf - j) * sizeof(*m->bpf));
	m->bpf[i] = (struct bpf_range){ start, end, strtab_intern(m->strs, name), false };
	machine_rank_dso(m, m->bpf[i].name);
	m->nbpf = m->nbpf - removed + 1;
}

void machine_ksymbol(struct machine *m, uint64_t addr, uint32_t len, const char *name,
		     bool unregister)
{
	if (!name || !*name)
		return;
	uint64_t end = addr + (len ? len : 1);
	if (end < addr)
		end = UINT64_MAX;
	if (unregister) {
		/* Keep the range: samples taken before the unload still name it,
		 * until another program takes the place. */
		size_t i = bpf_first_after(m, addr);
		if (i && m->bpf[i - 1].start == addr)
			m->bpf[i - 1].unregistered = true;
		return;
	}
	bpf_add(m, addr, end, name);
}

void machine_bpf_prog_info(struct machine *m, const struct bpf_prog_info *info)
{
	if (!info || !info->jited_ksyms || !info->nr_jited_ksyms)
		return;
	/* The arrays are where the file says, maybe not aligned (writers
	 * before perf's 8-byte rounding packed them): read them by bytes. */
	const uint8_t *ksyms = (const uint8_t *)(uintptr_t)info->jited_ksyms;
	const uint8_t *lens = (const uint8_t *)(uintptr_t)info->jited_func_lens;
	const uint8_t (*tags)[BPF_TAG_SIZE] =
		(const uint8_t (*)[BPF_TAG_SIZE])(uintptr_t)info->prog_tags;
	for (uint32_t i = 0; i < info->nr_jited_ksyms && i < 256; i++) {
		uint64_t addr;
		uint32_t len = 0;
		memcpy(&addr, ksyms + (size_t)i * sizeof(addr), sizeof(addr));
		if (lens && i < info->nr_jited_func_lens)
			memcpy(&len, lens + (size_t)i * sizeof(len), sizeof(len));
		if (!addr)
			continue;
		const uint8_t *tag = tags && i < info->nr_prog_tags ? tags[i] : info->tag;
		char name[128];
		int n = snprintf(name, sizeof(name), "bpf_prog_");
		for (int b = 0; b < BPF_TAG_SIZE; b++)
			n += snprintf(name + n, sizeof(name) - (size_t)n, "%02x", tag[b]);
		char pname[sizeof(info->name) + 1];
		memcpy(pname, info->name, sizeof(info->name));
		pname[sizeof(info->name)] = '\0';
		/* Without the program's BTF, subprograms are "F" as in perf. */
		snprintf(name + n, sizeof(name) - (size_t)n, "_%s",
			 i == 0 && pname[0] ? pname : "F");
		uint64_t end = addr + (len ? len : 1);
		if (end < addr || bpf_overlaps(m, addr, end))
			continue;	/* KSYMBOL records know better */
		bpf_add(m, addr, end, name);
	}
}
