# Helpers of the stat tests (sourced after lib.sh): the deterministic
# workloads, perf 6.1 as the oracle, the shared output parser.
need_cmd cc gcc
need_cmd python3
need_cmd perf linux-perf
PARSE="$SRC/tests/integration/stat_parse.py"
PERF() { perf --buildid-dir "$TMP/buildid" "$@"; }

# $TMP/work pages N | sleeps N | spin N: touch N fresh pages, sleep 1 ms N
# times (then print its own context switches in that loop, voluntary and not), or N
# million loop iterations (then print the loop's CPU time in ms).
cat >"$TMP/work.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;
	if (!strcmp(argv[1], "pages")) {
		char *p = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 1;
		/* one fault per 4 KiB page also where transparent huge pages are
		 * "always" (Debian's kernels): a 2 MiB page would take 512 at once */
		madvise(p, n * 4096, MADV_NOHUGEPAGE);
		for (long i = 0; i < n; i++)
			p[i * 4096] = 1;
	} else if (!strcmp(argv[1], "sleeps")) {
		struct timespec ts = { 0, 1000000 };
		struct rusage r0, ru;
		/* from here on: the switches between fork and exec (which the
		 * tools do not count, as they start at the exec) vary by several
		 * where the CPU is emulated (a 6.12 guest: 107-118 in all) */
		getrusage(RUSAGE_SELF, &r0);
		for (long i = 0; i < n; i++)
			nanosleep(&ts, NULL);
		/* its own context switches in the loop: what context-switches should be near */
		getrusage(RUSAGE_SELF, &ru);
		printf("%ld\n", ru.ru_nvcsw + ru.ru_nivcsw - r0.ru_nvcsw - r0.ru_nivcsw);
	} else {
		volatile unsigned long x = 0;
		struct timespec t0, t;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		for (long i = 0; i < n * 1000000; i++)
			x += i;
		/* the loop's CPU time (ms): what task-clock should be near */
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		printf("%.3f\n", (t.tv_sec - t0.tv_sec) * 1e3 + (t.tv_nsec - t0.tv_nsec) / 1e6);
	}
	return 0;
}
C
cc -O1 -o "$TMP/work" "$TMP/work.c" || fail "cannot compile the workload"

# value KIND FILE EVENT: the event's count in a -x, (csv) or -j (json) output
value() { python3 "$PARSE" "$1" "$2" "$3" || fail "cannot parse $2 ($1): $(head -3 "$2")"; }

# within A B PCT: |A - B| <= PCT% of B
within() { python3 -c "import sys; a,b,p=map(float,sys.argv[1:]); sys.exit(0 if abs(a-b) <= p/100*b else 1)" "$@"; }

# ab_cgroups: cgroups A and B/child under the cgroup v2 mount $CG (removed at
# exit, with $TMP; skip where they cannot be made) and the 1:3 workloads
# $W_PAGES and $W_SPIN ($TMP/work, built by the caller), each moving itself
# into its cgroup before exec (bpfperf's command starts both once counting
# has begun): A does a third of B's work.
ab_cgroups() {
  CG=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
  [ -n "$CG" ] || skip "cgroup v2 is not mounted"
  A=bpfperf-test-$$-a B=bpfperf-test-$$-b
  mkdir "$CG/$A" "$CG/$B" "$CG/$B/child" || skip "cannot create cgroups under $CG"
  trap 'rmdir "$CG/$B/child" "$CG/$A" "$CG/$B" 2>/dev/null; rm -rf "$TMP"' EXIT
  W_PAGES="sh -c 'echo \$\$ > $CG/$A/cgroup.procs; exec $TMP/work pages 20000' &
   sh -c 'echo \$\$ > $CG/$B/child/cgroup.procs; exec $TMP/work pages 60000' & wait"
  W_SPIN="sh -c 'echo \$\$ > $CG/$A/cgroup.procs; exec $TMP/work spin 300' >$TMP/self_a &
   sh -c 'echo \$\$ > $CG/$B/child/cgroup.procs; exec $TMP/work spin 900' >$TMP/self_b & wait"
}
