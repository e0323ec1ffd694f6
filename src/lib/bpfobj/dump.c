// SPDX-License-Identifier: GPL-2.0-only
/* Map contents: every map but streams dumped as JSON or C-initializer text,
 * typed by BTF; histogram-shaped maps also drawn as log2 histograms or
 * heat-map rows (drawing in out/log2hist.c); reading one map entry. */
#include "bpfobj_int.h"
#include "btf/btf_fmt.h"
#include "json.h"
#include "log.h"
#include "out/log2hist.h"
#include "util.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *map_type_name(enum bpf_map_type t)
{
	const char *n = libbpf_bpf_map_type_str(t);
	return n ? n : "unknown";
}

static bool is_percpu(enum bpf_map_type t)
{
	return t == BPF_MAP_TYPE_PERCPU_ARRAY || t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH || t == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
}

static bool dumpable(const struct bpf_map *m)
{
	switch (bpf_map__type(m)) {
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_BLOOM_FILTER:
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
		return false;
	default:
		break;
	}
	const char *n = bpf_map__name(m);
	if (bpf_map__is_internal(m) && (strstr(n, ".kconfig") || strstr(n, ".rodata.str")))
		return false;
	return bpf_map__fd(m) >= 0;
}

/* Name shown for a map: global data maps by their section (".bss"). */
static const char *display_name(const struct bpfobj *bo, const struct bpf_map *m)
{
	if (bpf_map__is_internal(m) && bo->btf) {
		uint32_t vid = bpf_map__btf_value_type_id(m);
		const struct btf_type *t = vid ? btf__type_by_id(bo->btf, vid) : NULL;
		if (t && btf_is_datasec(t))
			return btf__name_by_offset(bo->btf, t->name_off);
	}
	if (bpf_map__is_internal(m)) {
		const char *d = strchr(bpf_map__name(m), '.');
		if (d)
			return d;
	}
	return bpf_map__name(m);
}

/* Whether m holds global data (its value type is a DATASEC): no keys shown. */
static bool is_datasec(const struct bpfobj *bo, uint32_t vid)
{
	const struct btf_type *vt = vid ? btf__type_by_id(bo->btf, vid) : NULL;
	return vt && btf_is_datasec(vt);
}

struct map_iter {
	int fd;
	uint32_t key_size, value_size, stride;
	int nr_values;
	uint8_t *key, *next, *val;
	bool first, done;
};

static void iter_init(struct map_iter *it, const struct bpf_map *m)
{
	memset(it, 0, sizeof(*it));
	it->fd = bpf_map__fd(m);
	it->key_size = bpf_map__key_size(m);
	it->value_size = bpf_map__value_size(m);
	it->nr_values = is_percpu(bpf_map__type(m)) ? libbpf_num_possible_cpus() : 1;
	if (it->nr_values < 1)
		it->nr_values = 1;
	it->stride = it->nr_values > 1 ? (uint32_t)ALIGN_UP(it->value_size, 8) : it->value_size;
	it->key = xcalloc(1, it->key_size + 8);
	it->next = xcalloc(1, it->key_size + 8);
	it->val = xcalloc((size_t)it->nr_values, (size_t)it->stride + 8);
	it->first = true;
}

/* Next entry into it->key / it->val; false at the end. */
static bool iter_next(struct map_iter *it)
{
	for (;;) {
		if (it->done)
			return false;
		int err = bpf_map_get_next_key(it->fd, it->first ? NULL : it->key, it->next);
		it->first = false;
		if (err) {
			it->done = true;
			return false;
		}
		memcpy(it->key, it->next, it->key_size);
		if (bpf_map_lookup_elem(it->fd, it->key, it->val) == 0)
			return true;
		/* deleted meanwhile: go on */
	}
}

static void iter_free(struct map_iter *it)
{
	free(it->key);
	free(it->next);
	free(it->val);
}

static void json_kv(struct bpfobj *bo, struct json_writer *jw, uint32_t tid, const void *d, uint32_t sz)
{
	if (tid && bo->btf)
		btf_fmt_json_k(jw, bo->btf, bpfobj_kenums(bo), tid, d, sz);
	else
		btf_fmt_hex_json(jw, d, sz);
}

static void text_kv(struct bpfobj *bo, struct strbuf *sb, uint32_t tid, const void *d, uint32_t sz)
{
	if (tid && bo->btf)
		btf_fmt_text_k(sb, bo->btf, bpfobj_kenums(bo), tid, d, sz);
	else
		btf_fmt_hex_text(sb, d, sz);
}

/* ------------------------------------------------------------ histograms */

static struct bpfobj_hist_state *hist_state(struct bpfobj *bo, const char *name, uint32_t nr)
{
	for (int i = 0; i < bo->nr_hists; i++)
		if (!strcmp(bo->hists[i].name, name))
			return &bo->hists[i];
	bo->hists = xrealloc(bo->hists, sizeof(*bo->hists) * (size_t)(bo->nr_hists + 1));
	struct bpfobj_hist_state *h = &bo->hists[bo->nr_hists++];
	h->name = xstrdup(name);
	h->nr = nr;
	h->prev = xcalloc(nr, sizeof(uint64_t));
	return h;
}

/* A histogram in full, or as a heat-map row of what it gained since the last one. */
static void emit_hist(struct bpfobj *bo, const struct bpfobj_dump_opts *d, FILE *f,
		      const char *title, const uint64_t *counts, uint32_t nr)
{
	if (d->heatmap) {
		struct bpfobj_hist_state *h = hist_state(bo, title, nr);
		uint64_t *delta = xcalloc(nr, sizeof(uint64_t));
		for (uint32_t i = 0; i < nr && i < h->nr; i++) {
			delta[i] = counts[i] >= h->prev[i] ? counts[i] - h->prev[i] : counts[i];
			h->prev[i] = counts[i];
		}
		out_log2_heat_row(f, time(NULL), title, delta, nr);
		free(delta);
		return;
	}
	fprintf(f, "%s (log2 histogram):\n", title);
	out_log2_hist(f, counts, nr, "value");
	fputc('\n', f);
}

/* An array map of integer counts indexed by log2 slot: one histogram. */
static void array_histogram(struct bpfobj *bo, const struct bpf_map *m, const struct bpfobj_dump_opts *d,
			    FILE *f, int esz)
{
	uint32_t nr = bpf_map__max_entries(m);
	uint64_t *counts = xcalloc(nr, sizeof(uint64_t));
	struct map_iter it;
	iter_init(&it, m);
	while (iter_next(&it)) {
		uint32_t k = (uint32_t)btf_fmt_read_uint(it.key, 4);
		if (k >= nr)
			continue;
		for (int c = 0; c < it.nr_values; c++)
			counts[k] += btf_fmt_read_uint(it.val + (size_t)c * it.stride, esz);
	}
	iter_free(&it);
	emit_hist(bo, d, f, bpf_map__name(m), counts, nr);
	free(counts);
}

/* A map whose value has a slots[] array: one histogram per entry, titled by
 * the key (hash maps) or the index (arrays of more than one entry). */
static void slots_histograms(struct bpfobj *bo, const struct bpf_map *m, const struct bpfobj_dump_opts *d,
			     FILE *f, size_t soff, uint32_t snr, int esz)
{
	enum bpf_map_type t = bpf_map__type(m);
	uint32_t kid = bpf_map__btf_key_type_id(m);
	uint64_t *counts = xcalloc(snr, sizeof(uint64_t));
	struct map_iter it;
	iter_init(&it, m);
	while (iter_next(&it)) {
		memset(counts, 0, snr * sizeof(uint64_t));
		for (int c = 0; c < it.nr_values; c++)
			for (uint32_t s = 0; s < snr; s++)
				counts[s] += btf_fmt_read_uint(it.val + (size_t)c * it.stride + soff +
							       (size_t)s * (size_t)esz, esz);
		struct strbuf title = {0};
		sb_printf(&title, "%s", bpf_map__name(m));
		if (t != BPF_MAP_TYPE_ARRAY && t != BPF_MAP_TYPE_PERCPU_ARRAY) {
			sb_append(&title, " ");
			text_kv(bo, &title, kid, it.key, it.key_size);
		} else if (bpf_map__max_entries(m) > 1) {
			sb_printf(&title, "[%u]", (uint32_t)btf_fmt_read_uint(it.key, 4));
		}
		bool any = false;
		for (uint32_t s = 0; s < snr; s++)
			any |= counts[s] != 0;
		if (any || t == BPF_MAP_TYPE_HASH || bpf_map__max_entries(m) == 1)
			emit_hist(bo, d, f, title.buf, counts, snr);
		sb_free(&title);
	}
	iter_free(&it);
	free(counts);
}

/* Histogram shapes: an array map of integer counts (log2 slots), or any map
 * whose value is a struct with a slots[] array of integers. */
static void map_histograms(struct bpfobj *bo, const struct bpf_map *m, const struct bpfobj_dump_opts *d,
			   FILE *f)
{
	if (!bo->btf)
		return;
	enum bpf_map_type t = bpf_map__type(m);
	uint32_t vid = bpf_map__btf_value_type_id(m);
	int esz;
	bool sg;
	size_t soff;
	uint32_t snr;
	if (!vid || bpf_map__is_internal(m))
		return;
	if ((t == BPF_MAP_TYPE_ARRAY || t == BPF_MAP_TYPE_PERCPU_ARRAY) &&
	    btf_fmt_int_info(bo->btf, vid, &esz, &sg) && bpf_map__max_entries(m) >= 2 &&
	    bpf_map__max_entries(m) <= 65)
		array_histogram(bo, m, d, f, esz);
	else if (btf_fmt_find_slots(bo->btf, vid, &soff, &snr, &esz) &&
		 soff + (size_t)snr * (size_t)esz <= bpf_map__value_size(m))
		slots_histograms(bo, m, d, f, soff, snr, esz);
}

/* ------------------------------------------------------------ map dumps */

static void dump_map_json(struct bpfobj *bo, struct json_writer *jw, const struct bpf_map *m)
{
	uint32_t kid = bo->btf ? bpf_map__btf_key_type_id(m) : 0;
	uint32_t vid = bo->btf ? bpf_map__btf_value_type_id(m) : 0;
	bool datasec = is_datasec(bo, vid);
	struct map_iter it;

	jw_start_object(jw);
	jw_kv_string(jw, "name", display_name(bo, m));
	jw_kv_string(jw, "type", map_type_name(bpf_map__type(m)));
	jw_key(jw, "entries");
	jw_start_array(jw);
	iter_init(&it, m);
	while (iter_next(&it)) {
		jw_start_object(jw);
		if (!datasec) {
			jw_key(jw, "key");
			json_kv(bo, jw, kid, it.key, it.key_size);
		}
		if (it.nr_values > 1) {
			jw_key(jw, "values");
			jw_start_array(jw);
			for (int c = 0; c < it.nr_values; c++) {
				jw_start_object(jw);
				jw_kv_int(jw, "cpu", c);
				jw_key(jw, "value");
				json_kv(bo, jw, vid, it.val + (size_t)c * it.stride, it.value_size);
				jw_end_object(jw);
			}
			jw_end_array(jw);
		} else {
			jw_key(jw, "value");
			json_kv(bo, jw, vid, it.val, it.value_size);
		}
		jw_end_object(jw);
	}
	iter_free(&it);
	jw_end_array(jw);
	jw_end_object(jw);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* "{ [cpu0] = V, [cpu3] = V }" leaving out CPUs whose value is all zero. */
static void text_percpu(struct bpfobj *bo, struct strbuf *sb, const struct map_iter *it, uint32_t vid)
{
	sb_append(sb, "{ ");
	bool firstc = true;
	for (int c = 0; c < it->nr_values; c++) {
		const uint8_t *v = it->val + (size_t)c * it->stride;
		if (all_zero(v, it->value_size))
			continue;
		sb_printf(sb, "%s[cpu%d] = ", firstc ? "" : ", ", c);
		text_kv(bo, sb, vid, v, it->value_size);
		firstc = false;
	}
	sb_append(sb, firstc ? "0 }" : " }");
}

static void dump_map_text(struct bpfobj *bo, FILE *f, const struct bpf_map *m)
{
	uint32_t kid = bo->btf ? bpf_map__btf_key_type_id(m) : 0;
	uint32_t vid = bo->btf ? bpf_map__btf_value_type_id(m) : 0;
	enum bpf_map_type t = bpf_map__type(m);
	bool array = t == BPF_MAP_TYPE_ARRAY || t == BPF_MAP_TYPE_PERCPU_ARRAY;
	bool datasec = is_datasec(bo, vid);
	struct strbuf sb = {0};
	struct map_iter it;
	size_t entries = 0, zero = 0;

	sb_printf(&sb, "%s (%s):\n", display_name(bo, m), map_type_name(t));
	iter_init(&it, m);
	while (iter_next(&it)) {
		entries++;
		if (datasec) {
			sb_append(&sb, "  ");
			text_kv(bo, &sb, vid, it.val, it.value_size);
			sb_append(&sb, "\n");
			continue;
		}
		/* Arrays are pre-sized: leave out the untouched (all-zero) entries. */
		if (array && all_zero(it.val, (size_t)it.stride * (size_t)it.nr_values)) {
			zero++;
			continue;
		}
		sb_append(&sb, "  [");
		text_kv(bo, &sb, kid, it.key, it.key_size);
		sb_append(&sb, "] = ");
		if (it.nr_values > 1)
			text_percpu(bo, &sb, &it, vid);
		else
			text_kv(bo, &sb, vid, it.val, it.value_size);
		sb_append(&sb, ",\n");
	}
	iter_free(&it);
	if (!entries)
		sb_append(&sb, "  (empty)\n");
	else if (zero)
		sb_printf(&sb, "  (%zu zero entr%s not shown)\n", zero, zero == 1 ? "y" : "ies");
	sb_append(&sb, "\n");
	fputs(sb.buf, f);
	sb_free(&sb);
}

int bpfobj_dump_maps(struct bpfobj *bo, const struct bpfobj_dump_opts *d)
{
	struct bpf_map *m;
	struct json_writer *jw = d->o.jw;
	if (jw) {
		if (!d->maps_only) {
			jw_start_object(jw);
			jw_key(jw, "maps");
			jw_start_array(jw);
		}
		bpf_object__for_each_map(m, bo->obj)
			if (dumpable(m))
				dump_map_json(bo, jw, m);
		if (!d->maps_only) {
			jw_end_array(jw);
			jw_end_object(jw);
		}
		return 0;
	}
	FILE *f = d->o.out;
	if (!d->heatmap && d->heading)
		fprintf(f, "%s\n", d->heading);
	bpf_object__for_each_map(m, bo->obj) {
		if (!dumpable(m))
			continue;
		if (!d->heatmap)
			dump_map_text(bo, f, m);
		if (d->heatmap || d->histograms)
			map_histograms(bo, m, d, f);
	}
	fflush(f);
	return 0;
}

int bpfobj_map_read(struct bpfobj *bo, const char *map_name, const void *key,
		    void **values, size_t *value_stride, int *nr_values)
{
	struct bpf_map *m, *found = NULL;
	bpf_object__for_each_map(m, bo->obj) {
		if (!strcmp(bpf_map__name(m), map_name) ||
		    (bpf_map__is_internal(m) && map_name[0] == '.' && bpfobj_map_is_section(m, map_name))) {
			found = m;
			break;
		}
	}
	if (!found || bpf_map__fd(found) < 0)
		return -ENOENT;
	struct map_iter it;
	iter_init(&it, found);
	uint32_t zero = 0;
	const void *k = key ? key : &zero;
	if (!key && it.key_size != 4) {
		iter_free(&it);
		return -EINVAL;
	}
	if (bpf_map_lookup_elem(it.fd, k, it.val)) {
		int err = -errno;
		iter_free(&it);
		return err;
	}
	*values = it.val;
	*value_stride = it.stride;
	*nr_values = it.nr_values;
	it.val = NULL;
	iter_free(&it);
	return 0;
}

void bpfobj_dump_maps_all(struct bpfobj *const *objs, int n, const struct bpfobj_dump_opts *d)
{
	if (d->o.json) {
		struct json_writer *jw = jw_new(d->o.out, false);
		jw_start_object(jw);
		jw_key(jw, "maps");
		jw_start_array(jw);
		for (int i = 0; i < n; i++) {
			struct bpfobj_dump_opts m = { .o = { .out = d->o.out, .jw = jw }, .maps_only = true };
			bpfobj_dump_maps(objs[i], &m);
		}
		jw_end_array(jw);
		jw_end_object(jw);
		jw_free(jw);
		fflush(d->o.out);
		return;
	}
	for (int i = 0; i < n; i++) {
		struct bpfobj_dump_opts m = { .o = { .out = d->o.out }, .histograms = d->histograms,
					      .heatmap = d->heatmap, .heading = i == 0 ? d->heading : NULL };
		bpfobj_dump_maps(objs[i], &m);
	}
}
