// SPDX-License-Identifier: GPL-2.0-only
#include "log.h"

#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *log_prog = "bpfperf";
static int log_level_max = LOG_WARN;
static int libbpf_verbose;

void log_set_prog(const char *prog)
{
	log_prog = prog;
}

void log_set_verbosity(int v)
{
	if (v < 0)
		log_level_max = LOG_ERROR;
	else
		log_level_max = LOG_WARN + v;
	libbpf_verbose = v >= 3;
}

int log_verbosity(void)
{
	return log_level_max - LOG_WARN;
}

static void log_vmsg(enum log_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = {
		[LOG_ERROR] = "error: ",
		[LOG_WARN] = "warning: ",
		[LOG_INFO] = "",
		[LOG_DEBUG] = "debug: ",
	};
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
	if ((int)l > log_level_max)
		return 0;
	char buf[4096];
	vsnprintf(buf, sizeof(buf), fmt, ap);
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
	if (err >= 4000) { /* libbpf's own error codes */
		libbpf_strerror(-err, buf, sizeof(buf));
		return buf;
	}
	return strerror(err);
}
