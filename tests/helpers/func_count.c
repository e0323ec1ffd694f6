// SPDX-License-Identifier: GPL-2.0-only
/* func_count: a test driver, not a user command. Attaches
 * src/bpf/func_count.bpf.c to one function, runs a command, and prints how
 * many calls of the function returned and their summed duration:
 *
 *   func_count [-v] [--force-kprobe] [--wait-pid PID] kernel FUNC [-- CMD...]
 *   func_count [-v] [--wait-pid PID] user BINARY:FUNC|PID:FUNC [-- CMD...]
 *
 * kernel: fentry/fexit, else kprobe/kretprobe (skel/kfunc_attach.h);
 * --force-kprobe takes the fallback (as BPFPERF_FORCE_KPROBE=1).
 * user: uprobe/uretprobe at the offset sym/uprobe_target.h gives (PID:FUNC
 * probes that process only). --wait-pid PID: after CMD, wait for process
 * PID (not a child) to exit.
 *
 * Output, one "key: value" a line: mechanism (fentry, kprobe, uprobe),
 * offset (user), calls, total_ns, no_entry, map_full. Exit 0, 1 on a failure
 * (the message names it), 2 for a usage error. */
#include "func_count.skel.h"
#include "func_count_data.h"
#include "log.h"
#include "skel/kfunc_attach.h"
#include "skel/skel.h"
#include "sym/uprobe_target.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: func_count [-v] [--force-kprobe] [--wait-pid PID] "
		"kernel FUNC | user BINARY:FUNC|PID:FUNC [-- CMD...]\n");
	return 2;
}

static int run_cmd(char **argv)
{
	pid_t pid = fork();
	if (pid < 0) {
		pr_err("cannot fork to run %s: %s", argv[0], strerror(errno));
		return -1;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "func_count: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		pr_err("command %s failed (status 0x%x)", argv[0], st);
		return -1;
	}
	return 0;
}

/* Wait up to 120 s for a process that is not our child to exit: its pidfd
 * becomes readable when it has exited (before it is reaped). */
/* A handle on process pid, taken before CMD runs: CMD may make it exit,
 * and its parent reap it, before we would look. */
static int watch_pid(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		pr_err("cannot watch process %d: %s", (int)pid, strerror(errno));
	return fd;
}

static int wait_pid(int fd, pid_t pid)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r = poll(&p, 1, 120000);
	close(fd);
	if (r != 1) {
		pr_err("process %d did not exit within 120 s", (int)pid);
		return -1;
	}
	return 0;
}

static struct bpf_link *attach_uprobe(struct bpf_program *p, const struct uprobe_target *t, bool ret)
{
	LIBBPF_OPTS(bpf_uprobe_opts, o, .retprobe = ret);
	struct bpf_link *l = bpf_program__attach_uprobe_opts(p, t->pid, t->path, t->offset, &o);
	if (!l)
		pr_err("cannot attach %s to %s:%s (offset 0x%" PRIx64 "): %s; the kernel needs "
		       "uprobes (CONFIG_UPROBE_EVENTS)", ret ? "a uretprobe" : "a uprobe", t->name,
		       t->func, t->offset, log_strerr(-errno));
	return l;
}

int main(int argc, char **argv)
{
	int verbose = 0, i = 1;
	bool force = false;
	pid_t wait_for = 0;
	for (; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-v"))
			verbose++;
		else if (!strcmp(argv[i], "--force-kprobe"))
			force = true;
		else if (!strcmp(argv[i], "--wait-pid") && i + 1 < argc)
			wait_for = (pid_t)atoi(argv[++i]);
		else
			return usage();
	}
	if (argc - i < 2 || (strcmp(argv[i], "kernel") && strcmp(argv[i], "user")))
		return usage();
	bool kernel = !strcmp(argv[i], "kernel");
	const char *what = argv[i + 1];
	char **cmd = NULL;
	if (i + 2 < argc) {
		if (strcmp(argv[i + 2], "--") || i + 3 >= argc)
			return usage();
		cmd = argv + i + 3;
	}
	log_set_prog("func_count");
	log_set_verbosity(verbose);
	log_install_libbpf();
	if (bpf_privileges_check("the func_count BPF programs"))
		return 1;

	struct uprobe_target t;
	if (!kernel && uprobe_target_resolve(what, &t))
		return 1;
	struct func_count_bpf *skel = func_count_bpf__open();
	if (!skel) {
		pr_err("cannot open the func_count BPF object: %s", log_strerr(-errno));
		return 1;
	}
	int rc = 1;
	struct kfunc_attach k = { 0 };
	struct bpf_link *ul[2] = { NULL, NULL };
	const char *mech = "uprobe";
	if (kernel) {
		struct kfunc_attach_opts o = {
			.func = what,
			.fentry = { skel->progs.fc_fentry, skel->progs.fc_fexit },
			.kprobe = { skel->progs.fc_kprobe, skel->progs.fc_kretprobe },
			.force_kprobe = force,
		};
		if (kfunc_attach_prepare(&o, &k))
			goto out;
		mech = kfunc_mech_name(k.mech);
		bpf_program__set_autoload(skel->progs.fc_uprobe, false);
		bpf_program__set_autoload(skel->progs.fc_uretprobe, false);
	} else {
		struct bpf_program *off[] = { skel->progs.fc_fentry, skel->progs.fc_fexit,
					      skel->progs.fc_kprobe, skel->progs.fc_kretprobe };
		for (size_t j = 0; j < sizeof(off) / sizeof(off[0]); j++)
			bpf_program__set_autoload(off[j], false);
	}
	int err = func_count_bpf__load(skel);
	if (err) {
		skel_load_error(err, "the func_count BPF programs");
		goto out;
	}
	if (kernel) {
		if (kfunc_attach_links(&k))
			goto out;
	} else {
		ul[0] = attach_uprobe(skel->progs.fc_uretprobe, &t, true);
		ul[1] = ul[0] ? attach_uprobe(skel->progs.fc_uprobe, &t, false) : NULL;
		if (!ul[1])
			goto out;
		pr_info("user function %s:%s: uprobe/uretprobe at file offset 0x%" PRIx64
			" (address 0x%" PRIx64 ")", t.name, t.func, t.offset, t.vaddr);
	}
	int pidfd = wait_for ? watch_pid(wait_for) : -1;
	if (wait_for && pidfd < 0)
		goto out;
	if (cmd && run_cmd(cmd)) {
		if (pidfd >= 0)
			close(pidfd);
		goto out;
	}
	if (wait_for && wait_pid(pidfd, wait_for))
		goto out;
	kfunc_attach_destroy(&k);
	bpf_link__destroy(ul[0]);
	bpf_link__destroy(ul[1]);
	ul[0] = ul[1] = NULL;
	bpf_wait_for_programs();

	uint64_t c[FUNC_COUNT_NR];
	percpu_counters_read(bpf_map__fd(skel->maps.counters), c, FUNC_COUNT_NR);
	printf("mechanism: %s\n", mech);
	if (!kernel)
		printf("offset: 0x%" PRIx64 "\n", t.offset);
	printf("calls: %" PRIu64 "\ntotal_ns: %" PRIu64 "\nno_entry: %" PRIu64 "\nmap_full: %" PRIu64 "\n",
	       c[FUNC_COUNT_CALLS], c[FUNC_COUNT_TOTAL_NS], c[FUNC_COUNT_NO_ENTRY],
	       c[FUNC_COUNT_MAP_FULL]);
	rc = fflush(stdout) ? 1 : 0;
out:
	kfunc_attach_destroy(&k);
	bpf_link__destroy(ul[0]);
	bpf_link__destroy(ul[1]);
	func_count_bpf__destroy(skel);
	return rc;
}
