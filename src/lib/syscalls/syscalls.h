/* SPDX-License-Identifier: GPL-2.0-only */
/* The syscall table of the running kernel (x86_64 native ABI): names and
 * numbers, argument names and C types from the tracefs syscall tracepoint
 * formats, the kind of each argument (path, flags, fd, sockaddr...), syscall
 * selection expressions (-e 'open*,!openat2') and the argument beautifiers
 * used to print them. Library code: no option parsing, no printing. */
#ifndef BPFPERF_SYSCALLS_H
#define BPFPERF_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define SC_MAX_NR 512		/* table size; x86_64 numbers are below this */
#define SC_MAX_ARGS 6
#define SC_NAME_MAX 48
#define SC_TYPE_MAX 64

/* How an argument is printed, and whether its pointee is copied at entry. */
enum sc_arg_kind {
	SC_ARG_INT = 0,		/* signed decimal */
	SC_ARG_UINT,		/* unsigned decimal */
	SC_ARG_HEX,		/* unsigned long, flags without a table: hex */
	SC_ARG_PTR,		/* user pointer: hex (NULL for 0) */
	SC_ARG_STR,		/* input NUL-terminated string (paths, names): copied */
	SC_ARG_SOCKADDR,	/* input struct sockaddr *, length in the next arg: copied */
	SC_ARG_TIMESPEC,	/* input const struct __kernel_timespec *: copied */
	SC_ARG_FD,		/* file descriptor */
	SC_ARG_DIRFD,		/* dirfd: AT_FDCWD or a descriptor */
	SC_ARG_OPEN_FLAGS,	/* O_* */
	SC_ARG_MODE,		/* permission bits, octal */
	SC_ARG_SIGNAL,		/* SIG* */
	SC_ARG_MMAP_PROT,	/* PROT_* */
	SC_ARG_MMAP_FLAGS,	/* MAP_* */
	SC_ARG_ACCESS_MODE,	/* F_OK / R_OK|W_OK|X_OK */
	SC_ARG_AT_FLAGS,	/* AT_* */
	SC_ARG_WHENCE,		/* SEEK_* */
	SC_ARG__COUNT
};

/* Which arguments need their pointee copied by the kernel at entry. */
static inline bool sc_arg_kind_copied(enum sc_arg_kind k)
{
	return k == SC_ARG_STR || k == SC_ARG_SOCKADDR || k == SC_ARG_TIMESPEC;
}

struct sc_arg {
	char name[SC_NAME_MAX];
	char type[SC_TYPE_MAX];
	enum sc_arg_kind kind;
};

struct sc_info {
	int nr;			/* -1 when the kernel's tracepoint has no known x86_64 number */
	char name[SC_NAME_MAX];	/* user-visible name (stat, not newstat) */
	int nargs;		/* -1 when the format is unknown: print 6 raw values */
	struct sc_arg args[SC_MAX_ARGS];
	bool noreturn;		/* exit, exit_group: no sys_exit event */
	bool ret_ptr;		/* mmap, brk...: return value printed as hex */
};

struct sc_table {
	struct sc_info *by_nr[SC_MAX_NR];	/* NULL: no such syscall */
	int nr_syscalls;			/* entries in by_nr */
	int nr_formats;				/* of which with a tracefs format */
};

/* Static x86_64 number table. */
int sc_nr_by_name(const char *name);		/* -1 if unknown */
const char *sc_name_by_nr(int nr);		/* NULL if unknown */

/* Parse one tracefs "events/syscalls/sys_enter_<name>/format" text (untrusted
 * input: any bytes). Fills out->name (from "name: sys_enter_X", mapped to the
 * user-visible name), nargs and args[] with their kinds; out->nr is looked up
 * in the static table (-1 if unknown). Returns 0 or -EINVAL. */
int sc_format_parse(const char *text, size_t len, struct sc_info *out);

/* Classify argument i of sc (called by sc_format_parse; exposed for tests). */
enum sc_arg_kind sc_classify_arg(const struct sc_info *sc, int i);

/* Build the table: every syscall of the static table, with the arguments of
 * tracefs_dir/events/syscalls/sys_enter_* when readable. tracefs_dir may be
 * NULL (no formats). Returns 0, or -errno when the formats directory cannot be
 * read (the table is then filled with names only). */
int sc_table_load(struct sc_table *t, const char *tracefs_dir);
void sc_table_free(struct sc_table *t);
const struct sc_info *sc_table_get(const struct sc_table *t, int nr);
/* By name; -1 if the running kernel table has no such syscall. */
int sc_table_find(const struct sc_table *t, const char *name);

/* Selection: comma-separated names and globs, '!' excludes (-e 'open*,!openat2').
 * Only exclusions: everything else is selected. enabled[SC_MAX_NR] is written.
 * On error returns -EINVAL with a message in err naming the bad term and close
 * matches. */
int sc_select(const struct sc_table *t, const char *expr, bool *enabled, char *err, size_t errlen);
/* Up to max names close to word (edit distance, prefix), comma-separated, into out. */
void sc_suggest(const struct sc_table *t, const char *word, char *out, size_t outlen);

/* Beautifiers (append to sb). */
const char *sc_errno_name(int err);		/* "ENOENT", or NULL */
const char *sc_errno_desc(int err);		/* "No such file or directory" */
const char *sc_signal_name(int sig);		/* "SIGINT", or NULL */
void sc_fmt_open_flags(struct strbuf *sb, uint64_t flags);
void sc_fmt_mode(struct strbuf *sb, uint64_t mode);
void sc_fmt_mmap_prot(struct strbuf *sb, uint64_t prot);
void sc_fmt_mmap_flags(struct strbuf *sb, uint64_t flags);
void sc_fmt_access_mode(struct strbuf *sb, uint64_t mode);
void sc_fmt_at_flags(struct strbuf *sb, uint64_t flags);
void sc_fmt_dirfd(struct strbuf *sb, uint64_t fd);
void sc_fmt_signal(struct strbuf *sb, uint64_t sig);
/* String in C syntax with escapes; truncated marks "..." after the quote. */
void sc_fmt_cstring(struct strbuf *sb, const char *s, size_t len, bool truncated);
/* struct sockaddr: {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("1.2.3.4")} */
void sc_fmt_sockaddr(struct strbuf *sb, const void *data, size_t len);
void sc_fmt_timespec(struct strbuf *sb, const void *data, size_t len);

/* One argument, strace style. data/len: the copied pointee when the kind is
 * copied and the copy succeeded (have_data), else the pointer is printed. */
void sc_fmt_arg(struct strbuf *sb, const struct sc_arg *arg, uint64_t val,
		const void *data, size_t len, bool have_data);
/* Return value: "3", "0x7f...", "-1 ENOENT (No such file or directory)". */
void sc_fmt_ret(struct strbuf *sb, const struct sc_info *sc, int64_t ret);

#endif
