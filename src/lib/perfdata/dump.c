// SPDX-License-Identifier: GPL-2.0-only
/* perf report -D (see dump.h). */
#include "perfdata/dump.h"
#include "log.h"
#include "perfdata/format.h"
#include "perfdata/reader.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

struct dump_ctx {
	FILE *out;
	const char *path;
};

/* perf's trace_event(): 16 bytes a line, hex then ASCII. */
static void hex_lines(FILE *out, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i += 16) {
		size_t m = n - i < 16 ? n - i : 16;
		fprintf(out, ".  %04zx:  ", i);
		for (size_t j = 0; j < 16; j++) {
			if (j < m)
				fprintf(out, "%02x ", p[i + j]);
			else
				fputs("   ", out);
		}
		fputc(' ', out);
		for (size_t j = 0; j < 16; j++)
			fputc(j < m ? (isprint(p[i + j]) ? p[i + j] : '.') : ' ', out);
		fputc('\n', out);
	}
}

static int dump_one(void *ctx, uint64_t off, const struct perf_event_header *hdr)
{
	const struct dump_ctx *d = ctx;
	fprintf(d->out, "\n%#llx@%s [%#x]: event: %u\n.\n. ... raw event: size %u bytes\n",
		(unsigned long long)off, d->path, hdr->size, hdr->type, hdr->size);
	hex_lines(d->out, (const unsigned char *)hdr, hdr->size);
	fprintf(d->out, "\n%#llx [%#x]: PERF_RECORD_%s\n", (unsigned long long)off, hdr->size,
		pd_record_type_name(hdr->type));
	return ferror(d->out) ? -1 : 0;
}

int pd_dump_raw(const char *path, FILE *out)
{
	char err[1024];
	struct pd_file *f = pd_open(path, err, sizeof(err));
	if (!f) {
		pr_err("%s", err);
		return -1;
	}
	struct dump_ctx d = { out, path };
	int r = pd_for_each_raw(f, dump_one, &d, err, sizeof(err));
	if (r == -1)
		pr_err("writing the dump of %s: %s", path, strerror(errno));
	else if (r < 0)
		pr_err("%s: %s", path, err);
	pd_close(f);
	return r < 0 ? -1 : 0;
}
