// SPDX-License-Identifier: GPL-2.0-only
/* Layout (version 0.6, as perf's reader expects): magic {23, 8, 68}
 * "tracing", "0.6\0", endianness byte, sizeof(long) byte, u32 page size,
 * "header_page\0" u64 size + text, "header_event\0" u64 size + text,
 * u32 ftrace format count (0), u32 system count and per system its name,
 * u32 event count and per event u64 size + format text, u32 kallsyms size
 * (0), u32 printk formats size (0), u64 saved cmdlines size (0). */
#include "perfdata/tracing_data.h"
#include "log.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put_blob(struct strbuf *b, const char *path, int *err)
{
	size_t len = 0;
	char *s = read_file(path, &len);
	if (!s) {
		*err = -errno;
		len = 0;
	}
	uint64_t n = len;
	sb_append_len(b, (const char *)&n, 8);
	if (s)
		sb_append_len(b, s, len);
	free(s);
}

struct tp_name {
	char sys[256], name[256];
	uint64_t id;
};

/* Find sys/name of a tracepoint id by scanning events/<sys>/<name>/id. */
static int tp_lookup(const char *tracefs, uint64_t id, struct tp_name *out)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/events", tracefs);
	DIR *d = opendir(path);
	struct dirent *s;
	int found = -ENOENT;
	while (d && found && (s = readdir(d))) {
		if (s->d_name[0] == '.' || s->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", tracefs, s->d_name);
		DIR *e = opendir(path);
		struct dirent *ev;
		while (e && found && (ev = readdir(e))) {
			if (ev->d_name[0] == '.' || ev->d_type != DT_DIR)
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, s->d_name, ev->d_name);
			char *v = read_file(path, NULL);
			if (v && strtoull(v, NULL, 10) == id) {
				snprintf(out->sys, sizeof(out->sys), "%s", s->d_name);
				snprintf(out->name, sizeof(out->name), "%s", ev->d_name);
				out->id = id;
				found = 0;
			}
			free(v);
		}
		if (e)
			closedir(e);
	}
	if (d)
		closedir(d);
	return found;
}

int pd_tracing_data_build(struct strbuf *b, const char *tracefs,
			  const struct perf_event_attr *const *attrs, size_t n)
{
	struct tp_name *tps = xcalloc(n, sizeof(*tps));
	size_t ntp = 0;
	int err = 0;
	for (size_t i = 0; i < n; i++) {
		if (attrs[i]->type != PERF_TYPE_TRACEPOINT)
			continue;
		if ((err = tp_lookup(tracefs, attrs[i]->config, &tps[ntp])) < 0) {
			free(tps);
			return err;
		}
		ntp++;
	}
	static const char magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	sb_append_len(b, magic, sizeof(magic));
	sb_append_len(b, "0.6", 4);
	uint8_t big_endian = 0, long_size = sizeof(long);
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE), zero32 = 0;
	uint64_t zero64 = 0;
	sb_append_len(b, (const char *)&big_endian, 1);
	sb_append_len(b, (const char *)&long_size, 1);
	sb_append_len(b, (const char *)&page, 4);

	char path[1024];
	sb_append_len(b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", tracefs);
	put_blob(b, path, &err);
	sb_append_len(b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", tracefs);
	put_blob(b, path, &err);
	sb_append_len(b, (const char *)&zero32, 4);	/* ftrace formats */

	/* Systems, each with its events (in order of first appearance). */
	uint32_t nsys = 0;
	for (size_t i = 0; i < ntp; i++) {
		bool first = true;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(tps[j].sys, tps[i].sys))
				first = false;
		nsys += first;
	}
	sb_append_len(b, (const char *)&nsys, 4);
	for (size_t i = 0; i < ntp; i++) {
		bool first = true;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(tps[j].sys, tps[i].sys))
				first = false;
		if (!first)
			continue;
		sb_append_len(b, tps[i].sys, strlen(tps[i].sys) + 1);
		uint32_t count = 0;
		for (size_t j = i; j < ntp; j++)
			if (!strcmp(tps[j].sys, tps[i].sys))
				count++;
		sb_append_len(b, (const char *)&count, 4);
		for (size_t j = i; j < ntp; j++) {
			if (strcmp(tps[j].sys, tps[i].sys))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracefs, tps[j].sys, tps[j].name);
			put_blob(b, path, &err);
		}
	}
	sb_append_len(b, (const char *)&zero32, 4);	/* kallsyms */
	sb_append_len(b, (const char *)&zero32, 4);	/* printk formats */
	sb_append_len(b, (const char *)&zero64, 8);	/* saved cmdlines */
	free(tps);
	return err;
}
