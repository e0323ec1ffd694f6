// SPDX-License-Identifier: GPL-2.0-only
#include "perfdata/bpf_info.h"
#include "perfdata/format.h"
#include "log.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where each array lives in struct bpf_prog_info: pointer field, count field
 * and either a fixed record size or the field holding it. */
struct bpil_desc {
	size_t ptr_off, cnt_off, rec_off;
	uint32_t rec_size;
};

#define F(x) offsetof(struct bpf_prog_info, x)
static const struct bpil_desc bpil[PD_BPIL_MAX] = {
	[PD_BPIL_JITED_INSNS] = { F(jited_prog_insns), F(jited_prog_len), 0, 1 },
	[PD_BPIL_XLATED_INSNS] = { F(xlated_prog_insns), F(xlated_prog_len), 0, 1 },
	[PD_BPIL_MAP_IDS] = { F(map_ids), F(nr_map_ids), 0, 4 },
	[PD_BPIL_JITED_KSYMS] = { F(jited_ksyms), F(nr_jited_ksyms), 0, 8 },
	[PD_BPIL_JITED_FUNC_LENS] = { F(jited_func_lens), F(nr_jited_func_lens), 0, 4 },
	[PD_BPIL_FUNC_INFO] = { F(func_info), F(nr_func_info), F(func_info_rec_size), 0 },
	[PD_BPIL_LINE_INFO] = { F(line_info), F(nr_line_info), F(line_info_rec_size), 0 },
	[PD_BPIL_JITED_LINE_INFO] = { F(jited_line_info), F(nr_jited_line_info),
				      F(jited_line_info_rec_size), 0 },
	[PD_BPIL_PROG_TAGS] = { F(prog_tags), F(nr_prog_tags), 0, 8 },
};
#undef F

static uint32_t get32(const struct bpf_prog_info *i, size_t off)
{
	uint32_t v;
	memcpy(&v, (const char *)i + off, 4);
	return v;
}

static void set32(struct bpf_prog_info *i, size_t off, uint32_t v)
{
	memcpy((char *)i + off, &v, 4);
}

static uint64_t get64(const struct bpf_prog_info *i, size_t off)
{
	uint64_t v;
	memcpy(&v, (const char *)i + off, 8);
	return v;
}

static void set64(struct bpf_prog_info *i, size_t off, uint64_t v)
{
	memcpy((char *)i + off, &v, 8);
}

static uint32_t rec_size(const struct bpf_prog_info *i, int a)
{
	return bpil[a].rec_size ? bpil[a].rec_size : get32(i, bpil[a].rec_off);
}

struct pd_bpf_prog *pd_bpf_prog_fetch(int prog_fd, uint64_t arrays)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		struct bpf_prog_info first;
		uint32_t len = sizeof(first);
		memset(&first, 0, sizeof(first));
		if (bpf_obj_get_info_by_fd(prog_fd, &first, &len))
			return NULL;
		struct pd_bpf_prog *p = xcalloc(1, sizeof(*p));
		uint64_t size = 0;
		for (int a = 0; a < PD_BPIL_MAX; a++) {
			if (!(arrays & (1ULL << a)))
				continue;
			size += ALIGN_UP((uint64_t)get32(&first, bpil[a].cnt_off) * rec_size(&first, a), 8);
		}
		if (size > (1u << 30)) {
			free(p);
			errno = E2BIG;
			return NULL;
		}
		p->data = xcalloc(1, size ? size : 8);
		p->data_len = (uint32_t)size;
		p->arrays = arrays;
		/* Ask again with buffers for the requested arrays only. */
		struct bpf_prog_info *info = &p->info;
		memset(info, 0, sizeof(*info));
		uint64_t off = 0;
		for (int a = 0; a < PD_BPIL_MAX; a++) {
			if (!(arrays & (1ULL << a)))
				continue;
			uint32_t cnt = get32(&first, bpil[a].cnt_off);
			set32(info, bpil[a].cnt_off, cnt);
			if (!bpil[a].rec_size)
				set32(info, bpil[a].rec_off, rec_size(&first, a));
			set64(info, bpil[a].ptr_off, (uint64_t)(uintptr_t)(p->data + off));
			off += ALIGN_UP((uint64_t)cnt * rec_size(&first, a), 8);
		}
		len = sizeof(*info);
		if (bpf_obj_get_info_by_fd(prog_fd, info, &len)) {
			pd_bpf_prog_free(p);
			return NULL;
		}
		bool changed = false;
		for (int a = 0; a < PD_BPIL_MAX; a++)
			if ((arrays & (1ULL << a)) &&
			    get32(info, bpil[a].cnt_off) != get32(&first, bpil[a].cnt_off))
				changed = true;
		if (changed) {	/* raced with a change of the program: retry */
			pd_bpf_prog_free(p);
			continue;
		}
		/* Stored form: pointers become offsets into data. */
		for (int a = 0; a < PD_BPIL_MAX; a++) {
			if (!(arrays & (1ULL << a)))
				continue;
			uint64_t ptr = get64(info, bpil[a].ptr_off);
			set64(info, bpil[a].ptr_off, ptr - (uint64_t)(uintptr_t)p->data);
		}
		return p;
	}
	errno = EAGAIN;
	return NULL;
}

void pd_bpf_prog_free(struct pd_bpf_prog *p)
{
	if (!p)
		return;
	free(p->data);
	free(p);
}

void *pd_btf_fetch(uint32_t btf_id, uint32_t *size)
{
	int fd = bpf_btf_get_fd_by_id(btf_id);
	if (fd < 0)
		return NULL;
	struct bpf_btf_info info;
	uint32_t len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		close(fd);
		return NULL;
	}
	uint32_t need = info.btf_size;
	void *buf = xmalloc(need ? need : 1);
	memset(&info, 0, sizeof(info));
	info.btf = (uint64_t)(uintptr_t)buf;
	info.btf_size = need;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(fd, &info, &len) || info.btf_size > need) {
		close(fd);
		free(buf);
		errno = EAGAIN;
		return NULL;
	}
	close(fd);
	*size = info.btf_size;
	return buf;
}

void pd_bpf_progs_encode(struct strbuf *b, struct pd_bpf_prog *const *progs, size_t n)
{
	uint32_t count = (uint32_t)n, info_len = sizeof(struct bpf_prog_info);
	sb_append_len(b, (const char *)&count, 4);
	for (size_t i = 0; i < n; i++) {
		const struct pd_bpf_prog *p = progs[i];
		sb_append_len(b, (const char *)&info_len, 4);
		sb_append_len(b, (const char *)&p->data_len, 4);
		sb_append_len(b, (const char *)&p->arrays, 8);
		sb_append_len(b, (const char *)&p->info, sizeof(p->info));
		sb_append_len(b, (const char *)p->data, p->data_len);
	}
}

void pd_btfs_encode(struct strbuf *b, const struct pd_btf_blob *btfs, size_t n)
{
	uint32_t count = (uint32_t)n;
	sb_append_len(b, (const char *)&count, 4);
	for (size_t i = 0; i < n; i++) {
		sb_append_len(b, (const char *)&btfs[i].id, 4);
		sb_append_len(b, (const char *)&btfs[i].size, 4);
		sb_append_len(b, btfs[i].data, btfs[i].size);
	}
}

int pd_bpf_progs_decode(const void *buf, size_t len, pd_bpf_prog_fn fn, void *ctx)
{
	const uint8_t *b = buf;
	size_t pos = 4;
	uint32_t count;
	if (len < 4)
		return -1;
	memcpy(&count, b, 4);
	int done = 0;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t info_len, data_len;
		uint64_t arrays;
		if (len - pos < 16)
			return -1;
		memcpy(&info_len, b + pos, 4);
		memcpy(&data_len, b + pos + 4, 4);
		memcpy(&arrays, b + pos + 8, 8);
		pos += 16;
		if (info_len > len - pos || data_len > len - pos - info_len)
			return -1;
		struct bpf_prog_info info;
		memset(&info, 0, sizeof(info));
		memcpy(&info, b + pos, info_len < sizeof(info) ? info_len : sizeof(info));
		/* A private copy (its start aligned; an array in it is where the
		 * file says: consumers read records with memcpy). */
		uint8_t *data = xmalloc(data_len ? data_len : 1);
		memcpy(data, b + pos + info_len, data_len);
		pos += info_len + data_len;
		bool bad = false;
		for (int a = 0; a < PD_BPIL_MAX; a++) {
			if (!(arrays & (1ULL << a))) {
				/* Not saved: make sure nobody follows a stale count. */
				set32(&info, bpil[a].cnt_off, 0);
				set64(&info, bpil[a].ptr_off, 0);
				continue;
			}
			uint64_t off = get64(&info, bpil[a].ptr_off);
			uint64_t sz = (uint64_t)get32(&info, bpil[a].cnt_off) * rec_size(&info, a);
			if (off > data_len || sz > data_len - off) {
				bad = true;
				break;
			}
			set64(&info, bpil[a].ptr_off, (uint64_t)(uintptr_t)(data + off));
		}
		if (bad) {
			pr_warn("HEADER_BPF_PROG_INFO entry %u (prog id %u) has arrays outside its data; "
				"skipped", i, info.id);
			free(data);
			continue;
		}
		fn(ctx, &info);
		free(data);
		done++;
	}
	return done;
}

int pd_btfs_decode(const void *buf, size_t len, pd_btf_fn fn, void *ctx)
{
	const uint8_t *b = buf;
	size_t pos = 4;
	uint32_t count;
	if (len < 4)
		return -1;
	memcpy(&count, b, 4);
	for (uint32_t i = 0; i < count; i++) {
		uint32_t id, size;
		if (len - pos < 8)
			return -1;
		memcpy(&id, b + pos, 4);
		memcpy(&size, b + pos + 4, 4);
		pos += 8;
		if (size > len - pos)
			return -1;
		fn(ctx, id, b + pos, size);
		pos += size;
	}
	return (int)count;
}

void pd_bpf_prog_name(const struct bpf_prog_info *info, const struct btf *btf, uint32_t sub,
		      char *buf, size_t len)
{
	const uint8_t *tags = (const uint8_t *)(uintptr_t)info->prog_tags;
	const uint8_t *tag = tags && sub < info->nr_prog_tags ? tags + 8 * sub : info->tag;
	int n = snprintf(buf, len, "bpf_prog_");
	for (int i = 0; i < 8 && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, "%02x", tag[i]);
	if (n < 0 || (size_t)n >= len)
		return;
	const char *short_name = NULL;
	if (btf && info->func_info && sub < info->nr_func_info &&
	    info->func_info_rec_size >= sizeof(struct bpf_func_info)) {
		struct bpf_func_info fi;
		memcpy(&fi, (const uint8_t *)(uintptr_t)info->func_info +
			   (size_t)sub * info->func_info_rec_size, sizeof(fi));
		const struct btf_type *t = btf__type_by_id(btf, fi.type_id);
		if (t)
			short_name = btf__name_by_offset(btf, t->name_off);
	}
	char pname[sizeof(info->name) + 1];
	memcpy(pname, info->name, sizeof(info->name));
	pname[sizeof(info->name)] = '\0';
	if (!short_name)
		short_name = sub == 0 && info->nr_jited_ksyms == 1 ? (pname[0] ? pname : NULL) : "F";
	if (short_name)
		snprintf(buf + n, len - (size_t)n, "_%s", short_name);
}
