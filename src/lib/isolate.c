// SPDX-License-Identifier: GPL-2.0-only
/* Work on untrusted input in a worker process, see isolate.h.
 *
 * Pipes: the caller sends a job as u64 length + bytes; the worker answers
 * with frames, u32 length + bytes for each isolate_write, and u32 END + i32
 * the function's result when it returns. */
#include "isolate.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FRAME_END 0xffffffffu
#define WORKER_JOBS 1000	/* then a fresh worker (what a parser leaked goes) */

struct worker {
	isolate_fn fn;
	pid_t pid;
	int to, from;		/* the caller's ends */
	unsigned jobs;
};

static struct worker workers[4];

void isolate_write(void *out, const void *buf, size_t len)
{
	int fd = (int)(intptr_t)out;
	uint32_t n = (uint32_t)len;
	if (write_full(fd, &n, 4) < 0 || write_full(fd, buf, len) < 0)
		_exit(1);	/* the caller is gone */
}

/* Every descriptor but in and out closed. */
static void close_others(int in, int out)
{
	int lo = in < out ? in : out, hi = in < out ? out : in;
	if (syscall(SYS_close_range, 3u, (unsigned)lo - 1, 0u) < 0 && lo > 3)
		for (int fd = 3; fd < lo; fd++)
			close(fd);
	if (hi > lo + 1)
		syscall(SYS_close_range, (unsigned)lo + 1, (unsigned)hi - 1, 0u);
	syscall(SYS_close_range, (unsigned)hi + 1, ~0u, 0u);
}

static void worker_main(isolate_fn fn, int in, int out, pid_t parent)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS };
	for (size_t i = 0; i < ARRAY_SIZE(fatal); i++)
		signal(fatal[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_IGN);	/* ^C: the caller decides */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)	/* the parent died before prctl */
		_exit(1);
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	close_others(in, out);
	for (;;) {
		uint64_t len;
		if (read_full(in, &len, 8) != 8)
			_exit(0);	/* the caller is done */
		uint8_t *job = malloc(len ? (size_t)len : 1);
		if (!job || read_full(in, job, (size_t)len) != (ssize_t)len)
			_exit(1);
		int32_t rc = fn(job, (size_t)len, (void *)(intptr_t)out);
		free(job);
		uint32_t end = FRAME_END;
		if (write_full(out, &end, 4) < 0 || write_full(out, &rc, 4) < 0)
			_exit(1);
	}
}

static void worker_stop(struct worker *w, bool kill_it, int *sig)
{
	if (w->pid <= 0)
		return;
	close(w->to);
	close(w->from);
	if (kill_it)
		kill(w->pid, SIGKILL);
	int st = 0;
	while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
		;
	if (sig)
		*sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	w->pid = 0;
}

static int worker_start(struct worker *w)
{
	int down[2], up[2];
	if (pipe2(down, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(up, O_CLOEXEC) < 0) {
		int err = -errno;
		close(down[0]);
		close(down[1]);
		return err;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int err = -errno;
		close(down[0]);
		close(down[1]);
		close(up[0]);
		close(up[1]);
		return err;
	}
	if (pid == 0) {
		close(down[1]);
		close(up[0]);
		worker_main(w->fn, down[0], up[1], parent);
	}
	close(down[0]);
	close(up[1]);
	w->pid = pid;
	w->to = down[1];
	w->from = up[0];
	w->jobs = 0;
	return 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read len bytes from fd within timeout_ms: 0, -EPIPE at EOF, -ETIMEDOUT. */
static int read_timed(int fd, void *buf, size_t len, unsigned timeout_ms)
{
	uint8_t *p = buf;
	int64_t deadline = now_ms() + timeout_ms;
	while (len) {
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		int r = poll(&pf, 1, (int)left);
		if (r < 0 && errno != EINTR)
			return -EPIPE;
		if (r <= 0)
			continue;
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The job's frames into res until its end (0), EOF or a timeout. */
static int take_frames(struct worker *w, unsigned timeout_ms, struct isolate_result *res, int32_t *rc)
{
	size_t cap = 0;
	for (;;) {
		uint32_t n;
		int err = read_timed(w->from, &n, 4, timeout_ms);
		if (err)
			return err;
		if (n == FRAME_END)
			return read_timed(w->from, rc, 4, timeout_ms);
		ARRAY_GROW(res->out, cap, res->len + n + 1);
		if ((err = read_timed(w->from, res->out + res->len, n, timeout_ms)))
			return err;
		res->len += n;
	}
}

int isolate_call(isolate_fn fn, const void *in, size_t len, unsigned timeout_ms, struct isolate_result *res)
{
	struct worker *w = NULL;
	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < ARRAY_SIZE(workers) && !w; i++)
		if (workers[i].fn == fn || !workers[i].fn)
			w = &workers[i];
	if (!w)
		return -ENOSPC;
	w->fn = fn;
	if (w->pid > 0 && w->jobs >= WORKER_JOBS)
		worker_stop(w, false, NULL);
	uint64_t l = len;
	int err = 0;
	int32_t rc = 0;
	/* a worker found dead before the job (its pipe closed): one more, once */
	for (int try = 0; try < 2; try++) {
		if (w->pid <= 0 && (err = worker_start(w)))
			return err;
		w->jobs++;
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);
		bool sent = write_full(w->to, &l, 8) == 0 && write_full(w->to, in, len) == 0;
		signal(SIGPIPE, old);
		if (sent)
			break;
		worker_stop(w, true, NULL);
		err = -EPIPE;
	}
	if (!err)
		err = take_frames(w, timeout_ms, res, &rc);
	if (!err) {
		res->end = rc ? ISOLATE_FAILED : ISOLATE_DONE;
		return 0;
	}
	worker_stop(w, true, &res->sig);
	res->end = err == -ETIMEDOUT ? ISOLATE_TIMEOUT : ISOLATE_CRASHED;
	return 0;
}
