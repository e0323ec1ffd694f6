// SPDX-License-Identifier: GPL-2.0-only
#include "event/synth.h"
#include "perfdata/format.h"
#include "log.h"
#include "util.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void synth_free(struct synth *s)
{
	for (size_t i = 0; i < s->nprogs; i++)
		pd_bpf_prog_free(s->progs[i]);
	free(s->progs);
	for (size_t i = 0; i < s->nbtfs; i++)
		free(s->btfs[i].data);
	free(s->btfs);
	s->progs = NULL;
	s->btfs = NULL;
	s->nprogs = s->nbtfs = 0;
}

/* Append the sample_id trailer the file's attr expects. */
static void put_trailer(struct synth *s, struct strbuf *b, uint32_t pid, uint32_t tid)
{
	uint64_t st = s->sample_type, zero = 0;
	if (st & PERF_SAMPLE_TID) {
		sb_append_len(b, (const char *)&pid, 4);
		sb_append_len(b, (const char *)&tid, 4);
	}
	if (st & PERF_SAMPLE_TIME) sb_append_len(b, (const char *)&zero, 8);
	if (st & PERF_SAMPLE_ID) sb_append_len(b, (const char *)&s->id, 8);
	if (st & PERF_SAMPLE_STREAM_ID) sb_append_len(b, (const char *)&zero, 8);
	if (st & PERF_SAMPLE_CPU) sb_append_len(b, (const char *)&zero, 8);
	if (st & PERF_SAMPLE_IDENTIFIER) sb_append_len(b, (const char *)&s->id, 8);
}

static void put_name(struct strbuf *b, const char *name)
{
	static const char zeros[8];
	size_t n = strlen(name) + 1;
	sb_append_len(b, name, n);
	sb_append_len(b, zeros, ALIGN_UP(n, 8) - n);
}

static int emit_buf(struct synth *s, struct strbuf *b)
{
	struct perf_event_header *h = (void *)b->buf;
	h->size = (uint16_t)b->len;
	int r = s->emit(s->ctx, b->buf, b->len);
	sb_reset(b);
	return r;
}

static void put_header(struct strbuf *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };
	sb_append_len(b, (const char *)&h, sizeof(h));
}

static int emit_kernel_map(struct synth *s, uint64_t start, uint64_t len, const char *name)
{
	struct strbuf b = { 0 };
	uint32_t pid = (uint32_t)-1, tid = 0;
	uint64_t pgoff = strcmp(name, "[kernel.kallsyms]_text") ? 0 : start;
	put_header(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	sb_append_len(&b, (const char *)&pid, 4);
	sb_append_len(&b, (const char *)&tid, 4);
	sb_append_len(&b, (const char *)&start, 8);
	sb_append_len(&b, (const char *)&len, 8);
	sb_append_len(&b, (const char *)&pgoff, 8);
	put_name(&b, name);
	put_trailer(s, &b, pid, tid);
	int r = emit_buf(s, &b);
	sb_free(&b);
	return r;
}

/* One MMAP per loaded module, as perf writes them: at its address, its size
 * from /proc/modules, named by its file (modules.dep), else "[name]".
 * Without them perf names samples in modules "[unknown]" where it reads the
 * kernel through /proc/kcore. Modules whose addresses are hidden
 * (kptr_restrict) get none, as from perf. */
static int synth_modules(struct synth *s)
{
	struct kmod_range *mods;
	size_t n = kmods_read("/proc/modules", &mods);
	char **files = xcalloc(n ? n : 1, sizeof(*files));
	int err = 0;
	kmod_files(mods, n, files);
	for (size_t i = 0; i < n; i++) {
		char *name = files[i] ? files[i] : xasprintf("[%s]", mods[i].name);
		if (!err && mods[i].end > mods[i].start)
			err = emit_kernel_map(s, mods[i].start, mods[i].end - mods[i].start, name);
		free(name);
	}
	free(files);
	free(mods);
	return err;
}

int synth_kernel_mmap(struct synth *s)
{
	/* The kernel text map, named like perf's "[kernel.kallsyms]_text",
	 * from _text to _etext as perf writes it (to the end of the address
	 * space without _etext), then one map per module. */
	FILE *f = fopen("/proc/kallsyms", "r");
	uint64_t text = 0, etext = 0;
	if (f) {
		char line[512];
		while ((!text || !etext) && fgets(line, sizeof(line), f)) {
			unsigned long long a;
			char t, name[256];
			if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3)
				continue;
			if (!strcmp(name, "_text"))
				text = a;
			else if (!strcmp(name, "_etext"))
				etext = a;
		}
		fclose(f);
	}
	if (!text) {
		pr_warn_once("cannot find _text in /proc/kallsyms (kptr_restrict?): kernel symbols "
			     "may not resolve; run as root or set kernel.kptr_restrict=0");
		return 0;
	}
	uint64_t len = etext > text ? etext - text : ~0ULL - text;
	int r = emit_kernel_map(s, text, len, "[kernel.kallsyms]_text");
	return r ? r : synth_modules(s);
}

static int emit_comm(struct synth *s, struct strbuf *b, uint32_t pid, uint32_t tid, const char *comm)
{
	put_header(b, PERF_RECORD_COMM, 0);
	sb_append_len(b, (const char *)&pid, 4);
	sb_append_len(b, (const char *)&tid, 4);
	put_name(b, comm);
	put_trailer(s, b, pid, tid);
	return emit_buf(s, b);
}

int synth_process(struct synth *s, pid_t pid)
{
	char path[128], comm[64] = "";
	struct strbuf b = { 0 };
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	char *c = read_file(path, NULL);
	if (!c)
		return -ESRCH;
	snprintf(comm, sizeof(comm), "%s", c);
	comm[strcspn(comm, "\n")] = '\0';
	free(c);

	/* Threads. */
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		uint32_t tid = (uint32_t)atoi(de->d_name);
		char tcomm[64];
		snprintf(path, sizeof(path), "/proc/%d/task/%u/comm", pid, tid);
		char *tc = read_file(path, NULL);
		snprintf(tcomm, sizeof(tcomm), "%s", tc ? tc : comm);
		tcomm[strcspn(tcomm, "\n")] = '\0';
		free(tc);
		if ((err = emit_comm(s, &b, (uint32_t)pid, tid, tcomm)))
			break;
	}
	if (d)
		closedir(d);

	/* Executable maps. */
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *f = fopen(path, "r");
	char line[4096 + 128];
	while (!err && f && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned maj, min;
		char perms[8];
		int nameoff = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, &nameoff) < 7)
			continue;
		if (perms[2] != 'x')
			continue;
		char *name = line + nameoff;
		name[strcspn(name, "\n")] = '\0';
		if (!*name)
			name = "//anon";
		uint32_t prot = PROT_EXEC | (perms[0] == 'r' ? PROT_READ : 0) |
				(perms[1] == 'w' ? PROT_WRITE : 0);
		uint32_t flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		uint64_t len = end - start, ino_gen = 0;
		uint32_t upid = (uint32_t)pid;
		put_header(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
		sb_append_len(&b, (const char *)&upid, 4);
		sb_append_len(&b, (const char *)&upid, 4);
		sb_append_len(&b, (const char *)&start, 8);
		sb_append_len(&b, (const char *)&len, 8);
		sb_append_len(&b, (const char *)&pgoff, 8);
		sb_append_len(&b, (const char *)&maj, 4);
		sb_append_len(&b, (const char *)&min, 4);
		sb_append_len(&b, (const char *)&ino, 8);
		sb_append_len(&b, (const char *)&ino_gen, 8);
		sb_append_len(&b, (const char *)&prot, 4);
		sb_append_len(&b, (const char *)&flags, 4);
		put_name(&b, name);
		put_trailer(s, &b, upid, upid);
		err = emit_buf(s, &b);
	}
	if (f)
		fclose(f);
	sb_free(&b);
	return err;
}

int synth_all_processes(struct synth *s, pid_t skip_pid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int err = 0;
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid_t pid = atoi(de->d_name);
		if (pid == skip_pid)
			continue;
		int r = synth_process(s, pid);
		if (r && r != -ESRCH)
			err = r;
	}
	closedir(d);
	return err;
}

static const struct pd_btf_blob *find_btf(struct synth *s, uint32_t id)
{
	for (size_t i = 0; i < s->nbtfs; i++)
		if (s->btfs[i].id == id)
			return &s->btfs[i];
	return NULL;
}

/* The BTF of a program, fetched once per id; NULL when it has none or it
 * cannot be read. */
static const struct pd_btf_blob *prog_btf(struct synth *s, uint32_t btf_id)
{
	if (!btf_id)
		return NULL;
	const struct pd_btf_blob *btf = find_btf(s, btf_id);
	if (btf)
		return btf;
	uint32_t size = 0;
	void *data = pd_btf_fetch(btf_id, &size);
	if (!data)
		return NULL;
	ARRAY_GROW(s->btfs, s->btfs_cap, s->nbtfs + 1);
	s->btfs[s->nbtfs].id = btf_id;
	s->btfs[s->nbtfs].size = size;
	s->btfs[s->nbtfs].data = data;
	return &s->btfs[s->nbtfs++];
}

/* PERF_RECORD_KSYMBOL: one function of a program, of the kernel (pid -1). */
static int emit_bpf_ksymbol(struct synth *s, struct strbuf *b, uint64_t addr, uint32_t len,
			    const char *name)
{
	uint16_t type = PD_KSYMBOL_TYPE_BPF, flags = 0;
	put_header(b, PERF_RECORD_KSYMBOL, PERF_RECORD_MISC_KERNEL);
	sb_append_len(b, (const char *)&addr, 8);
	sb_append_len(b, (const char *)&len, 4);
	sb_append_len(b, (const char *)&type, 2);
	sb_append_len(b, (const char *)&flags, 2);
	put_name(b, name);
	put_trailer(s, b, (uint32_t)-1, 0);
	return emit_buf(s, b);
}

/* PERF_RECORD_BPF_EVENT: a program loaded, of the kernel (pid -1). */
static int emit_bpf_prog_load(struct synth *s, struct strbuf *b, uint32_t id,
			      const uint8_t *tag)
{
	uint16_t type = PD_BPF_EVENT_PROG_LOAD, flags = 0;
	put_header(b, PERF_RECORD_BPF_EVENT, PERF_RECORD_MISC_KERNEL);
	sb_append_len(b, (const char *)&type, 2);
	sb_append_len(b, (const char *)&flags, 2);
	sb_append_len(b, (const char *)&id, 4);
	sb_append_len(b, (const char *)tag, 8);
	put_trailer(s, b, (uint32_t)-1, 0);
	return emit_buf(s, b);
}

/* A program's records in the order perf writes them: a KSYMBOL for each of
 * its functions (named from its BTF when it has one), then its BPF_EVENT. */
static int emit_bpf_prog_records(struct synth *s, const struct pd_bpf_prog *p,
				 const struct pd_btf_blob *btf)
{
	/* A view of the info with real pointers for naming. */
	struct bpf_prog_info info = p->info;
	info.jited_ksyms = p->info.jited_ksyms + (uint64_t)(uintptr_t)p->data;
	info.jited_func_lens = p->info.jited_func_lens + (uint64_t)(uintptr_t)p->data;
	info.prog_tags = p->info.prog_tags + (uint64_t)(uintptr_t)p->data;
	info.func_info = p->info.func_info + (uint64_t)(uintptr_t)p->data;
	const uint64_t *ksyms = (const uint64_t *)(uintptr_t)info.jited_ksyms;
	const uint32_t *lens = (const uint32_t *)(uintptr_t)info.jited_func_lens;
	uint32_t nsub = info.nr_jited_ksyms;
	if (info.nr_jited_func_lens < nsub)
		nsub = info.nr_jited_func_lens;

	struct btf *bt = btf && info.nr_func_info ? btf__new(btf->data, btf->size) : NULL;
	if (bt && libbpf_get_error(bt))
		bt = NULL;
	struct strbuf b = { 0 };
	int err = 0;
	for (uint32_t i = 0; i < nsub && !err; i++) {
		char name[256];
		pd_bpf_prog_name(&info, bt, i, name, sizeof(name));
		err = emit_bpf_ksymbol(s, &b, ksyms[i], lens[i], name);
	}
	btf__free(bt);
	if (!err)
		err = emit_bpf_prog_load(s, &b, info.id, info.tag);
	sb_free(&b);
	return err;
}

int synth_bpf_program(struct synth *s, uint32_t prog_id, bool emit_records)
{
	for (size_t i = 0; i < s->nprogs; i++)
		if (s->progs[i]->info.id == prog_id)
			return 0;
	int fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd < 0) {
		s->progs_missed++;
		return -errno;
	}
	struct pd_bpf_prog *p = pd_bpf_prog_fetch(fd, PD_BPIL_DEFAULT_ARRAYS);
	close(fd);
	if (!p) {
		s->progs_missed++;
		return -errno;
	}
	ARRAY_GROW(s->progs, s->progs_cap, s->nprogs + 1);
	s->progs[s->nprogs++] = p;
	const struct pd_btf_blob *btf = prog_btf(s, p->info.btf_id);
	return emit_records ? emit_bpf_prog_records(s, p, btf) : 0;
}

int synth_bpf_programs(struct synth *s)
{
	uint32_t id = 0;
	int err = 0;
	while (!err) {
		if (bpf_prog_get_next_id(id, &id)) {
			if (errno == ENOENT)
				break;
			return -errno;
		}
		int r = synth_bpf_program(s, id, true);
		if (r && r != -ENOENT)
			pr_debug("cannot read BPF program %u: %s", id, log_strerr(r));
	}
	return err;
}
