// SPDX-License-Identifier: GPL-2.0-only
/* A perf.data file's header and feature sections in the layout of
 * `perf report --header-only` (perf 6.1): see out_header() in out/header.h.
 * Every section is untrusted: a malformed one ends its own lines early. */
#include "out/header.h"
#include "perfdata/bpf_info.h"
#include "perfdata/format.h"
#include "util.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static const char *const feat_names[PD_FEAT_LAST_61] = {
	[PD_FEAT_TRACING_DATA] = "TRACING_DATA", [PD_FEAT_BUILD_ID] = "BUILD_ID",
	[PD_FEAT_HOSTNAME] = "HOSTNAME", [PD_FEAT_OSRELEASE] = "OSRELEASE",
	[PD_FEAT_VERSION] = "VERSION", [PD_FEAT_ARCH] = "ARCH", [PD_FEAT_NRCPUS] = "NRCPUS",
	[PD_FEAT_CPUDESC] = "CPUDESC", [PD_FEAT_CPUID] = "CPUID", [PD_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[PD_FEAT_CMDLINE] = "CMDLINE", [PD_FEAT_EVENT_DESC] = "EVENT_DESC",
	[PD_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY", [PD_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[PD_FEAT_BRANCH_STACK] = "BRANCH_STACK", [PD_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[PD_FEAT_GROUP_DESC] = "GROUP_DESC", [PD_FEAT_AUXTRACE] = "AUXTRACE", [PD_FEAT_STAT] = "STAT",
	[PD_FEAT_CACHE] = "CACHE", [PD_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[PD_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY", [PD_FEAT_CLOCKID] = "CLOCKID",
	[PD_FEAT_DIR_FORMAT] = "DIR_FORMAT", [PD_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[PD_FEAT_BPF_BTF] = "BPF_BTF", [PD_FEAT_COMPRESSED] = "COMPRESSED",
	[PD_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS", [PD_FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[PD_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY", [PD_FEAT_PMU_CAPS] = "PMU_CAPS",
};

/* A cursor over one section. */
struct cur {
	const uint8_t *b;
	size_t len, pos;
	bool bad;
};

static uint32_t get_u32(struct cur *c)
{
	uint32_t v = 0;
	if (c->pos + 4 > c->len) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->b + c->pos, 4);
	c->pos += 4;
	return v;
}

static uint64_t get_u64(struct cur *c)
{
	uint64_t v = 0;
	if (c->pos + 8 > c->len) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->b + c->pos, 8);
	c->pos += 8;
	return v;
}

static const char *get_str(struct cur *c)
{
	const char *s = c->bad ? NULL : pd_feat_get_string(c->b, c->len, &c->pos);
	if (!s)
		c->bad = true;
	return s ? s : "";
}

static struct cur feat(const struct pd_file *f, int id)
{
	struct cur c = { 0 };
	c.b = pd_feature(f, id, &c.len);
	c.bad = !c.b;
	return c;
}

/* ---- the event attributes, as perf_event_attr__fprintf ---- */

static void put_bits(FILE *o, uint64_t v, const char *const *names, size_t n)
{
	bool first = true;
	for (size_t i = 0; i < n; i++)
		if (v & (1ull << i)) {
			fprintf(o, "%s%s", first ? "" : "|", names[i]);
			first = false;
			v &= ~(1ull << i);
		}
	if (v)
		fprintf(o, "%s0x%" PRIx64, first ? "" : "|", v);
}

static void print_attr(FILE *o, const struct perf_event_attr *a)
{
	static const char *const st[] = {
		"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD",
		"STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT",
		"DATA_SRC", "IDENTIFIER", "TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX",
		"CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
	};
	static const char *const rf[] = { "TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP",
					  "LOST" };
#define U(name, v) do { if (v) fprintf(o, ", %s = %" PRIu64, name, (uint64_t)(v)); } while (0)
#define X(name, v) do { if (v) fprintf(o, ", %s = %#" PRIx64, name, (uint64_t)(v)); } while (0)
	U("type", a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period);
	if (a->sample_type) {
		fputs(", sample_type = ", o);
		put_bits(o, a->sample_type, st, sizeof(st) / sizeof(st[0]));
	}
	if (a->read_format) {
		fputs(", read_format = ", o);
		put_bits(o, a->read_format, rf, sizeof(rf) / sizeof(rf[0]));
	}
	U("disabled", a->disabled);
	U("inherit", a->inherit);
	U("pinned", a->pinned);
	U("exclusive", a->exclusive);
	U("exclude_user", a->exclude_user);
	U("exclude_kernel", a->exclude_kernel);
	U("exclude_hv", a->exclude_hv);
	U("exclude_idle", a->exclude_idle);
	U("mmap", a->mmap);
	U("comm", a->comm);
	U("freq", a->freq);
	U("inherit_stat", a->inherit_stat);
	U("enable_on_exec", a->enable_on_exec);
	U("task", a->task);
	U("watermark", a->watermark);
	U("precise_ip", a->precise_ip);
	U("mmap_data", a->mmap_data);
	U("sample_id_all", a->sample_id_all);
	U("exclude_host", a->exclude_host);
	U("exclude_guest", a->exclude_guest);
	U("exclude_callchain_kernel", a->exclude_callchain_kernel);
	U("exclude_callchain_user", a->exclude_callchain_user);
	U("mmap2", a->mmap2);
	U("comm_exec", a->comm_exec);
	U("use_clockid", a->use_clockid);
	U("context_switch", a->context_switch);
	U("write_backward", a->write_backward);
	U("namespaces", a->namespaces);
	U("ksymbol", a->ksymbol);
	U("bpf_event", a->bpf_event);
	U("aux_output", a->aux_output);
	U("cgroup", a->cgroup);
	U("text_poke", a->text_poke);
	U("build_id", a->build_id);
	U("inherit_thread", a->inherit_thread);
	U("remove_on_exec", a->remove_on_exec);
	U("sigtrap", a->sigtrap);
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->bp_addr);
	X("{ bp_len, config2 }", a->bp_len);
	X("branch_sample_type", a->branch_sample_type);
	X("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		fprintf(o, ", clockid = %d", a->clockid);
	X("sample_regs_intr", a->sample_regs_intr);
	U("aux_watermark", a->aux_watermark);
	U("sample_max_stack", a->sample_max_stack);
#undef U
#undef X
}

static void print_events(FILE *o, const struct pd_file *f)
{
	for (size_t i = 0; i < pd_nr_events(f); i++) {
		const struct pd_event *e = pd_event_at(f, i);
		fprintf(o, "# event : name = %s, ", e->name);
		if (e->nids) {
			fputs(", id = {", o);
			for (size_t k = 0; k < e->nids; k++)
				fprintf(o, "%s %" PRIu64, k ? "," : "", e->ids[k]);
			fputs(" }", o);
		}
		print_attr(o, &e->attr);
		fputc('\n', o);
	}
}

/* ---- the other sections ---- */

static void print_string(FILE *o, const struct pd_file *f, int id, const char *label)
{
	struct cur c = feat(f, id);
	const char *s = get_str(&c);
	if (!c.bad)
		fprintf(o, "# %s : %s\n", label, s);
}

static void print_cmdline(FILE *o, const struct pd_file *f)
{
	struct cur c = feat(f, PD_FEAT_CMDLINE);
	uint32_t n = get_u32(&c);
	fputs("# cmdline : ", o);
	for (uint32_t i = 0; i < n && !c.bad; i++) {
		const char *s = get_str(&c);
		if (!c.bad)
			fprintf(o, "%s ", s);
	}
	fputc('\n', o);
}

static uint32_t nr_cpus_avail(const struct pd_file *f)
{
	struct cur c = feat(f, PD_FEAT_NRCPUS);
	uint32_t avail = get_u32(&c);
	return c.bad ? 0 : avail;
}

static void print_list(FILE *o, struct cur *c, const char *label, uint32_t *count)
{
	uint32_t n = get_u32(c);
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		const char *s = get_str(c);
		if (!c->bad)
			fprintf(o, "# %s : %s\n", label, s);
	}
	if (count)
		*count = n;
}

static void print_cpu_topology(FILE *o, const struct pd_file *f)
{
	struct cur c = feat(f, PD_FEAT_CPU_TOPOLOGY);
	uint32_t ncpu = nr_cpus_avail(f);
	/* The lists come sockets, threads, (ids), dies; perf prints sockets,
	 * dies, threads, then the ids: read everything first. */
	struct cur sockets = c;
	uint32_t nsock = get_u32(&c);
	for (uint32_t i = 0; i < nsock && !c.bad; i++)
		get_str(&c);
	struct cur threads = c;
	uint32_t nthr = get_u32(&c);
	for (uint32_t i = 0; i < nthr && !c.bad; i++)
		get_str(&c);
	struct cur ids = c;
	c.pos += (size_t)ncpu * 8;
	struct cur dies = c;
	bool has_dies = !c.bad && c.pos < c.len;
	print_list(o, &sockets, "sibling sockets", NULL);
	if (has_dies)
		print_list(o, &dies, "sibling dies   ", NULL);
	print_list(o, &threads, "sibling threads", NULL);
	if (c.bad || ids.pos + (size_t)ncpu * 8 > ids.len)
		return;
	for (uint32_t i = 0; i < ncpu; i++) {
		int core = (int)get_u32(&ids), sock = (int)get_u32(&ids);
		if (has_dies) {
			int die = (int)get_u32(&dies);
			fprintf(o, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i, core,
				dies.bad ? -1 : die, sock);
		} else {
			fprintf(o, "# CPU %u: Core ID %d, Socket ID %d\n", i, core, sock);
		}
	}
}

static void print_numa(FILE *o, const struct pd_file *f)
{
	struct cur c = feat(f, PD_FEAT_NUMA_TOPOLOGY);
	uint32_t n = get_u32(&c);
	for (uint32_t i = 0; i < n && !c.bad; i++) {
		uint32_t node = get_u32(&c);
		uint64_t total = get_u64(&c), free_kb = get_u64(&c);
		const char *cpus = get_str(&c);
		if (c.bad)
			break;
		fprintf(o, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n", node,
			total, free_kb);
		fprintf(o, "# node%u cpu list : %s\n", node, cpus);
	}
}

static void print_pmu_mappings(FILE *o, const struct pd_file *f)
{
	struct cur c = feat(f, PD_FEAT_PMU_MAPPINGS);
	uint32_t n = get_u32(&c);
	fputs("# pmu mappings: ", o);
	for (uint32_t i = 0; i < n && !c.bad; i++) {
		uint32_t type = get_u32(&c);
		const char *name = get_str(&c);
		if (!c.bad)
			fprintf(o, "%s%s = %u", i ? ", " : "", name, type);
	}
	fputc('\n', o);
}

static void print_cache(FILE *o, const struct pd_file *f)
{
	struct cur c = feat(f, PD_FEAT_CACHE);
	get_u32(&c);	/* version */
	uint32_t n = get_u32(&c);
	fputs("# CPU cache info:\n", o);
	for (uint32_t i = 0; i < n && !c.bad; i++) {
		uint32_t level = get_u32(&c);
		get_u32(&c);	/* line size */
		get_u32(&c);	/* sets */
		get_u32(&c);	/* ways */
		const char *type = get_str(&c), *size = get_str(&c), *map = get_str(&c);
		if (!c.bad)
			fprintf(o, "#  L%d %-15s %8s [%s]\n", level, type, size, map);
	}
}

static void print_sample_time(FILE *o, const struct pd_file *f)
{
	struct cur c = feat(f, PD_FEAT_SAMPLE_TIME);
	uint64_t first = get_u64(&c), last = get_u64(&c);
	if (c.bad)
		return;
	fprintf(o, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", first / 1000000000,
		first % 1000000000 / 1000);
	fprintf(o, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", last / 1000000000,
		last % 1000000000 / 1000);
	fprintf(o, "# sample duration : %10.3f ms\n", (double)(last - first) / 1e6);
}

/* "24G": perf's unit_number__scnprintf. */
static void unit_number(char *buf, size_t len, uint64_t n)
{
	static const char unit[] = "BKMGTPEZY";
	int i = 0;
	while (n / 1024 > 1 && i < 8) {
		n /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", n, unit[i]);
}

static void print_mem_topology(FILE *o, const struct pd_file *f)
{
	struct cur c = feat(f, PD_FEAT_MEM_TOPOLOGY);
	get_u64(&c);	/* version */
	uint64_t bsize = get_u64(&c), n = get_u64(&c);
	if (c.bad)
		return;
	fprintf(o, "# memory nodes (nr %" PRIu64 ", block size 0x%" PRIx64 "):\n", n, bsize);
	for (uint64_t i = 0; i < n && !c.bad; i++) {
		uint64_t node = get_u64(&c);
		get_u64(&c);	/* size in blocks */
		uint64_t bits = get_u64(&c);
		if (c.bad || bits > (uint64_t)1 << 32 || (bits + 63) / 64 * 8 > c.len - c.pos)
			return;
		struct strbuf map = { 0 };
		uint64_t weight = 0;
		sb_append(&map, "");
		for (uint64_t k = 0; k < bits;) {
			uint64_t w;
			memcpy(&w, c.b + c.pos + k / 64 * 8, 8);
			if (!(w & (1ull << (k % 64)))) {
				k++;
				continue;
			}
			uint64_t start = k;
			for (; k < bits; k++) {
				memcpy(&w, c.b + c.pos + k / 64 * 8, 8);
				if (!(w & (1ull << (k % 64))))
					break;
			}
			weight += k - start;
			if (k - start == 1)
				sb_printf(&map, "%s%" PRIu64, map.len ? "," : "", start);
			else
				sb_printf(&map, "%s%" PRIu64 "-%" PRIu64, map.len ? "," : "", start, k - 1);
		}
		c.pos += (bits + 63) / 64 * 8;
		char size[32];
		unit_number(size, sizeof(size), weight * bsize);
		fprintf(o, "#  %3" PRIu64 " [%s]: %s\n", node, size, map.buf);
		sb_free(&map);
	}
}

static const char *clock_name(uint32_t id)
{
	static const char *const names[] = { [0] = "realtime", [1] = "monotonic",
					     [2] = "process_cputime_id", [3] = "thread_cputime_id",
					     [4] = "monotonic_raw", [5] = "realtime_coarse",
					     [6] = "monotonic_coarse", [7] = "boottime",
					     [8] = "realtime_alarm", [9] = "boottime_alarm",
					     [11] = "tai" };
	return id < sizeof(names) / sizeof(names[0]) && names[id] ? names[id] : "unknown";
}

static void print_clock_data(FILE *o, const struct pd_file *f)
{
	struct cur c = feat(f, PD_FEAT_CLOCK_DATA);
	uint32_t version = get_u32(&c), id = get_u32(&c);
	uint64_t tod = get_u64(&c), clk = get_u64(&c);
	if (c.bad || version != 1)
		return;
	time_t sec = (time_t)(tod / 1000000000);
	struct tm tm;
	char date[64] = "";
	if (localtime_r(&sec, &tm))
		strftime(date, sizeof(date), "%F %T", &tm);
	fprintf(o, "# clockid: %s (%u)\n", clock_name(id), id);
	fprintf(o, "# reference time: %s.%06" PRIu64 " = %" PRIu64 ".%06" PRIu64 " (TOD) = %" PRIu64
		".%09" PRIu64 " (%s)\n", date, tod % 1000000000 / 1000, tod / 1000000000,
		tod % 1000000000 / 1000, clk / 1000000000, clk % 1000000000, clock_name(id));
}

struct btf_ref {
	uint32_t id, size;
	const void *data;
};

struct progs_ctx {
	FILE *o;
	struct btf_ref *btfs;
	size_t nbtfs, cap;
};

static void on_btf_collect(void *ctx, uint32_t id, const void *data, uint32_t size)
{
	struct progs_ctx *pc = ctx;
	ARRAY_GROW(pc->btfs, pc->cap, pc->nbtfs + 1);
	pc->btfs[pc->nbtfs++] = (struct btf_ref){ id, size, data };
}

static void on_prog(void *ctx, const struct bpf_prog_info *info)
{
	struct progs_ctx *pc = ctx;
	FILE *o = pc->o;
	const uint64_t *ksyms = (const uint64_t *)(uintptr_t)info->jited_ksyms;
	const uint32_t *lens = (const uint32_t *)(uintptr_t)info->jited_func_lens;
	uint32_t n = info->nr_jited_ksyms;
	if (!ksyms || !lens || !n || info->nr_jited_func_lens < n) {
		fprintf(o, "# bpf_prog_info %u:\n", info->id);
		return;
	}
	struct btf *btf = NULL;
	for (size_t i = 0; i < pc->nbtfs && info->btf_id; i++)
		if (pc->btfs[i].id == info->btf_id) {
			btf = btf__new(pc->btfs[i].data, pc->btfs[i].size);
			if (libbpf_get_error(btf))
				btf = NULL;
			break;
		}
	char name[256];
	if (n == 1) {
		pd_bpf_prog_name(info, btf, 0, name, sizeof(name));
		fprintf(o, "# bpf_prog_info %u: %s addr 0x%" PRIx64 " size %u\n", info->id, name,
			ksyms[0], lens[0]);
	} else {
		fprintf(o, "# bpf_prog_info %u:\n", info->id);
		for (uint32_t i = 0; i < n; i++) {
			pd_bpf_prog_name(info, btf, i, name, sizeof(name));
			fprintf(o, "# \tsub_prog %u: %s addr 0x%" PRIx64 " size %u\n", i, name, ksyms[i],
				lens[i]);
		}
	}
	btf__free(btf);
}

static void print_bpf_progs(FILE *o, const struct pd_file *f)
{
	struct progs_ctx pc = { .o = o };
	size_t len;
	const void *p = pd_feature(f, PD_FEAT_BPF_BTF, &len);
	if (p)
		pd_btfs_decode(p, len, on_btf_collect, &pc);
	p = pd_feature(f, PD_FEAT_BPF_PROG_INFO, &len);
	pd_bpf_progs_decode(p, len, on_prog, &pc);
	free(pc.btfs);
}

struct btf_ids {
	uint32_t *id;
	size_t n, cap;
};

static void on_btf(void *ctx, uint32_t id, const void *data, uint32_t size)
{
	struct btf_ids *b = ctx;
	(void)data;
	(void)size;
	ARRAY_GROW(b->id, b->cap, b->n + 1);
	b->id[b->n++] = id;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* perf keeps them in a tree by id: printed in ascending order, whatever
 * the order of the file */
static void print_btf_ids(FILE *o, const void *p, size_t len)
{
	struct btf_ids b = { 0 };
	pd_btfs_decode(p, len, on_btf, &b);
	if (b.n)
		qsort(b.id, b.n, sizeof(*b.id), cmp_u32);
	for (size_t i = 0; i < b.n; i++)
		fprintf(o, "# btf info of id %u\n", b.id[i]);
	free(b.id);
}

/* Whether the feature is printed only with full (perf's full_only). */
static bool full_only(int id)
{
	return id == PD_FEAT_CPU_TOPOLOGY || id == PD_FEAT_NUMA_TOPOLOGY || id == PD_FEAT_CACHE ||
	       id == PD_FEAT_MEM_TOPOLOGY || id == PD_FEAT_HYBRID_TOPOLOGY;
}

static void print_feature(FILE *o, const struct pd_file *f, int id)
{
	struct cur c = feat(f, id);
	size_t len;
	const void *p = pd_feature(f, id, &len);
	switch (id) {
	case PD_FEAT_HOSTNAME: print_string(o, f, id, "hostname"); break;
	case PD_FEAT_OSRELEASE: print_string(o, f, id, "os release"); break;
	case PD_FEAT_VERSION: print_string(o, f, id, "perf version"); break;
	case PD_FEAT_ARCH: print_string(o, f, id, "arch"); break;
	case PD_FEAT_CPUDESC: print_string(o, f, id, "cpudesc"); break;
	case PD_FEAT_CPUID: print_string(o, f, id, "cpuid"); break;
	case PD_FEAT_NRCPUS: {
		uint32_t avail = get_u32(&c), online = get_u32(&c);
		if (!c.bad)
			fprintf(o, "# nrcpus online : %u\n# nrcpus avail : %u\n", online, avail);
		break;
	}
	case PD_FEAT_TOTAL_MEM: {
		uint64_t kb = get_u64(&c);
		if (!c.bad)
			fprintf(o, "# total memory : %" PRIu64 " kB\n", kb);
		break;
	}
	case PD_FEAT_CMDLINE: print_cmdline(o, f); break;
	case PD_FEAT_EVENT_DESC: print_events(o, f); break;
	case PD_FEAT_CPU_TOPOLOGY: print_cpu_topology(o, f); break;
	case PD_FEAT_NUMA_TOPOLOGY: print_numa(o, f); break;
	case PD_FEAT_BRANCH_STACK: fputs("# contains samples with branch stack\n", o); break;
	case PD_FEAT_PMU_MAPPINGS: print_pmu_mappings(o, f); break;
	case PD_FEAT_AUXTRACE: fputs("# contains AUX area data (e.g. instruction trace)\n", o); break;
	case PD_FEAT_STAT: fputs("# contains stat data\n", o); break;
	case PD_FEAT_CACHE: print_cache(o, f); break;
	case PD_FEAT_SAMPLE_TIME: print_sample_time(o, f); break;
	case PD_FEAT_MEM_TOPOLOGY: print_mem_topology(o, f); break;
	case PD_FEAT_CLOCKID: {
		uint64_t res = get_u64(&c);
		if (!c.bad)
			fprintf(o, "# clockid frequency: %" PRIu64 " MHz\n", res * 1000);
		break;
	}
	case PD_FEAT_COMPRESSED: {	/* version, type (1: zstd), level, ratio, mmap_len */
		get_u32(&c);
		uint32_t type = get_u32(&c), level = get_u32(&c), ratio = get_u32(&c);
		if (!c.bad)
			fprintf(o, "# compressed : %s, level = %u, ratio = %u\n", type == 1 ? "Zstd" : "Unknown",
				level, ratio);
		break;
	}
	case PD_FEAT_DIR_FORMAT: {
		uint64_t v = get_u64(&c);
		if (!c.bad)
			fprintf(o, "# directory data version : %" PRIu64 "\n", v);
		break;
	}
	case PD_FEAT_BPF_PROG_INFO: print_bpf_progs(o, f); break;
	case PD_FEAT_BPF_BTF: print_btf_ids(o, p, len); break;
	case PD_FEAT_CLOCK_DATA: print_clock_data(o, f); break;
	default: break;	/* perf prints nothing for the others either */
	}
}

int out_header(FILE *o, const struct pd_file *f, const char *path, bool full)
{
	uint64_t doff, dsize, foff;
	pd_layout(f, &doff, &dsize, &foff);
	struct stat st;
	char when[64] = "(unknown)\n";
	time_t mt = 0;
	if (path && stat(path, &st) == 0) {
		mt = st.st_mtime;
		ctime_r(&mt, when);
	}
	fputs("# ========\n", o);
	fprintf(o, "# captured on    : %s", when);
	if (!pd_is_pipe(f)) {
		fprintf(o, "# header version : 1\n# data offset    : %" PRIu64 "\n", doff);
		fprintf(o, "# data size      : %" PRIu64 "\n# feat offset    : %" PRIu64 "\n", dsize, foff);
	}
	for (int id = 1; id < PD_FEAT_LAST_61; id++) {
		if (!pd_feature(f, id, NULL))
			continue;
		if (full_only(id) && !full)
			fprintf(o, "# %s info available, use -I to display\n", feat_names[id]);
		else
			print_feature(o, f, id);
	}
	fputs("# missing features: ", o);
	for (int id = 1; id < PD_FEAT_LAST_61; id++)
		if (!pd_feature(f, id, NULL))
			fprintf(o, "%s ", feat_names[id]);
	fputs("\n# ========\n#\n", o);
	return ferror(o) ? -1 : 0;
}
