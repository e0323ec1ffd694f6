// SPDX-License-Identifier: GPL-2.0-only
/* Opening a BPF object file: check it is one, prepare its CO-RE target,
 * let libbpf parse it, assign globals; and closing it. */
#include "bpfobj_int.h"
#include "bpfobj/validate.h"
#include "btf/btf_fmt.h"
#include "log.h"
#include "util.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int check_file(const char *path)
{
	int err;
	struct stat st;

	if (stat(path, &st) < 0) {
		err = -errno;
		pr_err("cannot open BPF object %s: %s; give the path of a .bpf.o file built with "
		       "'clang -target bpf -g -O2 -c X.bpf.c'", path, strerror(errno));
		return err;
	}
	/* libbpf trusts the ELF and BTF it parses: check them first */
	return bpfobj_validate_file(path);
}

/* CO-RE relocations against a minimal copy of the kernel types they use
 * instead of libbpf reading the whole kernel BTF (core_btf.h). */
static int prepare_core(struct bpfobj *bo, enum bpfobj_core_btf mode)
{
	enum corebtf_mode m = mode == BPFOBJ_CORE_BTF_VMLINUX ? COREBTF_VMLINUX :
			      mode == BPFOBJ_CORE_BTF_MINIMAL ? COREBTF_MINIMAL : COREBTF_AUTO;
	const char *path = bo->path;
	if (corebtf_prepare(path, NULL, m, &bo->core) < 0) {
		pr_err("cannot build a minimal CO-RE BTF for %s: %s; let libbpf relocate against "
		       "the full kernel BTF instead (CO-RE mode auto or vmlinux)", path, bo->core.fallback);
		return -EOPNOTSUPP;
	}
	if (bo->core.memfd >= 0)
		pr_info("%s: CO-RE against a minimal kernel BTF: %u relocations, %u root types, "
			"%u candidates, %u types (%zu bytes), built in %.2f ms", path, bo->core.st.relos,
			bo->core.st.roots, bo->core.st.cands, bo->core.st.types, bo->core.bytes, bo->core.ms);
	else if (bo->core.no_core)
		pr_info("%s: no CO-RE relocations: the kernel BTF is not needed for them", path);
	else
		pr_info("%s: CO-RE against the full kernel BTF (loaded by libbpf): %s", path,
			bo->core.fallback);
	return 0;
}

/* Programs in object order with a verifier log buffer each; ring buffers
 * made loadable. */
static void setup_object(struct bpfobj *bo)
{
	struct bpf_program *p;
	bpf_object__for_each_program(p, bo->obj)
		bo->nr_progs++;
	bo->progs = xcalloc((size_t)bo->nr_progs + 1, sizeof(*bo->progs));
	bo->logs = xcalloc((size_t)bo->nr_progs + 1, sizeof(*bo->logs));
	int i = 0;
	bpf_object__for_each_program(p, bo->obj) {
		bo->progs[i] = p;
		bo->logs[i] = xcalloc(1, BPFOBJ_PROG_LOG_SIZE);
		bpf_program__set_log_buf(p, bo->logs[i], BPFOBJ_PROG_LOG_SIZE);
		i++;
	}
	/* A ring buffer declared with __type(value, struct X) names its record
	 * type, but the kernel wants no value size: remember the type (found
	 * again in the object's BTF by bpfobj_streams_open) and clear the size. */
	struct bpf_map *m;
	bpf_object__for_each_map(m, bo->obj) {
		if (bpf_map__type(m) == BPF_MAP_TYPE_RINGBUF && bpf_map__value_size(m)) {
			bpf_map__set_value_size(m, 0);
			bpf_map__set_key_size(m, 0);
		}
	}
}

int bpfobj_open(const char *path, const struct bpfobj_open_opts *opts, struct bpfobj **out)
{
	static const struct bpfobj_open_opts defaults;
	const struct bpfobj_open_opts *o = opts ? opts : &defaults;
	*out = NULL;
	int err = check_file(path);
	if (err)
		return err;
	struct bpfobj *bo = xcalloc(1, sizeof(*bo));
	bo->path = xstrdup(path);
	bo->epfd = -1;
	err = prepare_core(bo, o->core_btf);
	if (err) {
		free(bo->path);
		free(bo);
		return err;
	}
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = bo->core.path[0] ? bo->core.path : NULL);
	bo->obj = bpf_object__open_file(path, &oo);
	if (!bo->obj) {
		err = -errno;
		corebtf_prep_done(&bo->core);
		btf_fmt_kenums_free(bo->kenums);
		btf__free(bo->kbtf);
		int cause = log_limit_cause(err);
		const char *limit = log_limit_hint(cause);
		if (limit) {
			pr_err("cannot open BPF object %s: %s; %s", path, log_strerr(cause), limit);
			free(bo->path);
			free(bo);
			return cause;
		}
		/* libbpf's ENOENT means a section, symbol or type it looked up is
		 * absent, not a missing file: do not let strerror() say otherwise */
		pr_err("cannot open BPF object %s: libbpf could not parse it (%s, error %d): corrupt "
		       "or unsupported ELF or BTF; the messages above, or libbpf's debug output%s, say "
		       "where; rebuild it with clang -target bpf -g", path,
		       err == -ENOENT ? "a section, symbol or BTF type it needs is missing" :
		       log_strerr(err), err, log_hint(LOG_HINT_OPT_LIBBPF_DEBUG));
		free(bo->path);
		free(bo);
		return err;
	}
	bo->btf = bpf_object__btf(bo->obj);
	if (!bo->btf)
		pr_warn("%s has no BTF: it still runs, but maps are dumped as hex bytes; "
			"compile with 'clang -g' for typed output", path);
	setup_object(bo);
	for (int s = 0; s < o->nr_sets; s++) {
		err = bpfobj_set(bo, o->sets[s], true);
		if (err < 0) {
			bpfobj_close(bo);
			return err;
		}
	}
	*out = bo;
	return 0;
}

struct bpf_object *bpfobj_object(const struct bpfobj *bo) { return bo->obj; }
bool bpfobj_has_btf(const struct bpfobj *bo) { return bo->btf != NULL; }

void bpfobj_close(struct bpfobj *bo)
{
	if (!bo)
		return;
	for (size_t i = 0; i < bo->nr_links; i++)
		bpf_link__destroy(bo->links[i]);
	free(bo->links);
	for (int i = 0; i < bo->nr_streams; i++)
		perf_buffer__free(bo->streams[i].pb);
	ring_buffer__free(bo->rb);
	free(bo->streams);
	if (bo->epfd >= 0)
		close(bo->epfd);
	bpf_object__close(bo->obj);
	corebtf_prep_done(&bo->core);
	btf_fmt_kenums_free(bo->kenums);
	btf__free(bo->kbtf);
	for (int i = 0; i < bo->nr_progs; i++)
		free(bo->logs[i]);
	free(bo->logs);
	free(bo->progs);
	for (int i = 0; i < bo->nr_hists; i++) {
		free(bo->hists[i].name);
		free(bo->hists[i].prev);
	}
	free(bo->hists);
	free(bo->path);
	free(bo);
}
