// SPDX-License-Identifier: GPL-2.0-only
/* Syscall table: static x86_64 numbers, tracefs format parsing, argument
 * classification and -e selection expressions. */
#include "syscalls.h"
#include "log.h"
#include "perfdata/tp_format.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sc_nr_name {
	int nr;
	const char *name;
};

static const struct sc_nr_name sc_nrs[] = {
#define X(nr, name) { nr, #name },
#include "syscall_nrs_x86_64.h"
#undef X
};

/* Tracepoints named after the kernel's SYSCALL_DEFINE name, not the ABI name. */
static const struct { const char *tp, *name; } sc_aliases[] = {
	{ "newstat", "stat" }, { "newlstat", "lstat" }, { "newfstat", "fstat" },
	{ "newuname", "uname" }, { "sendfile64", "sendfile" }, { "umount", "umount2" },
};

int sc_nr_by_name(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(sc_nrs); i++)
		if (!strcmp(sc_nrs[i].name, name))
			return sc_nrs[i].nr;
	return -1;
}

const char *sc_name_by_nr(int nr)
{
	for (size_t i = 0; i < ARRAY_SIZE(sc_nrs); i++)
		if (sc_nrs[i].nr == nr)
			return sc_nrs[i].name;
	return NULL;
}

static const char *tp_to_name(const char *tp)
{
	for (size_t i = 0; i < ARRAY_SIZE(sc_aliases); i++)
		if (!strcmp(sc_aliases[i].tp, tp))
			return sc_aliases[i].name;
	return tp;
}

static bool name_in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

static bool type_unsigned(const char *t)
{
	static const char *const u[] = { "size_t", "u32", "__u32", "u64", "__u64", "uid_t", "gid_t",
					 "umode_t", "qid_t", "aio_context_t", "old_uid_t", "old_gid_t",
					 "key_serial_t", "rwf_t", NULL };
	return !strncmp(t, "unsigned", 8) || !strncmp(t, "const unsigned", 14) || name_in(t, u);
}

enum sc_arg_kind sc_classify_arg(const struct sc_info *sc, int i)
{
	const struct sc_arg *a = &sc->args[i];
	const char *n = a->name, *t = a->type, *s = sc->name;
	static const char *const not_strings[] = { "buf", "u_msg_ptr", "ubuf", NULL };
	static const char *const fds[] = { "fd", "ufd", "oldfd", "newfd", "fd_in", "fd_out", "epfd",
					   "out_fd", "in_fd", "pidfd", "fdin", "fdout", NULL };
	static const char *const dirfds[] = { "dfd", "olddfd", "newdfd", "dirfd", NULL };
	static const char *const open_like[] = { "open", "openat", "mq_open", NULL };
	static const char *const access_like[] = { "access", "faccessat", "faccessat2", NULL };
	static const char *const sig_like[] = { "kill", "tkill", "tgkill", "rt_sigaction", "rt_sigqueueinfo",
						"rt_tgsigqueueinfo", "pidfd_send_signal", NULL };
	static const char *const addrs[] = { "addr", "start", "brk", "new_addr", "old_addr", "uaddr",
					     "uaddr2", NULL };

	if (strchr(t, '*')) {
		if (!strcmp(t, "const char *") && !name_in(n, not_strings))
			return SC_ARG_STR;
		if (strstr(t, "struct sockaddr *") && i + 1 < sc->nargs &&
		    !strchr(sc->args[i + 1].type, '*'))
			return SC_ARG_SOCKADDR;
		if (strstr(t, "struct __kernel_timespec *") &&
		    (!strncmp(t, "const ", 6) || (!strcmp(n, "rqtp") && !strcmp(s, "nanosleep"))))
			return SC_ARG_TIMESPEC;
		return SC_ARG_PTR;
	}
	if (name_in(n, dirfds))
		return SC_ARG_DIRFD;
	if (name_in(n, fds))
		return SC_ARG_FD;
	if ((!strcmp(n, "flags") || !strcmp(n, "oflag")) && name_in(s, open_like))
		return SC_ARG_OPEN_FLAGS;
	if (!strcmp(n, "mode") && name_in(s, access_like))
		return SC_ARG_ACCESS_MODE;
	if (!strcmp(n, "mode") && (strstr(t, "umode_t") || name_in(s, open_like)))
		return SC_ARG_MODE;
	if (!strcmp(n, "sig") && name_in(s, sig_like))
		return SC_ARG_SIGNAL;
	if (!strcmp(n, "prot") && (!strcmp(s, "mmap") || !strcmp(s, "mprotect") || !strcmp(s, "pkey_mprotect")))
		return SC_ARG_MMAP_PROT;
	if (!strcmp(n, "flags") && !strcmp(s, "mmap"))
		return SC_ARG_MMAP_FLAGS;
	if ((!strcmp(n, "flag") || !strcmp(n, "flags") || !strcmp(n, "at_flags")) &&
	    (ends_with(s, "at") || !strcmp(s, "statx") || !strcmp(s, "faccessat2") ||
	     !strcmp(s, "fchmodat2") || !strcmp(s, "name_to_handle_at")))
		return SC_ARG_AT_FLAGS;
	if (!strcmp(n, "whence") && (!strcmp(s, "lseek") || !strcmp(s, "llseek")))
		return SC_ARG_WHENCE;
	if (name_in(n, addrs))
		return SC_ARG_PTR;
	if ((!strcmp(n, "cmd") || !strcmp(n, "arg")) && !strcmp(s, "ioctl"))
		return SC_ARG_HEX;
	if (strstr(n, "flags") && type_unsigned(t))
		return SC_ARG_HEX;
	return type_unsigned(t) ? SC_ARG_UINT : SC_ARG_INT;
}

static bool valid_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* trusted: the running kernel's own text (tp_format_parse_kernel) */
static int format_parse(const char *text, size_t len, struct sc_info *out, bool trusted)
{
	struct tp_format f;

	memset(out, 0, sizeof(*out));
	out->nr = -1;
	if ((trusted ? tp_format_parse_kernel : tp_format_parse)(text, len, "syscalls", &f) < 0)
		return -EINVAL;
	int ret = -EINVAL;
	if (strncmp(f.name, "sys_enter_", 10) || !valid_ident(f.name + 10))
		goto out;
	const char *nm = tp_to_name(f.name + 10);
	if (strlen(nm) >= sizeof(out->name))
		goto out;
	strcpy(out->name, nm);
	for (size_t i = 0; i < f.nfields; i++) {
		const struct tp_field *fl = &f.fields[i];
		if ((fl->flags & TPF_COMMON) || !strcmp(fl->name, "__syscall_nr"))
			continue;
		if (out->nargs >= SC_MAX_ARGS || strlen(fl->name) >= SC_NAME_MAX ||
		    strlen(fl->type) >= SC_TYPE_MAX)
			goto out;
		struct sc_arg *a = &out->args[out->nargs++];
		strcpy(a->name, fl->name);
		strcpy(a->type, fl->type);
	}
	out->nr = sc_nr_by_name(out->name);
	for (int i = 0; i < out->nargs; i++)
		out->args[i].kind = sc_classify_arg(out, i);
	ret = 0;
out:
	tp_format_free(&f);
	if (ret < 0) {
		memset(out, 0, sizeof(*out));
		out->nr = -1;
	}
	return ret;
}

int sc_format_parse(const char *text, size_t len, struct sc_info *out)
{
	return format_parse(text, len, out, false);
}

static struct sc_info *new_info(int nr, const char *name)
{
	struct sc_info *sc = xcalloc(1, sizeof(*sc));
	sc->nr = nr;
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	sc->nargs = -1;
	return sc;
}

static void set_flags(struct sc_info *sc)
{
	static const char *const noret[] = { "exit", "exit_group", NULL };
	static const char *const ptrs[] = { "mmap", "brk", "mremap", "shmat", NULL };
	sc->noreturn = name_in(sc->name, noret);
	sc->ret_ptr = name_in(sc->name, ptrs);
}

int sc_table_load(struct sc_table *t, const char *tracefs_dir)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < ARRAY_SIZE(sc_nrs); i++) {
		int nr = sc_nrs[i].nr;
		if (nr < 0 || nr >= SC_MAX_NR || t->by_nr[nr])
			continue;
		t->by_nr[nr] = new_info(nr, sc_nrs[i].name);
		set_flags(t->by_nr[nr]);
		t->nr_syscalls++;
	}
	if (!tracefs_dir)
		return -ENOENT;

	char *dir = xasprintf("%s/events/syscalls", tracefs_dir);
	DIR *d = opendir(dir);
	if (!d) {
		int err = -errno;
		free(dir);
		return err;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "sys_enter_", 10))
			continue;
		char *path = xasprintf("%s/%s/format", dir, de->d_name);
		size_t len;
		char *text = read_file(path, &len);
		if (!text) {
			pr_debug("cannot read %s: %s", path, strerror(errno));
			free(path);
			continue;
		}
		struct sc_info info;
		if (format_parse(text, len, &info, true) < 0) {
			pr_debug("cannot parse %s; its arguments will be printed raw", path);
		} else if (info.nr < 0 || info.nr >= SC_MAX_NR) {
			pr_debug("syscall %s has no known x86_64 number; it cannot be traced by name", info.name);
		} else {
			struct sc_info *sc = t->by_nr[info.nr];
			if (!sc) {
				sc = t->by_nr[info.nr] = new_info(info.nr, info.name);
				t->nr_syscalls++;
			}
			sc->nargs = info.nargs;
			memcpy(sc->args, info.args, sizeof(sc->args));
			set_flags(sc);
			t->nr_formats++;
		}
		free(text);
		free(path);
	}
	closedir(d);
	free(dir);
	return 0;
}

void sc_table_free(struct sc_table *t)
{
	for (int i = 0; i < SC_MAX_NR; i++) {
		free(t->by_nr[i]);
		t->by_nr[i] = NULL;
	}
	t->nr_syscalls = t->nr_formats = 0;
}

const struct sc_info *sc_table_get(const struct sc_table *t, int nr)
{
	if (nr < 0 || nr >= SC_MAX_NR)
		return NULL;
	return t->by_nr[nr];
}

int sc_table_find(const struct sc_table *t, const char *name)
{
	for (int i = 0; i < SC_MAX_NR; i++)
		if (t->by_nr[i] && !strcmp(t->by_nr[i]->name, name))
			return i;
	return -1;
}


void sc_suggest(const struct sc_table *t, const char *word, char *out, size_t outlen)
{
	enum { MAXS = 5 };
	int best[MAXS];
	size_t bestd[MAXS];
	int n = 0;
	size_t wl = strlen(word);
	size_t limit = wl / 3 > 2 ? wl / 3 : 2;

	if (outlen)
		out[0] = '\0';
	for (int i = 0; i < SC_MAX_NR; i++) {
		const struct sc_info *sc = t->by_nr[i];
		if (!sc)
			continue;
		size_t d = edit_distance(word, sc->name);
		/* A name that contains the word (or the reverse) is close too. */
		if (d > limit && wl >= 3 && (strstr(sc->name, word) || strstr(word, sc->name)))
			d = limit;
		if (d > limit)
			continue;
		int pos = n < MAXS ? n : MAXS;
		while (pos > 0 && bestd[pos - 1] > d)
			pos--;
		if (pos >= MAXS)
			continue;
		int last = n < MAXS ? n : MAXS - 1;
		for (int k = last; k > pos; k--) {
			best[k] = best[k - 1];
			bestd[k] = bestd[k - 1];
		}
		best[pos] = i;
		bestd[pos] = d;
		if (n < MAXS)
			n++;
	}
	size_t off = 0;
	for (int k = 0; k < n && off < outlen; k++) {
		int w = snprintf(out + off, outlen - off, "%s%s", k ? ", " : "", t->by_nr[best[k]]->name);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

int sc_select(const struct sc_table *t, const char *expr, bool *enabled, char *err, size_t errlen)
{
	bool any_include = false;
	char *copy = xstrdup(expr ? expr : "");
	int ret = 0;

	for (char *tok = copy; *tok; ) {
		char *comma = strchr(tok, ',');
		if (comma)
			*comma = '\0';
		if (tok[0] && tok[0] != '!')
			any_include = true;
		if (!comma)
			break;
		tok = comma + 1;
	}
	free(copy);
	for (int i = 0; i < SC_MAX_NR; i++)
		enabled[i] = t->by_nr[i] && !any_include;

	copy = xstrdup(expr ? expr : "");
	char *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool neg = false;
		while (*tok == ' ')
			tok++;
		if (*tok == '!') {
			neg = true;
			tok++;
		}
		size_t l = strlen(tok);
		while (l && tok[l - 1] == ' ')
			tok[--l] = '\0';
		if (!*tok) {
			snprintf(err, errlen, "empty syscall name in '%s'", expr);
			ret = -EINVAL;
			break;
		}
		int matched = 0;
		for (int i = 0; i < SC_MAX_NR; i++) {
			if (!t->by_nr[i] || fnmatch(tok, t->by_nr[i]->name, 0))
				continue;
			enabled[i] = !neg;
			matched++;
		}
		if (!matched) {
			char sugg[256];
			sc_suggest(t, tok, sugg, sizeof(sugg));
			if (sugg[0])
				snprintf(err, errlen, "unknown syscall '%s'; did you mean: %s?", tok, sugg);
			else
				snprintf(err, errlen, "unknown syscall '%s' (no syscall of this kernel matches)", tok);
			ret = -EINVAL;
			break;
		}
	}
	free(copy);
	if (!ret && (!expr || !expr[0])) {
		snprintf(err, errlen, "empty syscall list");
		ret = -EINVAL;
	}
	return ret;
}
