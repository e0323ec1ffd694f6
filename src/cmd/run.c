// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf run: load any BPF object, attach every program by its section,
 * stream its ring buffers / perf event arrays, dump its maps by BTF.
 * The work is in src/lib/bpfobj (objects) and src/lib/btf (formatting). */
#include "cmds.h"
#include "bpfobj/bpfobj.h"
#include "json.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* Only interrupts the wait (epoll_wait/nanosleep get EINTR) so that the
 * command's exit is seen at once; waitpid in the loop collects it. */
static void on_child(int sig)
{
	(void)sig;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfperf run OBJ.bpf.o [OBJ...] [options] [-- CMD [ARGS...]]\n"
		"\n"
		"Open each BPF object, assign its const volatile globals (--set), load it,\n"
		"attach every program where its section says, stream its ring buffer and\n"
		"perf event array maps, and dump every other map typed by BTF at the end.\n"
		"\n"
		"  -d, --duration SEC     stop after SEC seconds (default: Ctrl-C or CMD exit)\n"
		"  -p, --pid PID          target of uprobe/, usdt/ and perf_event programs\n"
		"      --set NAME=VALUE   assign a const volatile global before load (repeatable)\n"
		"  -e, --event EV[:HZ]    perf event for SEC(\"perf_event\") programs (repeatable;\n"
		"                         default cpu-clock:99): cpu-clock, task-clock, page-faults,\n"
		"                         context-switches, cpu-migrations, cycles, instructions...\n"
		"  -I, --interval SEC     also dump the maps every SEC seconds\n"
		"      --heatmap          with --interval: print histogram maps as one heat-map row\n"
		"                         per interval instead of full dumps\n"
		"      --event-type NAME  decode stream records as struct NAME\n"
		"      --no-hist          do not render histogram maps as text histograms\n"
		"      --skip-unsupported run the programs this kernel supports, skip the others\n"
		"      --core-btf MODE    CO-RE relocation target: auto (default: a minimal copy of\n"
		"                         the kernel types used, or the full kernel BTF where needed),\n"
		"                         vmlinux (always the full kernel BTF), minimal (or fail)\n"
		"      --dump-xlated      load, print the programs' translated instructions, exit\n"
		"  -j, --json             JSON: one object per record, {\"maps\": [...]} per dump\n"
		"  -h, --help             this text\n"
		"\n"
		"Sections: tracepoint/ tp/ raw_tp/ raw_tracepoint/ tp_btf/ uprobe/ uretprobe/\n"
		"usdt/ perf_event kprobe/ kretprobe/ fentry/ fexit/. See docs/bpfperf-run.md.\n");
}

static bool parse_seconds(const char *opt, const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || v < 0 || v > 1e7) {
		pr_err("%s '%s': expected a number of seconds, e.g. %s 5 or %s 0.5", opt, s, opt, opt);
		return false;
	}
	*out = v;
	return true;
}

struct child {
	pid_t pid;
	int go_fd;	/* write end: closing it lets the child exec */
};

/* Fork CMD stopped before exec, so that its pid is known for attaching. */
static int start_child(char **argv, struct child *c)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		pr_err("pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		pr_err("cannot fork to run %s: %s", argv[0], strerror(errno));
		return -errno;
	}
	if (pid == 0) {
		char b;
		close(p[1]);
		if (read(p[0], &b, 1) != 0)
			_exit(127);	/* parent gave up: do not run */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "bpfperf run: error: cannot run '%s': %s; check the command name and PATH\n",
			argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	c->pid = pid;
	c->go_fd = p[1];
	return 0;
}

static void abort_child(struct child *c)
{
	if (c->pid <= 0)
		return;
	if (c->go_fd >= 0) {
		(void)!write(c->go_fd, "x", 1);
		close(c->go_fd);
		c->go_fd = -1;
	}
	kill(c->pid, SIGKILL);
	waitpid(c->pid, NULL, 0);
	c->pid = 0;
}

/* Detaching a tracepoint or kprobe program makes the kernel wait for RCU
 * grace periods (about 70 ms for a syscall tracepoint on Linux 6.18) inside
 * close(), so a run that is over would still take that long to exit. Instead
 * a child process inherits the links (fds) and drops them once we have
 * exited: our own closes are then not the last ones and return at once. The
 * child keeps none of our stdio, so pipes reading our output see EOF when we
 * exit. Returns after the fork; the child never returns. */
static void detach_in_background(void)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return;		/* then we pay for the detach ourselves */
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0) {
		close(p[1]);
		int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 1);
			dup2(nul, 2);
		}
		signal(SIGINT, SIG_IGN);
		char b;
		/* EOF when the parent has exited (its write end closed) */
		while (read(p[0], &b, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[0]);
	/* p[1] stays open (close-on-exec) until we exit */
}

static double now_s(void)
{
	return (double)now_ns() / 1e9;
}

static void dump_all(struct bpfobj **objs, int n, bool json, bool hist, bool heatmap, const char *heading)
{
	if (json) {
		struct json_writer *jw = jw_new(stdout, false);
		jw_start_object(jw);
		jw_key(jw, "maps");
		jw_start_array(jw);
		for (int i = 0; i < n; i++) {
			struct bpfobj_dump_opts d = { .o = { .out = stdout, .jw = jw }, .maps_only = true };
			bpfobj_dump_maps(objs[i], &d);
		}
		jw_end_array(jw);
		jw_end_object(jw);
		jw_free(jw);
		fflush(stdout);
		return;
	}
	for (int i = 0; i < n; i++) {
		struct bpfobj_dump_opts d = { .o = { .out = stdout }, .histograms = hist,
					      .heatmap = heatmap, .heading = i == 0 ? heading : NULL };
		bpfobj_dump_maps(objs[i], &d);
	}
}

enum {
	OPT_SET = 1000, OPT_SKIP, OPT_EVTYPE, OPT_NOHIST, OPT_HEATMAP, OPT_COREBTF, OPT_XLATED,
};

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, OPT_SET },
		{ "event", required_argument, NULL, 'e' },
		{ "interval", required_argument, NULL, 'I' },
		{ "event-type", required_argument, NULL, OPT_EVTYPE },
		{ "skip-unsupported", no_argument, NULL, OPT_SKIP },
		{ "no-hist", no_argument, NULL, OPT_NOHIST },
		{ "heatmap", no_argument, NULL, OPT_HEATMAP },
		{ "core-btf", required_argument, NULL, OPT_COREBTF },
		{ "dump-xlated", no_argument, NULL, OPT_XLATED },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double duration = 0, interval = 0;
	pid_t pid = -1;
	bool json = false, skip = false, hist = true, heatmap = false, xlated = false;
	const char *event_type = NULL;
	struct bpfobj_open_opts open_opts = { .core_btf = BPFOBJ_CORE_BTF_AUTO };
	char **sets = NULL;
	size_t nr_sets = 0, cap_sets = 0;
	struct bpfobj_perf_event *events = NULL;
	size_t nr_events = 0, cap_events = 0;
	int ret = 1, c;

	optind = 1;
	opterr = 0;
	/* '+': stop at the first non-option so that objects may come first
	 * and options after them; handled by the loop below. */
	int pos_start = 1;
	char **objs_arg = xcalloc((size_t)argc + 1, sizeof(char *));
	int nr_objs = 0;
	char **cmd = NULL;
	for (;;) {
		c = getopt_long(argc, argv, "+d:p:e:I:jh", longopts, NULL);
		if (c == -1) {
			if (optind < argc && strcmp(argv[optind - 1], "--") && strcmp(argv[optind], "--")) {
				objs_arg[nr_objs++] = argv[optind++];
				continue;
			}
			if (optind < argc && !strcmp(argv[optind], "--"))
				optind++;
			if (optind < argc)
				cmd = &argv[optind];
			break;
		}
		switch (c) {
		case 'd':
			if (!parse_seconds("--duration", optarg, &duration))
				goto out;
			if (duration == 0) {
				pr_err("--duration 0: give a positive number of seconds");
				goto out;
			}
			break;
		case 'I':
			if (!parse_seconds("--interval", optarg, &interval))
				goto out;
			if (interval < 0.01) {
				pr_err("--interval %s: the interval must be at least 0.01 s", optarg);
				goto out;
			}
			break;
		case 'p': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v <= 0 || v > 1 << 30) {
				pr_err("-p '%s': expected a process id", optarg);
				goto out;
			}
			if (kill((pid_t)v, 0) < 0 && errno == ESRCH) {
				pr_err("-p %ld: no such process", v);
				goto out;
			}
			pid = (pid_t)v;
			break;
		}
		case 'e':
			ARRAY_GROW(events, cap_events, nr_events + 1);
			if (bpfobj_parse_perf_event(optarg, &events[nr_events])) {
				pr_err("-e '%s': unknown event or bad frequency; use EVENT[:HZ] with EVENT one of "
				       "cpu-clock, task-clock, page-faults, context-switches, cpu-migrations, "
				       "minor-faults, major-faults, cycles, instructions, cache-references, "
				       "cache-misses, branches, branch-misses", optarg);
				goto out;
			}
			nr_events++;
			break;
		case OPT_SET:
			if (!strchr(optarg, '=') || optarg[0] == '=') {
				pr_err("--set '%s': expected NAME=VALUE", optarg);
				goto out;
			}
			ARRAY_GROW(sets, cap_sets, nr_sets + 1);
			sets[nr_sets++] = optarg;
			break;
		case OPT_EVTYPE:
			event_type = optarg;
			break;
		case OPT_SKIP:
			skip = true;
			break;
		case OPT_NOHIST:
			hist = false;
			break;
		case OPT_HEATMAP:
			heatmap = true;
			break;
		case OPT_COREBTF:
			if (!strcmp(optarg, "auto"))
				open_opts.core_btf = BPFOBJ_CORE_BTF_AUTO;
			else if (!strcmp(optarg, "vmlinux"))
				open_opts.core_btf = BPFOBJ_CORE_BTF_VMLINUX;
			else if (!strcmp(optarg, "minimal"))
				open_opts.core_btf = BPFOBJ_CORE_BTF_MINIMAL;
			else {
				pr_err("--core-btf '%s': expected auto, vmlinux or minimal", optarg);
				ret = 2;
				goto out;
			}
			break;
		case OPT_XLATED:
			xlated = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			ret = 0;
			goto out;
		default:
			if (optopt && optopt < 256)
				pr_err("option -%c %s; see 'bpfperf run --help'", optopt,
				       strchr("dpeI", optopt) ? "needs an argument" : "is unknown");
			else
				pr_err("unknown option or missing argument in '%s'; see 'bpfperf run --help'",
				       argv[optind - 1]);
			ret = 2;
			goto out;
		}
	}
	(void)pos_start;
	if (!nr_objs) {
		pr_err("no BPF object given; usage: bpfperf run OBJ.bpf.o [options] [-- CMD]");
		usage(stderr);
		ret = 2;
		goto out;
	}
	if (heatmap && (!interval || json)) {
		pr_err("--heatmap needs --interval SEC and text output (no --json)");
		ret = 2;
		goto out;
	}
	if (pid > 0 && cmd) {
		pr_err("-p and a command are exclusive: trace either an existing process or CMD");
		ret = 2;
		goto out;
	}

	double t0 = now_s();
	struct bpfobj **objs = xcalloc((size_t)nr_objs, sizeof(*objs));
	struct child child = { .pid = 0, .go_fd = -1 };
	int opened = 0;
	for (int i = 0; i < nr_objs; i++) {
		if (bpfobj_open(objs_arg[i], &open_opts, &objs[i]))
			goto cleanup;
		opened++;
	}
	/* Each --set goes to every object that has the variable; at least one must. */
	for (size_t s = 0; s < nr_sets; s++) {
		int applied = 0;
		for (int i = 0; i < nr_objs; i++) {
			int r = bpfobj_set(objs[i], sets[s], nr_objs == 1);
			if (r < 0)
				goto cleanup;
			applied += r;
		}
		if (!applied) {
			pr_err("--set %s: no object has that global variable; declare it as "
			       "'const volatile TYPE NAME = DEFAULT;'", sets[s]);
			goto cleanup;
		}
	}
	int nr_progs = 0;
	for (int i = 0; i < nr_objs; i++) {
		int r = bpfobj_check_support(objs[i], skip);
		if (r < 0)
			goto cleanup;
		nr_progs += r;
	}
	if (!nr_progs) {
		pr_err("no program to run: %s", skip ? "every program was skipped as unsupported"
			: "the object has no BPF programs (put them in SEC(\"tp/CATEGORY/NAME\") functions)");
		goto cleanup;
	}
	if (cmd && start_child(cmd, &child))
		goto cleanup;
	for (int i = 0; i < nr_objs; i++)
		if (bpfobj_load(objs[i]))
			goto cleanup;
	double t_loaded = now_s();
	if (xlated) {
		ret = 0;
		for (int i = 0; i < nr_objs && !ret; i++)
			ret = bpfobj_dump_xlated(objs[i], stdout) ? 1 : 0;
		fflush(stdout);
		goto cleanup;
	}
	int links = 0;
	struct bpfobj_attach_opts ao = {
		.pid = child.pid > 0 ? child.pid : pid, .inherit = child.pid > 0,
		.events = events, .nr_events = (int)nr_events, .skip_unsupported = skip,
	};
	for (int i = 0; i < nr_objs; i++) {
		if (bpfobj_attach(objs[i], &ao))
			goto cleanup;
		links += bpfobj_nr_links(objs[i]);
	}
	struct bpfobj_output so = { .out = stdout, .event_type = event_type };
	so.json = json;
	int nstreams = 0;
	for (int i = 0; i < nr_objs; i++) {
		int r = bpfobj_streams_open(objs[i], &so);
		if (r < 0)
			goto cleanup;
		nstreams += r;
	}
	double t_attached = now_s();
	pr_info("attached %d program link%s from %d object%s in %.1f ms (load %.1f ms)%s", links,
		links == 1 ? "" : "s", nr_objs, nr_objs == 1 ? "" : "s", (t_attached - t0) * 1e3,
		(t_loaded - t0) * 1e3, cmd ? "" : "; Ctrl-C to stop");

	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct sigaction sc = { .sa_handler = on_child, .sa_flags = SA_NOCLDSTOP };
	sigaction(SIGCHLD, &sc, NULL);
	if (child.pid > 0) {
		/* Let the command run: it sees EOF on the pipe and execs. */
		close(child.go_fd);
		child.go_fd = -1;
	}

	double start = now_s(), next_dump = start + interval;
	int child_status = -1;
	while (!stop_signal) {
		double now = now_s();
		if (duration && now - start >= duration)
			break;
		if (child.pid > 0) {
			int st;
			pid_t w = waitpid(child.pid, &st, WNOHANG);
			if (w == child.pid) {
				child_status = st;
				child.pid = 0;
				break;
			}
		}
		if (interval && now >= next_dump) {
			if (heatmap || json) {
				dump_all(objs, nr_objs, json, hist, heatmap, NULL);
			} else {
				time_t tt = time(NULL);
				struct tm tm;
				char head[64];
				localtime_r(&tt, &tm);
				strftime(head, sizeof(head), "=== %H:%M:%S ===", &tm);
				dump_all(objs, nr_objs, json, hist, false, head);
			}
			next_dump += interval;
			if (next_dump < now)
				next_dump = now + interval;
		}
		double wait = 0.1;
		if (duration && start + duration - now < wait)
			wait = start + duration - now;
		if (interval && next_dump - now < wait)
			wait = next_dump - now;
		if (wait < 0)
			wait = 0;
		int timeout_ms = (int)(wait * 1000 + 0.5);
		for (int i = 0; i < nr_objs; i++) {
			int r = bpfobj_streams_poll(objs[i], nr_objs == 1 ? timeout_ms : timeout_ms / nr_objs);
			if (r < 0) {
				pr_err("reading events: %s", log_strerr(r));
				goto cleanup;
			}
		}
	}
	if (stop_signal && child.pid > 0) {
		/* Ctrl-C reached the command too; collect it. */
		int st;
		if (waitpid(child.pid, &st, 0) == child.pid)
			child_status = st;
		child.pid = 0;
	}
	uint64_t records = 0, lost = 0;
	for (int i = 0; i < nr_objs; i++) {
		uint64_t r, l;
		bpfobj_streams_stats(objs[i], &r, &l);
		records += r;
		lost += l;
	}
	fflush(stdout);
	if (json)
		dump_all(objs, nr_objs, true, hist, false, NULL);
	else
		dump_all(objs, nr_objs, false, hist, false,
			 interval ? "=== final ===" : (nstreams && records ? "" : NULL));
	if (nstreams)
		fprintf(stderr, "bpfperf run: %" PRIu64 " records streamed, %" PRIu64 " lost\n", records, lost);
	pr_info("finished %.1f ms after start", (now_s() - t0) * 1e3);
	/* BPFPERF_SYNC_DETACH=1: detach in this process (to measure the difference) */
	const char *sync_detach = getenv("BPFPERF_SYNC_DETACH");
	if (links > 0 && !(sync_detach && !strcmp(sync_detach, "1")))
		detach_in_background();

	ret = 0;
	if (child_status >= 0) {
		if (WIFEXITED(child_status))
			ret = WEXITSTATUS(child_status);
		else if (WIFSIGNALED(child_status))
			ret = 128 + WTERMSIG(child_status);
	}
cleanup:
	abort_child(&child);
	for (int i = 0; i < opened; i++)
		bpfobj_close(objs[i]);
	free(objs);
out:
	free(objs_arg);
	free(sets);
	free(events);
	return ret;
}
