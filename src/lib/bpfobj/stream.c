// SPDX-License-Identifier: GPL-2.0-only
/* Streaming: every ring buffer and perf event array map, each record decoded
 * by BTF into one text line or one JSON object. */
#include "bpfobj_int.h"
#include "btf/btf_fmt.h"
#include "json.h"
#include "log.h"
#include "util.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

uint32_t bpfobj_map_def_value_type(const struct btf *btf, const char *map_name)
{
	struct bpfobj_global g;
	if (!btf || !bpfobj_btf_find_var(btf, ".maps", map_name, &g))
		return 0;
	uint32_t sid = g.type_id;
	const struct btf_type *st = btf_skip_mods(btf, &sid);
	if (!st || !btf_is_struct(st))
		return 0;
	const struct btf_member *m = btf_members(st);
	for (uint16_t k = 0; k < btf_vlen(st); k++) {
		if (strcmp(btf__name_by_offset(btf, m[k].name_off), "value"))
			continue;
		const struct btf_type *pt = btf__type_by_id(btf, m[k].type);
		if (pt && btf_is_ptr(pt))
			return pt->type;
	}
	return 0;
}

static void print_record(struct bpfobj_stream *s, const void *data, size_t size)
{
	struct bpfobj *bo = s->bo;
	bo->records++;
	if (bo->out.json) {
		struct json_writer *jw = jw_new(bo->out.out, false);
		jw_start_object(jw);
		jw_kv_string(jw, "map", bpf_map__name(s->map));
		jw_key(jw, "record");
		if (s->type_id)
			btf_fmt_json_k(jw, bo->btf, bpfobj_kenums(bo), s->type_id, data, size);
		else
			btf_fmt_hex_json(jw, data, size);
		jw_end_object(jw);
		jw_free(jw);
	} else {
		struct strbuf sb = {0};
		sb_printf(&sb, "%s: ", bpf_map__name(s->map));
		if (s->type_id)
			btf_fmt_text_k(&sb, bo->btf, bpfobj_kenums(bo), s->type_id, data, size);
		else
			btf_fmt_hex_text(&sb, data, size);
		fprintf(bo->out.out, "%s\n", sb.buf);
		sb_free(&sb);
	}
}

/* A poll hands back after its wait plus this long of ring buffer records
 * (checked every so many): records that come faster than they are printed
 * would keep ring_buffer__consume going for ever, and the stop loop (signals,
 * the duration) would never run. The callback's return that stops libbpf. */
#define POLL_BUDGET_MS 50
#define POLL_CHECK_EVERY 256
#define POLL_YIELD (-ETIME)

static int rb_cb(void *ctx, void *data, size_t size)
{
	struct bpfobj_stream *s = ctx;
	print_record(s, data, size);
	if (s->bo->records % POLL_CHECK_EVERY == 0 && now_ns() > s->bo->poll_end)
		return POLL_YIELD;	/* this record is consumed */
	return 0;
}

static void pb_sample(void *ctx, int cpu, void *data, uint32_t size)
{
	(void)cpu;
	print_record(ctx, data, size);
}

static void pb_lost(void *ctx, int cpu, unsigned long long cnt)
{
	struct bpfobj_stream *s = ctx;
	s->bo->lost += cnt;
	if (s->bo->out.json) {
		struct json_writer *jw = jw_new(s->bo->out.out, false);
		jw_start_object(jw);
		jw_kv_string(jw, "map", bpf_map__name(s->map));
		jw_kv_int(jw, "cpu", cpu);
		jw_kv_uint(jw, "lost", cnt);
		jw_end_object(jw);
		jw_free(jw);
	} else {
		fprintf(s->bo->out.out, "%s: LOST %llu records on CPU %d\n", bpf_map__name(s->map), cnt, cpu);
	}
}

static bool is_stream(const struct bpf_map *m)
{
	enum bpf_map_type t = bpf_map__type(m);
	return t == BPF_MAP_TYPE_RINGBUF || t == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
}

/* The record type of stream map m: forced, else the declared value type, else event_struct. */
static uint32_t record_type(const struct bpfobj *bo, const struct bpf_map *m, uint32_t forced,
			    uint32_t event_struct)
{
	if (forced)
		return forced;
	uint32_t v = bpfobj_map_def_value_type(bo->btf, bpf_map__name(m));
	int sz;
	bool sg;
	/* a perf event array's declared value is the fd (an int): not the record */
	if (v && !(bpf_map__type(m) == BPF_MAP_TYPE_PERF_EVENT_ARRAY &&
		   btf_fmt_int_info(bo->btf, v, &sz, &sg)))
		return v;
	if (!event_struct)
		pr_warn("map '%s': record type unknown, records are shown as hex; "
			"declare __type(value, struct X) or name the record type", bpf_map__name(m));
	return event_struct;
}

/* Consume stream s's map: ring buffers share one ring_buffer manager (one
 * epoll entry, data.ptr NULL), each perf event array has its own. */
static int add_stream(struct bpfobj *bo, struct bpfobj_stream *s)
{
	const struct bpf_map *m = s->map;
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
	int efd;
	if (bpf_map__type(m) == BPF_MAP_TYPE_RINGBUF) {
		if (bo->rb) {
			if (ring_buffer__add(bo->rb, bpf_map__fd(m), rb_cb, s))
				goto rb_fail;
			return 0;
		}
		bo->rb = ring_buffer__new(bpf_map__fd(m), rb_cb, s, NULL);
		if (!bo->rb)
			goto rb_fail;
		efd = ring_buffer__epoll_fd(bo->rb);
	} else {
		s->pb = perf_buffer__new(bpf_map__fd(m), 64, pb_sample, pb_lost, s, NULL);
		if (!s->pb) {
			int err = -errno;
			pr_err("cannot read perf event array map '%s': %s%s", bpf_map__name(m),
			       log_strerr(err), log_limit_suffix(err));
			return err;
		}
		efd = perf_buffer__epoll_fd(s->pb);
		ev.data.ptr = s;
	}
	epoll_ctl(bo->epfd, EPOLL_CTL_ADD, efd, &ev);
	return 0;
rb_fail:;
	int err = -errno;
	pr_err("cannot read ring buffer map '%s': %s%s", bpf_map__name(m), log_strerr(err),
	       log_limit_suffix(err));
	return err;
}

int bpfobj_streams_open(struct bpfobj *bo, const struct bpfobj_output *o)
{
	bo->out = *o;
	struct bpf_map *m;
	int n = 0;
	uint32_t forced = 0;
	if (o->event_type) {
		forced = bo->btf ? btf_fmt_find_struct(bo->btf, o->event_type) : 0;
		if (!forced) {
			pr_err("record type %s: %s has no struct or typedef named '%s'%s", o->event_type,
			       bo->path, o->event_type, bo->btf ? "" : " (it has no BTF: compile with clang -g)");
			return -ENOENT;
		}
	}
	bpf_object__for_each_map(m, bo->obj)
		n += is_stream(m);
	if (!n)
		return 0;
	bo->streams = xcalloc((size_t)n, sizeof(*bo->streams));
	bo->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (bo->epfd < 0) {
		int err = -errno;
		pr_err("cannot stream the records of %s: epoll_create1: %s%s", bo->path,
		       log_strerr(err), log_limit_suffix(err));
		return err;
	}
	uint32_t event_struct = bo->btf ? btf_fmt_find_struct(bo->btf, "event") : 0;
	bpf_object__for_each_map(m, bo->obj) {
		if (!is_stream(m))
			continue;
		struct bpfobj_stream *s = &bo->streams[bo->nr_streams++];
		s->bo = bo;
		s->map = m;
		s->type_id = record_type(bo, m, forced, event_struct);
		int err = add_stream(bo, s);
		if (err)
			return err;
	}
	return bo->nr_streams;
}

int bpfobj_streams_poll(struct bpfobj *bo, int timeout_ms)
{
	if (bo->epfd < 0) {
		if (timeout_ms > 0) {
			struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L };
			nanosleep(&ts, NULL);
		}
		return 0;
	}
	uint64_t before = bo->records;
	bo->poll_end = now_ns() + ((uint64_t)(timeout_ms > 0 ? timeout_ms : 0) + POLL_BUDGET_MS) * 1000000;
	struct epoll_event evs[16];
	int n = epoll_wait(bo->epfd, evs, 16, timeout_ms);
	if (n < 0) {
		if (errno == EINTR)
			return 0;
		int err = -errno;
		pr_err("cannot wait for the records of %s: epoll_wait: %s", bo->path, log_strerr(err));
		return err;
	}
	for (int i = 0; i < n; i++) {
		struct bpfobj_stream *s = evs[i].data.ptr;
		if (!s)
			ring_buffer__consume(bo->rb);
		else
			perf_buffer__consume(s->pb);
	}
	fflush(bo->out.out);
	return (int)(bo->records - before);
}

void bpfobj_streams_stats(struct bpfobj *bo, uint64_t *records, uint64_t *lost)
{
	/* drain what is left */
	bo->poll_end = UINT64_MAX;
	if (bo->rb)
		ring_buffer__consume(bo->rb);
	for (int i = 0; i < bo->nr_streams; i++)
		if (bo->streams[i].pb)
			perf_buffer__consume(bo->streams[i].pb);
	*records = bo->records;
	*lost = bo->lost;
}

int bpfobj_streams_poll_all(struct bpfobj *const *objs, int n, int timeout_ms)
{
	for (int i = 0; i < n; i++) {
		int ret = bpfobj_streams_poll(objs[i], n == 1 ? timeout_ms : timeout_ms / n);
		if (ret < 0)
			return ret;
	}
	return 0;
}

void bpfobj_streams_stats_all(struct bpfobj *const *objs, int n, uint64_t *records, uint64_t *lost)
{
	*records = *lost = 0;
	for (int i = 0; i < n; i++) {
		uint64_t r, l;
		bpfobj_streams_stats(objs[i], &r, &l);
		*records += r;
		*lost += l;
	}
}
