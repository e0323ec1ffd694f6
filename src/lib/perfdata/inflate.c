// SPDX-License-Identifier: GPL-2.0-only
/* perf.data reader: the COMPRESSED records of perf record -z, inflated with
 * zstd into the data section perf sees (see reader_int.h). */
#include "perfdata/reader_int.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* Whether the data section has a COMPRESSED record before the first bad
 * record, if any. */
static bool has_compressed(const struct pd_file *f)
{
	uint64_t start = f->data_off, end = f->data_off + f->data_size, off, span;
	struct perf_event_header hdr;
	for (off = start; end - off >= sizeof(hdr); off += span)
		if (!(span = pd_record_span(f, off, end, &hdr)) || hdr.type == PD_RECORD_COMPRESSED)
			return span && hdr.type == PD_RECORD_COMPRESSED;
	return false;
}

/* perf record -z writes the ring buffers' records as one zstd stream cut
 * into COMPRESSED records (a frame may span several); other records (the
 * synthesized ones, FINISHED_ROUND) stay as they are between them. Builds
 * the data section perf sees: each COMPRESSED record replaced, in place, by
 * what it decompresses to. A file without one is left alone. */
#define INFLATE_MAX (64ull << 30)	/* a decompression bomb stops here */
int pd_inflate_data(struct pd_file *f)
{
	uint64_t start = f->data_off, end = f->data_off + f->data_size, off, span;
	struct perf_event_header hdr;
	if (!has_compressed(f))
		return 0;	/* none (a bad record is pd_index's to report) */
	ZSTD_DStream *zs = ZSTD_createDStream();
	if (!zs || ZSTD_isError(ZSTD_initDStream(zs))) {
		ZSTD_freeDStream(zs);
		pd_err(f, "cannot start zstd decompression of the COMPRESSED records");
		return -ENOMEM;
	}
	size_t cap = start + 2 * f->data_size + ZSTD_DStreamOutSize(), len = start;
	uint8_t *out = xmalloc(cap);
	memcpy(out, f->buf, start);
	int ret = 0;
	for (off = start; off < end; off += span) {
		if (end - off < sizeof(hdr) || !(span = pd_record_span(f, off, end, &hdr)))
			break;	/* copied as it is below: pd_index reports it */
		if (hdr.type != PD_RECORD_COMPRESSED) {	/* with a stream's formats */
			ARRAY_GROW_RAW(out, cap, len + span);
			memcpy(out + len, f->buf + off, span);
			len += span;
			continue;
		}
		ZSTD_inBuffer in = { f->buf + off + sizeof(hdr), hdr.size - sizeof(hdr), 0 };
		/* until the input is consumed and zstd has output all it holds
		 * (a full output buffer may leave some in it) */
		for (bool full = true; in.pos < in.size || full;) {
			ARRAY_GROW_RAW(out, cap, len + ZSTD_DStreamOutSize());
			ZSTD_outBuffer o = { out + len, cap - len, 0 };
			size_t before = in.pos, r = ZSTD_decompressStream(zs, &o, &in);
			if (ZSTD_isError(r)) {
				pd_err(f, "COMPRESSED record at offset %llu: %s (corrupt file)",
				       (unsigned long long)off, ZSTD_getErrorName(r));
				ret = -EINVAL;
				goto out;
			}
			len += o.pos;
			full = o.pos == o.size;
			if (len - start > INFLATE_MAX) {
				pd_err(f, "COMPRESSED records decompress to more than %llu GiB: "
				       "corrupt file or not one to read whole", INFLATE_MAX >> 30);
				ret = -EFBIG;
				goto out;
			}
			if (!o.pos && in.pos == before && in.pos < in.size) {
				pd_err(f, "COMPRESSED record at offset %llu: zstd made no "
				       "progress (corrupt file)", (unsigned long long)off);
				ret = -EINVAL;
				goto out;
			}
		}
	}
	if (off < end) {	/* a bad record and what follows: as they are */
		ARRAY_GROW_RAW(out, cap, len + (end - off));
		memcpy(out + len, f->buf + off, end - off);
		len += end - off;
	}
	pr_debug("perf record -z data: %llu bytes decompress to %llu",
		 (unsigned long long)f->data_size, (unsigned long long)(len - start));
	f->file_buf = f->buf;
	f->file_len = f->len;
	f->file_data_size = f->data_size;
	f->inflated = out;
	f->buf = out;
	f->len = len;
	f->data_size = len - start;
	out = NULL;
out:
	free(out);
	ZSTD_freeDStream(zs);
	return ret;
}
