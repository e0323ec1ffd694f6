// SPDX-License-Identifier: GPL-2.0-only
/* User space of src/bpf/include/target_filter.h: its maps filled from a
 * target before attach (see skel.h). */
#include "skel/skel.h"
#include "target/target.h"
#include "log.h"

#include "target_filter.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <unistd.h>

static int put(int fd, pid_t id, uint8_t val, const char *what)
{
	uint32_t k = (uint32_t)id;
	if (bpf_map_update_elem(fd, &k, &val, BPF_ANY)) {
		int err = -errno;
		pr_err("cannot add %s %d to the BPF targets map: %s", what, (int)id, log_strerr(err));
		return err;
	}
	return 0;
}

int target_maps_fill(const struct target_maps *m, const pid_t *pids, size_t nr_pids,
		     const pid_t *tids, size_t nr_tids, pid_t workload)
{
	int err = 0;
	if (workload > 0)
		err = put(m->tgids, workload, TARGET_ARMED, "the command's process");
	for (size_t i = 0; !err && i < nr_pids; i++)
		err = put(m->tgids, pids[i], TARGET_ON, "process");
	for (size_t i = 0; !err && i < nr_tids; i++)
		err = put(m->tids, tids[i], 1, "thread");
	return err;
}

void target_cfg_set(struct target_cfg *cfg, bool system_wide, bool tgids, bool tids, bool cgroup)
{
	cfg->self_tgid = (uint32_t)getpid();
	cfg->all = system_wide;
	cfg->by_tgid = !system_wide && tgids;
	cfg->by_tid = !system_wide && tids;
	cfg->by_cgroup = cgroup;
}

void target_maps_exclude_ancestors(const struct target_maps *m)
{
	int n = 0;
	for (pid_t p = getppid(); p > 1 && n < TARGET_MAX_EXCLUDED - 1; p = proc_parent(p), n++) {
		uint32_t k = (uint32_t)p;
		uint8_t one = 1;
		bpf_map_update_elem(m->excluded, &k, &one, BPF_ANY);
		pr_debug("system wide: not observing ancestor pid %d", (int)p);
	}
}
