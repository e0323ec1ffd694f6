// SPDX-License-Identifier: GPL-2.0-only
#include "log.h"

#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static const char *log_prog = "bpfperf";
static int log_level_max = LOG_WARN;
static int libbpf_verbose;
static char *capture_buf;
static size_t capture_len;

void log_capture_errors(char *buf, size_t len)
{
	capture_buf = len ? buf : NULL;
	capture_len = len;
	if (capture_buf)
		capture_buf[0] = '\0';
}

void log_set_prog(const char *prog)
{
	log_prog = prog;
}

void log_set_verbosity(int v)
{
	if (v <= LOG_SILENT)
		log_level_max = LOG_ERROR - 1;
	else if (v < 0)
		log_level_max = LOG_ERROR;
	else
		log_level_max = LOG_WARN + v;
	libbpf_verbose = v >= 3;
}

int log_verbosity(void)
{
	return log_level_max < LOG_ERROR ? LOG_SILENT : log_level_max - LOG_WARN;
}

static const char *hints[LOG_HINT_MAX];

void log_set_hint(enum log_hint key, const char *text)
{
	if ((unsigned)key < LOG_HINT_MAX)
		hints[key] = text;
}

const char *log_hint(enum log_hint key)
{
	return (unsigned)key < LOG_HINT_MAX && hints[key] ? hints[key] : "";
}

bool log_errors_wanted(void)
{
	return capture_buf || log_level_max >= LOG_ERROR;
}

static void log_vmsg(enum log_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = {
		[LOG_ERROR] = "error: ",
		[LOG_WARN] = "warning: ",
		[LOG_INFO] = "",
		[LOG_DEBUG] = "debug: ",
	};
	if (level == LOG_ERROR && capture_buf) {
		vsnprintf(capture_buf, capture_len, fmt, ap);
		size_t l = strlen(capture_buf);
		if (l && capture_buf[l - 1] == '\n')
			capture_buf[l - 1] = '\0';
		return;
	}
	if ((int)level > log_level_max)
		return;
	/* Build the whole line first so concurrent writers do not interleave. */
	char buf[4096];
	int n = snprintf(buf, sizeof(buf), "%s: %s", log_prog, prefix[level]);
	if (n < 0)
		return;
	int m = vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	if (m < 0)
		return;
	size_t len = strlen(buf);
	if (len == 0 || buf[len - 1] != '\n') {
		if (len + 1 < sizeof(buf)) {
			buf[len++] = '\n';
			buf[len] = '\0';
		} else {
			buf[sizeof(buf) - 2] = '\n';
		}
	}
	fputs(buf, stderr);
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_vmsg(level, fmt, ap);
	va_end(ap);
}

static int libbpf_limit_err;

/* Is there a negative errno -e in msg as a number of its own ("... -24",
 * "(-24)", "=-24")? */
static bool has_errno(const char *msg, int e)
{
	for (const char *p = strchr(msg, '-'); p; p = strchr(p + 1, '-')) {
		if (p > msg && (p[-1] == '-' || (p[-1] >= '0' && p[-1] <= '9') ||
				(p[-1] >= 'A' && p[-1] <= 'z')))
			continue;
		char *end;
		long v = strtol(p + 1, &end, 10);
		if (end != p + 1 && v == e && !(*end >= '0' && *end <= '9'))
			return true;
	}
	return false;
}

/* libbpf's messages carry errnos as "-24", "(-24)" or strerror text. */
static void note_limit_error(const char *msg)
{
	if (strstr(msg, "Too many open files in system") || has_errno(msg, ENFILE))
		libbpf_limit_err = -ENFILE;
	else if (strstr(msg, "Too many open files") || has_errno(msg, EMFILE))
		libbpf_limit_err = -EMFILE;
	else if (strstr(msg, "Cannot allocate memory") || has_errno(msg, ENOMEM))
		libbpf_limit_err = -ENOMEM;
}

int log_libbpf_limit_error(void)
{
	int e = libbpf_limit_err;
	libbpf_limit_err = 0;
	return e;
}

static bool as_limited(struct rlimit *rl)
{
	return getrlimit(RLIMIT_AS, rl) == 0 && rl->rlim_cur != RLIM_INFINITY;
}

/*
 * Fewer free descriptors than a BPF object load needs at once (its maps,
 * programs, the kernel BTF and libbpf's feature probes)?  libbpf's probes
 * fail quietly under EMFILE and it then rewrites programs for an older
 * kernel, so a load cut short by the limit can end in a verifier error.
 */
#define LOAD_FDS_NEEDED 32
static bool fds_scarce(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur > 4096)
		return false;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return errno == EMFILE;
	unsigned long long open_fds = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			open_fds++;
	closedir(d);
	if (open_fds)
		open_fds--;	/* the directory's own descriptor */
	return open_fds + LOAD_FDS_NEEDED > rl.rlim_cur;
}

int log_limit_cause(int err)
{
	int seen = log_libbpf_limit_error();
	if (err >= 0 || err == -EMFILE || err == -ENFILE || err == -ENOMEM)
		return err;
	if (seen)
		return seen;
	if (fds_scarce())
		return -EMFILE;
	struct rlimit rl;
	/* libbpf gives ESRCH when it cannot read the kernel BTF, e.g. no memory */
	if (err == -ESRCH && as_limited(&rl) && access("/sys/kernel/btf/vmlinux", R_OK) == 0)
		return -ENOMEM;
	return err;
}

const char *log_limit_hint(int err)
{
	static __thread char buf[256];
	struct rlimit rl;
	switch (-err) {
	case EMFILE: {
		if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
			return "the open file limit ('ulimit -n') is reached: raise it";
		unsigned long long cur = rl.rlim_cur, want = cur * 4 > 1024 ? cur * 4 : 1024;
		if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max)
			want = rl.rlim_max;
		if (want > cur)
			snprintf(buf, sizeof(buf), "the open file limit (%llu, 'ulimit -n') is reached: "
				 "raise it, e.g. 'ulimit -n %llu'", cur, want);
		else
			snprintf(buf, sizeof(buf), "the open file limit (%llu, 'ulimit -n') is reached, "
				 "and so is its hard limit: raise both as root, e.g. 'ulimit -n %llu'",
				 cur, cur * 4 > 1024 ? cur * 4 : 1024);
		return buf;
	}
	case ENFILE:
		return "the system's open file table is full (fs.file-max): close files elsewhere or "
		       "raise /proc/sys/fs/file-max";
	case ENOMEM:
		if (as_limited(&rl)) {
			snprintf(buf, sizeof(buf), "out of memory under the address space limit (%llu KiB, "
				 "'ulimit -v'): raise it or lift it with 'ulimit -v unlimited'",
				 (unsigned long long)(rl.rlim_cur >> 10));
			return buf;
		}
		return "out of memory: free memory, or raise the memory limit of this process's cgroup";
	default:
		return NULL;
	}
}

const char *log_limit_suffix(int err)
{
	static __thread char buf[300];
	const char *hint = log_limit_hint(err);
	if (!hint)
		return "";
	snprintf(buf, sizeof(buf), "; %s", hint);
	return buf;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	enum log_level l;
	switch (level) {
	case LIBBPF_WARN:
		l = LOG_WARN;
		break;
	case LIBBPF_INFO:
		l = LOG_DEBUG;
		break;
	default:
		if (!libbpf_verbose)
			return 0;
		l = LOG_DEBUG;
		break;
	}
	char buf[4096];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (level != LIBBPF_DEBUG)
		note_limit_error(buf);
	if ((int)l > log_level_max)
		return 0;
	/* most of libbpf's messages already start with its name: once is enough */
	const char *msg = buf;
	if (!strncmp(msg, "libbpf: ", 8))
		msg += 8;
	log_msg(l, "libbpf: %s", msg);
	return 0;
}

void log_install_libbpf(void)
{
	libbpf_set_print(libbpf_print);
}

const char *log_strerr(int err)
{
	static __thread char buf[128];
	if (err < 0)
		err = -err;
	if (err == BPFPERF_EUSAGE)
		return "invalid usage";
	if (err >= 4000) { /* libbpf's own error codes */
		libbpf_strerror(-err, buf, sizeof(buf));
		return buf;
	}
	return strerror(err);
}
