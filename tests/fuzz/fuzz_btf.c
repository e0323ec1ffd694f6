// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the BTF loader + typed formatter on untrusted bytes.
 * Input: [u32 btf_len][btf_len bytes of raw BTF][u32 type_id][data...]
 * (little endian). A too short input uses the whole input as BTF. Every type
 * of the BTF is also formatted against the data, in JSON and in text. */
#include <bpf/btf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf/btf_fmt.h"
#include "json.h"
#include "out/log2hist.h"
#include "util.h"

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void format_one(const struct btf *btf, uint32_t id, const uint8_t *data, size_t size, FILE *null)
{
	struct json_writer *jw = jw_new(null, false);
	btf_fmt_json(jw, btf, id, data, size);
	jw_free(jw);
	struct strbuf sb = {0};
	btf_fmt_text(&sb, btf, id, data, size);
	sb_free(&sb);
	int esz;
	bool sg;
	size_t off;
	uint32_t nr;
	btf_fmt_int_info(btf, id, &esz, &sg);
	btf_fmt_find_slots(btf, id, &off, &nr, &esz);
	btf_fmt_type_size(btf, id);
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		return 0;
	const uint8_t *btf_bytes = in, *data = NULL;
	size_t btf_len = len, data_len = 0;
	uint32_t want = 0;
	if (len >= 8) {
		uint32_t bl = rd32(in);
		if (bl <= len - 8) {
			btf_bytes = in + 4;
			btf_len = bl;
			want = rd32(in + 4 + bl);
			data = in + 8 + bl;
			data_len = len - 8 - bl;
		}
	}
	/* libbpf keeps a copy; give it a private buffer (it must not read past). */
	void *copy = malloc(btf_len ? btf_len : 1);
	if (!copy)
		return 0;
	memcpy(copy, btf_bytes, btf_len);
	struct btf *btf = btf__new(copy, (uint32_t)btf_len);
	free(copy);
	if (!btf)
		return 0;
	/* data copied so that ASan sees reads past its end */
	uint8_t *d = malloc(data_len ? data_len : 1);
	if (data_len)
		memcpy(d, data, data_len);
	uint32_t n = btf__type_cnt(btf);
	format_one(btf, want, d, data_len, null);
	for (uint32_t id = 1; id < n && id < 256; id++)
		format_one(btf, id, d, data_len, null);
	uint64_t counts[70];
	for (size_t i = 0; i < 70; i++)
		counts[i] = i < data_len ? d[i] : 0;
	out_log2_hist(null, counts, data_len < 70 ? (uint32_t)data_len : 70, "v");
	out_log2_heat_row(null, 0, "v", counts, data_len < 70 ? (uint32_t)data_len : 70);
	free(d);
	btf__free(btf);
	return 0;
}
