// SPDX-License-Identifier: GPL-2.0-only
/* An aggregated profile as JSON (out_json, out_json_multi: see out.h). */
#include "json.h"
#include "out/out_int.h"

static void json_entries(struct json_writer *jw, const struct hist *h, const struct out_opts *o)
{
	const struct hist_opts *ho = hist_opts(h);
	uint64_t total = hist_total_period(h);
	jw_key(jw, "entries");
	jw_start_array(jw);
	for (size_t i = 0; i < hist_nr_entries(h); i++) {
		const struct hist_entry *e = hist_entry_at(h, i);
		if (!out_shown_entry(h, e, o))
			continue;
		jw_start_object(jw);
		jw_key(jw, "self");
		jw_double_prec(jw, out_pct(e->self, total), 2);
		jw_key(jw, "children");
		jw_double_prec(jw, out_pct(e->children, total), 2);
		jw_kv_uint(jw, "samples", e->nr_samples);
		for (int k = 0; k < ho->nkeys; k++) {
			switch (ho->keys[k]) {
			case SORT_COMM:
				jw_kv_string(jw, "comm", out_nz(e->comm));
				break;
			case SORT_PID:
				jw_kv_int(jw, "pid", e->pid);
				break;
			case SORT_TID:
				jw_kv_int(jw, "tid", e->tid);
				break;
			case SORT_DSO:
				jw_kv_string(jw, "dso", out_nz(e->dso));
				break;
			case SORT_SYM:
				jw_kv_string(jw, "symbol", out_nz(e->sym));
				break;
			case SORT_CPU:
				jw_kv_int(jw, "cpu", e->cpu);
				break;
			case SORT_SRCLINE:
				jw_kv_string(jw, "srcline", out_nz(e->srcline));
				break;
			case SORT_PARENT:
				jw_kv_string(jw, "parent", e->parent ? e->parent : "[other]");
				break;
			case SORT_PERIOD:
				jw_kv_uint(jw, "period", e->self);
				break;
			case SORT_STATE:
				jw_kv_string(jw, "state", e->state == 'S' ? "S" : e->state == 'D' ? "D" :
							   e->state == 'I' ? "I" : "-");
				break;
			default:
				if (sort_key_is_tp(ho->keys[k])) {
					int t = ho->keys[k] - SORT_TP0;
					jw_kv_string(jw, ho->tp_cols[t].left ? "trace" : ho->tp_cols[t].name,
						     e->tp ? e->tp->text[t] : "");
				}
				break;
			}
		}
		jw_end_object(jw);
	}
	jw_end_array(jw);
}

static int json_done(FILE *f, struct json_writer *jw)
{
	jw_free(jw);
	if (ferror(f))
		return -1;	/* the caller names the file (out/ofile.h) */
	return 0;
}

static uint64_t json_samples(const struct hist *h, const struct out_opts *o)
{
	return o->total_samples ? o->total_samples : hist_total_samples(h);
}

int out_json(FILE *f, const struct hist *h, const struct out_opts *o)
{
	return out_json_multi(f, &h, o, 1);
}

int out_json_multi(FILE *f, const struct hist *const *hs, const struct out_opts *os, size_t n)
{
	struct json_writer *jw = jw_new(f, false);
	jw_start_object(jw);
	jw_kv_uint(jw, "total_samples", json_samples(hs[0], &os[0]));
	jw_kv_uint(jw, "lost_samples", os[0].lost_samples);
	jw_kv_uint(jw, "total_period", hist_total_period(hs[0]));
	jw_kv_string(jw, "event", os[0].event_name ? os[0].event_name : "cpu-clock");
	json_entries(jw, hs[0], &os[0]);
	if (n > 1) {
		jw_key(jw, "events");
		jw_start_array(jw);
		for (size_t i = 0; i < n; i++) {
			jw_start_object(jw);
			jw_kv_string(jw, "name", os[i].event_name ? os[i].event_name : "cpu-clock");
			jw_kv_uint(jw, "samples", json_samples(hs[i], &os[i]));
			jw_kv_uint(jw, "period", hist_total_period(hs[i]));
			json_entries(jw, hs[i], &os[i]);
			jw_end_object(jw);
		}
		jw_end_array(jw);
	}
	jw_end_object(jw);
	return json_done(f, jw);
}
