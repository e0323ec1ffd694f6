// SPDX-License-Identifier: GPL-2.0-only
/* The stop loop every command runs while it observes: see skel.h. */
#include "skel/skel.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#define POLL_MAX_MS 100		/* targets and the workload are checked this often */
#define GRACE_NS 1000000000ull	/* a stopped workload's time to exit before SIGKILL */

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

/* Only interrupts poll()/epoll_wait() so that a workload's exit is seen at once. */
static void on_child(int sig)
{
	(void)sig;
}

void stop_signals_install(bool ignore_sigpipe)
{
	struct sigaction sa = { .sa_handler = on_stop, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	struct sigaction sc = { .sa_handler = on_child, .sa_flags = SA_RESTART | SA_NOCLDSTOP };
	sigemptyset(&sc.sa_mask);
	sigaction(SIGCHLD, &sc, NULL);
	if (ignore_sigpipe)
		signal(SIGPIPE, SIG_IGN);
}

int stop_signal_received(void)
{
	return stop_sig;
}

static int timeout_ms(uint64_t now, uint64_t a, uint64_t b)
{
	uint64_t wait = (uint64_t)POLL_MAX_MS * 1000000;
	if (a && a > now && a - now < wait)
		wait = a - now;
	if (b && b > now && b - now < wait)
		wait = b - now;
	if ((a && a <= now) || (b && b <= now))
		wait = 0;
	return (int)((wait + 999999) / 1000000);
}

enum stop_reason stop_loop_run(struct stop_loop *l)
{
	uint64_t start = now_ns();
	uint64_t deadline = l->duration > 0 ? start + (uint64_t)(l->duration * 1e9) : 0;
	uint64_t ival = l->interval > 0 ? (uint64_t)(l->interval * 1e9) : 0;
	uint64_t next_tick = ival ? start + ival : 0;
	uint64_t kill_at = 0;		/* the workload was told to stop; SIGKILL then */
	uint64_t out_check = 0;		/* when the output was last checked */
	enum stop_reason why = 0;
	bool have_wl = l->wl && l->wl->pid > 0;
	/* pidfds: a target that exited is seen even while it is a zombie
	 * (kill(pid, 0) still succeeds on those). */
	struct target_watch *tw = l->target ? target_watch_open(l->target) : NULL;

	for (;;) {
		uint64_t now = now_ns();
		int r;
		/* The checks come before the wait, so that a workload that has
		 * already exited (or a signal that has already come) is seen at
		 * once rather than after a whole poll timeout. */
		if (have_wl && workload_reap(l->wl, false)) {
			why = why ? why : STOP_WORKLOAD_EXIT;
			goto out;
		}
		if (!why && stop_sig) {
			why = STOP_SIGNAL;
			l->signal = stop_sig;
		}
		if (!why && deadline && now >= deadline)
			why = STOP_DURATION;
		if (!why && tw && !target_watch_alive(tw)) {
			why = STOP_TARGETS_GONE;
			goto out;
		}
		/* One poll() per POLL_MAX_MS at most: the loop may turn much
		 * more often under a high event rate. */
		if (!why && l->out_fd > 0 && now - out_check >= (uint64_t)POLL_MAX_MS * 1000000) {
			out_check = now;
			if (output_closed(l->out_fd))
				why = STOP_OUTPUT_CLOSED;
		}
		/* No tick once stopping: the caller's final output covers the
		 * last interval (a tick due at the deadline is not printed). */
		if (!why && next_tick && now >= next_tick) {
			if (l->tick && (r = l->tick(l->ctx)) < 0) {
				l->err = r;
				why = STOP_ERROR;
				break;
			}
			next_tick += ival;
			if (next_tick < now)
				next_tick = now + ival;
		}
		if (why && !have_wl)
			goto out;
		if (why && !kill_at) {
			/* Stop the workload and keep draining while it exits. */
			workload_signal(l->wl, why == STOP_SIGNAL ? l->signal : SIGTERM);
			kill_at = now + GRACE_NS;
		} else if (why && now >= kill_at) {
			workload_signal(l->wl, SIGKILL);
			workload_reap(l->wl, true);
			goto out;
		}
		/* Once stopping, only the kill time bounds the wait. */
		r = l->poll(l->ctx, why ? timeout_ms(now, kill_at, 0) : timeout_ms(now, deadline, next_tick));
		if (r < 0 && r != -EINTR) {
			l->err = r;
			why = STOP_ERROR;
			break;
		}
	}
	if (have_wl) {
		workload_signal(l->wl, SIGKILL);
		workload_reap(l->wl, true);
	}
out:
	target_watch_close(tw);
	return why;
}
