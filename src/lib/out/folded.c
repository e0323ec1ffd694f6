// SPDX-License-Identifier: GPL-2.0-only
/* Folded stacks ("comm;outer;...;inner count" per distinct stack), the
 * input of flame graph tools (out_folded, out_folded_ex: see out.h). */
#include <stdio.h>

#include "out/out_int.h"

static void put_folded_name(FILE *f, const char *s)
{
	/* ';' separates frames and a line is one stack: keep both unambiguous */
	for (; *s; s++) {
		char ch = *s;
		if (ch == ';')
			ch = ':';
		else if (ch == '\n' || ch == '\r')
			ch = ' ';
		fputc(ch, f);
	}
}

struct folded_ctx {
	FILE *f;
	const struct out_folded_opts *o;
};

static void folded_cb(void *ctx, const char *comm, const struct hist_frame *const *frames, size_t nframes,
		      uint64_t period, uint64_t samples)
{
	const struct folded_ctx *c = ctx;
	FILE *f = c->f;

	put_folded_name(f, out_nz(comm));
	if (c->o->root) {
		fputc(';', f);
		put_folded_name(f, c->o->root);
	}
	for (size_t i = 0; i < nframes; i++) {
		fputc(';', f);
		put_folded_name(f, out_nz(frames[i]->sym));
	}
	fprintf(f, " %llu\n", (unsigned long long)(c->o->by_period ? period : samples));
}

int out_folded(FILE *f, const struct hist *h)
{
	return out_folded_ex(f, h, &(struct out_folded_opts){ 0 });
}

int out_folded_ex(FILE *f, const struct hist *h, const struct out_folded_opts *o)
{
	struct folded_ctx c = { f, o };
	hist_stacks_walk(h, folded_cb, &c);
	if (ferror(f))
		return -1;	/* the caller names the file (out/ofile.h) */
	return 0;
}
