// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the tracefs syscall format parser (sc_format_parse) and, with the same
 * bytes as a selection expression, sc_select and the beautifiers. */
#include "syscalls/syscalls.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sc_table table;
	static int loaded;
	struct sc_info info;

	if (!loaded) {
		sc_table_load(&table, NULL);
		loaded = 1;
	}
	if (sc_format_parse((const char *)data, size, &info) == 0) {
		/* Everything parsed must be printable. */
		struct strbuf sb = { 0 };
		for (int i = 0; i < info.nargs; i++)
			sc_fmt_arg(&sb, &info.args[i], (uint64_t)i * 0x1234567, data, size, true);
		sc_fmt_ret(&sb, &info, -2);
		sb_free(&sb);
	}

	char *expr = malloc(size + 1);
	if (!expr)
		return 0;
	memcpy(expr, data, size);
	expr[size] = '\0';
	bool enabled[SC_MAX_NR];
	char err[256];
	sc_select(&table, expr, enabled, err, sizeof(err));
	free(expr);

	struct strbuf sb = { 0 };
	sc_fmt_sockaddr(&sb, data, size);
	sc_fmt_cstring(&sb, (const char *)data, size, false);
	sb_free(&sb);
	return 0;
}
