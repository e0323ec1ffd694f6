// SPDX-License-Identifier: GPL-2.0-only
#include "perfdata/decode.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <string.h>

/* Check the type and the fixed part, and copy the fixed part out. */
static int take_fixed(const void *rec, size_t size, uint32_t type, const char *what,
		      void *fixed, size_t fixed_size)
{
	struct perf_event_header h;
	if (size < sizeof(h)) {
		pr_debug("malformed %s record: %zu bytes, shorter than a record header", what, size);
		return -EINVAL;
	}
	memcpy(&h, rec, sizeof(h));
	if (h.type != type) {
		pr_debug("record of type %u given to the %s decoder", h.type, what);
		return -EINVAL;
	}
	if (size < fixed_size) {
		pr_debug("malformed %s record: %zu bytes, shorter than its %zu-byte fixed part",
			 what, size, fixed_size);
		return -EINVAL;
	}
	memcpy(fixed, rec, fixed_size);
	return 0;
}

/* The string that follows the fixed part, if it ends inside the record. */
static const char *take_string(const void *rec, size_t size, size_t off, const char *what)
{
	const char *s = (const char *)rec + off;
	if (off >= size || !memchr(s, '\0', size - off)) {
		pr_debug("malformed %s record: its string does not end inside its %zu bytes",
			 what, size);
		return NULL;
	}
	return s;
}

int pd_decode_mmap(const void *rec, size_t size, struct pd_mmap *out)
{
	int err = take_fixed(rec, size, PERF_RECORD_MMAP, "MMAP", &out->rec, sizeof(out->rec));
	if (err)
		return err;
	out->filename = take_string(rec, size, sizeof(out->rec), "MMAP");
	return out->filename ? 0 : -EINVAL;
}

int pd_decode_mmap2(const void *rec, size_t size, struct pd_mmap2 *out)
{
	int err = take_fixed(rec, size, PERF_RECORD_MMAP2, "MMAP2", &out->rec, sizeof(out->rec));
	if (err)
		return err;
	out->filename = take_string(rec, size, sizeof(out->rec), "MMAP2");
	if (!out->filename)
		return -EINVAL;
	if ((out->rec.header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    out->rec.build_id_size > PD_BUILD_ID_MAX) {
		/* The kernel sets the flag in the mmap event it shares between
		 * all listeners (perf_event_mmap_output): once an event with
		 * attr.build_id (another profiler's) has seen it, the others
		 * get the flag with the device and inode layout, the "size"
		 * being the device's major number. Read it as that layout. */
		pr_debug("MMAP2 record of %s: build-id flag with a size of %u (more than %d): read "
			 "as device and inode (a flag the kernel leaked from another recording)",
			 out->filename, out->rec.build_id_size, PD_BUILD_ID_MAX);
		out->rec.header.misc &= (uint16_t)~PERF_RECORD_MISC_MMAP_BUILD_ID;
	}
	return 0;
}

int pd_decode_comm(const void *rec, size_t size, struct pd_comm *out)
{
	int err = take_fixed(rec, size, PERF_RECORD_COMM, "COMM", &out->rec, sizeof(out->rec));
	if (err)
		return err;
	out->comm = take_string(rec, size, sizeof(out->rec), "COMM");
	return out->comm ? 0 : -EINVAL;
}

int pd_decode_fork(const void *rec, size_t size, struct pd_fork *out)
{
	struct perf_event_header h;
	if (size >= sizeof(h)) {
		memcpy(&h, rec, sizeof(h));
		if (h.type == PERF_RECORD_EXIT)	/* same layout */
			return take_fixed(rec, size, PERF_RECORD_EXIT, "EXIT", &out->rec,
					  sizeof(out->rec));
	}
	return take_fixed(rec, size, PERF_RECORD_FORK, "FORK", &out->rec, sizeof(out->rec));
}

int pd_decode_lost(const void *rec, size_t size, struct pd_lost *out)
{
	return take_fixed(rec, size, PERF_RECORD_LOST, "LOST", &out->rec, sizeof(out->rec));
}

int pd_decode_lost_samples(const void *rec, size_t size, struct pd_lost_samples *out)
{
	return take_fixed(rec, size, PERF_RECORD_LOST_SAMPLES, "LOST_SAMPLES", &out->rec,
			  sizeof(out->rec));
}

int pd_decode_ksymbol(const void *rec, size_t size, struct pd_ksymbol *out)
{
	int err = take_fixed(rec, size, PERF_RECORD_KSYMBOL, "KSYMBOL", &out->rec, sizeof(out->rec));
	if (err)
		return err;
	out->name = take_string(rec, size, sizeof(out->rec), "KSYMBOL");
	return out->name ? 0 : -EINVAL;
}

int pd_decode_bpf_event(const void *rec, size_t size, struct pd_bpf_event *out)
{
	return take_fixed(rec, size, PERF_RECORD_BPF_EVENT, "BPF_EVENT", &out->rec,
			  sizeof(out->rec));
}

size_t pd_record_true_size(const void *rec, size_t size, size_t trailer_size, size_t name_max)
{
	struct perf_event_header h;
	size_t want;
	if (size < sizeof(h))
		return size;
	memcpy(&h, rec, sizeof(h));
	if (h.type == PERF_RECORD_KSYMBOL) {
		const size_t fixed = sizeof(struct pd_rec_ksymbol);
		if (size <= fixed)
			return size;
		size_t max = size - fixed;
		if (name_max && max > name_max)
			max = name_max;
		size_t n = strnlen((const char *)rec + fixed, max);
		if (n == max)
			return size;
		want = fixed + ALIGN_UP(n + 1, 8) + trailer_size;
	} else if (h.type == PERF_RECORD_BPF_EVENT) {
		want = sizeof(struct pd_rec_bpf_event) + trailer_size;
	} else {
		return size;
	}
	return want < size ? want : size;
}

/* {header (misc: cpumode | BUILD_ID_SIZE bit 15, size), s32 pid,
 * u8 build_id[20], u8 size, 3 reserved, name NUL-padded} back to back. Old
 * files have no size: the id is 20 bytes, trailing zeros trimmed as perf. */
int pd_build_ids_decode(const void *buf, size_t len, pd_build_id_fn fn, void *ctx)
{
	const uint8_t *b = buf;
	size_t pos = 0;
	int n = 0;
	while (pos + 36 <= len) {
		struct perf_event_header h;
		memcpy(&h, b + pos, sizeof(h));
		if (h.size < 36 || h.size > len - pos)
			return -1;
		int32_t pid;
		memcpy(&pid, b + pos + 8, 4);
		const uint8_t *id = b + pos + 12;
		size_t idlen = 20;
		if (h.misc & (1u << 15)) {
			idlen = b[pos + 32];
			if (idlen > 20)
				return -1;
		} else {
			while (idlen && !id[idlen - 1])
				idlen--;
		}
		const char *name = (const char *)b + pos + 36;
		size_t nmax = h.size - 36;
		if (!nmax || !memchr(name, '\0', nmax))
			return -1;
		fn(ctx, h.misc & 0x7fff, pid, id, idlen, name);
		n++;
		pos += h.size;
	}
	return n;
}
