/* SPDX-License-Identifier: GPL-2.0-only */
/* Tracepoint sort keys (perf report's dynamic sort keys): "trace" (the
 * formatted line), "trace_fields" (every field of the event), and a field by
 * name, "FIELD" or "SYS:EVENT.FIELD" (or "EVENT.FIELD").
 *
 * --sort is parsed once (sort_keys_parse_tp: such names become SORT_TP0 + j
 * standing for names[j]); each event's pass then expands them for that
 * event (tpkeys_expand: SORT_TP0 + i is then column i of the hist), and the
 * profile computes each sample's values (tpkeys_values). */
#ifndef BPFPERF_HIST_TPKEYS_H
#define BPFPERF_HIST_TPKEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "hist/hist.h"
#include "perfdata/tp_format.h"

#define TPKEYS_MAX_NAMES 16

/* sort_keys_parse, with the words it does not know kept as tracepoint key
 * names: names[j] (copies, free with tpkeys_names_free) for key SORT_TP0 + j.
 * A word that cannot be a tracepoint key (not [SYS:][EVENT.]FIELD) is *bad. */
int sort_keys_parse_tp(const char *s, enum sort_key *keys, int max, char **names, int *nnames,
		       const char **bad);
void tpkeys_names_free(char **names, int n);

/* Does name match something in these formats ("trace" and "trace_fields"
 * always do)? If not, *hint gets the close matches (field names,
 * "sys:event.field"), comma-separated, or "" (free it). */
bool tpkeys_known(const char *name, const struct tp_formats *fs, char **hint);

/* The key of each tracepoint column of a hist, for tpkeys_values. */
struct tpkey {
	const struct tp_format *fmt;	/* NULL: the event is not a tracepoint */
	const struct tp_field *field;	/* NULL: the trace line */
};

/* keys[0..nkeys) (SORT_TP0 + j = names[j]) for an event of format fmt (NULL:
 * not a tracepoint) into ho->keys/nkeys and ho->tp_cols, and tk[i] for
 * column i. A field the event does not have is left out, as perf does;
 * returns the number of tracepoint columns. */
int tpkeys_expand(const enum sort_key *keys, int nkeys, char *const *names, const char *event_name,
		  const struct tp_format *fmt, bool raw_trace, struct hist_opts *ho, struct tpkey *tk);

/* Values of the samples (interned: one struct per distinct combination). */
struct tpkeys;
struct tpkeys *tpkeys_new(const struct tpkey *tk, int n, bool raw_trace);
const struct hist_tp *tpkeys_values(struct tpkeys *t, const void *raw, size_t size);
void tpkeys_free(struct tpkeys *t);

#endif
