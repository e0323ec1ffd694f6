// SPDX-License-Identifier: GPL-2.0-only
/* The kernel's symbols from a /proc/kallsyms-format file: text symbols of the
 * kernel and its modules ("[mod]") and live BPF programs ("[bpf]"), one
 * sorted table, a symbol ending where the next one starts. */
#include "sym_int.h"
#include "sym/buildid.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RANK_DATA 10		/* not text: only used to end the previous symbol */
#define MAX_FOREIGN_SIZE (64 * 1024)	/* bound of a symbol followed by another module's */
/* A kallsyms file (or copy) read at most this far: ~10 MiB on distribution
 * kernels, so a bigger one is not a kallsyms file. */
#define KALLSYMS_MAX ((uint64_t)1 << 30)

struct modrange {
	const char *dso;
	uint64_t start, end;
};

static bool parse_hex(const char *s, const char **end, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;
	for (; *p; p++) {
		int d;
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (p - s >= 16)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	if (p == s)
		return false;
	*end = p;
	*out = v;
	return true;
}

/* The module ranges of a /proc/modules file, named "[name]" as kallsyms
 * names their symbols' owners. */
static size_t load_modules(const char *path, struct strtab *strs, struct modrange **out)
{
	struct kmod_range *mods;
	size_t n = kmods_read(path, &mods);
	*out = n ? xmalloc(n * sizeof(**out)) : NULL;
	for (size_t i = 0; i < n; i++) {
		char dso[260];
		snprintf(dso, sizeof(dso), "[%s]", mods[i].name);
		(*out)[i] = (struct modrange){ strtab_intern(strs, dso), mods[i].start, mods[i].end };
	}
	free(mods);
	return n;
}

/* A module seen in a kallsyms copy: its lowest address. */
struct kmod {
	const char *dso;
	uint64_t low;
};

struct kparse {
	struct strtab *strs;
	struct symtab *st;
	const char *kernel;
	size_t lines, zero;
	bool copy;		/* a saved copy: see kallsyms_load_copy */
	bool data;		/* keep the data symbols instead of the text ones */
	size_t long_lines;	/* lines of KALLSYMS_MAX_LINE bytes or more, skipped */
	struct kmod *mods;	/* copy: the modules it has symbols of */
	size_t nmods, capmods, lastmod;
};

static void note_module(struct kparse *k, const char *dso, uint64_t addr)
{
	/* lines of one module come together: most find it at lastmod */
	if (k->lastmod >= k->nmods || k->mods[k->lastmod].dso != dso) {
		size_t i = 0;
		while (i < k->nmods && k->mods[i].dso != dso)
			i++;
		if (i == k->nmods) {
			ARRAY_GROW(k->mods, k->capmods, k->nmods + 1);
			k->mods[k->nmods++] = (struct kmod){ .dso = dso, .low = addr };
		}
		k->lastmod = i;
	}
	if (addr < k->mods[k->lastmod].low)
		k->mods[k->lastmod].low = addr;
}

/* One line, "addr type name[\t[module]]", NUL-terminated in place. */
static void parse_line(struct kparse *k, char *line)
{
	uint64_t addr;
	const char *q;
	if (!parse_hex(line, &q, &addr) || *q != ' ')
		return;
	k->lines++;
	char type = q[1];
	if (!type || q[2] != ' ' || !q[3])
		return;
	char *name = (char *)q + 3;
	char *mod = NULL;
	char *tab = strpbrk(name, "\t ");
	if (tab) {
		*tab = '\0';
		mod = tab + 1;
		while (*mod == ' ' || *mod == '\t')
			mod++;
	}
	if (!*name)
		return;
	if (!addr) {
		k->zero++;
		return;
	}
	bool text = type == 't' || type == 'T' || type == 'w' || type == 'W';
	if (type == 'a' || type == 'A' || type == 'u' || type == 'U')
		return;	/* absolute values and undefined: not addresses */
	const char *aux = k->kernel;
	if (mod && mod[0] == '[') {
		char *close = strchr(mod, ']');
		if (close) {
			close[1] = '\0';
			bool bpf = strcmp(mod, "[bpf]") == 0;
			bool builtin = strncmp(mod, "[__builtin__", 12) == 0;
			/* a copy's BPF programs and trampolines are long gone */
			if (k->copy && (bpf || builtin))
				return;
			if (bpf) {
				aux = strtab_intern(k->strs, name);
			} else if (!builtin) {
				aux = strtab_intern(k->strs, mod);
				if (k->copy)
					note_module(k, aux, addr);
			}
		}
	}
	uint8_t rank = !text ? RANK_DATA : type == 'T' ? 0 : type == 'W' ? 1 : 2;
	symtab_add(k->st, addr, 0, name, aux, rank);
}

#define BLOCK (1u << 20)
/* A kallsyms line is an address, a type, a name of at most KSYM_NAME_LEN
 * (512) bytes and a module: a longer "line" is not one, and is skipped, so
 * that a file without newlines costs one block of memory, not a growing one. */
#define KALLSYMS_MAX_LINE 4096

static void parse_sized_line(struct kparse *k, char *line, size_t len)
{
	if (len >= KALLSYMS_MAX_LINE)
		k->long_lines++;
	else
		parse_line(k, line);
}

/* The file is read in blocks that the table keeps when symbols were taken
 * from them (names point into them): no growing buffer copied over and over.
 * A line cut by the end of a block moves to the start of the next one. */
static int parse_file(int fd, struct kparse *k, size_t block)
{
	size_t carry = 0;
	uint64_t total = 0;	/* bounded: a kallsyms file is at most KALLSYMS_MAX */
	char keep[KALLSYMS_MAX_LINE];
	bool skipping = false;	/* inside an overlong line: up to its newline */
	for (;;) {
		size_t cap = carry + block;
		char *buf = xmalloc(cap + 1);
		if (carry)
			memcpy(buf, keep, carry);
		ssize_t r = read_full(fd, buf + carry, cap - carry);
		if (r < 0) {
			int e = errno;
			free(buf);
			return -e;
		}
		total += (uint64_t)r;
		if (total > KALLSYMS_MAX) {
			free(buf);
			return -EFBIG;
		}
		size_t n = carry + (size_t)r, before = k->st->n;
		bool eof = n < cap;
		char *p = buf, *end = buf + n;
		if (skipping) {
			char *nl = memchr(p, '\n', n);
			p = nl ? nl + 1 : end;
			skipping = !nl;
		}
		for (;;) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			if (!nl)
				break;
			*nl = '\0';
			parse_sized_line(k, p, (size_t)(nl - p));
			p = nl + 1;
		}
		if (eof && p < end) {	/* a last line without a newline */
			*end = '\0';
			parse_sized_line(k, p, (size_t)(end - p));
			p = end;
		}
		carry = (size_t)(end - p);
		if (carry >= KALLSYMS_MAX_LINE) {
			k->long_lines++;
			skipping = true;
			carry = 0;
		}
		memcpy(keep, p, carry);
		if (k->st->n != before)
			symtab_own(k->st, buf);
		else
			free(buf);
		if (eof)
			return 0;
	}
}

/* A copy's modules against /proc/modules: the same set, at the same places. */
static bool copy_modules_current(const struct kparse *k, const struct modrange *mods, size_t nmods)
{
	for (size_t i = 0; i < k->nmods; i++) {
		size_t m = 0;
		while (m < nmods && mods[m].dso != k->mods[i].dso)
			m++;
		if (m == nmods) {
			pr_debug("kallsyms copy: module %s is not loaded now", k->mods[i].dso);
			return false;
		}
		if (k->mods[i].low < mods[m].start || k->mods[i].low >= mods[m].end) {
			pr_debug("kallsyms copy: module %s was at another address", k->mods[i].dso);
			return false;
		}
	}
	for (size_t m = 0; m < nmods; m++) {
		size_t i = 0;
		while (i < k->nmods && k->mods[i].dso != mods[m].dso)
			i++;
		if (i == k->nmods) {
			pr_debug("kallsyms copy: module %s was loaded after the copy", mods[m].dso);
			return false;
		}
	}
	return true;
}

static long load(const char *path, const char *modules, struct strtab *strs, struct symtab *st,
		 bool *hidden, bool copy, bool data)
{
	*hidden = false;
	int fd = open_regular(path, KALLSYMS_MAX, NULL);
	if (fd < 0)
		return fd;
	struct kparse k = { .strs = strs, .st = st, .copy = copy, .data = data,
			    .kernel = strtab_intern(strs, "[kernel.kallsyms]") };
	/* ~130k lines on a distribution kernel: one allocation of the table;
	 * a regular file (a copy, a test's) tells its size, /proc/kallsyms does
	 * not (a line takes 24 bytes at least) */
	struct stat sb;
	size_t lines_max = 1u << 17, block = BLOCK;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
		if ((uint64_t)sb.st_size / 24 < lines_max)
			lines_max = (size_t)sb.st_size / 24 + 16;
		if ((uint64_t)sb.st_size < block)
			block = (size_t)sb.st_size + 1;	/* read at once, EOF seen */
	}
	ARRAY_GROW_RAW(st->syms, st->cap, st->n + lines_max);
	int err = parse_file(fd, &k, block);
	close(fd);
	if (k.long_lines)
		pr_warn("%s: %zu lines of %d bytes or more skipped: not the /proc/kallsyms format "
			"(\"ADDRESS TYPE NAME [MODULE]\" lines); give a copy of /proc/kallsyms",
			path, k.long_lines, KALLSYMS_MAX_LINE);
	if (err < 0) {
		free(k.mods);
		symtab_free(st);
		return err;
	}
	size_t lines = k.lines, zero = k.zero;
	if (lines && zero == lines) {
		free(k.mods);
		*hidden = true;
		symtab_free(st);
		return 0;
	}
	struct modrange *mods;
	size_t nmods = load_modules(modules, strs, &mods);
	if (copy && !copy_modules_current(&k, mods, nmods)) {
		free(k.mods);
		free(mods);
		symtab_free(st);
		return -ESTALE;
	}
	free(k.mods);
	st->last_alias_wins = true;
	symtab_finish(st, 4096);

	/* Bound each symbol: a symbol followed by one of another owner (core
	 * kernel then a module or a BPF program) gets at most 64 KiB; module
	 * symbols end at their module's end when /proc/modules tells it. */
	size_t w = 0;
	for (size_t i = 0; i < st->n; i++) {
		struct sym *s = &st->syms[i];
		bool last_of_owner = i + 1 == st->n || st->syms[i + 1].aux != s->aux;
		if (last_of_owner && s->end - s->start > MAX_FOREIGN_SIZE)
			s->end = s->start + MAX_FOREIGN_SIZE;
		if (s->aux != k.kernel) {
			for (size_t m = 0; m < nmods; m++) {
				if (mods[m].dso == s->aux && s->start >= mods[m].start &&
				    s->start < mods[m].end && s->end > mods[m].end)
					s->end = mods[m].end;
			}
		}
		if (data ? s->rank == RANK_DATA : s->rank < RANK_DATA)
			st->syms[w++] = *s;
	}
	st->n = w;
	free(mods);
	return (long)st->n;
}

long kallsyms_load(const char *path, const char *modules, struct strtab *strs,
		   struct symtab *st, bool *hidden)
{
	return load(path, modules, strs, st, hidden, false, false);
}

long kallsyms_load_data(const char *path, const char *modules, struct strtab *strs,
			struct symtab *st, bool *hidden)
{
	return load(path, modules, strs, st, hidden, false, true);
}

int kallsyms_find_names(const char *path, const char *const *names, uint64_t *addrs, size_t n)
{
	int fd = open_regular(path, KALLSYMS_MAX, NULL);
	if (fd < 0)
		return fd;
	FILE *f = fdopen(fd, "r");
	char line[512];
	size_t found = 0;
	if (!f) {
		int e = errno;
		close(fd);
		return -e;
	}
	for (size_t i = 0; i < n; i++)
		addrs[i] = 0;
	while (found < n && fgets(line, sizeof(line), f)) {
		const char *q;
		uint64_t addr;
		if (!parse_hex(line, &q, &addr) || q[0] != ' ' || !q[1] || q[2] != ' ')
			continue;
		const char *name = q + 3;
		size_t len = strcspn(name, "\t \n");
		for (size_t i = 0; i < n; i++) {
			if (!addrs[i] && strlen(names[i]) == len && !memcmp(names[i], name, len)) {
				addrs[i] = addr;
				found++;
			}
		}
	}
	fclose(f);
	return (int)found;
}

long kallsyms_load_copy(const char *path, const char *modules, struct strtab *strs,
			struct symtab *st)
{
	bool hidden;
	long n = load(path, modules, strs, st, &hidden, true, false);
	return hidden ? -ESTALE : n;
}

uint64_t kallsyms_text_address(const char *path)
{
	char buf[16384];
	int fd = open_regular(path, KALLSYMS_MAX, NULL);
	if (fd < 0)
		return 0;
	ssize_t n = read_full(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return 0;
	buf[n] = '\0';
	uint64_t text = 0, stext = 0;
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		uint64_t a;
		const char *q;
		if (!parse_hex(line, &q, &a) || q[0] != ' ' || !q[1] || q[2] != ' ')
			continue;
		if (strcmp(q + 3, "_text") == 0 && !text)
			text = a;
		else if (strcmp(q + 3, "_stext") == 0 && !stext)
			stext = a;
	}
	return text ? text : stext;
}

bool kallsyms_find_copy(const struct ksources *src, char *path, size_t len)
{
	const char *notes = src && src->notes ? src->notes : "/sys/kernel/notes";
	const char *proc = src && src->proc_kallsyms ? src->proc_kallsyms : "/proc/kallsyms";
	char *dir = buildid_dir(src ? src->buildid_dir : NULL);
	uint8_t id[64];
	size_t idlen = dir ? buildid_of_notes(notes, id, sizeof(id)) : 0;
	if (!idlen) {
		free(dir);
		return false;
	}
	char hex[2 * sizeof(id) + 1];
	sym_hex_id(id, idlen, hex);
	int n = snprintf(path, len, "%s/[kernel.kallsyms]/%s/kallsyms", dir, hex);
	free(dir);
	if (n < 0 || (size_t)n >= len || access(path, R_OK) != 0)
		return false;
	uint64_t live = kallsyms_text_address(proc), saved = kallsyms_text_address(path);
	if (!live || live != saved) {
		pr_debug("%s: kernel text at %#llx, running kernel's at %#llx: not used", path,
			 (unsigned long long)saved, (unsigned long long)live);
		return false;
	}
	return true;
}
