// SPDX-License-Identifier: GPL-2.0-only
/* cgroup v2 paths and ids: see cgroup.h. */
#include "target/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CGROUP_MAX_DEPTH 32

static char mount_dir[4096];
static pthread_once_t mount_once = PTHREAD_ONCE_INIT;

static void find_mount(void)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char line[8192], dir[4096], type[64];
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %63s", dir, type) == 2 && !strcmp(type, "cgroup2")) {
			snprintf(mount_dir, sizeof(mount_dir), "%s", dir);
			break;
		}
	}
	if (f)
		fclose(f);
}

const char *cgroup2_mount(void)
{
	pthread_once(&mount_once, find_mount);
	return mount_dir[0] ? mount_dir : NULL;
}

int cgroup_full_path(const char *path, char *buf, size_t len)
{
	const char *mnt = cgroup2_mount();
	if (!mnt)
		return -ENOENT;
	snprintf(buf, len, "%s/%s", mnt, path + strspn(path, "/"));
	return 0;
}

int cgroup_id_of_path(const char *path, uint64_t *id)
{
	char full[8200];
	struct stat st;
	if (cgroup_full_path(path, full, sizeof(full)) < 0)
		return -ENOENT;
	if (stat(full, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	*id = st.st_ino;
	return 0;
}

int cgroup_open(const char *path)
{
	char full[8200];
	if (cgroup_full_path(path, full, sizeof(full)) < 0)
		return -ENOENT;
	int fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Depth-first under fd (at rel, relative to the mount). */
static int walk(int fd, char *rel, size_t len, size_t cap, uint64_t id, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int found = -ENOENT;
	if (!d) {
		close(fd);
		return -ENOENT;
	}
	while (found && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		size_t n = strlen(de->d_name);
		if (len + 1 + n + 1 > cap)
			continue;
		char *end = rel + len;
		if (len)
			*end++ = '/';
		memcpy(end, de->d_name, n + 1);
		size_t nlen = (size_t)(end - rel) + n;
		if (de->d_ino == id) {
			found = 0;
			break;
		}
		if (depth < CGROUP_MAX_DEPTH) {
			int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (sub >= 0)
				found = walk(sub, rel, nlen, cap, id, depth + 1);
		}
		if (found)
			rel[len] = '\0';
	}
	closedir(d);
	return found;
}

int cgroup_path_of_id(uint64_t id, char *buf, size_t len)
{
	const char *mnt = cgroup2_mount();
	struct stat st;
	if (!mnt || len < 2)
		return -ENOENT;
	if (stat(mnt, &st) == 0 && st.st_ino == id) {
		snprintf(buf, len, "/");
		return 0;
	}
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	buf[0] = '/';
	buf[1] = '\0';
	return walk(fd, buf + 1, 0, len - 1, id, 0);
}
