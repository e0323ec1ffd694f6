// SPDX-License-Identifier: GPL-2.0-only
/* The header feature sections of a recording: host, CPUs, memory, the
 * command line, tracepoint formats and the BPF programs seen. */
#include "record/internal.h"
#include "log.h"
#include "skel/skel.h"
#include "perfdata/bpf_info.h"
#include "perfdata/tracing_data.h"
#include "perfdata/writer.h"
#include "util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static void add_string_feature(struct pd_writer *w, enum pd_feature f, const char *s)
{
	struct strbuf b = { 0 };
	pd_feat_put_string(&b, s);
	pd_writer_add_feature(w, f, b.buf, b.len);
	sb_free(&b);
}

/* The value of the first "key : value" line of /proc/cpuinfo, whitespace
 * runs squeezed to one space as perf does; NULL if absent. */
static char *cpuinfo_value(const char *cpuinfo, const char *key)
{
	size_t kl = strlen(key);
	for (const char *l = cpuinfo; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, kl) || (l[kl] != ' ' && l[kl] != '\t' && l[kl] != ':'))
			continue;
		const char *v = strchr(l, ':');
		const char *end = strchr(l, '\n');
		if (!v || (end && v > end))
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		struct strbuf b = { 0 };
		sb_append(&b, "");
		for (; *v && *v != '\n'; v++) {
			bool sp = *v == ' ' || *v == '\t';
			if (sp && (!b.len || b.buf[b.len - 1] == ' '))
				continue;
			sb_append_len(&b, sp ? " " : v, 1);
		}
		while (b.len && b.buf[b.len - 1] == ' ')
			b.buf[--b.len] = '\0';
		return b.buf;
	}
	return NULL;
}

/* CPUDESC ("AMD EPYC") and CPUID (x86: "vendor,family,model,stepping";
 * arm64: the MIDR register), as perf writes them. */
static void add_cpu_ids(struct pd_writer *w)
{
	char *ci = read_file("/proc/cpuinfo", NULL);
	if (!ci)
		return;
	static const char *const desc_keys[] = { "model name", "Processor", "cpu model", "cpu",
						 "CPU part" };
	char *desc = NULL;
	for (size_t i = 0; i < sizeof(desc_keys) / sizeof(desc_keys[0]) && !desc; i++)
		desc = cpuinfo_value(ci, desc_keys[i]);
	if (desc)
		add_string_feature(w, PD_FEAT_CPUDESC, desc);
	free(desc);
	char *vendor = cpuinfo_value(ci, "vendor_id"), *fam = cpuinfo_value(ci, "cpu family");
	char *model = cpuinfo_value(ci, "model"), *step = cpuinfo_value(ci, "stepping");
	char *midr = read_file("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", NULL);
	if (vendor && fam && model && step) {
		char *id = xasprintf("%s,%s,%s,%s", vendor, fam, model, step);
		add_string_feature(w, PD_FEAT_CPUID, id);
		free(id);
	} else if (midr) {
		char *id = xasprintf("0x%016llx", strtoull(midr, NULL, 0));
		add_string_feature(w, PD_FEAT_CPUID, id);
		free(id);
	}
	free(vendor);
	free(fam);
	free(model);
	free(step);
	free(midr);
	free(ci);
}

/* A sysfs file's first line, or NULL. */
static char *sysfs_line(const char *fmt, int a)
{
	char path[256];
	snprintf(path, sizeof(path), fmt, a);
	char *s = read_file(path, NULL);
	if (s)
		s[strcspn(s, "\n")] = '\0';
	return s;
}

static int sysfs_int(const char *fmt, int a)
{
	char *s = sysfs_line(fmt, a);
	int v = s && *s ? atoi(s) : -1;
	free(s);
	return v;
}

/* A list of distinct strings (CPU lists), in order of first sight. */
struct str_set {
	char **v;
	size_t n, cap;
};

/* Add s (taken) unless it is there yet. */
static void str_set_add(struct str_set *l, char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s)) {
			free(s);
			return;
		}
	ARRAY_GROW(l->v, l->cap, l->n + 1);
	l->v[l->n++] = s;
}

static void str_set_free(struct str_set *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct str_set){ 0 };
}

/* The count, the strings; then l is empty. */
static void put_list(struct strbuf *b, struct str_set *l)
{
	pd_feat_put_u32(b, (uint32_t)l->n);
	for (size_t i = 0; i < l->n; i++)
		pd_feat_put_string(b, l->v[i]);
	str_set_free(l);
}

#define TOPO "/sys/devices/system/cpu/cpu%d/topology/"

/* CPU_TOPOLOGY: the distinct package (socket), core (thread siblings) and
 * die CPU lists of the online CPUs, then core/socket ids and die ids of every
 * possible CPU (-1 for those offline). */
static void add_cpu_topology(struct pd_writer *w)
{
	int ncpu = cpu_count_possible();
	bool *on = cpu_online_mask();
	struct str_set packages = { 0 }, cores = { 0 }, dies = { 0 };
	bool has_dies = access("/sys/devices/system/cpu/cpu0/topology/die_cpus_list", R_OK) == 0;
	for (int c = 0; c < ncpu; c++) {
		if (!on[c])
			continue;
		char *s = sysfs_line(TOPO "package_cpus_list", c);
		if (!s)
			s = sysfs_line(TOPO "core_siblings_list", c);
		if (s)
			str_set_add(&packages, s);
		if (has_dies && (s = sysfs_line(TOPO "die_cpus_list", c)))
			str_set_add(&dies, s);
		s = sysfs_line(TOPO "core_cpus_list", c);
		if (!s)
			s = sysfs_line(TOPO "thread_siblings_list", c);
		if (s)
			str_set_add(&cores, s);
	}
	if (!packages.n || !cores.n) {
		str_set_free(&packages);
		str_set_free(&cores);
		str_set_free(&dies);
		free(on);
		return;
	}
	struct strbuf b = { 0 };
	put_list(&b, &packages);
	put_list(&b, &cores);
	for (int c = 0; c < ncpu; c++) {
		pd_feat_put_u32(&b, (uint32_t)(on[c] ? sysfs_int(TOPO "core_id", c) : -1));
		pd_feat_put_u32(&b, (uint32_t)(on[c] ? sysfs_int(TOPO "physical_package_id", c) : -1));
	}
	if (dies.n) {
		put_list(&b, &dies);
		for (int c = 0; c < ncpu; c++)
			pd_feat_put_u32(&b, (uint32_t)(on[c] ? sysfs_int(TOPO "die_id", c) : -1));
	}
	pd_writer_add_feature(w, PD_FEAT_CPU_TOPOLOGY, b.buf, b.len);
	sb_free(&b);
	free(on);
}

/* kB after "key:" in a node meminfo file ("Node 0 MemTotal:  4679456 kB"). */
static uint64_t node_mem(const char *meminfo, const char *key)
{
	const char *p = meminfo ? strstr(meminfo, key) : NULL;
	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* The online NUMA nodes (a machine without NUMA sysfs: node 0 with all). */
static int online_nodes(bool *nodes, int max)
{
	char *s = read_file("/sys/devices/system/node/online", NULL);
	if (!s)
		return -1;
	memset(nodes, 0, (size_t)max);
	s[strcspn(s, "\n")] = '\0';
	int r = parse_cpu_list(s, nodes, max);
	free(s);
	return r;
}

#define MAX_NODES 1024

/* NUMA_TOPOLOGY: per online node, its memory (total, free, kB) and CPUs. */
static void add_numa_topology(struct pd_writer *w)
{
	bool *nodes = xcalloc(MAX_NODES, 1);
	if (online_nodes(nodes, MAX_NODES) < 0) {
		free(nodes);
		return;
	}
	struct strbuf b = { 0 };
	uint32_t n = 0;
	for (int i = 0; i < MAX_NODES; i++)
		n += nodes[i];
	pd_feat_put_u32(&b, n);
	for (int i = 0; i < MAX_NODES; i++) {
		if (!nodes[i])
			continue;
		char path[128];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", i);
		char *mi = read_file(path, NULL);
		pd_feat_put_u32(&b, (uint32_t)i);
		pd_feat_put_u64(&b, node_mem(mi, "MemTotal:"));
		pd_feat_put_u64(&b, node_mem(mi, "MemFree:"));
		free(mi);
		char *cpus = sysfs_line("/sys/devices/system/node/node%d/cpulist", i);
		pd_feat_put_string(&b, cpus ? cpus : "");
		free(cpus);
	}
	pd_writer_add_feature(w, PD_FEAT_NUMA_TOPOLOGY, b.buf, b.len);
	sb_free(&b);
	free(nodes);
}

/* MEM_TOPOLOGY: version 1, the memory block size, then per node its
 * number of blocks (bitmap bits) and the bitmap of its memoryN blocks. */
static void add_mem_topology(struct pd_writer *w)
{
	char *bs = read_file("/sys/devices/system/memory/block_size_bytes", NULL);
	bool *nodes = xcalloc(MAX_NODES, 1);
	if (!bs || online_nodes(nodes, MAX_NODES) < 0) {
		free(bs);
		free(nodes);
		return;
	}
	uint64_t bsize = strtoull(bs, NULL, 16);
	free(bs);
	struct strbuf body = { 0 };
	uint64_t nr = 0;
	for (int i = 0; i < MAX_NODES; i++) {
		if (!nodes[i])
			continue;
		char path[128];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", i);
		DIR *d = opendir(path);
		if (!d)
			continue;
		uint64_t *bits = NULL;
		size_t words = 0, size = 0;
		struct dirent *de;
		while ((de = readdir(d))) {
			uint64_t idx;
			if (strncmp(de->d_name, "memory", 6) || !parse_u64(de->d_name + 6, &idx) ||
			    idx > (1u << 24))
				continue;
			if (idx / 64 >= words) {
				size_t nw = idx / 64 + 1;
				bits = xrealloc(bits, nw * sizeof(*bits));
				memset(bits + words, 0, (nw - words) * sizeof(*bits));
				words = nw;
			}
			bits[idx / 64] |= 1ull << (idx % 64);
			if (idx + 1 > size)
				size = idx + 1;
		}
		closedir(d);
		pd_feat_put_u64(&body, (uint64_t)i);
		pd_feat_put_u64(&body, size);
		pd_feat_put_u64(&body, size);
		for (size_t k = 0; k < (size + 63) / 64; k++)
			pd_feat_put_u64(&body, bits[k]);
		free(bits);
		nr++;
	}
	free(nodes);
	struct strbuf b = { 0 };
	pd_feat_put_u64(&b, 1);
	pd_feat_put_u64(&b, bsize);
	pd_feat_put_u64(&b, nr);
	sb_append_len(&b, body.buf ? body.buf : "", body.len);
	pd_writer_add_feature(w, PD_FEAT_MEM_TOPOLOGY, b.buf, b.len);
	sb_free(&b);
	sb_free(&body);
}

/* PMU_MAPPINGS: each PMU's perf_event_attr type and name, in directory
 * order (as perf lists them). */
static void add_pmu_mappings(struct pd_writer *w)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	if (!d)
		return;
	struct strbuf body = { 0 };
	uint32_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char path[512];
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", de->d_name);
		char *t = read_file(path, NULL);
		if (!t)
			continue;
		pd_feat_put_u32(&body, (uint32_t)strtoul(t, NULL, 10));
		pd_feat_put_string(&body, de->d_name);
		free(t);
		n++;
	}
	closedir(d);
	struct strbuf b = { 0 };
	pd_feat_put_u32(&b, n);
	sb_append_len(&b, body.buf ? body.buf : "", body.len);
	pd_writer_add_feature(w, PD_FEAT_PMU_MAPPINGS, b.buf, b.len);
	sb_free(&b);
	sb_free(&body);
}

struct cache_level {
	uint32_t level, line_size, sets, ways;
	char *type, *size, *map;
};

static int cmp_cache_level(const void *a, const void *b)
{
	const struct cache_level *x = a, *y = b;
	return x->level < y->level ? -1 : x->level > y->level;
}

static void cache_level_free(struct cache_level *l)
{
	free(l->type);
	free(l->size);
	free(l->map);
}

static bool same_cache(const struct cache_level *x, const struct cache_level *y)
{
	return x->level == y->level && x->line_size == y->line_size && x->sets == y->sets &&
	       x->ways == y->ways && !strcmp(x->type, y->type) && !strcmp(x->size, y->size) &&
	       !strcmp(x->map, y->map);
}

#define CACHE_DIR "/sys/devices/system/cpu/cpu%d/cache/index%d/"

/* One cache of a CPU, from its sysfs directory: false when it has no such
 * cache (or one of the files cannot be read). */
static bool read_cache_level(int cpu, int idx, struct cache_level *l)
{
	static const char *const files[7] = { "level", "coherency_line_size", "number_of_sets",
					      "ways_of_associativity", "type", "size",
					      "shared_cpu_list" };
	char base[128], path[192];
	snprintf(base, sizeof(base), CACHE_DIR, cpu, idx);
	char *vals[7];
	bool ok = true;
	for (int k = 0; k < 7; k++) {
		snprintf(path, sizeof(path), "%s%s", base, files[k]);
		vals[k] = read_file(path, NULL);
		if (vals[k])
			vals[k][strcspn(vals[k], "\n")] = '\0';
		ok &= vals[k] != NULL;
	}
	if (ok) {
		*l = (struct cache_level){
			.level = (uint32_t)atoi(vals[0]),
			.line_size = (uint32_t)atoi(vals[1]),
			.sets = (uint32_t)atoi(vals[2]),
			.ways = (uint32_t)atoi(vals[3]),
			.type = vals[4],
			.size = vals[5],
			.map = vals[6],
		};
		vals[4] = vals[5] = vals[6] = NULL;
	}
	for (int k = 0; k < 7; k++)
		free(vals[k]);
	return ok;
}

/* The feature's body: version 1, the number of caches, then each; frees
 * them. */
static void put_caches(struct pd_writer *w, struct cache_level *caches, size_t n)
{
	struct strbuf b = { 0 };
	pd_feat_put_u32(&b, 1);
	pd_feat_put_u32(&b, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		pd_feat_put_u32(&b, caches[i].level);
		pd_feat_put_u32(&b, caches[i].line_size);
		pd_feat_put_u32(&b, caches[i].sets);
		pd_feat_put_u32(&b, caches[i].ways);
		pd_feat_put_string(&b, caches[i].type);
		pd_feat_put_string(&b, caches[i].size);
		pd_feat_put_string(&b, caches[i].map);
		cache_level_free(&caches[i]);
	}
	pd_writer_add_feature(w, PD_FEAT_CACHE, b.buf, b.len);
	sb_free(&b);
}

/* CACHE: the distinct caches of the online CPUs (level, line size, sets,
 * ways, type, size, the CPUs sharing it), ordered by level. */
static void add_caches(struct pd_writer *w)
{
	int ncpu = cpu_count_possible();
	bool *online = cpu_online_mask();
	struct cache_level *caches = NULL;
	size_t n = 0, cap = 0;
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct cache_level l;
		for (int idx = 0; online[cpu] && idx < 10 && read_cache_level(cpu, idx, &l); idx++) {
			bool dup = false;
			for (size_t i = 0; i < n && !dup; i++)
				dup = same_cache(&caches[i], &l);
			if (dup) {
				cache_level_free(&l);
			} else {
				ARRAY_GROW(caches, cap, n + 1);
				caches[n++] = l;
			}
		}
	}
	free(online);
	if (!n)
		return;
	/* stable: caches of one level stay in the order found, as perf lists them */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && cmp_cache_level(&caches[j - 1], &caches[j]) > 0; j--) {
			struct cache_level t = caches[j];
			caches[j] = caches[j - 1];
			caches[j - 1] = t;
		}
	put_caches(w, caches, n);
	free(caches);
}

/* CLOCKID (the clock's resolution in ns) and CLOCK_DATA (version 1, the
 * clock id, then the time of day and the clock's time read together), which
 * perf writes when the events use another clock than its own. */
static void add_clock(struct pd_writer *w, int clockid)
{
	struct timespec res, ref;
	struct timeval tod;
	struct strbuf b = { 0 };
	if (clock_getres(clockid, &res) != 0 || clock_gettime(clockid, &ref) != 0)
		return;
	gettimeofday(&tod, NULL);
	pd_feat_put_u64(&b, (uint64_t)res.tv_sec * 1000000000ull + (uint64_t)res.tv_nsec);
	pd_writer_add_feature(w, PD_FEAT_CLOCKID, b.buf, b.len);
	sb_reset(&b);
	pd_feat_put_u32(&b, 1);
	pd_feat_put_u32(&b, (uint32_t)clockid);
	pd_feat_put_u64(&b, (uint64_t)tod.tv_sec * 1000000000ull + (uint64_t)tod.tv_usec * 1000);
	pd_feat_put_u64(&b, (uint64_t)ref.tv_sec * 1000000000ull + (uint64_t)ref.tv_nsec);
	pd_writer_add_feature(w, PD_FEAT_CLOCK_DATA, b.buf, b.len);
	sb_free(&b);
}


/* perf needs the tracepoints' formats to read a file that has any. */
static void add_tracing_data(struct recording *r, struct strbuf *b)
{
	const struct perf_event_attr **attrs = xcalloc(r->nevents, sizeof(*attrs));
	bool has_tp = false;
	for (size_t i = 0; i < r->nevents; i++) {
		attrs[i] = &r->events[i].attr;
		has_tp |= attrs[i]->type == PERF_TYPE_TRACEPOINT;
	}
	const char *tfs = has_tp ? tracefs_dir() : NULL;
	if (tfs) {
		int err = pd_tracing_data_build(b, tfs, attrs, r->nevents);
		if (err)
			pr_warn("cannot read the tracepoint formats from %s (%s): perf will not read "
				"this file's tracepoint events", tfs, log_strerr(err));
		else
			pd_writer_add_feature(r->w, PD_FEAT_TRACING_DATA, b->buf, b->len);
		sb_reset(b);
	}
	free(attrs);
}

/* Event groups ({a,b} in -e) as perf writes them: the count, then per
 * group its name, the leader's attr index and the number of members. */
static void add_group_desc(struct recording *r, struct strbuf *b)
{
	uint32_t ngroups = 0;
	for (size_t i = 0; i < r->nevents; i++)
		ngroups += r->events[i].leader == (int)i;
	if (!ngroups)
		return;
	pd_feat_put_u32(b, ngroups);
	for (size_t i = 0; i < r->nevents; i++) {
		if (r->events[i].leader != (int)i)
			continue;
		uint32_t members = 0;
		for (size_t j = 0; j < r->nevents; j++)
			members += r->events[j].leader == (int)i;
		pd_feat_put_string(b, "{anon_group}");
		pd_feat_put_u32(b, (uint32_t)i);
		pd_feat_put_u32(b, members);
	}
	pd_writer_add_feature(r->w, PD_FEAT_GROUP_DESC, b->buf, b->len);
	sb_reset(b);
}

void rec_add_features(struct recording *r)
{
	struct utsname u;
	if (uname(&u) == 0) {
		add_string_feature(r->w, PD_FEAT_HOSTNAME, u.nodename);
		add_string_feature(r->w, PD_FEAT_OSRELEASE, u.release);
		add_string_feature(r->w, PD_FEAT_ARCH, u.machine);
	}
	add_string_feature(r->w, PD_FEAT_VERSION, "bpfperf " BPFPERF_VERSION);

	struct strbuf b = { 0 };
	uint32_t avail = (uint32_t)cpu_count_possible(), online = 0;
	bool *on = cpu_online_mask();
	for (uint32_t i = 0; i < avail; i++)
		online += on[i];
	free(on);
	pd_feat_put_u32(&b, avail);
	pd_feat_put_u32(&b, online);
	pd_writer_add_feature(r->w, PD_FEAT_NRCPUS, b.buf, b.len);
	sb_reset(&b);

	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	pd_feat_put_u64(&b, (uint64_t)pages * (uint64_t)psz / 1024);
	pd_writer_add_feature(r->w, PD_FEAT_TOTAL_MEM, b.buf, b.len);
	sb_reset(&b);

	/* perf's argv[0]: the full path of the executable */
	char exe[4096];
	ssize_t el = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[el > 0 ? el : 0] = '\0';
	pd_feat_put_u32(&b, (uint32_t)r->opts.cmdline_argc + 1);
	pd_feat_put_string(&b, el > 0 ? exe : "bpfperf");
	for (int i = 0; i < r->opts.cmdline_argc; i++)
		pd_feat_put_string(&b, r->opts.cmdline_argv[i]);
	pd_writer_add_feature(r->w, PD_FEAT_CMDLINE, b.buf, b.len);
	sb_reset(&b);

	add_cpu_ids(r->w);
	add_cpu_topology(r->w);
	add_numa_topology(r->w);
	add_mem_topology(r->w);
	add_pmu_mappings(r->w);
	add_caches(r->w);
	if (r->opts.use_clockid)
		add_clock(r->w, r->opts.clockid);
	add_tracing_data(r, &b);
	add_group_desc(r, &b);
	if (r->synth.nprogs) {
		pd_bpf_progs_encode(&b, r->synth.progs, r->synth.nprogs);
		pd_writer_add_feature(r->w, PD_FEAT_BPF_PROG_INFO, b.buf, b.len);
		sb_reset(&b);
	}
	if (r->synth.nbtfs) {
		pd_btfs_encode(&b, r->synth.btfs, r->synth.nbtfs);
		pd_writer_add_feature(r->w, PD_FEAT_BPF_BTF, b.buf, b.len);
	}
	sb_free(&b);
}
