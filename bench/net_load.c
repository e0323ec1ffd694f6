// SPDX-License-Identifier: GPL-2.0-only
/* net_load N OUT: N 256-byte sends over loopback TCP (TCP_NODELAY: one
 * segment, one NET_RX softirq each, as a rule) to a child that reads them;
 * writes to OUT the sends per second and the CPU time the whole system was
 * busy (/proc/stat: all but idle and iowait) per send, in microseconds,
 * both over the sends only. For bench/bench_kwork.sh. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The system's busy time so far, in clock ticks (/proc/stat's cpu line). */
static double busy_ticks(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
			 &v[5], &v[6], &v[7]) != 8) {
		if (f)
			fclose(f);
		return 0;
	}
	fclose(f);
	return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]);	/* user nice system irq softirq steal */
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[1]) : 0;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int one = 1, s = socket(AF_INET, SOCK_STREAM, 0);
	char buf[65536] = { 0 };
	struct timespec t0, t1;

	if (n <= 0 || s < 0 || bind(s, (void *)&a, sizeof(a)) || listen(s, 1) || getsockname(s, (void *)&a, &len))
		return 2;
	pid_t pid = fork();
	if (pid == 0) {
		int c = accept(s, NULL, NULL);
		while (c >= 0 && read(c, buf, sizeof(buf)) > 0)
			;
		_exit(0);
	}
	int c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (void *)&a, sizeof(a)))
		return 2;
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	double b0 = busy_ticks();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++)
		if (write(c, buf, 256) != 256)
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double b1 = busy_ticks();
	close(c);
	waitpid(pid, NULL, 0);
	FILE *f = fopen(argv[2], "w");
	if (!f)
		return 1;
	fprintf(f, "%.0f %.3f\n", n / ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9),
		(b1 - b0) * 1e6 / (double)sysconf(_SC_CLK_TCK) / (double)n);
	return fclose(f) ? 1 : 0;
}
