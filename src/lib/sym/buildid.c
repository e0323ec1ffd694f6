// SPDX-License-Identifier: GPL-2.0-only
/* Build-ids and perf's build-id cache: see buildid.h. */
#include "sym/buildid.h"
#include "sym_int.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *buildid_dir(const char *given)
{
	if (given && *given)
		return xstrdup(given);
	const char *env = getenv("PERF_BUILDID_DIR");
	if (env && *env)
		return xstrdup(env);
	const char *home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	return xasprintf("%s/.debug", home);
}

size_t buildid_of_file(const char *path, uint8_t *id, size_t cap)
{
	return elf_path_build_id(path, id, cap);
}

/* ELF notes back to back, each name and descriptor padded to 4 bytes. */
size_t buildid_of_notes(const char *path, uint8_t *id, size_t cap)
{
	size_t len;
	char *buf = read_file(path, &len);
	size_t found = 0;
	if (!buf)
		return 0;
	for (size_t off = 0; off + 12 <= len;) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t name_off = off + 12;
		size_t desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);
		size_t next = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
		if (namesz > len || descsz > len || next > len || next <= off)
			break;
		if (type == 3 && namesz == 4 && memcmp(buf + name_off, "GNU", 4) == 0 &&
		    descsz && descsz <= cap) {
			memcpy(id, buf + desc_off, descsz);
			found = descsz;
			break;
		}
		off = next;
	}
	free(buf);
	return found;
}

void buildid_hex(const uint8_t *id, size_t len, char *out)
{
	sym_hex_id(id, len, out);
}

struct buildid_cache {
	char *dir;
	uint64_t max_file, max_total;
	bool off;		/* the directory cannot be written: warned once */
	struct buildid_cache_stats st;
};

struct buildid_cache *buildid_cache_open(const char *dir, const struct buildid_cache_limits *lim)
{
	if (!dir) {
		pr_warn("no build-id cache directory (HOME is not set): files deleted or rebuilt "
			"after this recording will have no symbols; set PERF_BUILDID_DIR");
		return NULL;
	}
	struct buildid_cache *c = xcalloc(1, sizeof(*c));
	c->dir = xstrdup(dir);
	c->max_file = lim && lim->max_file ? lim->max_file : BUILDID_CACHE_MAX_FILE;
	c->max_total = lim && lim->max_total ? lim->max_total : BUILDID_CACHE_MAX_TOTAL;
	return c;
}

/* mkdir -p; -errno of the first failure. */
static int mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int err = 0;
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			err = -errno;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return err;
}

static void cache_off(struct buildid_cache *c, const char *what, int err)
{
	c->off = true;
	pr_warn("cannot write the build-id cache %s: %s: %s; files deleted or rebuilt after this "
		"recording will have no symbols: point PERF_BUILDID_DIR at a writable directory",
		c->dir, what, log_strerr(err));
}

/* Copy fd to dst through a temporary file renamed into place; *copied bytes. */
static int copy_to(int fd, const char *dst, uint64_t *copied)
{
	char *tmp = xasprintf("%s.tmp.%d", dst, (int)getpid());
	int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int err = 0;
	if (out < 0) {
		err = -errno;
		free(tmp);
		return err;
	}
	char buf[65536];
	uint64_t done = 0;
	while (!err) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		if (n <= 0)
			break;
		for (ssize_t w = 0; w < n && !err;) {
			ssize_t k = write(out, buf + w, (size_t)(n - w));
			if (k < 0 && errno != EINTR)
				err = -errno;
			else if (k > 0)
				w += k;
		}
		done += (uint64_t)n;
	}
	*copied = done;
	if (close(out) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, dst) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

int buildid_cache_add(struct buildid_cache *c, const char *name, const char *src,
		      const char *leaf, const uint8_t *id, size_t len, bool replace)
{
	if (!c || c->off || !len || len > BUILDID_MAX) {
		if (c)
			c->st.skipped++;
		return 1;
	}
	char hex[2 * BUILDID_MAX + 1];
	buildid_hex(id, len, hex);
	const char *rel = name[0] == '/' ? name + 1 : name;
	char *edir = xasprintf("%s/%s/%s", c->dir, rel, hex);
	char *file = xasprintf("%s/%s", edir, leaf);
	char *ldir = xasprintf("%s/.build-id/%.2s", c->dir, hex);
	char *link = xasprintf("%s/%s", ldir, hex + 2);
	char *target = xasprintf("../../%s/%s", rel, hex);
	int ret = 0, fd = -1, err;
	struct stat st;
	if (!replace && stat(file, &st) == 0) {
		c->st.present++;
		goto link;
	}
	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		ret = fd < 0 ? -errno : -EINVAL;
		c->st.skipped++;
		pr_debug("build-id cache: cannot read %s: %s", src, log_strerr(ret));
		goto out;
	}
	/* /proc files have size 0: count what a copy of kallsyms usually takes. */
	uint64_t size = st.st_size ? (uint64_t)st.st_size : (16ull << 20);
	if (size > c->max_file || c->st.bytes + size > c->max_total) {
		c->st.skipped++;
		pr_debug("build-id cache: %s not saved (%llu bytes; limits: %llu per file, %llu per "
			 "recording, %llu used)", src, (unsigned long long)size,
			 (unsigned long long)c->max_file, (unsigned long long)c->max_total,
			 (unsigned long long)c->st.bytes);
		ret = 1;
		goto out;
	}
	if ((err = mkdir_p(edir))) {
		cache_off(c, edir, err);
		ret = 1;
		goto out;
	}
	uint64_t copied = 0;
	if ((err = copy_to(fd, file, &copied))) {
		if (err == -EROFS || err == -EACCES || err == -EPERM || err == -ENOSPC || err == -EDQUOT)
			cache_off(c, file, err);
		else
			pr_debug("build-id cache: cannot copy %s to %s: %s", src, file, log_strerr(err));
		c->st.skipped++;
		ret = 1;
		goto out;
	}
	c->st.added++;
	c->st.bytes += copied;
link:
	if ((err = mkdir_p(ldir)) || (symlink(target, link) < 0 && errno != EEXIST)) {
		err = err ? err : -errno;
		pr_debug("build-id cache: cannot link %s: %s", link, log_strerr(err));
	}
out:
	if (fd >= 0)
		close(fd);
	free(edir);
	free(file);
	free(ldir);
	free(link);
	free(target);
	return ret;
}

bool buildid_cache_kallsyms_current(const char *dir)
{
	char path[4096];
	return dir && kallsyms_find_copy(&(struct ksources){ .buildid_dir = dir }, path, sizeof(path));
}

char *buildid_cache_lookup(const char *dir, const uint8_t *id, size_t len, const char *leaf)
{
	if (!dir || !len || len > BUILDID_MAX)
		return NULL;
	char hex[2 * BUILDID_MAX + 1];
	buildid_hex(id, len, hex);
	char *p = xasprintf("%s/.build-id/%.2s/%s/%s", dir, hex, hex + 2, leaf);
	if (access(p, R_OK) == 0)
		return p;
	free(p);
	return NULL;
}

void buildid_cache_close(struct buildid_cache *c, struct buildid_cache_stats *stats)
{
	if (!c)
		return;
	if (stats)
		*stats = c->st;
	free(c->dir);
	free(c);
}
