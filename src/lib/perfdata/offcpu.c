// SPDX-License-Identifier: GPL-2.0-only
/* Off-CPU samples in perf.data: see offcpu.h. */
#include <linux/types.h>

#include "perfdata/offcpu.h"
#include "off_cpu_data.h"

char off_cpu_state_char(uint32_t state)
{
	if ((state & OFF_CPU_TASK_UNINTERRUPTIBLE) && (state & OFF_CPU_TASK_NOLOAD))
		return 'I';
	if (state & OFF_CPU_TASK_UNINTERRUPTIBLE)
		return 'D';
	if (state & OFF_CPU_TASK_INTERRUPTIBLE)
		return 'S';
	return '?';
}
