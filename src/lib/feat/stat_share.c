// SPDX-License-Identifier: GPL-2.0-only
/* Shared perf events of concurrent stat --bpf-counters runs: see stat_share.h. */
#include "feat/stat_share.h"

#include "log.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define PIN_DIR "/sys/fs/bpf/bpfperf"
#define LOCK_DIR "/run/bpfperf"

struct stat_share {
	int reg_fd;		/* stat.lock: held exclusively while joining or leaving */
	int users_fd;		/* stat-<key>.users: held shared while counting */
	char *pin, *users;
};

static int lock_file(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	return fd < 0 ? -errno : fd;
}

/* Nobody else holds key's users file: the pin (if any) is left over. */
static bool users_gone(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return true;
	bool gone = flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	return gone;
}

static int make_dir(const char *path)
{
	if (mkdir(path, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

int stat_share_open(const char *key, int n, struct stat_share **out, bool *joined, bool *supported)
{
	struct statfs fs;
	int err;
	*out = NULL;
	*joined = false;
	if (statfs("/sys/fs/bpf", &fs) || fs.f_type != BPF_FS_MAGIC) {
		pr_info("BPF counters not shared with concurrent runs: no BPF file system at /sys/fs/bpf "
			"(mount -t bpf bpf /sys/fs/bpf to share them)");
		return -ENOENT;
	}
	if ((err = make_dir(PIN_DIR)) < 0 || (err = make_dir(LOCK_DIR)) < 0) {
		pr_debug("BPF counters not shared: cannot create %s or %s: %s", PIN_DIR, LOCK_DIR, log_strerr(err));
		return err;
	}
	struct stat_share *sh = xcalloc(1, sizeof(*sh));
	sh->users_fd = -1;
	sh->pin = xasprintf("%s/stat-%s", PIN_DIR, key);
	sh->users = xasprintf("%s/stat-%s.users", LOCK_DIR, key);
	sh->reg_fd = lock_file(LOCK_DIR "/stat.lock");
	if (sh->reg_fd < 0 || flock(sh->reg_fd, LOCK_EX)) {
		err = sh->reg_fd < 0 ? sh->reg_fd : -errno;
		pr_debug("BPF counters not shared: cannot lock %s/stat.lock: %s", LOCK_DIR, log_strerr(err));
		goto fail;
	}
	if (!access(sh->pin, F_OK)) {
		if (users_gone(sh->users)) {
			pr_debug("BPF counters: %s left by a run that is gone, removed", sh->pin);
			unlink(sh->pin);
		} else {
			char *flags = read_file(sh->users, NULL);
			*joined = flags && (int)strlen(flags) == n;
			for (int i = 0; *joined && i < n; i++)
				supported[i] = flags[i] == '1';
			free(flags);
			if (!*joined) {	/* being created (cannot be: the lock) or damaged */
				pr_debug("BPF counters not shared: %s has no valid event list", sh->users);
				err = -EINVAL;
				goto fail;
			}
		}
	}
	sh->users_fd = lock_file(sh->users);
	if (sh->users_fd < 0 || flock(sh->users_fd, LOCK_SH)) {
		err = sh->users_fd < 0 ? sh->users_fd : -errno;
		pr_debug("BPF counters not shared: cannot lock %s: %s", sh->users, log_strerr(err));
		goto fail;
	}
	pr_debug("BPF counters: %s %s", *joined ? "sharing the perf events pinned at" : "pinning the perf events at",
		 sh->pin);
	*out = sh;
	return 0;
fail:
	stat_share_close(sh);
	return err;
}

const char *stat_share_pin(const struct stat_share *sh)
{
	return sh->pin;
}

void stat_share_ready(struct stat_share *sh, const bool *supported, int n)
{
	if (!sh)
		return;
	if (supported) {	/* the first run: which events the others count */
		char *flags = xmalloc((size_t)n + 1);
		for (int i = 0; i < n; i++)
			flags[i] = supported[i] ? '1' : '0';
		flags[n] = 0;
		if (ftruncate(sh->users_fd, 0) || pwrite(sh->users_fd, flags, (size_t)n, 0) != n)
			pr_debug("BPF counters: cannot record the events in %s: %s", sh->users, strerror(errno));
		free(flags);
	}
	flock(sh->reg_fd, LOCK_UN);
}

void stat_share_close(struct stat_share *sh)
{
	if (!sh)
		return;
	if (sh->reg_fd >= 0 && !flock(sh->reg_fd, LOCK_EX) && sh->users_fd >= 0) {
		flock(sh->users_fd, LOCK_UN);
		if (!flock(sh->users_fd, LOCK_EX | LOCK_NB)) {	/* the last run */
			if (!unlink(sh->pin))
				pr_debug("BPF counters: the last run, %s removed", sh->pin);
			unlink(sh->users);
		}
	}
	if (sh->users_fd >= 0)
		close(sh->users_fd);
	if (sh->reg_fd >= 0)
		close(sh->reg_fd);	/* lets go of the registry lock */
	free(sh->pin);
	free(sh->users);
	free(sh);
}
