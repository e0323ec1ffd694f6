// SPDX-License-Identifier: GPL-2.0-only
/* Targets (-p/-t/-a/-C/-- CMD) and the corked workload: see target.h. */
#include "target/target.h"
#include "log.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* A positive decimal id (no sign, spaces, base prefix or unit). */
static bool parse_id(const char *s, pid_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > 0x3fffffff)
			return false;
	}
	*out = (pid_t)v;
	return v > 0;
}

/* Append the ids of a comma-separated list of what ("pid", "tid"); the
 * text that completes "expected ..." on a bad list. */
static const char *add_ids(const char *arg, const char *what, pid_t **ids, size_t *nr)
{
	static char bad[160];
	char *copy = xstrdup(arg), *save = NULL;
	size_t before = *nr, cap = *nr;
	const char *why = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		pid_t id;
		if (!parse_id(tok, &id)) {
			snprintf(bad, sizeof(bad), "positive decimal ids, comma-separated, e.g. 1234,5678 "
				 "(invalid %s '%.32s')", what, tok);
			why = bad;
			break;
		}
		ARRAY_GROW(*ids, cap, *nr + 1);
		(*ids)[(*nr)++] = id;
	}
	free(copy);
	if (!why && *nr == before)
		why = "at least one id: the list is empty";
	return why;
}

const char *target_cli_pids(const char *arg, void *dst)
{
	struct target *t = dst;
	return add_ids(arg, "pid", &t->pids, &t->nr_pids);
}

const char *target_cli_tids(const char *arg, void *dst)
{
	struct target *t = dst;
	return add_ids(arg, "tid", &t->tids, &t->nr_tids);
}

static bool id_exists(pid_t id)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d", (int)id);	/* threads too */
	return access(path, F_OK) == 0;
}

int target_check(const struct target *t, unsigned flags)
{
	int n = (t->nr_pids > 0) + (t->nr_tids > 0) + (t->argv != NULL) + t->system_wide;
	if (t->system_wide && t->argv && (flags & TARGET_A_WITH_CMD))
		n--;
	if (n > 1) {
		pr_err("a process%s%s%s, all CPUs%s and a command%s exclude each other; give one target",
		       log_hint(LOG_HINT_OPT_PID), flags & TARGET_NO_TIDS ? "" : ", a thread",
		       flags & TARGET_NO_TIDS ? "" : log_hint(LOG_HINT_OPT_TID), log_hint(LOG_HINT_OPT_ALL_CPUS),
		       log_hint(LOG_HINT_OPT_CMD));
		return -EINVAL;
	}
	if (n == 0 && (flags & TARGET_REQUIRED)) {
		pr_err("nothing to observe: give a process%s%s%s, all CPUs%s or a command%s",
		       log_hint(LOG_HINT_OPT_PID), flags & TARGET_NO_TIDS ? "" : ", a thread",
		       flags & TARGET_NO_TIDS ? "" : log_hint(LOG_HINT_OPT_TID), log_hint(LOG_HINT_OPT_ALL_CPUS),
		       log_hint(LOG_HINT_OPT_CMD));
		return -EINVAL;
	}
	for (size_t i = 0; i < t->nr_pids; i++) {
		if (!id_exists(t->pids[i])) {
			pr_err("no such process: pid %d; check it with 'ps -p %d'", (int)t->pids[i], (int)t->pids[i]);
			return -ESRCH;
		}
	}
	for (size_t i = 0; i < t->nr_tids; i++) {
		if (!id_exists(t->tids[i])) {
			pr_err("no such thread: tid %d; check it with 'ps -T -p %d'", (int)t->tids[i],
			       (int)t->tids[i]);
			return -ESRCH;
		}
	}
	return 0;
}

bool target_is_system_wide(const struct target *t)
{
	/* -C without -p/-t is CPU-wide, a command or not (perf's rule) */
	return t->system_wide || (!t->nr_pids && !t->nr_tids && (!t->argv || t->cpu_list));
}

int target_cpus(const struct target *t, bool **mask, int *nr_cpus)
{
	int n = cpu_count_possible();
	bool *on = cpu_online_mask();
	if (t->cpu_list) {
		bool *sel = xcalloc((size_t)n, sizeof(bool));
		if (parse_cpu_list(t->cpu_list, sel, n) < 0) {
			pr_err("bad CPU list '%s'%s: expected e.g. 0-1,3 with CPUs below %d", t->cpu_list,
			       log_hint(LOG_HINT_OPT_CPU_LIST), n);
			free(sel);
			free(on);
			return -EINVAL;
		}
		for (int i = 0; i < n; i++)
			on[i] = on[i] && sel[i];
		free(sel);
	}
	*mask = on;
	*nr_cpus = n;
	return 0;
}

int target_threads(const struct target *t, pid_t **tids, size_t *nr)
{
	size_t cap = 0;
	*tids = NULL;
	*nr = 0;
	for (size_t i = 0; i < t->nr_tids; i++) {
		ARRAY_GROW(*tids, cap, *nr + 1);
		(*tids)[(*nr)++] = t->tids[i];
	}
	for (size_t i = 0; i < t->nr_pids; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/task", (int)t->pids[i]);
		DIR *d = opendir(path);
		if (!d)
			continue;	/* gone meanwhile */
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			ARRAY_GROW(*tids, cap, *nr + 1);
			(*tids)[(*nr)++] = atoi(de->d_name);
		}
		closedir(d);
	}
	return 0;
}

/* A process (or thread) that has exited but is not reaped yet is a zombie:
 * kill(pid, 0) still succeeds on it, so the state in /proc decides. */
static bool id_running(pid_t id)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)id);	/* threads too */
	char *s = read_file(path, NULL);
	if (!s)
		return false;
	char *r = strrchr(s, ')');
	char state = r && r[1] == ' ' ? r[2] : '?';
	free(s);
	if (state != 'Z' && state != 'X')
		return true;
	/* A zombie leader whose other threads still run: the process runs. */
	snprintf(path, sizeof(path), "/proc/%d/task", (int)id);
	DIR *d = opendir(path);
	size_t n = 0;
	if (d) {
		struct dirent *de;
		while ((de = readdir(d)))
			n += isdigit((unsigned char)de->d_name[0]) != 0;
		closedir(d);
	}
	return n > 1;
}

bool target_alive(const struct target *t)
{
	if (!t->nr_pids && !t->nr_tids)
		return true;
	for (size_t i = 0; i < t->nr_pids; i++)
		if (id_running(t->pids[i]))
			return true;
	for (size_t i = 0; i < t->nr_tids; i++)
		if (id_running(t->tids[i]))
			return true;
	return false;
}

/* ---- waiting for the targets' exit ---- */

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL	/* Linux 6.9: a pidfd for one thread */
#endif

struct target_watch {
	const struct target *t;
	struct pollfd *pfd;	/* one pidfd per -p process and -t thread */
	size_t n;
	bool fallback;		/* some pidfd could not be opened: /proc decides */
};

static int pidfd_open_id(pid_t id, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, id, flags);
}

struct target_watch *target_watch_open(const struct target *t)
{
	if (!t->nr_pids && !t->nr_tids)
		return NULL;
	struct target_watch *w = xcalloc(1, sizeof(*w));
	w->t = t;
	w->pfd = xcalloc(t->nr_pids + t->nr_tids, sizeof(*w->pfd));
	for (size_t i = 0; i < t->nr_pids + t->nr_tids; i++) {
		bool thread = i >= t->nr_pids;
		pid_t id = thread ? t->tids[i - t->nr_pids] : t->pids[i];
		int fd = pidfd_open_id(id, thread ? PIDFD_THREAD : 0);
		if (fd < 0 && errno == ESRCH)
			continue;	/* already gone (and reaped) */
		if (fd < 0) {
			pr_debug("pidfd_open(%d): %s; watching it through /proc", (int)id, strerror(errno));
			w->fallback = true;
			continue;
		}
		w->pfd[w->n].fd = fd;
		w->pfd[w->n].events = POLLIN;
		w->n++;
	}
	return w;
}

bool target_watch_alive(struct target_watch *w)
{
	if (!w)
		return true;
	if (w->fallback)
		return target_alive(w->t);
	if (w->n == 0)
		return false;
	/* A pidfd is readable once its process (or thread) has exited, zombie
	 * or not. */
	if (poll(w->pfd, (nfds_t)w->n, 0) < 0)
		return target_alive(w->t);
	for (size_t i = 0; i < w->n; i++)
		if (!(w->pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
			return true;
	return false;
}

void target_watch_close(struct target_watch *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++)
		close(w->pfd[i].fd);
	free(w->pfd);
	free(w);
}

pid_t proc_parent(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	char *s = read_file(path, NULL);
	if (!s)
		return 0;
	/* pid (comm) state ppid ...: comm may hold spaces and parens */
	char *r = strrchr(s, ')');
	int ppid = 0;
	if (!r || sscanf(r + 1, " %*c %d", &ppid) != 1)
		ppid = 0;
	free(s);
	return ppid;
}

/* ---- the workload ---- */

static bool is_exec_file(const char *p)
{
	struct stat st;
	return access(p, X_OK) == 0 && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* argv[0] as execvp would find it, or NULL with errno. */
static char *find_program(const char *cmd)
{
	if (strchr(cmd, '/')) {
		if (is_exec_file(cmd))
			return xstrdup(cmd);
		if (access(cmd, F_OK) == 0)
			errno = EACCES;
		return NULL;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	char *copy = xstrdup(path), *save = NULL;
	errno = ENOENT;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", *d ? d : ".", cmd);
		if (is_exec_file(full)) {
			free(copy);
			return full;
		}
		free(full);
	}
	free(copy);
	errno = ENOENT;
	return NULL;
}

static void report_exec_error(const char *cmd, int e)
{
	pr_err("cannot run '%s': %s%s", cmd, strerror(e),
	       e == ENOENT ? " (command not found); check the command name and PATH" : "; check its permissions");
}

/* In the child: wait for the go byte, then exec; on failure send errno. */
static void __attribute__((noreturn)) child_main(struct workload *w, char **argv, int go_rd, int err_wr,
						  pid_t tracer)
{
	char b;
	signal(SIGPIPE, SIG_DFL);	/* we may ignore it; the workload must not */
	/* Inherited SIG_IGN (a background job of a script, nohup) would make
	 * the stop loop's forwarded signal useless: the workload is stopped by
	 * them, as record and run did before this module. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* Released by the tracer closing its end (EOF), not by a byte: a write
	 * would be one more system call that the programs just attached see
	 * (and count) as the tracer's. A tracer that dies also closes its end,
	 * before it is reparented (exit closes files first): the flag in the
	 * shared page, set only by workload_start, tells the two apart. */
	ssize_t n;
	do
		n = read(go_rd, &b, 1);
	while (n < 0 && errno == EINTR);
	if (n != 0 || !__atomic_load_n(w->released, __ATOMIC_ACQUIRE) || getppid() != tracer)
		_exit(127);	/* the tracer gave up or died: do not run */
	if (w->stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(127);
	execv(w->path, argv);
	int e = errno;
	if (write(err_wr, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int workload_prepare(struct workload *w, char **argv)
{
	return workload_prepare_redirected(w, argv, false);
}

int workload_prepare_redirected(struct workload *w, char **argv, bool stdout_to_stderr)
{
	int go[2], er[2];
	memset(w, 0, sizeof(*w));
	w->stdout_to_stderr = stdout_to_stderr;
	w->go_fd = w->err_fd = -1;
	w->path = find_program(argv[0]);
	if (!w->path) {
		int e = errno;
		report_exec_error(argv[0], e);
		return -e;
	}
	w->released = mmap(NULL, sizeof(*w->released), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w->released == MAP_FAILED) {
		int e = errno;
		w->released = NULL;
		pr_err("cannot map a page to start '%s': %s", argv[0], strerror(e));
		return -e;
	}
	if (pipe2(go, O_CLOEXEC) < 0) {
		int e = errno;
		pr_err("cannot create a pipe to start '%s': %s%s", argv[0], strerror(e),
		       log_limit_suffix(-e));
		return -e;
	}
	if (pipe2(er, O_CLOEXEC) < 0) {
		int e = errno;
		close(go[0]);
		close(go[1]);
		pr_err("cannot create a pipe to start '%s': %s%s", argv[0], strerror(e),
		       log_limit_suffix(-e));
		return -e;
	}
	fflush(NULL);
	pid_t tracer = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		pr_err("cannot fork to run '%s': %s", argv[0], strerror(e));
		close(go[0]); close(go[1]); close(er[0]); close(er[1]);
		return -e;
	}
	if (pid == 0) {
		close(go[1]);
		close(er[0]);
		child_main(w, argv, go[0], er[1], tracer);
	}
	close(go[0]);
	close(er[1]);
	w->pid = pid;
	w->go_fd = go[1];
	w->err_fd = er[0];
	return 0;
}

int workload_start(struct workload *w)
{
	int e = 0;
	w->start_ns = now_ns();
	__atomic_store_n(w->released, 1, __ATOMIC_RELEASE);
	close(w->go_fd);	/* EOF releases the exec (see child_main) */
	w->go_fd = -1;
	ssize_t n;
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		report_exec_error(w->path, e);
		workload_reap(w, true);
		return -e;
	}
	return 0;
}

bool workload_reap(struct workload *w, bool block)
{
	if (w->pid <= 0 || w->reaped)
		return w->reaped;
	pid_t r;
	struct rusage ru;
	do
		r = wait4(w->pid, &w->status, block ? 0 : WNOHANG, &ru);
	while (r < 0 && errno == EINTR);
	if (r == w->pid) {
		w->end_ns = now_ns();
		w->cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
			    (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
	}
	if (r == w->pid || (r < 0 && errno == ECHILD))
		w->reaped = true;
	return w->reaped;
}

void workload_signal(struct workload *w, int sig)
{
	if (w->pid > 0 && !w->reaped)
		kill(w->pid, sig);
}

int workload_exit_status(const struct workload *w)
{
	if (!w->reaped)
		return 0;
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status))
		return 128 + WTERMSIG(w->status);
	return 1;
}

int workload_failed_status(int err)
{
	return err == -ENOENT ? 127 : 126;
}

void workload_destroy(struct workload *w)
{
	/* Killed before its cork is closed: closing it would release the exec. */
	if (w->pid > 0 && !w->reaped)
		kill(w->pid, SIGKILL);
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
	if (w->pid > 0 && !w->reaped)
		workload_reap(w, true);
	free(w->path);
	w->path = NULL;
	if (w->released)
		munmap((void *)w->released, sizeof(*w->released));
	w->released = NULL;
}
