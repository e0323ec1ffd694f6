// SPDX-License-Identifier: GPL-2.0-only
/* Stack skipping rules (see stack_skip.h). */
#include "sym/stack_skip.h"

#include <string.h>

bool stack_frame_is_tracing(const char *sym)
{
	static const char *const prefixes[] = {
		"bpf_prog_", "bpf_trace_", "__traceiter_", "perf_trace_", "__bpf_trace_",
		"bpf_trampoline_", "__bpf_prog_enter", "__bpf_prog_exit",
	};
	if (!sym || !*sym)
		return false;
	if (!strcmp(sym, "trace_call_bpf"))
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(sym, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

size_t stack_skip(const uint64_t *ips, size_t n, stack_sym_fn sym, void *ctx, size_t attach_skip,
		  int user_skip)
{
	if (user_skip >= 0)
		return (size_t)user_skip < n ? (size_t)user_skip : n;
	size_t first = 0;
	while (first < n) {
		const char *s = sym ? sym(ctx, ips[first]) : NULL;
		if (s ? !stack_frame_is_tracing(s) : first >= attach_skip)
			break;
		first++;
	}
	return first;
}
