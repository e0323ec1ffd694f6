// SPDX-License-Identifier: GPL-2.0-only
/* Lock contention's filters in the kernel (see lock_int.h): the lock types a
 * type name selects (perf's -Y), and the lock filter (lock_opts.lock_filter,
 * perf's -L where locks are not aggregated by address): addresses,
 * well-known locks, slab caches and kernel data symbols, checked against
 * what the kernel side can select and filled into its maps. The filters
 * applied to the entries read are in lock_result.c. */
#include <linux/types.h>

#include "feat/lock_int.h"
#include "log.h"
#include "sym/machine.h"
#include "util.h"

#include "lock.skel.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t lock_type_mask(const char *name)
{
	uint64_t mask = 0;
	for (size_t i = 0; i < lock_nr_type_names; i++) {
		if (!strcmp(name, lock_type_names[i].str) || !strcmp(name, lock_type_names[i].cls))
			mask |= 1ull << lock_type_names[i].flags;
	}
	/* perf's aliases of the class names */
	if (!mask && (!strcmp(name, "pcpu-sem") || !strcmp(name, "percpu-rwsem:R") ||
		      !strcmp(name, "percpu-rwsem:W")))
		mask = lock_type_mask(!strcmp(name, "percpu-rwsem:W") ? "pcpu-sem:W"
				      : !strcmp(name, "percpu-rwsem:R") ? "pcpu-sem:R" : "percpu-rwsem");
	return mask;
}

/* The lock filter's names: what each selects in the kernel. */
int lock_filter_parse(struct lock *l, const char *list)
{
	char *dup = xstrdup(list), *save = NULL;
	size_t cap = 0;
	int err = 0;

	for (char *w = strtok_r(dup, ",", &save); w && !err; w = strtok_r(NULL, ",", &save)) {
		uint64_t addr = 0;
		uint32_t k;
		char *end;

		for (k = 1; k < ARRAY_SIZE(lock_known_names) && strcmp(w, lock_known_names[k]); k++)
			;
		if (k < ARRAY_SIZE(lock_known_names)) {
			const char *why;
			if (k == LOCK_KNOWN_ZONE && !lock_zone_lock_usable(l, &why)) {
				pr_err("lock filter 'zone_lock': zone locks cannot be told here: %s; filter by the "
				       "zone lock's address", why);
				err = -EOPNOTSUPP;
			}
			l->filter_known |= 1u << k;
			continue;
		}
		if (w[0] == '&') {
			if (strchr(w, '.') || strchr(w, '[')) {
				pr_err("lock filter '%s': a member path names locks found by lock address only; "
				       "filter by the slab cache ('&<cache>') or the lock's address here", w);
				err = -EINVAL;
			} else if (strlen(w + 1) >= LOCK_SLAB_NAME || !w[1]) {
				pr_err("lock filter '%s': not a slab cache name (1 to %d characters after '&')", w,
				       LOCK_SLAB_NAME - 1);
				err = -EINVAL;
			} else if (l->nr_filter_slabs >= LOCK_FILTER_SLABS) {
				pr_err("lock filter: more than %d slab caches; filter by fewer", LOCK_FILTER_SLABS);
				err = -E2BIG;
			} else {
				snprintf(l->filter_slabs[l->nr_filter_slabs++].name, LOCK_SLAB_NAME, "%s", w + 1);
			}
			continue;
		}
		errno = 0;
		addr = strtoull(w, &end, 0);
		if (errno || *end || end == w) {
			const char *names[] = { w };
			addr = 0;
			if (machine_kernel_symbol_addrs(l->m, names, &addr, 1) != 1 || !addr) {
				pr_err("lock filter '%s': not an address, a well-known lock (mmap_lock, siglock, "
				       "rq_lock, zone_lock), a slab cache (&<cache>) or a kernel symbol in "
				       "/proc/kallsyms (data symbols need CONFIG_KALLSYMS_ALL)", w);
				err = -EINVAL;
				continue;
			}
		}
		ARRAY_GROW(l->filter_addrs, cap, l->nr_filter_addrs + 1);
		l->filter_addrs[l->nr_filter_addrs++] = addr;
	}
	free(dup);
	if (!err && l->nr_filter_addrs > 1024) {
		pr_err("lock filter: %zu addresses, at most 1024", l->nr_filter_addrs);
		err = -E2BIG;
	}
	return err;
}

int lock_filter_check(const char *list)
{
	struct lock l = { 0 };
	l.m = machine_new(&(struct machine_opts){ .live = true });
	int err = lock_filter_parse(&l, list);
	free(l.filter_addrs);
	btf__free(l.btf);
	machine_free(l.m);
	return err == -EINVAL || err == -E2BIG ? -BPFPERF_EUSAGE : err;	/* a word or too many */
}

int lock_filter_fill(struct lock *l)
{
	int afd = bpf_map__fd(l->skel->maps.addr_filter), sfd = bpf_map__fd(l->skel->maps.slab_filter);
	uint8_t one = 1;

	for (size_t i = 0; i < l->nr_filter_addrs; i++) {
		if (bpf_map_update_elem(afd, &l->filter_addrs[i], &one, BPF_ANY)) {
			int err = -errno;
			pr_err("cannot fill the lock filter's address map: %s", log_strerr(err));
			return err;
		}
	}
	for (uint32_t i = 0; i < l->nr_filter_slabs; i++) {
		if (bpf_map_update_elem(sfd, &i, &l->filter_slabs[i], BPF_ANY)) {
			int err = -errno;
			pr_err("cannot fill the lock filter's slab cache map: %s", log_strerr(err));
			return err;
		}
	}
	if (l->nr_filter_slabs && l->design != LOCK_DESIGN_BTF_TS) {
		pr_err("lock filter by slab cache: needs the bpf_get_kmem_cache kfunc (Linux 6.13+) with "
		       "tp_btf programs, and this run uses %s; filter by address instead",
		       lock_design_name(l->design));
		return -EOPNOTSUPP;
	}
	if (l->nr_filter_slabs && !lock_kernel_has_kmem_cache(l)) {
		pr_err("lock filter by slab cache: the kernel has no bpf_get_kmem_cache kfunc "
		       "(Linux 6.13+); filter by address instead");
		return -EOPNOTSUPP;
	}
	return 0;
}
