// SPDX-License-Identifier: GPL-2.0-only
/* perf report -D, record by record (see dump.h). The formats are perf 6.1's
 * (checked against its output on perf's recordings and ours). */
#include "perfdata/dump.h"
#include "perfdata/decode.h"
#include "perfdata/format.h"
#include "perfdata/reader.h"
#include "util.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>

/* perf's trace_event(): 16 bytes a line, hex then ASCII, and a blank line. */
static void hex_lines(FILE *out, const unsigned char *p, size_t n)
{
	fprintf(out, ".\n. ... raw event: size %zu bytes\n", n);
	for (size_t i = 0; i < n; i += 16) {
		size_t m = n - i < 16 ? n - i : 16;
		fprintf(out, ".  %04zx:  ", i);
		for (size_t j = 0; j < 16; j++) {
			if (j < m)
				fprintf(out, "%02x ", p[i + j]);
			else
				fputs("   ", out);
		}
		fputc(' ', out);
		for (size_t j = 0; j < 16; j++)
			fputc(j < m ? (isprint(p[i + j]) ? p[i + j] : '.') : ' ', out);
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* perf's evlist__print_tstamp: the CPU and time of the record when the
 * events sample them (any event: perf ORs their sample types), "-1 -1 " for
 * other records when the events carry no sample_id trailer. */
static void tstamp(FILE *out, const struct pd_file *f, const struct pd_record *r)
{
	uint64_t st = 0;
	for (size_t i = 0; i < pd_nr_events(f); i++)
		st |= pd_event_at(f, i)->attr.sample_type;
	if (r->hdr->type != PERF_RECORD_SAMPLE &&
	    !(pd_nr_events(f) && pd_event_at(f, 0)->attr.sample_id_all)) {
		fputs("-1 -1 ", out);
		return;
	}
	if (st & PERF_SAMPLE_CPU)
		fprintf(out, "%u ", r->s.cpu);
	if (st & PERF_SAMPLE_TIME)
		fprintf(out, "%" PRIu64 " ", r->s.time);
}

static void dump_sample(FILE *out, const struct pd_record *r)
{
	const struct pd_sample *s = &r->s;
	uint64_t st = r->event ? r->event->attr.sample_type : 0;
	/* without PERIOD in the samples perf shows the event's fixed period */
	uint64_t period = (st & PERF_SAMPLE_PERIOD) || !r->event ? s->period
			  : r->event->attr.sample_period;
	fprintf(out, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		r->hdr->misc, (int)s->pid, (int)s->tid, s->ip, period, s->addr);
	if (!(st & PERF_SAMPLE_CALLCHAIN))
		return;
	fprintf(out, "... FP chain: nr:%" PRIu64 "\n", s->nr_callchain);
	for (uint64_t i = 0; i < s->nr_callchain; i++) {
		uint64_t ip;
		memcpy(&ip, s->callchain + i, sizeof(ip));	/* may be unaligned */
		fprintf(out, "..... %2d: %016" PRIx64 "\n", (int)i, ip);
	}
}

static void prot_flags(FILE *out, uint32_t prot, uint32_t flags)
{
	fprintf(out, "%c%c%c%c", prot & PROT_READ ? 'r' : '-', prot & PROT_WRITE ? 'w' : '-',
		prot & PROT_EXEC ? 'x' : '-', flags & MAP_SHARED ? 's' : 'p');
}

static void dump_mmap2(FILE *out, const struct pd_mmap2 *m)
{
	const struct pd_rec_mmap2 *e = &m->rec;
	fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " ", (int)e->pid, (int)e->tid,
		e->start, e->len, e->pgoff);
	if (e->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		fputc('<', out);
		for (unsigned i = 0; i < e->build_id_size; i++)
			fprintf(out, "%02x", e->build_id[i]);
		fputc('>', out);
	} else {
		fprintf(out, "%02x:%02x %" PRIu64 " %" PRIu64, e->maj, e->min, e->ino, e->ino_generation);
	}
	fputs("]: ", out);
	prot_flags(out, e->prot, e->flags);
	fprintf(out, " %s\n", m->filename);
}

/* u64 nr, then {id, idx, cpu, tid} u64 each. */
static void dump_id_index(FILE *out, const unsigned char *p, size_t n)
{
	uint64_t nr = 0, e[4];
	if (n >= 16)
		memcpy(&nr, p + 8, 8);
	fprintf(out, " nr: %" PRIu64 "\n", nr);
	for (uint64_t i = 0; i < nr && 16 + (i + 1) * 32 <= n; i++) {
		memcpy(e, p + 16 + i * 32, sizeof(e));
		fprintf(out, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64 "\n",
			e[0], e[1], (int64_t)e[2], (int64_t)e[3]);
	}
}

/* u64 nr, then {u64 pid, char comm[16]}. */
static void dump_thread_map(FILE *out, const unsigned char *p, size_t n)
{
	uint64_t nr = 0, pid;
	if (n >= 16)
		memcpy(&nr, p + 8, 8);
	if (nr > (n - (n >= 16 ? 16 : n)) / 24)
		nr = (n - (n >= 16 ? 16 : n)) / 24;
	fprintf(out, " nr: %d thread%s: ", (int)nr, nr > 1 ? "s" : "");
	for (uint64_t i = 0; i < nr; i++) {
		memcpy(&pid, p + 16 + i * 24, 8);
		fprintf(out, "%s%d", i ? ", " : "", (int)pid);
	}
	fputs("\n: unhandled!\n", out);
}

/* The CPUs of a CPU_MAP record as perf lists them: "0-3,5". */
static void dump_cpu_map(FILE *out, const unsigned char *p, size_t n)
{
	int cpus[1024];
	size_t nr = 0;
	uint16_t type = 0, v16[2];
	if (n >= 10)
		memcpy(&type, p + 8, 2);
	if (type == 0 && n >= 12) {		/* CPUS: u16 nr, u16 cpu[nr] */
		memcpy(v16, p + 10, 2);
		for (size_t i = 0; i < v16[0] && 12 + (i + 1) * 2 <= n && nr < ARRAY_SIZE(cpus); i++) {
			uint16_t c;
			memcpy(&c, p + 12 + i * 2, 2);
			cpus[nr++] = c == 0xffff ? -1 : c;
		}
	} else if (type == 1 && n >= 14) {	/* MASK: u16 nr, u16 long_size, masks */
		memcpy(v16, p + 10, 4);
		size_t ls = v16[1] == 4 ? 4 : 8, base = 16;
		if (ls == 4)
			base = 14;
		for (size_t w = 0; w < v16[0] && base + (w + 1) * ls <= n; w++) {
			uint64_t m = 0;
			memcpy(&m, p + base + w * ls, ls);
			for (size_t b = 0; b < ls * 8 && nr < ARRAY_SIZE(cpus); b++)
				if (m >> b & 1)
					cpus[nr++] = (int)(w * ls * 8 + b);
		}
	} else if (type == 2 && n >= 16) {	/* RANGE: u8 any_cpu, u8 pad, u16 start, end */
		memcpy(v16, p + 12, 4);
		if (p[10])
			cpus[nr++] = -1;
		for (int c = v16[0]; c <= v16[1] && nr < ARRAY_SIZE(cpus); c++)
			cpus[nr++] = c;
	}
	fputs(": ", out);
	for (size_t i = 0; i < nr;) {
		size_t j = i;
		while (j + 1 < nr && cpus[j + 1] == cpus[j] + 1 && cpus[i] >= 0)
			j++;
		fprintf(out, "%s%d", i ? "," : "", cpus[i]);
		if (j > i)
			fprintf(out, "-%d", cpus[j]);
		i = j + 1;
	}
	fputs("\n: unhandled!\n", out);
}

/* u64 type (0 unit, 1 scale, 2 name, 3 CPUs), u64 id, then the unit or
 * name (a string) or the scale (a double); perf prints the CPUs of a CPUS
 * update too (not decoded here). */
static void dump_event_update(FILE *out, const unsigned char *p, size_t n)
{
	uint64_t type, id;
	if (n < 24) {
		fputc('\n', out);
		return;
	}
	memcpy(&type, p + 8, 8);
	memcpy(&id, p + 16, 8);
	fprintf(out, "\n... id:    %" PRIu64 "\n", id);
	const char *str = (const char *)p + 24;
	bool has_str = n > 24 && memchr(str, '\0', n - 24);
	if (type == 0 && has_str) {
		fprintf(out, "... unit:  %s\n", str);
	} else if (type == 1 && n >= 32) {
		double scale;
		memcpy(&scale, p + 24, 8);
		fprintf(out, "... scale: %f\n", scale);
	} else if (type == 2 && has_str) {
		fprintf(out, "... name:  %s\n", str);
	} else if (type != 3) {
		fputs("... unknown type\n", out);
	}
}

/* u64 time_shift, time_mult, time_zero; since Linux 5.13 also time_cycles,
 * time_mask and the u8s cap_user_time_zero, cap_user_time_short, printed
 * when the record is long enough to have them, as perf does (its spelling). */
static void dump_time_conv(FILE *out, const unsigned char *p, size_t n)
{
	uint64_t v[5] = { 0 };
	uint8_t cap[2] = { 0 };
	if (n > 8)
		memcpy(v, p + 8, n - 8 < sizeof(v) ? n - 8 : sizeof(v));
	if (n > 48)
		memcpy(cap, p + 48, n - 48 < sizeof(cap) ? n - 48 : sizeof(cap));
	fprintf(out, "\n... Time Shift      %" PRIu64 "\n", v[0]);
	fprintf(out, "... Time Muliplier  %" PRIu64 "\n", v[1]);
	fprintf(out, "... Time Zero       %" PRIu64 "\n", v[2]);
	if (n > 32) {
		fprintf(out, "... Time Cycles     %" PRIu64 "\n", v[3]);
		fprintf(out, "... Time Mask       %#" PRIx64 "\n", v[4]);
		fprintf(out, "... Cap Time Zero   %d\n", cap[0]);
		fprintf(out, "... Cap Time Short  %d\n", cap[1]);
	}
	fputs(": unhandled!\n", out);
}

/* What perf prints after "PERF_RECORD_TYPE" for the type. Over 80 lines:
 * one case per record type, as perf's dump has one printer each. */
static void decoded(FILE *out, const struct pd_record *r)
{
	const struct perf_event_header *h = r->hdr;
	const unsigned char *p = (const unsigned char *)h;
	union pd_sideband d;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		dump_sample(out, r);
		return;
	case PERF_RECORD_MMAP:
		if (pd_decode_mmap(h, h->size, &d.mmap) < 0)
			break;
		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			(int)d.mmap.rec.pid, (int)d.mmap.rec.tid, d.mmap.rec.start, d.mmap.rec.len,
			d.mmap.rec.pgoff, h->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x',
			d.mmap.filename);
		return;
	case PERF_RECORD_MMAP2:
		if (pd_decode_mmap2(h, h->size, &d.mmap2) < 0)
			break;
		dump_mmap2(out, &d.mmap2);
		return;
	case PERF_RECORD_COMM:
		if (pd_decode_comm(h, h->size, &d.comm) < 0)
			break;
		fprintf(out, "%s: %s:%d/%d\n", h->misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
			d.comm.comm, (int)d.comm.rec.pid, (int)d.comm.rec.tid);
		return;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (pd_decode_fork(h, h->size, &d.fork) < 0)
			break;
		fprintf(out, "(%d:%d):(%d:%d)\n", (int)d.fork.rec.pid, (int)d.fork.rec.tid,
			(int)d.fork.rec.ppid, (int)d.fork.rec.ptid);
		return;
	case PERF_RECORD_LOST:
		if (pd_decode_lost(h, h->size, &d.lost) < 0)
			break;
		fprintf(out, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", d.lost.rec.id, d.lost.rec.lost);
		return;
	case PERF_RECORD_LOST_SAMPLES:
		if (pd_decode_lost_samples(h, h->size, &d.lost_samples) < 0)
			break;
		fprintf(out, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", r->s.id,
			d.lost_samples.rec.lost);
		return;
	case PERF_RECORD_KSYMBOL:
		if (pd_decode_ksymbol(h, h->size, &d.ksymbol) < 0)
			break;
		fprintf(out, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", d.ksymbol.rec.addr,
			d.ksymbol.rec.len, d.ksymbol.rec.ksym_type, d.ksymbol.rec.flags, d.ksymbol.name);
		return;
	case PERF_RECORD_BPF_EVENT:
		if (pd_decode_bpf_event(h, h->size, &d.bpf_event) < 0)
			break;
		fprintf(out, " type %u, flags %u, id %u\n", d.bpf_event.rec.type, d.bpf_event.rec.flags, d.bpf_event.rec.id);
		return;
	case PD_RECORD_ID_INDEX:
		dump_id_index(out, p, h->size);
		return;
	case PD_RECORD_THREAD_MAP:
		dump_thread_map(out, p, h->size);
		return;
	case PD_RECORD_CPU_MAP:
		dump_cpu_map(out, p, h->size);
		return;
	case PD_RECORD_EVENT_UPDATE:
		dump_event_update(out, p, h->size);
		return;
	case PD_RECORD_TIME_CONV:
		dump_time_conv(out, p, h->size);
		return;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_READ:
	case PD_RECORD_FINISHED_INIT:
	case PD_RECORD_HEADER_ATTR:
	case PD_RECORD_HEADER_TRACING_DATA:
		fputs(": unhandled!\n", out);	/* perf report has no handler */
		return;
	default:
		fputc('\n', out);
		return;
	}
	/* a record the decoders refuse: perf would print garbage or stop */
	fputs(": malformed record\n", out);
}

int pd_dump_record(FILE *out, const struct pd_file *f, const struct pd_record *r, const char *name)
{
	const struct perf_event_header *h = r->hdr;
	fprintf(out, "\n%#" PRIx64 "@%s [%#x]: event: %u\n", r->offset, name, h->size, h->type);
	hex_lines(out, (const unsigned char *)h, h->size);
	tstamp(out, f, r);
	fprintf(out, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", r->offset, h->size,
		pd_record_type_name(h->type));
	decoded(out, r);
	return ferror(out) ? -1 : 0;
}
