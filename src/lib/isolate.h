/* SPDX-License-Identifier: GPL-2.0-only */
/* Run code that may crash or hang on untrusted input (a third-party parser
 * such as libtraceevent's) in another process, so that its death is a
 * result, not the end of the tool.
 *
 * A worker process is forked the first time a job function is called and
 * serves its calls until it dies or the tool ends (EOF on its pipe; SIGKILL
 * too when the parent dies): one fork per run of the tool, not per call.
 * It runs with stdout and stderr on /dev/null, the default action for fatal
 * signals (no sanitizer report), no other file descriptor of the parent's,
 * and ends with _exit (no atexit handlers, no leak check of the parent's
 * heap). A worker that crashed or hung is killed and the next call forks a
 * new one. Its memory is its own: nothing it changes is seen by the parent,
 * so a caller runs the same work again in the parent once the worker has
 * shown which parts of it are safe. */
#ifndef BPFPERF_ISOLATE_H
#define BPFPERF_ISOLATE_H

#include <stddef.h>
#include <stdint.h>

enum isolate_end {
	ISOLATE_DONE = 0,	/* the job function returned 0 */
	ISOLATE_FAILED,		/* it returned non-zero */
	ISOLATE_CRASHED,	/* the worker died during the call (sig says how) */
	ISOLATE_TIMEOUT,	/* nothing written for timeout_ms: killed */
};

struct isolate_result {
	enum isolate_end end;
	int sig;		/* ISOLATE_CRASHED: the signal (0: exited) */
	uint8_t *out;		/* what the job wrote with isolate_write (malloc'd; free it) */
	size_t len;
};

/* A job function, run in the worker: in/len are the caller's bytes; what it
 * writes with isolate_write(out, ...) comes back to the caller as it goes,
 * so that a crash leaves what was written before it. */
typedef int (*isolate_fn)(const void *in, size_t len, void *out);

/* Run fn on in[0..len) in its worker. 0 with *res filled, or a negative
 * errno when no worker could be started (pipe, fork; nothing is logged: the
 * caller says what it does without one). timeout_ms bounds the wait for each
 * write of the job and for its end. Not thread-safe: one caller at a time. */
int isolate_call(isolate_fn fn, const void *in, size_t len, unsigned timeout_ms, struct isolate_result *res);

/* Inside a job: send len bytes to the caller. */
void isolate_write(void *out, const void *buf, size_t len);

#endif
