// SPDX-License-Identifier: GPL-2.0-only
/* User space of src/bpf/include/stack_store.h: a stack read by its id (see
 * skel.h). */
#include "skel/skel.h"

#include "stack_store.h"

#include <bpf/bpf.h>
#include <string.h>

size_t stack_store_read(int map_fd, uint64_t id, uint64_t *ips, size_t cap)
{
	struct stack_store_val v;
	if (!id || bpf_map_lookup_elem(map_fd, &id, &v))
		return 0;
	size_t n = v.nr < cap ? v.nr : cap;
	if (n > STACK_STORE_MAX)
		n = STACK_STORE_MAX;
	memcpy(ips, v.ips, n * sizeof(*ips));
	return n;
}
