// SPDX-License-Identifier: GPL-2.0-only
/* perf.data writer and reader: round trip (file and pipe mode, stdin),
 * time ordering, features, BPF info encoding, and clear errors for truncated
 * and corrupt files. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "log.h"
#include "perfdata/bpf_info.h"
#include "perfdata/dump.h"
#include "perfdata/reader.h"
#include "out/header.h"
#include "perfdata/writer.h"
#include "util.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

static char path[64];

static void put(struct strbuf *b, const void *p, size_t n) { sb_append_len(b, p, n); }
static void put64(struct strbuf *b, uint64_t v) { put(b, &v, 8); }
static void put32(struct strbuf *b, uint32_t v) { put(b, &v, 4); }

static void trailer(struct strbuf *b, uint32_t pid, uint64_t time, uint64_t id)
{
	put32(b, pid); put32(b, pid); put64(b, time); put32(b, 0); put32(b, 0); put64(b, id);
}

static void finish_rec(struct strbuf *b, size_t start)
{
	uint16_t size = (uint16_t)(b->len - start);
	memcpy(b->buf + start + 6, &size, 2);
}

static void sample(struct strbuf *b, uint64_t id, uint32_t pid, uint64_t time, uint64_t ip, int depth)
{
	size_t s = b->len;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 0 };
	put(b, &h, sizeof(h));
	put64(b, id); put64(b, ip); put32(b, pid); put32(b, pid); put64(b, time);
	put32(b, 1); put32(b, 0); put64(b, 250000);
	put64(b, (uint64_t)depth + 1);
	put64(b, PERF_CONTEXT_USER);
	for (int i = 0; i < depth; i++)
		put64(b, ip + (uint64_t)i * 16);
	finish_rec(b, s);
}

static void comm(struct strbuf *b, uint32_t pid, const char *name, uint64_t time, uint64_t id)
{
	size_t s = b->len;
	struct perf_event_header h = { PERF_RECORD_COMM, 0, 0 };
	put(b, &h, sizeof(h));
	put32(b, pid); put32(b, pid);
	char n[16] = { 0 };
	snprintf(n, sizeof(n), "%s", name);
	put(b, n, 16);
	trailer(b, pid, time, id);
	finish_rec(b, s);
}

/* Writes a file with 2 events; returns its record bytes. */
static void write_file(bool finish)
{
	int err = 0;
	snprintf(path, sizeof(path), "/tmp/bpfperf-test-pd-%d.data", getpid());
	unlink(path);
	struct pd_writer *w = pd_writer_create(path, &err);
	assert_non_null(w);
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_type = ST,
				     .sample_id_all = 1 };
	uint64_t ids0[] = { 10, 11 }, ids1[] = { 20 };
	pd_writer_add_attr(w, &a, "cpu-clock", ids0, 2);
	a.config = PERF_COUNT_SW_DUMMY;
	pd_writer_add_attr(w, &a, "dummy:u", ids1, 1);
	assert_int_equal(pd_writer_begin(w), 0);
	struct strbuf b = { 0 };
	comm(&b, 42, "first", 0, 20);
	sample(&b, 11, 42, 300, 0x1000, 3);	/* out of order on purpose */
	sample(&b, 10, 42, 100, 0x2000, 1);
	comm(&b, 42, "renamed", 200, 20);
	assert_int_equal(pd_writer_write(w, b.buf, b.len), 0);
	assert_int_equal(pd_writer_commit(w), 0);
	if (finish) {
		struct strbuf f = { 0 };
		pd_feat_put_string(&f, "myhost");
		pd_writer_add_feature(w, PD_FEAT_HOSTNAME, f.buf, f.len);
		sb_free(&f);
		assert_int_equal(pd_writer_finish(w), 0);
	}
	pd_writer_free(w);
	sb_free(&b);
}

struct seen {
	int n;
	uint32_t types[16];
	uint64_t times[16];
	uint64_t ips[16];
	const char *events[16];
	uint64_t nr_cc[16];
};

static int collect(void *ctx, const struct pd_record *r)
{
	struct seen *s = ctx;
	if (s->n < 16) {
		s->types[s->n] = r->hdr->type;
		s->times[s->n] = r->s.time;
		s->ips[s->n] = r->s.ip;
		s->events[s->n] = r->event ? r->event->name : NULL;
		s->nr_cc[s->n] = r->s.nr_callchain;
	}
	s->n++;
	return 0;
}

/* report -D prints TIME_CONV as perf does: the 5.13+ fields only when the
 * record has them (perf writes it where user space may read the TSC). */
static void test_dump_time_conv(void **state)
{
	(void)state;
	write_file(true);
	struct pd_file *f = pd_open(path, NULL);
	assert_non_null(f);
	unsigned char rec[56] = { 0 };
	struct perf_event_header h = { .type = 79, .size = sizeof(rec) };
	uint64_t v[] = { 31, 878171315, 18446744072410213387ull, 0, 0 };
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, v, sizeof(v));
	rec[48] = 1;
	struct pd_record r = { .hdr = (const struct perf_event_header *)rec, .offset = 0x1a0 };
	for (int longer = 1; longer >= 0; longer--) {
		h.size = longer ? 56 : 32;
		memcpy(rec, &h, sizeof(h));
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);
		assert_int_equal(pd_dump_record(out, f, &r, "x.data"), 0);
		fclose(out);
		assert_non_null(strstr(buf, "PERF_RECORD_TIME_CONV\n"
					    "... Time Shift      31\n"
					    "... Time Muliplier  878171315\n"
					    "... Time Zero       18446744072410213387\n"));
		const char *ext = "... Time Cycles     0\n... Time Mask       0\n"
				  "... Cap Time Zero   1\n... Cap Time Short  0\n: unhandled!\n";
		if (longer)
			assert_non_null(strstr(buf, ext));
		else
			assert_non_null(strstr(buf, "18446744072410213387\n: unhandled!\n"));
		free(buf);
	}
	pd_close(f);
	unlink(path);
}

static void test_roundtrip(void **state)
{
	(void)state;
	write_file(true);
	struct pd_file *f = pd_open(path, NULL);
	assert_non_null(f);
	assert_int_equal(pd_nr_events(f), 2);
	assert_string_equal(pd_event_at(f, 0)->name, "cpu-clock");
	assert_string_equal(pd_event_at(f, 1)->name, "dummy:u");
	assert_false(pd_event_is_dummy(pd_event_at(f, 0)));
	assert_true(pd_event_is_dummy(pd_event_at(f, 1)));
	size_t len;
	const char *host = pd_feature(f, PD_FEAT_HOSTNAME, &len);
	assert_non_null(host);
	size_t pos = 0;
	assert_string_equal(pd_feat_get_string(host, len, &pos), "myhost");
	assert_non_null(pd_feature(f, PD_FEAT_EVENT_DESC, NULL));

	struct seen s = { 0 };
	assert_int_equal(pd_process(f, collect, &s), 0);
	assert_int_equal(s.n, 4);
	/* time order: comm(0), sample(100), comm(200), sample(300) */
	assert_int_equal(s.types[0], PERF_RECORD_COMM);
	assert_int_equal(s.times[1], 100);
	assert_int_equal(s.ips[1], 0x2000);
	assert_string_equal(s.events[1], "cpu-clock");
	assert_int_equal(s.types[2], PERF_RECORD_COMM);
	assert_string_equal(s.events[2], "dummy:u");
	assert_int_equal(s.times[3], 300);
	assert_int_equal(s.nr_cc[3], 4);
	pd_close(f);
	unlink(path);
}

/* Pipe mode (path "-", standard output): written to a file through a
 * redirected stdout, read back; the stream's layout is perf's. */
static void write_pipe_td(const char *out, const void *td, size_t tdlen)
{
	int err = 0;
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	FILE *o = fopen(out, "w");
	assert_non_null(o);
	dup2(fileno(o), STDOUT_FILENO);
	fclose(o);
	struct pd_writer *w = pd_writer_create("-", &err);
	assert_non_null(w);
	assert_true(pd_writer_is_pipe(w));
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_type = ST,
				     .sample_id_all = 1 };
	uint64_t ids0[] = { 10, 11 }, ids1[] = { 20 };
	pd_writer_add_attr(w, &a, "cpu-clock", ids0, 2);
	a.config = PERF_COUNT_SW_DUMMY;
	pd_writer_add_attr(w, &a, "dummy:u", ids1, 1);
	struct strbuf f = { 0 };
	pd_feat_put_string(&f, "myhost");
	pd_writer_add_feature(w, PD_FEAT_HOSTNAME, f.buf, f.len);
	pd_writer_add_feature(w, PD_FEAT_TRACING_DATA, td, tdlen);
	assert_int_equal(pd_writer_begin(w), 0);
	struct strbuf b = { 0 };
	comm(&b, 42, "first", 0, 20);
	sample(&b, 11, 42, 300, 0x1000, 3);
	sample(&b, 10, 42, 100, 0x2000, 1);
	assert_int_equal(pd_writer_write(w, b.buf, b.len), 0);
	assert_int_equal(pd_writer_commit(w), 0);	/* a FINISHED_ROUND */
	sb_reset(&b);
	comm(&b, 42, "renamed", 200, 20);
	assert_int_equal(pd_writer_write(w, b.buf, b.len), 0);
	/* the same payload again is not sent twice; a new one at finish */
	pd_writer_add_feature(w, PD_FEAT_HOSTNAME, f.buf, f.len);
	sb_reset(&f);
	pd_feat_put_string(&f, "6.1.0");
	pd_writer_add_feature(w, PD_FEAT_OSRELEASE, f.buf, f.len);
	assert_int_equal(pd_writer_finish(w), 0);
	pd_writer_free(w);
	sb_free(&b);
	sb_free(&f);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
}

static void write_pipe(const char *out)
{
	write_pipe_td(out, "13 bytes here", 13);
}

static int count_type(void *ctx, const struct pd_record *r)
{
	int *n = ctx;
	n[r->hdr->type < 128 ? r->hdr->type : 127]++;
	return 0;
}

static void test_pipe_roundtrip(void **state)
{
	(void)state;
	char out[64];
	snprintf(out, sizeof(out), "/tmp/bpfperf-test-pipe-%d.data", getpid());
	write_pipe(out);
	size_t n;
	uint8_t *raw = (uint8_t *)read_file(out, &n);
	assert_non_null(raw);
	uint64_t magic, size;
	memcpy(&magic, raw, 8);
	memcpy(&size, raw + 8, 8);
	assert_true(magic == PERF_MAGIC2);
	assert_int_equal(size, 16);	/* perf's pipe header */
	struct perf_event_header h;
	memcpy(&h, raw + 16, sizeof(h));
	assert_int_equal(h.type, PD_RECORD_HEADER_ATTR);	/* attrs come first */
	assert_int_equal(h.size, 8 + PD_ATTR_SIZE + 2 * 8);
	/* walk the stream: one HOSTNAME, the features' end marker (perf 6.1's
	 * HEADER_LAST_FEATURE) before the first kernel record, the tracing
	 * data with its 8-byte padding outside the record's size */
	int hostnames = 0, last_at = -1, first_kernel = -1, rounds = 0, i = 0;
	for (size_t off = 16; off + 8 <= n; i++) {
		memcpy(&h, raw + off, sizeof(h));
		assert_true(h.size >= 8);
		uint64_t feat = 0;
		if (h.type == PD_RECORD_HEADER_FEATURE)
			memcpy(&feat, raw + off + 8, 8);
		hostnames += feat == PD_FEAT_HOSTNAME;
		if (feat == PD_FEAT_LAST_61)
			last_at = i;
		if (h.type < PD_RECORD_HEADER_ATTR && first_kernel < 0)
			first_kernel = i;
		rounds += h.type == PD_RECORD_FINISHED_ROUND;
		off += h.size;
		if (h.type == PD_RECORD_HEADER_TRACING_DATA) {
			uint32_t len;
			assert_int_equal(h.size, 12);
			memcpy(&len, raw + off - 4, 4);
			assert_int_equal(len, 16);
			assert_memory_equal(raw + off, "13 bytes here\0\0\0", 16);
			off += len;
		}
	}
	assert_int_equal(hostnames, 1);
	assert_true(last_at >= 0 && last_at < first_kernel);
	assert_int_equal(rounds, 1);
	free(raw);

	struct pd_file *f = pd_open(out, NULL);
	assert_non_null(f);
	assert_true(pd_is_pipe(f));
	assert_int_equal(pd_nr_events(f), 2);
	assert_string_equal(pd_event_at(f, 1)->name, "dummy:u");
	assert_int_equal(pd_event_at(f, 0)->nids, 2);
	size_t len, pos = 0;
	const char *s = pd_feature(f, PD_FEAT_OSRELEASE, &len);
	assert_non_null(s);
	assert_string_equal(pd_feat_get_string(s, len, &pos), "6.1.0");
	assert_non_null(pd_feature(f, PD_FEAT_TRACING_DATA, &len));
	assert_int_equal(len, 16);
	int types[128] = { 0 };
	assert_int_equal(pd_process(f, count_type, types), 0);
	assert_int_equal(types[PERF_RECORD_SAMPLE], 2);
	assert_int_equal(types[PERF_RECORD_COMM], 2);
	assert_int_equal(types[PD_RECORD_HEADER_TRACING_DATA], 0);	/* skipped */
	pd_close(f);
	unlink(out);
}

/* A stream's tracepoint formats are not records: bytes in them that look
 * like a COMPRESSED record (perf's saved_cmdlines and printk formats vary
 * from run to run) must not send the reader into zstd. */
static void test_pipe_formats_not_records(void **state)
{
	(void)state;
	char err[512], out[64];
	snprintf(out, sizeof(out), "/tmp/bpfperf-test-pipe-td-%d.data", getpid());
	uint8_t td[32] = { 0 };
	struct perf_event_header fake = { .type = PD_RECORD_COMPRESSED, .size = 24 };
	memcpy(td, &fake, sizeof(fake));
	memcpy(td + 8, "not zstd, not a frame", 21);
	write_pipe_td(out, td, sizeof(td));
	log_capture_errors(err, sizeof(err));
	struct pd_file *f = pd_open(out, NULL);
	log_capture_errors(NULL, 0);
	if (!f)
		fail_msg("pd_open: %s", err);
	size_t len;
	const uint8_t *got = pd_feature(f, PD_FEAT_TRACING_DATA, &len);
	assert_non_null(got);
	assert_int_equal(len, sizeof(td));
	assert_memory_equal(got, td, sizeof(td));
	int types[128] = { 0 };
	assert_int_equal(pd_process(f, count_type, types), 0);
	assert_int_equal(types[PERF_RECORD_SAMPLE], 2);
	assert_int_equal(types[PD_RECORD_COMPRESSED], 0);
	pd_close(f);
	unlink(out);
}

/* report -i -: a redirected file is read in place, a pipe is spooled. */
static void test_stdin_file(void **state)
{
	(void)state;
	char out[64];
	snprintf(out, sizeof(out), "/tmp/bpfperf-test-stdin-%d.data", getpid());
	write_pipe(out);
	size_t n;
	char *raw = read_file(out, &n);
	assert_non_null(raw);
	int saved = dup(STDIN_FILENO);
	for (int mode = 0; mode < 2; mode++) {
		int p[2] = { -1, -1 };
		if (mode == 0) {
			FILE *in = fopen(out, "r");
			assert_non_null(in);
			dup2(fileno(in), STDIN_FILENO);
			fclose(in);
		} else {
			assert_int_equal(pipe(p), 0);
			assert_true(n < 65536);	/* fits in the pipe's buffer */
			assert_int_equal(write(p[1], raw, n), (ssize_t)n);
			close(p[1]);
			dup2(p[0], STDIN_FILENO);
			close(p[0]);
		}
		int fd = pd_stdin_file();
		assert_true(fd >= 0);
		struct pd_file *f = pd_open_fd(fd, "standard input", NULL);
		assert_non_null(f);
		assert_int_equal(pd_nr_events(f), 2);
		pd_close(f);
		/* opened again: the passes of report */
		f = pd_open_fd(fd, "standard input", NULL);
		assert_non_null(f);
		pd_close(f);
		close(fd);
	}
	dup2(saved, STDIN_FILENO);
	close(saved);
	free(raw);
	unlink(out);
}

static void test_killed_writer_is_readable(void **state)
{
	(void)state;
	write_file(false);	/* committed, never finished: like a SIGKILL */
	struct pd_file *f = pd_open(path, NULL);
	assert_non_null(f);
	struct seen s = { 0 };
	assert_int_equal(pd_process(f, collect, &s), 0);
	assert_int_equal(s.n, 4);
	pd_close(f);
	unlink(path);
}

static void test_truncated_and_corrupt(void **state)
{
	(void)state;
	char err[512];
	write_file(true);
	size_t len;
	char *buf = read_file(path, &len);
	assert_non_null(buf);
	unlink(path);
	struct pd_file_header h;
	memcpy(&h, buf, sizeof(h));

	/* the reader logs each error once: the last message is in err */
	log_capture_errors(err, sizeof(err));

	/* cut inside the data section */
	int e = 0;
	struct pd_file *f = pd_open_mem(buf, h.data.offset + 20, &e);
	assert_null(f);
	assert_int_equal(e, -EINVAL);
	assert_non_null(strstr(err, "truncated"));

	/* bad magic */
	char *copy = xmalloc(len);
	memcpy(copy, buf, len);
	copy[0] = 'X';
	err[0] = '\0';
	assert_null(pd_open_mem(copy, len, NULL));
	assert_non_null(strstr(err, "not a perf.data file"));

	/* record with an impossible size: error names the offset */
	memcpy(copy, buf, len);
	uint16_t bad = 12;
	memcpy(copy + h.data.offset + 6, &bad, 2);
	f = pd_open_mem(copy, len, NULL);
	assert_non_null(f);
	struct seen s = { 0 };
	err[0] = '\0';
	assert_int_equal(pd_process(f, collect, &s), -EINVAL);
	char want[64];
	snprintf(want, sizeof(want), "offset %llu", (unsigned long long)h.data.offset);
	assert_non_null(strstr(err, want));
	pd_close(f);

	/* a file that is not there: its name, the reason, the command's hint */
	log_set_hint(LOG_HINT_INPUT_MISSING, "; record one first");
	assert_null(pd_open("/nonexistent/perf.data", &e));
	assert_int_equal(e, -ENOENT);
	assert_string_equal(err, "cannot open /nonexistent/perf.data: No such file or directory; "
				 "record one first");
	log_set_hint(LOG_HINT_INPUT_MISSING, NULL);
	log_capture_errors(NULL, 0);

	/* every prefix of the file: never a crash, and not a word at LOG_SILENT */
	log_set_verbosity(LOG_SILENT);
	for (size_t n = 0; n < len; n += 7) {
		f = pd_open_mem(buf, n, NULL);
		if (f) {
			pd_process(f, collect, &s);
			pd_close(f);
		}
	}
	log_set_verbosity(0);
	free(copy);
	free(buf);
}

/* KSYMBOL and BPF_EVENT records whose header size counts one trailer too
 * many (kernels do that when several events listen): their sample_id trailer
 * is read where it really is, so they keep their time. */
static void test_inflated_sideband_records(void **state)
{
	(void)state;
	int e = 0;
	snprintf(path, sizeof(path), "/tmp/bpfperf-test-pd-%d.data", getpid());
	unlink(path);
	struct pd_writer *w = pd_writer_create(path, &e);
	assert_non_null(w);
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_type = ST,
				     .sample_id_all = 1 };
	uint64_t ids[] = { 10 };
	pd_writer_add_attr(w, &a, "cpu-clock", ids, 1);
	assert_int_equal(pd_writer_begin(w), 0);
	struct strbuf b = { 0 };
	sample(&b, 10, 42, 100, 0x1000, 0);
	size_t s = b.len;
	struct pd_rec_ksymbol k = { .header = { .type = PERF_RECORD_KSYMBOL }, .addr = 0xc000,
				    .len = 64, .ksym_type = PD_KSYMBOL_TYPE_BPF };
	put(&b, &k, sizeof(k));
	char name[16] = "bpf_prog_ab_f";
	put(&b, name, sizeof(name));
	trailer(&b, 0, 50, 10);
	trailer(&b, 0xeeeeeeee, 0xeeeeeeeeeeeeeeee, 0xeeeeeeeeeeeeeeee);
	finish_rec(&b, s);
	s = b.len;
	struct pd_rec_bpf_event ev = { .header = { .type = PERF_RECORD_BPF_EVENT },
				       .type = PD_BPF_EVENT_PROG_LOAD, .id = 3 };
	put(&b, &ev, sizeof(ev));
	trailer(&b, 0, 60, 10);
	trailer(&b, 0xeeeeeeee, 0xeeeeeeeeeeeeeeee, 0xeeeeeeeeeeeeeeee);
	finish_rec(&b, s);
	assert_int_equal(pd_writer_write(w, b.buf, b.len), 0);
	assert_int_equal(pd_writer_finish(w), 0);
	pd_writer_free(w);
	sb_free(&b);

	struct pd_file *f = pd_open(path, NULL);
	assert_non_null(f);
	struct seen sn = { 0 };
	assert_int_equal(pd_process(f, collect, &sn), 0);
	assert_int_equal(sn.n, 3);
	assert_int_equal(sn.types[0], PERF_RECORD_KSYMBOL);
	assert_int_equal(sn.times[0], 50);
	assert_int_equal(sn.types[1], PERF_RECORD_BPF_EVENT);
	assert_int_equal(sn.times[1], 60);
	assert_int_equal(sn.types[2], PERF_RECORD_SAMPLE);
	pd_close(f);
	unlink(path);
}

static int count_progs;
static void on_prog(void *ctx, const struct bpf_prog_info *info)
{
	(void)ctx;
	const uint64_t *k = (const uint64_t *)(uintptr_t)info->jited_ksyms;
	assert_int_equal(info->nr_jited_ksyms, 2);
	assert_int_equal(k[0], 0xffffffffc0001000ull);
	assert_int_equal(k[1], 0xffffffffc0002000ull);
	assert_int_equal(info->id, 77);
	count_progs++;
}

static void test_bpf_prog_info_encoding(void **state)
{
	(void)state;
	struct pd_bpf_prog p = { 0 };
	uint64_t ksyms[2] = { 0xffffffffc0001000ull, 0xffffffffc0002000ull };
	p.info.id = 77;
	p.info.nr_jited_ksyms = 2;
	p.info.jited_ksyms = 0;	/* offset into data */
	p.arrays = 1ULL << PD_BPIL_JITED_KSYMS;
	p.data = (uint8_t *)ksyms;
	p.data_len = sizeof(ksyms);
	struct pd_bpf_prog *list[] = { &p, &p };
	struct strbuf b = { 0 };
	pd_bpf_progs_encode(&b, list, 2);
	count_progs = 0;
	assert_int_equal(pd_bpf_progs_decode(b.buf, b.len, on_prog, NULL), 2);
	assert_int_equal(count_progs, 2);
	/* an array pointing outside the data is skipped, not followed */
	p.info.jited_ksyms = 4096;
	sb_reset(&b);
	pd_bpf_progs_encode(&b, list, 1);
	log_set_verbosity(-1);
	assert_int_equal(pd_bpf_progs_decode(b.buf, b.len, on_prog, NULL), 0);
	/* truncated section */
	assert_int_equal(pd_bpf_progs_decode(b.buf, 10, on_prog, NULL), -1);
	sb_free(&b);
}

/* The name of subprogram sub is want. */
static void assert_prog_name(const struct bpf_prog_info *info, const struct btf *btf,
			     uint32_t sub, const char *want)
{
	char buf[256];
	pd_bpf_prog_name(info, btf, sub, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* pd_bpf_prog_name: perf's names (synthesize_bpf_prog_name), which are the
 * kernel's KSYMBOL names: the tag of the subprogram itself (prog_tags[sub],
 * not the program tag, also for subprogram 0), every byte as two digits, then
 * the BTF func name, else the program name for one function (no suffix when
 * it is empty), else "F". */
static void test_bpf_prog_name(void **state)
{
	(void)state;
	uint8_t tags[3][8] = { { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef },
			       { 0x00, 0x00, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f },
			       { 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 } };
	struct bpf_prog_info info = { .nr_jited_ksyms = 1, .nr_prog_tags = 1 };
	memcpy(info.tag, tags[0], 8);
	info.prog_tags = (uint64_t)(uintptr_t)tags;
	strcpy(info.name, "my_prog");
	assert_prog_name(&info, NULL, 0, "bpf_prog_0123456789abcdef_my_prog");
	/* a 15-character name (the most the kernel keeps) */
	strcpy(info.name, "fifteen_chars_x");
	assert_prog_name(&info, NULL, 0, "bpf_prog_0123456789abcdef_fifteen_chars_x");
	/* empty name: the tag alone, as the kernel's kallsyms name */
	memset(info.name, 0, sizeof(info.name));
	assert_prog_name(&info, NULL, 0, "bpf_prog_0123456789abcdef");
	/* leading zero bytes of the tag are kept */
	info.prog_tags = (uint64_t)(uintptr_t)tags[1];
	memcpy(info.tag, tags[1], 8);
	strcpy(info.name, "z");
	assert_prog_name(&info, NULL, 0, "bpf_prog_00000a0b0c0d0e0f_z");

	/* several subprograms without BTF: each its own tag, named "F"; the
	 * program tag (here different from prog_tags[0]) is not used */
	info.prog_tags = (uint64_t)(uintptr_t)tags;
	info.nr_prog_tags = 3;
	info.nr_jited_ksyms = 3;
	memset(info.tag, 0x77, 8);
	strcpy(info.name, "my_prog");
	assert_prog_name(&info, NULL, 0, "bpf_prog_0123456789abcdef_F");
	assert_prog_name(&info, NULL, 1, "bpf_prog_00000a0b0c0d0e0f_F");
	assert_prog_name(&info, NULL, 2, "bpf_prog_fedcba9876543210_F");

	/* with BTF: each subprogram's func name, also for a single function */
	struct btf *btf = btf__new_empty();
	assert_non_null(btf);
	int int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	int proto = btf__add_func_proto(btf, int_id);
	int f_main = btf__add_func(btf, "main_fn", BTF_FUNC_GLOBAL, proto);
	int f_a = btf__add_func(btf, "helper_a", BTF_FUNC_STATIC, proto);
	int f_b = btf__add_func(btf, "helper_b", BTF_FUNC_STATIC, proto);
	assert_true(int_id > 0 && proto > 0 && f_main > 0 && f_a > 0 && f_b > 0);
	struct bpf_func_info fi[3] = { { 0, (uint32_t)f_main }, { 10, (uint32_t)f_a },
				       { 20, (uint32_t)f_b } };
	info.func_info = (uint64_t)(uintptr_t)fi;
	info.nr_func_info = 3;
	info.func_info_rec_size = sizeof(fi[0]);
	assert_prog_name(&info, btf, 0, "bpf_prog_0123456789abcdef_main_fn");
	assert_prog_name(&info, btf, 1, "bpf_prog_00000a0b0c0d0e0f_helper_a");
	assert_prog_name(&info, btf, 2, "bpf_prog_fedcba9876543210_helper_b");
	info.nr_jited_ksyms = info.nr_prog_tags = info.nr_func_info = 1;
	assert_prog_name(&info, btf, 0, "bpf_prog_0123456789abcdef_main_fn");
	btf__free(btf);
}

/* out_header: perf's lines for the sections written, and no read past a
 * section whatever its bytes (every section cut short and filled with
 * garbage; ASan builds check the reads). */
static void write_header_file(const uint8_t *junk, size_t junk_len)
{
	int err = 0;
	snprintf(path, sizeof(path), "/tmp/bpfperf-test-pd-%d.data", getpid());
	unlink(path);
	struct pd_writer *w = pd_writer_create(path, &err);
	assert_non_null(w);
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_type = ST,
				     .sample_id_all = 1, .freq = 1, .sample_freq = 4000 };
	uint64_t ids[] = { 7, 8 };
	pd_writer_add_attr(w, &a, "cpu-clock", ids, 2);
	assert_int_equal(pd_writer_begin(w), 0);
	struct strbuf b = { 0 };
	comm(&b, 42, "w", 0, 7);	/* a data section of size 0 would mean a killed writer */
	assert_int_equal(pd_writer_write(w, b.buf, b.len), 0);
	sb_reset(&b);
	if (junk) {
		for (int f = 1; f < PD_FEAT_LAST_61; f++)
			pd_writer_add_feature(w, (enum pd_feature)f, junk, junk_len);
	} else {
		pd_feat_put_u32(&b, 2);
		pd_feat_put_u32(&b, 2);
		pd_writer_add_feature(w, PD_FEAT_NRCPUS, b.buf, b.len);
		sb_reset(&b);
		pd_feat_put_u32(&b, 2);
		pd_feat_put_string(&b, "/usr/bin/perf");
		pd_feat_put_string(&b, "record");
		pd_writer_add_feature(w, PD_FEAT_CMDLINE, b.buf, b.len);
		sb_reset(&b);
		pd_feat_put_u32(&b, 1);		/* sockets */
		pd_feat_put_string(&b, "0-1");
		pd_feat_put_u32(&b, 2);		/* threads */
		pd_feat_put_string(&b, "0");
		pd_feat_put_string(&b, "1");
		for (uint32_t c = 0; c < 2; c++) {
			pd_feat_put_u32(&b, c);	/* core */
			pd_feat_put_u32(&b, 0);	/* socket */
		}
		pd_feat_put_u32(&b, 1);		/* dies */
		pd_feat_put_string(&b, "0-1");
		pd_feat_put_u32(&b, 0);
		pd_feat_put_u32(&b, 0);
		pd_writer_add_feature(w, PD_FEAT_CPU_TOPOLOGY, b.buf, b.len);
		sb_reset(&b);
		pd_feat_put_u64(&b, 363407496000ull);
		pd_feat_put_u64(&b, 363408241000ull);
		pd_writer_add_feature(w, PD_FEAT_SAMPLE_TIME, b.buf, b.len);
		sb_reset(&b);
		pd_feat_put_u64(&b, 1);		/* version */
		pd_feat_put_u64(&b, 0x8000000);
		pd_feat_put_u64(&b, 1);
		pd_feat_put_u64(&b, 0);		/* node */
		pd_feat_put_u64(&b, 200);	/* blocks */
		pd_feat_put_u64(&b, 200);	/* bits */
		uint64_t words[4] = { 0xffffffull | (0xffffffffull << 32), ~0ull, ~0ull, 0xff };
		for (int i = 0; i < 4; i++)
			pd_feat_put_u64(&b, words[i]);
		pd_writer_add_feature(w, PD_FEAT_MEM_TOPOLOGY, b.buf, b.len);
		sb_reset(&b);
		pd_feat_put_u32(&b, 1);
		pd_feat_put_u32(&b, 1);		/* monotonic */
		pd_feat_put_u64(&b, 1795620478453858000ull);
		pd_feat_put_u64(&b, 376647719303ull);
		pd_writer_add_feature(w, PD_FEAT_CLOCK_DATA, b.buf, b.len);
	}
	assert_int_equal(pd_writer_finish(w), 0);
	pd_writer_free(w);
	sb_free(&b);
}

static char *header_text(bool full)
{
	struct pd_file *f = pd_open(path, NULL);
	assert_non_null(f);
	char *text = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&text, &len);
	assert_int_equal(out_header(o, f, path, full), 0);
	fclose(o);
	pd_close(f);
	return text;
}

static void test_header_print(void **state)
{
	(void)state;
	write_header_file(NULL, 0);
	char *t = header_text(false);
	assert_non_null(strstr(t, "# nrcpus online : 2\n# nrcpus avail : 2\n"));
	assert_non_null(strstr(t, "# cmdline : /usr/bin/perf record \n"));
	assert_non_null(strstr(t, "# event : name = cpu-clock, , id = { 7, 8 }, type = 1, size = 128"));
	assert_non_null(strstr(t, "# CPU_TOPOLOGY info available, use -I to display\n"));
	assert_non_null(strstr(t, "# time of first sample : 363.407496\n"
				  "# time of last sample : 363.408241\n"
				  "# sample duration :      0.745 ms\n"));
	assert_non_null(strstr(t, "# missing features: TRACING_DATA BUILD_ID HOSTNAME"));
	free(t);
	t = header_text(true);
	assert_non_null(strstr(t, "# sibling sockets : 0-1\n# sibling dies    : 0-1\n"
				  "# sibling threads : 0\n# sibling threads : 1\n"
				  "# CPU 0: Core ID 0, Die ID 0, Socket ID 0\n"
				  "# CPU 1: Core ID 1, Die ID 0, Socket ID 0\n"));
	assert_non_null(strstr(t, "# memory nodes (nr 1, block size 0x8000000):\n"
				  "#    0 [24G]: 0-23,32-199\n"));
	assert_non_null(strstr(t, "# clockid: monotonic (1)\n"));
	assert_non_null(strstr(t, "= 1795620478.453858 (TOD) = 376.647719303 (monotonic)\n"));
	free(t);

	/* Garbage in every section, of every length up to 80 bytes. */
	uint8_t junk[80];
	for (size_t len = 1; len <= sizeof(junk); len += 7) {
		for (size_t i = 0; i < len; i++)
			junk[i] = (uint8_t)(i * 37 + len);
		if (len > 8)
			memset(junk, 0xff, 4);	/* huge counts */
		write_header_file(junk, len);
		free(header_text(true));
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_pipe_roundtrip),
		cmocka_unit_test(test_pipe_formats_not_records),
		cmocka_unit_test(test_stdin_file),
		cmocka_unit_test(test_killed_writer_is_readable),
		cmocka_unit_test(test_truncated_and_corrupt),
		cmocka_unit_test(test_inflated_sideband_records),
		cmocka_unit_test(test_bpf_prog_info_encoding),
		cmocka_unit_test(test_bpf_prog_name),
		cmocka_unit_test(test_header_print),
		cmocka_unit_test(test_dump_time_conv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
