// SPDX-License-Identifier: GPL-2.0-only
/* Log2 histogram and heat-map rows as text (see log2hist.h). */
#include "out/log2hist.h"

#include <inttypes.h>
#include <math.h>

static void slot_range(uint32_t i, uint64_t *lo, uint64_t *hi)
{
	if (i == 0) {
		*lo = 0;
		*hi = 1;
	} else if (i >= 64) {
		*lo = *hi = UINT64_MAX;
	} else {
		*lo = 1ULL << i;
		*hi = i == 63 ? UINT64_MAX : (1ULL << (i + 1)) - 1;
	}
}

void out_log2_hist(FILE *f, const uint64_t *counts, uint32_t nr, const char *label)
{
	const int width = 40;
	uint32_t first = nr, last = 0;
	uint64_t max = 0, total = 0;
	if (!label)
		label = "value";
	for (uint32_t i = 0; i < nr; i++) {
		if (counts[i]) {
			if (first == nr)
				first = i;
			last = i;
			total += counts[i];
		}
		if (counts[i] > max)
			max = counts[i];
	}
	if (first == nr) {
		fprintf(f, "%24s : (no counts)\n", label);
		return;
	}
	fprintf(f, "%24s : %-10s %-*s\n", label, "count", width + 2, "distribution");
	for (uint32_t i = first; i <= last; i++) {
		uint64_t lo, hi;
		slot_range(i, &lo, &hi);
		int bar = max ? (int)((counts[i] * (uint64_t)width + max - 1) / max) : 0;
		if (counts[i] && bar == 0)
			bar = 1;
		char range[48];
		snprintf(range, sizeof(range), "%" PRIu64 " -> %" PRIu64, lo, hi);
		fprintf(f, "%24s : %-10" PRIu64 " |", range, counts[i]);
		for (int b = 0; b < width; b++)
			fputc(b < bar ? '*' : ' ', f);
		fputs("|\n", f);
	}
	fprintf(f, "%24s : %" PRIu64 "\n", "total", total);
}

void out_log2_heat_row(FILE *f, time_t when, const char *title, const uint64_t *counts,
		       uint32_t nr)
{
	static const char shades[] = " .:-=+*#%@";
	struct tm tm;
	uint64_t max = 0;
	localtime_r(&when, &tm);
	fprintf(f, "%02d:%02d:%02d %-16s |", tm.tm_hour, tm.tm_min, tm.tm_sec, title);
	for (uint32_t i = 0; i < nr; i++)
		if (counts[i] > max)
			max = counts[i];
	for (uint32_t i = 0; i < nr; i++) {
		int s = 0;
		if (counts[i] && max) {
			/* log scale so that small counts stay visible */
			double r = log((double)counts[i] + 1) / log((double)max + 1);
			s = 1 + (int)(r * (double)(sizeof(shades) - 3) + 0.5);
			if (s > (int)sizeof(shades) - 2)
				s = (int)sizeof(shades) - 2;
		}
		fputc(shades[s], f);
	}
	fputs("|\n", f);
}
