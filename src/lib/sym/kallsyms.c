// SPDX-License-Identifier: GPL-2.0-only
/* The kernel's symbols from a /proc/kallsyms-format file: text symbols of the
 * kernel and its modules ("[mod]") and live BPF programs ("[bpf]"), one
 * sorted table, a symbol ending where the next one starts. */
#include "sym_int.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RANK_DATA 10		/* not text: only used to end the previous symbol */
#define MAX_FOREIGN_SIZE (64 * 1024)	/* bound of a symbol followed by another module's */

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

/* /proc/modules: "name size refcount deps state 0xaddr [taints]". */
static size_t load_modules(const char *path, struct strtab *strs, struct modrange **out)
{
	*out = NULL;
	if (!path)
		return 0;
	char *buf = read_file(path, NULL);
	if (!buf)
		return 0;
	size_t n = 0, cap = 0;
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[256], addr[64];
		unsigned long long size;
		if (sscanf(line, "%255s %llu %*s %*s %*s %63s", name, &size, addr) != 3)
			continue;
		uint64_t a;
		const char *e;
		const char *h = strncmp(addr, "0x", 2) == 0 ? addr + 2 : addr;
		if (!parse_hex(h, &e, &a) || !a || a + size < a)
			continue;
		char dso[260];
		snprintf(dso, sizeof(dso), "[%s]", name);
		ARRAY_GROW(*out, cap, n + 1);
		(*out)[n].dso = strtab_intern(strs, dso);
		(*out)[n].start = a;
		(*out)[n].end = a + size;
		n++;
	}
	free(buf);
	return n;
}

struct kparse {
	struct strtab *strs;
	struct symtab *st;
	const char *kernel;
	size_t lines, zero;
};

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
			if (strcmp(mod, "[bpf]") == 0)
				aux = strtab_intern(k->strs, name);
			else if (strncmp(mod, "[__builtin__", 12) != 0)
				aux = strtab_intern(k->strs, mod);
		}
	}
	uint8_t rank = !text ? RANK_DATA : type == 'T' ? 0 : type == 'W' ? 1 : 2;
	symtab_add(k->st, addr, 0, name, aux, rank);
}

#define BLOCK (1u << 20)

/* The file is read in blocks that the table keeps (names point into them):
 * no growing buffer copied over and over. A line cut by the end of a block
 * moves to the start of the next one. */
static int parse_file(int fd, struct kparse *k)
{
	size_t carry = 0;
	char *prev = NULL;
	for (;;) {
		size_t cap = carry + BLOCK;
		char *buf = xmalloc(cap + 1);
		if (carry)
			memcpy(buf, prev, carry);
		size_t n = carry;
		ssize_t r = 0;
		while (n < cap) {
			r = read(fd, buf + n, cap - n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			n += (size_t)r;
		}
		if (r < 0) {
			int e = errno;
			free(buf);
			return -e;
		}
		bool eof = n < cap;
		char *p = buf, *end = buf + n;
		for (;;) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			if (!nl)
				break;
			*nl = '\0';
			parse_line(k, p);
			p = nl + 1;
		}
		if (eof && p < end) {	/* a last line without a newline */
			*end = '\0';
			parse_line(k, p);
			p = end;
		}
		carry = (size_t)(end - p);
		prev = p;
		symtab_own(k->st, buf);
		if (eof)
			return 0;
	}
}

long kallsyms_load(const char *path, const char *modules, struct strtab *strs,
		   struct symtab *st, bool *hidden)
{
	*hidden = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct kparse k = { .strs = strs, .st = st,
			    .kernel = strtab_intern(strs, "[kernel.kallsyms]") };
	/* ~130k lines on a distribution kernel: one allocation of the table */
	ARRAY_GROW(st->syms, st->cap, st->n + (1u << 17));
	int err = parse_file(fd, &k);
	close(fd);
	if (err < 0) {
		symtab_free(st);
		return err;
	}
	size_t lines = k.lines, zero = k.zero;
	if (lines && zero == lines) {
		*hidden = true;
		symtab_free(st);
		return 0;
	}
	st->last_alias_wins = true;
	symtab_finish(st, 4096);

	struct modrange *mods;
	size_t nmods = load_modules(modules, strs, &mods);
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
		if (s->rank < RANK_DATA)
			st->syms[w++] = *s;
	}
	st->n = w;
	free(mods);
	return (long)st->n;
}
