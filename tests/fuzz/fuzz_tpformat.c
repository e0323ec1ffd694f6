// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the tracepoint format parser and what is made of records with it
 * (perfdata/tp_format.h): the input up to the first NUL is a format text,
 * the rest a RAW record printed with it (fields, the print format, sort key
 * values); the whole input is also read as a HEADER_TRACING_DATA section. */
#include "hist/tpkeys.h"
#include "perfdata/tp_format.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *z = memchr(data, '\0', size);
	size_t tl = z ? (size_t)(z - data) : size;
	struct tp_format f;
	if (tp_format_parse((const char *)data, tl, "fuzz", &f) == 0) {
		/* the record on the heap, exactly its size (ASan sees any overread) */
		size_t rl = z ? size - tl - 1 : 0;
		uint8_t *rec = malloc(rl ? rl : 1);
		if (rec) {
			memcpy(rec, z ? z + 1 : data, rl);
			struct strbuf sb = { 0 };
			tp_print_event(&sb, &f, rec, rl);
			tp_print_fields(&sb, &f, rec, rl);
			struct tpkey tk[HIST_TP_MAX];
			int n = 0;
			tk[n++] = (struct tpkey){ .fmt = &f, .field = NULL };
			for (size_t i = 0; i < f.nfields && n < HIST_TP_MAX; i++)
				tk[n++] = (struct tpkey){ .fmt = &f, .field = &f.fields[i] };
			for (int raw = 0; raw < 2; raw++) {
				struct tpkeys *t = tpkeys_new(tk, n, raw);
				tpkeys_values(t, rec, rl);
				tpkeys_free(t);
			}
			sb_free(&sb);
			free(rec);
		}
		tp_format_free(&f);
	}
	struct tp_formats fs;
	tp_formats_load(&fs, data, size);
	tp_formats_free(&fs);
	return 0;
}
