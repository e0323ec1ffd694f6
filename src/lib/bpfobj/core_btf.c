// SPDX-License-Identifier: GPL-2.0-only
/* Minimal CO-RE target BTF (see core_btf.h), from an object file to a path:
 * what in the object needs the full kernel BTF, the kernel's BTF read (and
 * the modules' searched for missing types), the minimal BTF handed over in
 * a memfd. Reading raw BTF and .BTF.ext: core_btf_read.c; the minimizer:
 * core_btf_min.c. */
#include "core_btf_int.h"
#include "log.h"
#include "util.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Program sections for which libbpf loads the kernel's BTF anyway
 * (tracing, LSM, iterators, struct_ops: they attach by kernel BTF id). */
static bool section_needs_vmlinux(const char *s)
{
	static const char *const pfx[] = {
		"tp_btf", "fentry", "fexit", "fmod_ret", "lsm", "iter", "struct_ops",
		".struct_ops",
	};
	for (size_t i = 0; i < ARRAY_SIZE(pfx); i++) {
		size_t n = strlen(pfx[i]);
		if (!strncmp(s, pfx[i], n) && (s[n] == '\0' || s[n] == '/' || s[n] == '.'))
			return true;
	}
	return false;
}

/* A .ksyms DATASEC with typed variables or functions (kfuncs): libbpf
 * resolves them against the kernel's BTF. */
static bool has_typed_ksyms(const struct corebtf_raw *b)
{
	for (uint32_t id = b->start_id; id < corebtf_raw_type_cnt(b); id++) {
		const struct btf_type *t = corebtf_raw_type(b, id);
		if (!btf_is_datasec(t))
			continue;
		const char *n = corebtf_raw_str(b, t->name_off);
		if (!n || strcmp(n, ".ksyms"))
			continue;
		for (uint16_t i = 0; i < btf_vlen(t); i++) {
			const struct btf_type *v = corebtf_raw_type(b, btf_var_secinfos(t)[i].type);
			if (!v || btf_is_func(v) || (btf_is_var(v) && v->type))
				return true;
		}
	}
	return false;
}

struct kbtf {
	void *data;
	size_t len;
	bool mapped;
};

/* The kernel's BTF in memory without copies: mmap (sysfs allows it since
 * Linux 6.16), else one buffer filled by read(). */
static int kbtf_open(const char *path, struct kbtf *k)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	memset(k, 0, sizeof(*k));
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_size <= 0) {
		int e = errno ? -errno : -EINVAL;
		close(fd);
		return e;
	}
	k->len = (size_t)st.st_size;
	k->data = mmap(NULL, k->len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (k->data != MAP_FAILED) {
		k->mapped = true;
		close(fd);
		return 0;
	}
	k->data = xmalloc(k->len);
	ssize_t got = read_full(fd, k->data, k->len);
	int e = errno;
	close(fd);
	if (got < 0) {
		free(k->data);
		k->data = NULL;
		k->len = 0;
		return -e;
	}
	k->len = (size_t)got;
	return 0;
}

static void kbtf_close(struct kbtf *k)
{
	if (k->mapped)
		munmap(k->data, k->len);
	else
		free(k->data);
	k->data = NULL;
}

/* Kernel module BTFs: where libbpf looks for the candidates of a type that
 * vmlinux's BTF lacks (only then: a type vmlinux has is never looked up in
 * modules). With every missing root absent from the modules too, the minimal
 * BTF gives what libbpf gives (no candidate); otherwise libbpf must relocate.
 * Returns true when a module has one (why: the type and module), or when the
 * search cannot be complete. */
static bool missing_in_modules(const char *kernel_btf, const struct corebtf_raw *vmlinux,
			       const struct corebtf_stats *st, char *why, size_t whylen)
{
	if (strcmp(kernel_btf, "/sys/kernel/btf/vmlinux"))
		return false;	/* another kernel's BTF file: no modules to search */
	if (st->missing > COREBTF_MISSING_KEPT) {
		snprintf(why, whylen, "%u relocated types are not in vmlinux's BTF and may be in "
			 "kernel modules' (libbpf searches the module BTFs)", st->missing);
		return true;
	}
	DIR *d = opendir("/sys/kernel/btf");
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "vmlinux"))
			continue;
		char path[300];
		snprintf(path, sizeof(path), "/sys/kernel/btf/%s", e->d_name);
		struct kbtf mk;
		struct corebtf_raw mod = {0};
		const char *perr;
		if (kbtf_open(path, &mk) < 0)
			continue;	/* a module unloaded meanwhile */
		if (corebtf_raw_parse(&mod, mk.data, mk.len, vmlinux, &perr) < 0) {
			snprintf(why, whylen, "cannot parse module %.64s's BTF (%.64s) to look for "
				 "relocated types vmlinux's BTF lacks", e->d_name, perr);
			found = true;
		}
		for (uint32_t id = mod.start_id; !found && id < corebtf_raw_type_cnt(&mod); id++) {
			const struct btf_type *t = corebtf_raw_type(&mod, id);
			const char *tn = t && t->name_off ? corebtf_raw_str(&mod, t->name_off) : NULL;
			if (!tn)
				continue;
			for (uint32_t k = 0; k < st->missing && !found; k++) {
				const struct corebtf_missing *r = &st->missing_roots[k];
				if (!corebtf_is_candidate(corebtf_kind_class(t), tn, r->kclass, r->name, r->len))
					continue;
				snprintf(why, whylen, "relocated type '%.*s' is not in vmlinux's BTF but in "
					 "module %.64s's (libbpf searches the module BTFs)",
					 (int)(r->len < 64 ? r->len : 64), r->name, e->d_name);
				found = true;
			}
		}
		corebtf_raw_free(&mod);
		kbtf_close(&mk);
	}
	closedir(d);
	return found;
}

/* .BTF, .BTF.ext and whether a program section needs the kernel BTF. */
struct objinfo {
	void *btf, *ext;
	size_t btf_len, ext_len;
	const char *needs_vmlinux;	/* a section name, or NULL */
	char secbuf[128];
};

static int read_object(const char *path, struct objinfo *oi, const char **why)
{
	memset(oi, 0, sizeof(*oi));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*why = "cannot open the object file";
		return -errno;
	}
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t shstrndx;
	int ret = -EINVAL;
	if (!e || elf_getshdrstrndx(e, &shstrndx)) {
		*why = "not a readable ELF file";
		goto out;
	}
	for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh))
			continue;
		const char *n = elf_strptr(e, shstrndx, sh.sh_name);
		if (!n)
			continue;
		bool is_btf = !strcmp(n, ".BTF"), is_ext = !strcmp(n, ".BTF.ext");
		if (is_btf || is_ext) {
			Elf_Data *d = elf_getdata(s, NULL);
			if (!d || !d->d_buf)
				continue;
			/* aligned private copies: the section may sit anywhere in the file */
			void *copy = xmalloc(d->d_size ? d->d_size : 1);
			memcpy(copy, d->d_buf, d->d_size);
			if (is_btf) {
				free(oi->btf);
				oi->btf = copy;
				oi->btf_len = d->d_size;
			} else {
				free(oi->ext);
				oi->ext = copy;
				oi->ext_len = d->d_size;
			}
		} else if (!oi->needs_vmlinux &&
			   ((sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR)) ||
			    !strncmp(n, ".struct_ops", 11)) && section_needs_vmlinux(n)) {
			snprintf(oi->secbuf, sizeof(oi->secbuf), "%s", n);
			oi->needs_vmlinux = oi->secbuf;
		}
	}
	ret = 0;
out:
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

/* The minimal BTF into a memfd, p's path to it for btf_custom_path: NULL,
 * or why not. */
static const char *write_memfd(const struct btf *mini, struct corebtf_prep *p)
{
	uint32_t size;
	const void *raw = btf__raw_data(mini, &size);
	int fd = raw ? memfd_create("bpfperf-core-btf", MFD_CLOEXEC) : -1;
	if (fd < 0)
		return "cannot create a memfd for the minimal BTF";
	size_t off = 0;
	while (off < size) {
		ssize_t n = write(fd, (const char *)raw + off, size - off);
		if (n <= 0) {
			close(fd);
			return "cannot write the minimal BTF to a memfd";
		}
		off += (size_t)n;
	}
	p->memfd = fd;
	p->bytes = size;
	snprintf(p->path, sizeof(p->path), "/proc/self/fd/%d", fd);
	return NULL;
}

/* Read the object, decide between the minimal BTF and libbpf's full load
 * (each reason logged at -v) and hand the result over as a memfd. A linear
 * sequence of steps with one cleanup path, which is why it is long. */
int corebtf_prepare(const char *obj_path, const char *kernel_btf, enum corebtf_mode mode,
		    struct corebtf_prep *p)
{
	uint64_t t0 = now_ns();
	struct objinfo oi;
	struct corebtf_raw local = {0}, target = {0};
	struct corebtf_relo *relos = NULL;
	size_t nr = 0;
	struct kbtf k = {0};
	struct btf *mini = NULL;
	const char *why = NULL;
	static char whybuf[256];
	int ret = 0;

	memset(p, 0, sizeof(*p));
	p->memfd = -1;
	if (!kernel_btf)
		kernel_btf = "/sys/kernel/btf/vmlinux";
	if (mode == COREBTF_VMLINUX) {
		p->fallback = "requested by the caller (CO-RE mode vmlinux)";
		return 0;
	}
	if (read_object(obj_path, &oi, &why) < 0) {
		p->fallback = why;
		goto out;
	}
	if (!oi.ext || !oi.btf) {
		p->no_core = true;
		goto out;
	}
	if (corebtf_ext_relos(oi.ext, oi.ext_len, &relos, &nr, &why) < 0) {
		snprintf(whybuf, sizeof(whybuf), "cannot read the object's .BTF.ext: %s", why);
		p->fallback = whybuf;
		goto out;
	}
	if (!nr) {
		p->no_core = true;
		goto out;
	}
	if (oi.needs_vmlinux) {
		snprintf(whybuf, sizeof(whybuf), "section '%s' attaches by kernel BTF id, so libbpf loads "
			 "the kernel BTF anyway", oi.needs_vmlinux);
		p->fallback = whybuf;
		goto out;
	}
	if (corebtf_raw_parse(&local, oi.btf, oi.btf_len, NULL, &why) < 0) {
		snprintf(whybuf, sizeof(whybuf), "cannot read the object's .BTF: %s", why);
		p->fallback = whybuf;
		goto out;
	}
	if (has_typed_ksyms(&local)) {
		p->fallback = "typed __ksym externs or kfuncs are resolved against the kernel BTF";
		goto out;
	}
	int err = kbtf_open(kernel_btf, &k);
	if (err < 0) {
		snprintf(whybuf, sizeof(whybuf), "cannot read %s: %s", kernel_btf, strerror(-err));
		p->fallback = whybuf;
		goto out;
	}
	if (corebtf_raw_parse(&target, k.data, k.len, NULL, &why) < 0) {
		snprintf(whybuf, sizeof(whybuf), "cannot parse %s: %s", kernel_btf, why);
		p->fallback = whybuf;
		goto out;
	}
	mini = corebtf_minimize(&local, relos, nr, &target, &p->st, &why);
	if (!mini) {
		p->fallback = why;
		goto out;
	}
	if (p->st.missing && missing_in_modules(kernel_btf, &target, &p->st, whybuf, sizeof(whybuf))) {
		p->fallback = whybuf;
		goto out;
	}
	p->fallback = write_memfd(mini, p);
out:
	if (mode == COREBTF_MINIMAL && p->memfd < 0 && !p->no_core)
		ret = -EOPNOTSUPP;
	btf__free(mini);
	corebtf_raw_free(&target);
	corebtf_raw_free(&local);
	if (k.data)
		kbtf_close(&k);
	free(relos);
	free(oi.btf);
	free(oi.ext);
	p->ms = (double)(now_ns() - t0) / 1e6;
	return ret;
}

void corebtf_prep_done(struct corebtf_prep *p)
{
	if (p->memfd >= 0)
		close(p->memfd);
	p->memfd = -1;
	p->path[0] = '\0';
}
