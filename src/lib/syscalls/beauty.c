// SPDX-License-Identifier: GPL-2.0-only
/* Argument beautifiers: errno and signal names, open/mmap/at flags, modes,
 * strings, struct sockaddr, timespec. Values are the x86_64 kernel ABI's
 * (written out here: glibc's O_LARGEFILE is 0 on x86_64, the kernel's is not). */
#include "syscalls.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

struct flag_name {
	uint64_t val;
	const char *name;
};

/* Kernel-internal errno values a sys_exit tracepoint can see before the
 * signal code restarts the call (include/linux/errno.h). */
static const struct { int e; const char *name, *desc; } kernel_errnos[] = {
	{ 512, "ERESTARTSYS", "To be restarted if SA_RESTART is set" },
	{ 513, "ERESTARTNOINTR", "To be restarted" },
	{ 514, "ERESTARTNOHAND", "To be restarted if no handler" },
	{ 515, "ENOIOCTLCMD", "No ioctl command" },
	{ 516, "ERESTART_RESTARTBLOCK", "Interrupted by signal" },
	{ 517, "EPROBE_DEFER", "Driver probe deferred" },
	{ 524, "ENOTSUPP", "Operation is not supported" },
};

const char *sc_errno_name(int err)
{
	if (err <= 0)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(kernel_errnos); i++)
		if (kernel_errnos[i].e == err)
			return kernel_errnos[i].name;
	return strerrorname_np(err);
}

const char *sc_errno_desc(int err)
{
	for (size_t i = 0; i < ARRAY_SIZE(kernel_errnos); i++)
		if (kernel_errnos[i].e == err)
			return kernel_errnos[i].desc;
	const char *d = strerrordesc_np(err);
	return d ? d : "Unknown error";
}

const char *sc_signal_name(int sig)
{
	static __thread char buf[16];
	if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
		if (sig == SIGRTMIN)
			return "SIGRTMIN";
		snprintf(buf, sizeof(buf), "SIGRTMIN+%d", sig - SIGRTMIN);
		return buf;
	}
	const char *a = sig > 0 && sig < 32 ? sigabbrev_np(sig) : NULL;
	if (!a)
		return NULL;
	snprintf(buf, sizeof(buf), "SIG%s", a);
	return buf;
}

static void fmt_flags(struct strbuf *sb, uint64_t v, const struct flag_name *t, size_t n, const char *zero)
{
	bool first = true;
	if (!v) {
		sb_append(sb, zero);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (t[i].val && (v & t[i].val) == t[i].val) {
			sb_printf(sb, "%s%s", first ? "" : "|", t[i].name);
			v &= ~t[i].val;
			first = false;
		}
	}
	if (v)
		sb_printf(sb, "%s%#" PRIx64, first ? "" : "|", v);
}

void sc_fmt_open_flags(struct strbuf *sb, uint64_t flags)
{
	static const struct flag_name t[] = {
		{ 020200000, "O_TMPFILE" }, { 04010000, "O_SYNC" },
		{ 0100, "O_CREAT" }, { 0200, "O_EXCL" }, { 0400, "O_NOCTTY" }, { 01000, "O_TRUNC" },
		{ 02000, "O_APPEND" }, { 04000, "O_NONBLOCK" }, { 010000, "O_DSYNC" },
		{ 020000, "O_ASYNC" }, { 040000, "O_DIRECT" }, { 0100000, "O_LARGEFILE" },
		{ 0200000, "O_DIRECTORY" }, { 0400000, "O_NOFOLLOW" }, { 01000000, "O_NOATIME" },
		{ 02000000, "O_CLOEXEC" }, { 010000000, "O_PATH" },
	};
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	flags &= 0xffffffffu;
	sb_append(sb, acc[flags & 3]);
	flags &= ~(uint64_t)3;
	if (flags) {
		sb_append(sb, "|");
		fmt_flags(sb, flags, t, ARRAY_SIZE(t), "0");
	}
}

void sc_fmt_mode(struct strbuf *sb, uint64_t mode)
{
	mode &= 0xffffffffu;
	if (mode)
		sb_printf(sb, "0%" PRIo64, mode);
	else
		sb_append(sb, "0");
}

void sc_fmt_mmap_prot(struct strbuf *sb, uint64_t prot)
{
	static const struct flag_name t[] = {
		{ 1, "PROT_READ" }, { 2, "PROT_WRITE" }, { 4, "PROT_EXEC" }, { 8, "PROT_SEM" },
		{ 0x01000000, "PROT_GROWSDOWN" }, { 0x02000000, "PROT_GROWSUP" },
	};
	fmt_flags(sb, prot, t, ARRAY_SIZE(t), "PROT_NONE");
}

void sc_fmt_mmap_flags(struct strbuf *sb, uint64_t flags)
{
	static const struct flag_name t[] = {
		{ 0x10, "MAP_FIXED" }, { 0x20, "MAP_ANONYMOUS" }, { 0x40, "MAP_32BIT" },
		{ 0x100, "MAP_GROWSDOWN" }, { 0x800, "MAP_DENYWRITE" }, { 0x1000, "MAP_EXECUTABLE" },
		{ 0x2000, "MAP_LOCKED" }, { 0x4000, "MAP_NORESERVE" }, { 0x8000, "MAP_POPULATE" },
		{ 0x10000, "MAP_NONBLOCK" }, { 0x20000, "MAP_STACK" }, { 0x40000, "MAP_HUGETLB" },
		{ 0x80000, "MAP_SYNC" }, { 0x100000, "MAP_FIXED_NOREPLACE" },
	};
	static const char *const type[] = { "0", "MAP_SHARED", "MAP_PRIVATE", "MAP_SHARED_VALIDATE" };
	sb_append(sb, type[flags & 3]);
	flags &= ~(uint64_t)3;
	if (flags) {
		sb_append(sb, "|");
		fmt_flags(sb, flags, t, ARRAY_SIZE(t), "0");
	}
}

void sc_fmt_access_mode(struct strbuf *sb, uint64_t mode)
{
	static const struct flag_name t[] = { { 4, "R_OK" }, { 2, "W_OK" }, { 1, "X_OK" } };
	fmt_flags(sb, mode & 0xffffffffu, t, ARRAY_SIZE(t), "F_OK");
}

void sc_fmt_at_flags(struct strbuf *sb, uint64_t flags)
{
	static const struct flag_name t[] = {
		{ 0x100, "AT_SYMLINK_NOFOLLOW" }, { 0x200, "AT_REMOVEDIR" }, { 0x400, "AT_SYMLINK_FOLLOW" },
		{ 0x800, "AT_NO_AUTOMOUNT" }, { 0x1000, "AT_EMPTY_PATH" }, { 0x2000, "AT_STATX_FORCE_SYNC" },
		{ 0x4000, "AT_STATX_DONT_SYNC" }, { 0x8000, "AT_RECURSIVE" },
	};
	fmt_flags(sb, flags & 0xffffffffu, t, ARRAY_SIZE(t), "0");
}

void sc_fmt_dirfd(struct strbuf *sb, uint64_t fd)
{
	if ((int32_t)fd == -100)
		sb_append(sb, "AT_FDCWD");
	else
		sb_printf(sb, "%d", (int32_t)fd);
}

void sc_fmt_signal(struct strbuf *sb, uint64_t sig)
{
	const char *n = sc_signal_name((int)sig);
	if (n)
		sb_append(sb, n);
	else
		sb_printf(sb, "%d", (int32_t)sig);
}

void sc_fmt_cstring(struct strbuf *sb, const char *s, size_t len, bool truncated)
{
	sb_append(sb, "\"");
	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': sb_append(sb, "\\\""); break;
		case '\\': sb_append(sb, "\\\\"); break;
		case '\n': sb_append(sb, "\\n"); break;
		case '\t': sb_append(sb, "\\t"); break;
		case '\r': sb_append(sb, "\\r"); break;
		default:
			if (isprint(c)) {
				char ch = (char)c;
				sb_append_len(sb, &ch, 1);
			} else {
				sb_printf(sb, "\\x%02x", c);
			}
		}
	}
	sb_append(sb, truncated ? "\"..." : "\"");
}

void sc_fmt_sockaddr(struct strbuf *sb, const void *data, size_t len)
{
	const unsigned char *b = data;
	if (len < 2) {
		sb_append(sb, "{}");
		return;
	}
	uint16_t fam;
	memcpy(&fam, b, 2);
	if (fam == AF_UNIX) {
		size_t n = len - 2;
		const char *path = (const char *)b + 2;
		if (n > 108)
			n = 108;
		sb_append(sb, "{sa_family=AF_UNIX, sun_path=");
		if (n && path[0] == '\0') {
			sb_append(sb, "@");
			sc_fmt_cstring(sb, path + 1, n - 1, false);
		} else {
			sc_fmt_cstring(sb, path, n, false);
		}
		sb_append(sb, "}");
	} else if (fam == AF_INET && len >= 8) {
		uint16_t port;
		char ip[INET_ADDRSTRLEN];
		memcpy(&port, b + 2, 2);
		inet_ntop(AF_INET, b + 4, ip, sizeof(ip));
		sb_printf(sb, "{sa_family=AF_INET, sin_port=htons(%u), sin_addr=inet_addr(\"%s\")}",
			  ntohs(port), ip);
	} else if (fam == AF_INET6 && len >= 24) {
		uint16_t port;
		char ip[INET6_ADDRSTRLEN];
		memcpy(&port, b + 2, 2);
		inet_ntop(AF_INET6, b + 8, ip, sizeof(ip));
		sb_printf(sb, "{sa_family=AF_INET6, sin6_port=htons(%u), sin6_addr=\"%s\"}", ntohs(port), ip);
	} else if (fam == AF_NETLINK && len >= 12) {
		uint32_t pid, groups;
		memcpy(&pid, b + 4, 4);
		memcpy(&groups, b + 8, 4);
		sb_printf(sb, "{sa_family=AF_NETLINK, nl_pid=%u, nl_groups=%#x}", pid, groups);
	} else {
		sb_printf(sb, "{sa_family=%u, sa_data=", fam);
		for (size_t i = 2; i < len && i < 32; i++)
			sb_printf(sb, "%02x", b[i]);
		sb_append(sb, "}");
	}
}

void sc_fmt_timespec(struct strbuf *sb, const void *data, size_t len)
{
	int64_t ts[2];
	if (len < sizeof(ts)) {
		sb_append(sb, "{?}");
		return;
	}
	memcpy(ts, data, sizeof(ts));
	sb_printf(sb, "{tv_sec=%" PRId64 ", tv_nsec=%" PRId64 "}", ts[0], ts[1]);
}

static void fmt_ptr(struct strbuf *sb, uint64_t v)
{
	if (!v)
		sb_append(sb, "NULL");
	else
		sb_printf(sb, "%#" PRIx64, v);
}

void sc_fmt_arg(struct strbuf *sb, const struct sc_arg *arg, uint64_t val,
		const void *data, size_t len, bool have_data)
{
	enum sc_arg_kind k = arg ? arg->kind : SC_ARG_HEX;

	if (sc_arg_kind_copied(k)) {
		if (!val || !have_data) {
			fmt_ptr(sb, val);
			return;
		}
		if (k == SC_ARG_STR) {
			/* The copy holds up to PATH_MAX bytes; a full one without a NUL was cut. */
			bool trunc = len && memchr(data, '\0', len) == NULL;
			sc_fmt_cstring(sb, data, len, trunc);
		} else if (k == SC_ARG_SOCKADDR) {
			sc_fmt_sockaddr(sb, data, len);
		} else {
			sc_fmt_timespec(sb, data, len);
		}
		return;
	}
	switch (k) {
	case SC_ARG_INT:
		/* Types narrower than long are sign-extended from 32 bits. */
		if (arg && (strstr(arg->type, "long") || strstr(arg->type, "loff_t") || strstr(arg->type, "off_t")))
			sb_printf(sb, "%" PRId64, (int64_t)val);
		else
			sb_printf(sb, "%d", (int32_t)val);
		break;
	case SC_ARG_UINT:
		sb_printf(sb, "%" PRIu64, val);
		break;
	case SC_ARG_FD:
		sb_printf(sb, "%d", (int32_t)val);
		break;
	case SC_ARG_DIRFD: sc_fmt_dirfd(sb, val); break;
	case SC_ARG_OPEN_FLAGS: sc_fmt_open_flags(sb, val); break;
	case SC_ARG_MODE: sc_fmt_mode(sb, val); break;
	case SC_ARG_SIGNAL: sc_fmt_signal(sb, val); break;
	case SC_ARG_MMAP_PROT: sc_fmt_mmap_prot(sb, val); break;
	case SC_ARG_MMAP_FLAGS: sc_fmt_mmap_flags(sb, val); break;
	case SC_ARG_ACCESS_MODE: sc_fmt_access_mode(sb, val); break;
	case SC_ARG_AT_FLAGS: sc_fmt_at_flags(sb, val); break;
	case SC_ARG_WHENCE: {
		static const char *const w[] = { "SEEK_SET", "SEEK_CUR", "SEEK_END", "SEEK_DATA", "SEEK_HOLE" };
		if (val < ARRAY_SIZE(w))
			sb_append(sb, w[val]);
		else
			sb_printf(sb, "%" PRIu64, val);
		break;
	}
	case SC_ARG_PTR:
		fmt_ptr(sb, val);
		break;
	default:
		sb_printf(sb, "%#" PRIx64, val);
		break;
	}
}

void sc_fmt_ret(struct strbuf *sb, const struct sc_info *sc, int64_t ret)
{
	if (ret < 0 && ret >= -4095) {
		int e = (int)-ret;
		const char *n = sc_errno_name(e);
		if (n)
			sb_printf(sb, "-1 %s (%s)", n, sc_errno_desc(e));
		else
			sb_printf(sb, "-1 errno %d", e);
	} else if (sc && sc->ret_ptr) {
		sb_printf(sb, "%#" PRIx64, (uint64_t)ret);
	} else {
		sb_printf(sb, "%" PRId64, ret);
	}
}
