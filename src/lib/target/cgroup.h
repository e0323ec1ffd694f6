/* SPDX-License-Identifier: GPL-2.0-only */
/* cgroup v2 paths and ids, for every feature that takes or shows cgroups
 * (-G, --for-each-cgroup, the cgroup filter term, lock contention by
 * cgroup). A cgroup v2 id is the inode number of its directory (kernfs),
 * what bpf_get_current_cgroup_id() returns. Paths are relative to the
 * cgroup2 mount ("system.slice/ssh.service"; "/" the root). */
#ifndef BPFPERF_TARGET_CGROUP_H
#define BPFPERF_TARGET_CGROUP_H

#include <stddef.h>
#include <stdint.h>

/* Where cgroup v2 is mounted (/sys/fs/cgroup, or /sys/fs/cgroup/unified in
 * the hybrid layout), read once from /proc/self/mounts; NULL if nowhere. */
const char *cgroup2_mount(void);
/* The file system path of the cgroup at path (under the mount) in buf, for
 * messages and opening; -ENOENT if cgroup v2 is not mounted, else 0. */
int cgroup_full_path(const char *path, char *buf, size_t len);
/* The id of the cgroup at path. 0, -ENOENT (no cgroup2 mount or no such
 * cgroup), -ENOTDIR, or -errno; nothing is printed. */
int cgroup_id_of_path(const char *path, uint64_t *id);
/* The cgroup at path opened as a directory (what PERF_FLAG_PID_CGROUP and
 * BPF cgroup arrays take): the fd, or -errno (nothing is printed). */
int cgroup_open(const char *path);
/* Why perf_event_open() with PERF_FLAG_PID_CGROUP failed with ENOENT (the
 * cgroup has no perf_event controller), and what it needs: for the
 * messages of record -G and stat -G. */
#define CGROUP_PERF_ENOENT_WHY "the kernel has no perf_event controller for it (No such file or directory); " \
	"it needs CONFIG_CGROUP_PERF and the controller on the cgroup v2 hierarchy (see /proc/cgroups)"
/* The path of the cgroup with this id, found by walking the hierarchy
 * (bounded depth). 0, or -ENOENT when no cgroup has it (gone, or not v2). */
int cgroup_path_of_id(uint64_t id, char *buf, size_t len);

#endif
