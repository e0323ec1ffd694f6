// SPDX-License-Identifier: GPL-2.0-only
/* Detaching after exit, in a child that holds the links: see skel.h. */
#include "skel/skel.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Why: detaching a tracepoint or kprobe program makes the kernel wait for RCU
 * grace periods (about 70 ms for a syscall tracepoint on Linux 6.18) inside
 * close(), so a process that is done would still take that long to exit.
 * The child inherits every fd (the links among them) and keeps them until
 * the parent has exited: the parent's closes are then not the last ones and
 * return at once, and the child's exit pays for the detach. The child keeps
 * none of the parent's stdio (the parent waits until it has let go of it),
 * so a pipe reading the parent's output sees EOF when the parent exits. */
void bpf_detach_in_background(void)
{
	const char *sync = getenv("BPFPERF_SYNC_DETACH");
	if (sync && !strcmp(sync, "1"))
		return;		/* detach in this process (to measure the difference) */
	int p[2], ready[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return;		/* then the caller pays for the detach itself */
	if (pipe2(ready, O_CLOEXEC) < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		close(ready[0]);
		close(ready[1]);
		return;
	}
	if (pid == 0) {
		close(p[1]);
		close(ready[0]);
		int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 1);
			dup2(nul, 2);
		}
		/* the parent's stdio is let go: it may exit now */
		close(ready[1]);
		signal(SIGINT, SIG_IGN);
		char b;
		/* EOF when the parent has exited (its write end closed) */
		while (read(p[0], &b, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[0]);
	/* Wait for the child to drop its copies of stdin, stdout and stderr
	 * (EOF on ready): a pipe reading our output then sees EOF when we exit,
	 * however late the child is scheduled (an emulated CPU: hundreds of ms). */
	close(ready[1]);
	char b;
	while (read(ready[0], &b, 1) < 0 && errno == EINTR)
		;
	close(ready[0]);
	/* p[1] stays open (close-on-exec) until the caller exits */
}
