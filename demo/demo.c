// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf-demo [SECONDS]: a workload whose profile is known in advance.
 *   phase 1: getppid() in a loop with demo.bpf.c attached: time in the BPF
 *            program; the program is then unloaded (before the recording ends);
 *   phase 2: demo_hot_user_function(): time in user space;
 *   phase 3: read() of /dev/zero into a large buffer: time in the kernel.
 * Each phase takes a third of SECONDS (default 3) of the demo's own CPU time,
 * so that the thirds hold on a loaded or emulated machine too (wall-clock
 * thirds gave a phase fewer samples whenever the demo was preempted more
 * during it). Needs root for phase 1;
 * without it phase 1 is skipped with a message. */
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "demo.skel.h"

/* CPU time of the demo's (only) thread, user and system */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

volatile unsigned long demo_sink;

__attribute__((noinline)) unsigned long demo_hot_user_function(unsigned long seed)
{
	unsigned long acc = seed;
	for (int i = 0; i < 200000; i++)
		acc = (acc ^ (acc >> 13)) * 0x5bd1e995ul + (unsigned long)i;
	return acc;
}

__attribute__((noinline)) static void phase_user(double secs)
{
	double end = now() + secs;
	while (now() < end)
		demo_sink += demo_hot_user_function(demo_sink);
}

__attribute__((noinline)) static void phase_kernel(double secs)
{
	static char buf[1 << 20];
	int fd = open("/dev/zero", O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "bpfperf-demo: cannot open /dev/zero: %s\n", strerror(errno));
		return;
	}
	double end = now() + secs;
	while (now() < end)
		if (read(fd, buf, sizeof(buf)) < 0)
			break;
	close(fd);
}

static int silent(enum libbpf_print_level l, const char *fmt, va_list ap)
{
	if (l == LIBBPF_WARN && getenv("BPFPERF_DEMO_VERBOSE"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

__attribute__((noinline)) static int phase_bpf(double secs)
{
	struct demo_bpf *skel = demo_bpf__open();
	if (!skel) {
		fprintf(stderr, "bpfperf-demo: cannot open the demo BPF program: %s\n", strerror(errno));
		return -1;
	}
	skel->rodata->target_tgid = (unsigned)getpid();
	int err = demo_bpf__load(skel);
	if (!err)
		err = demo_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "bpfperf-demo: cannot load/attach the demo BPF program (%s); "
				"run as root to include the BPF phase\n", strerror(-err));
		demo_bpf__destroy(skel);
		return -1;
	}
	double end = now() + secs;
	while (now() < end)	/* reading the CPU clock is a system call too: rarely */
		for (int i = 0; i < 64; i++)
			getppid();
	printf("bpfperf-demo: BPF program ran %llu times, now unloading it\n",
	       (unsigned long long)skel->bss->demo_calls);
	demo_bpf__destroy(skel);
	return 0;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3.0;
	if (secs <= 0) {
		fprintf(stderr, "usage: bpfperf-demo [SECONDS]\n");
		return 2;
	}
	libbpf_set_print(silent);
	setvbuf(stdout, NULL, _IOLBF, 0);
	phase_bpf(secs / 3);
	phase_user(secs / 3);
	phase_kernel(secs / 3);
	printf("bpfperf-demo: done\n");
	return 0;
}
