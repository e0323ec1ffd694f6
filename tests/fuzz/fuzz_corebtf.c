// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the minimal CO-RE BTF builder (src/lib/bpfobj/core_btf.c) on
 * untrusted bytes: the .BTF.ext CO-RE record parser, the raw BTF parser and
 * the minimizer (candidate search, closure, copy through libbpf's btf__add_*).
 * Input: [u32 btf_len][btf_len bytes of raw BTF][.BTF.ext bytes] (little
 * endian). The BTF serves as both the object's and the "kernel's"; the
 * .BTF.ext records select the roots. Too short an input, or no records, also
 * tries the whole input as BTF with synthesized relocations of every kind on
 * the first types, and as .BTF.ext. */
#include <bpf/btf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpfobj/core_btf.h"

static void minimize(const struct corebtf_raw *b, const struct corebtf_relo *r, size_t n)
{
	struct corebtf_stats st;
	const char *why;
	struct btf *m = corebtf_minimize(b, r, n, b, &st, &why);
	if (m) {
		uint32_t sz;
		const void *raw = btf__raw_data(m, &sz);
		/* whatever we produce, libbpf must accept */
		struct btf *again = raw ? btf__new(raw, sz) : NULL;
		if (!again || btf__type_cnt(again) != btf__type_cnt(m))
			abort();
		btf__free(again);
		btf__free(m);
	}
}

static void whole(const uint8_t *in, size_t len)
{
	struct corebtf_raw b;
	struct corebtf_relo *r = NULL;
	size_t n;
	const char *why;
	if (!corebtf_ext_relos(in, len, &r, &n, &why))
		free(r);
	if (corebtf_raw_parse(&b, in, len, NULL, &why))
		return;
	struct corebtf_relo syn[64];
	size_t k = 0;
	for (uint32_t id = 1; id < corebtf_raw_type_cnt(&b) && k < 64; id++, k++)
		syn[k] = (struct corebtf_relo){ .insn_off = 8 * (uint32_t)k, .type_id = id,
						.kind = (uint32_t)k % 12 == 7 ? 0 : (uint32_t)k % 12 };
	minimize(&b, syn, k);
	corebtf_raw_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	/* aligned private copy, as the real callers have */
	uint8_t *in = malloc(len + 1);
	memcpy(in, data, len);
	whole(in, len);
	uint32_t blen;
	if (len >= 4) {
		memcpy(&blen, in, 4);
		if (blen <= len - 4) {
			uint8_t *btf = malloc(blen + 1), *ext = malloc(len - 4 - blen + 1);
			memcpy(btf, in + 4, blen);
			memcpy(ext, in + 4 + blen, len - 4 - blen);
			struct corebtf_raw b;
			struct corebtf_relo *r = NULL;
			size_t n = 0;
			const char *why;
			if (!corebtf_raw_parse(&b, btf, blen, NULL, &why)) {
				if (!corebtf_ext_relos(ext, len - 4 - blen, &r, &n, &why) && n)
					minimize(&b, r, n);
				free(r);
				corebtf_raw_free(&b);
			}
			free(btf);
			free(ext);
		}
	}
	free(in);
	return 0;
}
