// SPDX-License-Identifier: GPL-2.0-only
#include "event/event.h"
#include "log.h"
#include "skel/skel.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

struct named_event {
	const char *name;
	uint32_t type;
	uint64_t config;
};

static const struct named_event named_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
};

static int parse_tracepoint(const char *sys, const char *ev, struct perf_event_attr *attr,
			    char *err, size_t errlen)
{
	const char *tfs = tracefs_dir();
	if (!tfs) {
		snprintf(err, errlen, "tracepoint %s:%s: tracefs is not mounted and cannot be mounted "
			 "(mount -t tracefs nodev /sys/kernel/tracing as root)", sys, ev);
		return -ENOENT;
	}
	char path[512];
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tfs, sys, ev);
	char *s = read_file(path, NULL);
	if (!s) {
		snprintf(err, errlen, "unknown tracepoint '%s:%s' (no %s); list them with "
			 "'ls %s/events/%s'", sys, ev, path, tfs, sys);
		return -ENOENT;
	}
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = strtoull(s, NULL, 10);
	free(s);
	return 0;
}

static const struct named_event *named_event_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(named_events); i++)
		if (!strcmp(name, named_events[i].name))
			return &named_events[i];
	return NULL;
}

/* Modifiers after the last ':' if they are only u/k/h/p letters, except for
 * tracepoints "sys:event" (two parts): cut off buf and returned, or NULL. */
static char *cut_modifiers(char *buf)
{
	char *colon = strrchr(buf, ':');
	if (colon && colon[1] && strspn(colon + 1, "ukhpPG") == strlen(colon + 1) &&
	    (strchr(buf, ':') != colon || !strchr(buf, '/'))) {
		/* "sys:ev" with ev made of modifier letters is unlikely; treat a
		 * single colon as a modifier only if the left part is a known event. */
		*colon = '\0';
		if (named_event_find(buf) || strchr(buf, ':') || buf[0] == 'r')
			return colon + 1;
		*colon = ':';
	}
	return NULL;
}

/* The message for an unknown event, with the perf names like it. */
static void unknown_event(const char *name, const char *spec, char *err, size_t errlen)
{
	struct strbuf similar = { 0 };
	size_t len = strlen(name);
	/* the distance is at least the difference in length: only
	 * names of about the same length are measured */
	for (size_t i = 0; i < ARRAY_SIZE(named_events); i++) {
		size_t known_len = strlen(named_events[i].name);
		if (((len > known_len ? len - known_len : known_len - len) <= 3 &&
		     edit_distance(name, named_events[i].name) <= 3) ||
		    strstr(named_events[i].name, name))
			sb_printf(&similar, "%s%s", similar.len ? ", " : "", named_events[i].name);
	}
	snprintf(err, errlen, "unknown event '%s'%s%s%s; events are perf's names (cpu-clock, "
		 "cycles, page-faults, ...) or tracepoints as SYSTEM:NAME", spec,
		 similar.len ? " (did you mean: " : "", similar.len ? similar.buf : "",
		 similar.len ? ")" : "");
	sb_free(&similar);
}

/* attr's type and config for an event name without modifiers: one of perf's
 * names, a raw code rNNN or a tracepoint SYSTEM:NAME; else a message in err. */
static int resolve_event(char *name, const char *spec, struct perf_event_attr *attr, char *err,
			 size_t errlen)
{
	const struct named_event *known = named_event_find(name);
	if (known) {
		attr->type = known->type;
		attr->config = known->config;
		return 0;
	}
	if (name[0] == 'r' && name[1] &&
	    strspn(name + 1, "0123456789abcdefABCDEF") == strlen(name + 1)) {
		attr->type = PERF_TYPE_RAW;
		attr->config = strtoull(name + 1, NULL, 16);
		return 0;
	}
	char *sep = strchr(name, ':');
	if (sep) {
		*sep = '\0';
		int r = parse_tracepoint(name, sep + 1, attr, err, errlen);
		*sep = ':';
		return r < 0 ? r : 0;
	}
	unknown_event(name, spec, err, errlen);
	return -ENOENT;
}

/* u, k, h: the modes counted (all when none is given); p: precise_ip, up to 3. */
static void apply_modifiers(struct perf_event_attr *attr, const char *mods)
{
	bool u = strchr(mods, 'u'), k = strchr(mods, 'k'), h = strchr(mods, 'h');
	if (u || k || h) {
		attr->exclude_user = !u;
		attr->exclude_kernel = !k;
		attr->exclude_hv = !h;
	}
	attr->precise_ip = 0;
	for (const char *p = mods; *p; p++)
		if (*p == 'p' && attr->precise_ip < 3)
			attr->precise_ip++;
}

int event_parse(const char *spec, struct perf_event_attr *attr, char **name, char *err, size_t errlen)
{
	char buf[256];
	if (!spec || !*spec || strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "empty or too long event name");
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);

	char *mods = cut_modifiers(buf);
	int r = resolve_event(buf, spec, attr, err, errlen);
	if (r < 0)
		return r;
	if (mods)
		apply_modifiers(attr, mods);
	*name = xstrdup(spec);
	return 0;
}

static int list_push(struct event_list *l, const char *spec, size_t len, const char *mod, int leader,
		     size_t max, char *err, size_t errlen)
{
	if (len == 0) {
		snprintf(err, errlen, "empty event name in the event list");
		return -EINVAL;
	}
	if (l->n >= max) {
		snprintf(err, errlen, "too many events (at most %zu)", max);
		return -E2BIG;
	}
	ARRAY_GROW(l->spec, l->cap, l->n + 1);
	l->leader = xrealloc(l->leader, l->cap * sizeof(*l->leader));
	struct strbuf b = { 0 };
	sb_append_len(&b, spec, len);
	if (mod && *mod) {
		/* a member with modifiers of its own gets the group's appended */
		const char *colon = memrchr(spec, ':', len);
		bool own = colon && colon + 1 < spec + len &&
			   strspn(colon + 1, "ukhpPG") == (size_t)(spec + len - colon - 1);
		sb_printf(&b, "%s%s", own ? "" : ":", mod);
	}
	l->spec[l->n] = b.buf ? b.buf : xstrdup("");
	l->leader[l->n] = leader;
	l->n++;
	return 0;
}

/* Over 50 lines: one pass over the value, the group state in a few locals. */
int event_list_add(struct event_list *l, const char *value, size_t max, char *err, size_t errlen)
{
	const char *p = value;
	while (*p) {
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p != '{') {
			size_t len = strcspn(p, ",{}");
			if (p[len] == '{' || p[len] == '}') {
				snprintf(err, errlen, "unbalanced '%c' in event list '%s'", p[len], value);
				return -EINVAL;
			}
			int e = list_push(l, p, len, NULL, -1, max, err, errlen);
			if (e)
				return e;
			p += len;
			continue;
		}
		const char *close = strchr(p, '}');
		const char *nested = strchr(p + 1, '{');
		if (!close || (nested && nested < close)) {
			snprintf(err, errlen, "%s group in event list '%s': use {ev1,ev2}[:mods]",
				 close ? "nested" : "unterminated", value);
			return -EINVAL;
		}
		char mod[16] = "";
		const char *after = close + 1;
		if (*after == ':') {
			size_t ml = strcspn(after + 1, ",");
			if (ml == 0 || ml >= sizeof(mod) || strspn(after + 1, "ukhpPG") < ml) {
				snprintf(err, errlen, "bad group modifier '%.*s' in '%s' (use u, k, h, p, P, G)",
					 (int)ml, after + 1, value);
				return -EINVAL;
			}
			memcpy(mod, after + 1, ml);
			after += 1 + ml;
		}
		if (*after && *after != ',') {
			snprintf(err, errlen, "unexpected '%c' after a group in event list '%s'", *after, value);
			return -EINVAL;
		}
		int leader = (int)l->n;
		size_t members = 0;
		for (const char *q = p + 1; q < close;) {
			size_t len = strcspn(q, ",}");
			if (len) {
				int e = list_push(l, q, len, mod, leader, max, err, errlen);
				if (e)
					return e;
				members++;
			}
			q += len + (q[len] == ',');
		}
		if (members == 0) {
			snprintf(err, errlen, "empty group in event list '%s'", value);
			return -EINVAL;
		}
		if (members == 1)
			l->leader[leader] = -1;	/* a group of one is a plain event, as in perf */
		else
			l->ngroups++;
		p = after;
	}
	return 0;
}

void event_list_free(struct event_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->spec[i]);
	free(l->spec);
	free(l->leader);
	memset(l, 0, sizeof(*l));
}

bool event_hw_available(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int perf_ring_map(struct perf_ring *r, int fd, size_t data_pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	r->fd = fd;
	r->data_size = data_pages * page;
	r->mmap_len = r->data_size + page;
	r->base = mmap(NULL, r->mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -errno;
	}
	r->data = (uint8_t *)r->base + page;
	return 0;
}

void perf_ring_unmap(struct perf_ring *r)
{
	if (r->base)
		munmap(r->base, r->mmap_len);
	r->base = NULL;
}

size_t perf_ring_peek(struct perf_ring *r, struct iovec iov[2])
{
	struct perf_event_mmap_page *pc = r->base;
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pc->data_tail;
	if (head == tail)
		return 0;
	size_t len = (size_t)(head - tail);
	size_t start = (size_t)(tail & (r->data_size - 1));
	if (start + len <= r->data_size) {
		iov[0].iov_base = r->data + start;
		iov[0].iov_len = len;
		iov[1].iov_base = NULL;
		iov[1].iov_len = 0;
	} else {
		iov[0].iov_base = r->data + start;
		iov[0].iov_len = r->data_size - start;
		iov[1].iov_base = r->data;
		iov[1].iov_len = len - iov[0].iov_len;
	}
	return len;
}

void perf_ring_consume(struct perf_ring *r, size_t bytes)
{
	struct perf_event_mmap_page *pc = r->base;
	__atomic_store_n(&pc->data_tail, pc->data_tail + bytes, __ATOMIC_RELEASE);
}

/* The kernel stamps a COMM record (sample_id_all, TIME) with perf's clock
 * when we rename ourselves: read CLOCK_MONOTONIC around the rename. */
int perf_clock_offset(int64_t *offset)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(a),
		.sample_type = PERF_SAMPLE_TIME,
		.sample_id_all = 1,
		.comm = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	struct perf_ring ring = { 0 };
	char name[17] = { 0 };
	struct timespec t0, t1;
	int err = 0;
	int fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if ((err = perf_ring_map(&ring, fd, 1))) {
		close(fd);
		return err;
	}
	prctl(PR_GET_NAME, name);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	prctl(PR_SET_NAME, name);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	struct iovec iov[2];
	size_t n = perf_ring_peek(&ring, iov), used = 0;
	err = -ENODATA;
	while (n && iov[0].iov_len - used >= sizeof(struct perf_event_header)) {
		const struct perf_event_header *h = (const void *)((const char *)iov[0].iov_base + used);
		if (h->size < sizeof(*h) + 8 || h->size > iov[0].iov_len - used)
			break;
		if (h->type == PERF_RECORD_COMM) {
			uint64_t t;
			memcpy(&t, (const char *)h + h->size - 8, 8);	/* the trailer: TIME */
			int64_t mid = ((int64_t)t0.tv_sec * 1000000000 + t0.tv_nsec +
				       (int64_t)t1.tv_sec * 1000000000 + t1.tv_nsec) / 2;
			*offset = (int64_t)t - mid;
			err = 0;
			break;
		}
		used += h->size;
	}
	perf_ring_unmap(&ring);
	close(fd);
	return err;
}
