// SPDX-License-Identifier: GPL-2.0-only
/* Open, configure, load and attach any BPF object by its section names;
 * stream its ring buffers and perf event arrays; dump its maps by BTF. */
#include "bpfobj.h"
#include "core_btf.h"
#include "btf/btf_fmt.h"
#include "json.h"
#include "event/event.h"
#include "log.h"
#include "util.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PROG_LOG_SIZE (256 * 1024)

struct stream {
	struct bpfobj *bo;
	const struct bpf_map *map;
	uint32_t type_id;	/* 0: hex */
	struct perf_buffer *pb;
};

struct hist_state {
	char *name;
	uint64_t *prev;
	uint32_t nr;
};

struct bpfobj {
	char *path;
	struct bpf_object *obj;
	const struct btf *btf;
	char **logs;		/* per program, indexed like prog_list */
	struct bpf_program **progs;
	int nr_progs;
	struct bpf_link **links;
	size_t nr_links, cap_links;
	int *perf_fds;
	size_t nr_perf_fds, cap_perf_fds;
	/* streams */
	struct ring_buffer *rb;
	struct stream *streams;
	int nr_streams;
	int epfd;
	struct bpfobj_output out;
	uint64_t records, lost;
	/* heat maps: previous counts per histogram map */
	struct hist_state *hists;
	int nr_hists;
	/* CO-RE target: minimal BTF in a memfd until loaded */
	struct corebtf_prep core;
};

static enum corebtf_mode core_btf_mode = COREBTF_AUTO;

void bpfobj_set_core_btf(enum bpfobj_core_btf mode)
{
	core_btf_mode = mode == BPFOBJ_CORE_BTF_VMLINUX ? COREBTF_VMLINUX :
			mode == BPFOBJ_CORE_BTF_MINIMAL ? COREBTF_MINIMAL : COREBTF_AUTO;
}

static const char *kernel_feature_missing(const char *sec);
static uint32_t map_def_value_type(const struct btf *btf, const char *map_name);

/* ------------------------------------------------------------------ open */

static bool file_is_bpf_elf(const char *path, int *err, const char **why)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = -errno;
		*why = strerror(errno);
		return false;
	}
	Elf64_Ehdr eh;
	ssize_t n = read(fd, &eh, sizeof(eh));
	close(fd);
	*err = -ENOEXEC;
	if (n < (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG)) {
		*why = "not an ELF file";
		return false;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_BPF) {
		*why = "an ELF file, but not for the BPF target (e_machine is not EM_BPF)";
		return false;
	}
	*err = 0;
	return true;
}

static const struct btf_type *resolve(const struct btf *btf, uint32_t *id)
{
	for (int i = 0; i < 32; i++) {
		const struct btf_type *t = btf__type_by_id(btf, *id);
		if (!t)
			return NULL;
		if (!btf_is_mod(t) && !btf_is_typedef(t))
			return t;
		*id = t->type;
	}
	return NULL;
}

/* Find global variable `name` in a DATASEC of the object's BTF. */
static bool find_global(const struct btf *btf, const char *name, const char **sec,
			uint32_t *type_id, uint32_t *offset, uint32_t *size)
{
	uint32_t n = btf__type_cnt(btf);
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (!t || !btf_is_datasec(t))
			continue;
		const struct btf_var_secinfo *v = btf_var_secinfos(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++) {
			const struct btf_type *vt = btf__type_by_id(btf, v[i].type);
			if (!vt || !btf_is_var(vt))
				continue;
			const char *vn = btf__name_by_offset(btf, vt->name_off);
			if (vn && !strcmp(vn, name)) {
				*sec = btf__name_by_offset(btf, t->name_off);
				*type_id = vt->type;
				*offset = v[i].offset;
				*size = v[i].size;
				return true;
			}
		}
	}
	return false;
}

static bool map_is_section(const struct bpf_map *m, const char *sec)
{
	const char *n = bpf_map__name(m);
	size_t ln = strlen(n), ls = strlen(sec);
	return bpf_map__is_internal(m) && ln >= ls && !strcmp(n + ln - ls, sec);
}

static int apply_set(struct bpfobj *bo, const char *assign)
{
	const char *eq = strchr(assign, '=');
	if (!eq || eq == assign) {
		pr_err("--set '%s': expected NAME=VALUE", assign);
		return -EINVAL;
	}
	char *name = xstrndup(assign, (size_t)(eq - assign));
	const char *val = eq + 1;
	const char *sec = NULL;
	uint32_t tid, off, size;
	int ret = -EINVAL;

	if (!bo->btf || !find_global(bo->btf, name, &sec, &tid, &off, &size)) {
		pr_err("--set %s: %s has no global variable '%s'%s", name, bo->path, name,
		       bo->btf ? "; declare it as 'const volatile TYPE NAME = DEFAULT;'"
			       : " (the object has no BTF; compile with clang -g)");
		goto out;
	}
	if (!sec || (strcmp(sec, ".rodata") && strcmp(sec, ".data"))) {
		pr_err("--set %s: the variable lives in '%s'; only 'const volatile' (.rodata) "
		       "and initialized (.data) globals can be set before load", name, sec ? sec : "?");
		goto out;
	}
	struct bpf_map *map = NULL, *m;
	bpf_object__for_each_map(m, bo->obj) {
		if (map_is_section(m, sec)) {
			map = m;
			break;
		}
	}
	size_t msz = 0;
	/* libbpf 1.1 returns it const, but it is the writable image applied at load */
	uint8_t *data = map ? (uint8_t *)(uintptr_t)bpf_map__initial_value(map, &msz) : NULL;
	if (!data || (size_t)off + size > msz) {
		pr_err("--set %s: cannot reach the %s data of %s", name, sec, bo->path);
		goto out;
	}
	uint8_t *dst = data + off;
	uint32_t rid = tid;
	const struct btf_type *t = resolve(bo->btf, &rid);
	if (!t)
		goto bad_type;
	if (btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_BOOL)) {
		bool b;
		if (!strcmp(val, "true") || !strcmp(val, "1"))
			b = true;
		else if (!strcmp(val, "false") || !strcmp(val, "0"))
			b = false;
		else {
			pr_err("--set %s=%s: '%s' is a bool; use true or false", name, val, name);
			goto out;
		}
		memset(dst, 0, size);
		dst[0] = b;
		ret = 0;
	} else if (btf_is_int(t) || btf_is_any_enum(t)) {
		unsigned sz = btf_is_int(t) ? btf_int_bits(t) / 8 : t->size;
		bool is_signed = btf_is_int(t) ? (btf_int_encoding(t) & BTF_INT_SIGNED) : true;
		if (btf_is_int(t) && (btf_int_offset(t) || btf_int_bits(t) % 8))
			goto bad_type;
		if (sz == 0 || sz > 8 || sz > size)
			goto bad_type;
		uint64_t u = 0;
		bool found = false;
		if (btf_is_any_enum(t)) {
			for (uint16_t i = 0; i < btf_vlen(t) && !found; i++) {
				const char *en;
				uint64_t ev;
				if (btf_is_enum64(t)) {
					const struct btf_enum64 *e = btf_enum64(t) + i;
					en = btf__name_by_offset(bo->btf, e->name_off);
					ev = ((uint64_t)e->val_hi32 << 32) | e->val_lo32;
				} else {
					const struct btf_enum *e = btf_enum(t) + i;
					en = btf__name_by_offset(bo->btf, e->name_off);
					ev = (uint64_t)(int64_t)e->val;
				}
				if (en && !strcmp(en, val)) {
					u = ev;
					found = true;
				}
			}
		}
		if (!found) {
			char *end;
			errno = 0;
			if (val[0] == '-') {
				long long s = strtoll(val, &end, 0);
				u = (uint64_t)s;
				if (!errno && !*end && *val && sz < 8) {
					long long lim = 1LL << (8 * sz - 1);
					if (!is_signed || s < -lim)
						errno = ERANGE;
				}
			} else {
				u = strtoull(val, &end, 0);
				if (!errno && !*end && sz < 8) {
					uint64_t lim = is_signed ? (1ULL << (8 * sz - 1)) - 1 : (1ULL << (8 * sz)) - 1;
					if (u > lim)
						errno = ERANGE;
				}
			}
			if (errno || !*val || *end) {
				pr_err("--set %s=%s: not a%s %u-byte %s%s", name, val,
				       errno == ERANGE ? "n in-range" : " valid", sz,
				       btf_is_any_enum(t) ? "enum value" : (is_signed ? "signed integer" : "unsigned integer"),
				       btf_is_any_enum(t) ? " (give an enumerator name or a number)" : "");
				goto out;
			}
		}
		for (unsigned i = 0; i < sz; i++)
			dst[i] = (uint8_t)(u >> (8 * i));
		ret = 0;
	} else if (btf_is_array(t)) {
		uint32_t eid = btf_array(t)->type;
		const struct btf_type *et = resolve(bo->btf, &eid);
		if (!et || !btf_is_int(et) || et->size != 1)
			goto bad_type;
		size_t len = strlen(val);
		if (len > btf_array(t)->nelems || len > size) {
			pr_err("--set %s: the string is %zu bytes; '%s' holds at most %u", name, len,
			       name, btf_array(t)->nelems);
			goto out;
		}
		memset(dst, 0, btf_array(t)->nelems < size ? btf_array(t)->nelems : size);
		memcpy(dst, val, len);
		ret = 0;
	} else {
		goto bad_type;
	}
	pr_debug("set %s (%s+%u) = %s", name, sec, off, val);
	goto out;
bad_type:
	pr_err("--set %s: its type is not an integer, bool, enum or char array; "
	       "--set cannot assign it", name);
out:
	free(name);
	return ret;
}

bool bpfobj_has_global(const struct bpfobj *bo, const char *name)
{
	const char *sec;
	uint32_t tid, off, size;
	return bo->btf && find_global(bo->btf, name, &sec, &tid, &off, &size);
}

int bpfobj_set(struct bpfobj *bo, const char *assign, bool must_exist)
{
	const char *eq = strchr(assign, '=');
	if (!must_exist && eq) {
		char *name = xstrndup(assign, (size_t)(eq - assign));
		bool has = bpfobj_has_global(bo, name);
		free(name);
		if (!has)
			return 0;
	}
	int err = apply_set(bo, assign);
	return err ? err : 1;
}

struct bpfobj *bpfobj_open(const char *path, char *const *sets, int nr_sets, int *errp)
{
	int err;
	const char *why;
	struct stat st;

	if (stat(path, &st) < 0) {
		err = -errno;
		pr_err("cannot open BPF object %s: %s; give the path of a .bpf.o file built with "
		       "'clang -target bpf -g -O2 -c X.bpf.c'", path, strerror(errno));
		*errp = err;
		return NULL;
	}
	if (!file_is_bpf_elf(path, &err, &why)) {
		pr_err("cannot open BPF object %s: %s; build it with 'clang -target bpf -g -O2 -c X.bpf.c'",
		       path, why);
		*errp = err;
		return NULL;
	}
	struct bpfobj *bo = xcalloc(1, sizeof(*bo));
	bo->path = xstrdup(path);
	bo->epfd = -1;
	/* CO-RE relocations against a minimal copy of the kernel types they
	 * use instead of libbpf reading the whole kernel BTF (core_btf.h). */
	if (corebtf_prepare(path, NULL, core_btf_mode, &bo->core) < 0) {
		pr_err("cannot build a minimal CO-RE BTF for %s: %s; use --core-btf auto (or vmlinux) "
		       "to let libbpf relocate against the full kernel BTF", path, bo->core.fallback);
		free(bo->path);
		free(bo);
		*errp = -EOPNOTSUPP;
		return NULL;
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
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = bo->core.path[0] ? bo->core.path : NULL);
	bo->obj = bpf_object__open_file(path, &oo);
	if (!bo->obj) {
		err = -errno;
		corebtf_prep_done(&bo->core);
		pr_err("cannot open BPF object %s: %s (libbpf could not parse it: corrupt or "
		       "unsupported ELF; the messages above say where); rebuild it with clang -target bpf -g",
		       path, log_strerr(err));
		free(bo->path);
		free(bo);
		*errp = err;
		return NULL;
	}
	bo->btf = bpf_object__btf(bo->obj);
	if (!bo->btf)
		pr_warn("%s has no BTF: it still runs, but maps are dumped as hex bytes; "
			"compile with 'clang -g' for typed output", path);

	struct bpf_program *p;
	bpf_object__for_each_program(p, bo->obj)
		bo->nr_progs++;
	bo->progs = xcalloc((size_t)bo->nr_progs + 1, sizeof(*bo->progs));
	bo->logs = xcalloc((size_t)bo->nr_progs + 1, sizeof(*bo->logs));
	int i = 0;
	bpf_object__for_each_program(p, bo->obj) {
		bo->progs[i] = p;
		bo->logs[i] = xcalloc(1, PROG_LOG_SIZE);
		bpf_program__set_log_buf(p, bo->logs[i], PROG_LOG_SIZE);
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
	for (int s = 0; s < nr_sets; s++) {
		err = apply_set(bo, sets[s]);
		if (err) {
			bpfobj_close(bo);
			*errp = err;
			return NULL;
		}
	}
	*errp = 0;
	return bo;
}

struct bpf_object *bpfobj_object(const struct bpfobj *bo) { return bo->obj; }
bool bpfobj_has_btf(const struct bpfobj *bo) { return bo->btf != NULL; }

/* --------------------------------------------------------------- support */

static bool path_exists(const char *p)
{
	return access(p, F_OK) == 0;
}

static const char *tracefs_dir(void)
{
	if (path_exists("/sys/kernel/tracing/events"))
		return "/sys/kernel/tracing";
	if (path_exists("/sys/kernel/debug/tracing/events"))
		return "/sys/kernel/debug/tracing";
	/* Try to mount it; harmless if it fails. */
	mkdir("/sys/kernel/tracing", 0755);
	if (syscall(SYS_mount, "nodev", "/sys/kernel/tracing", "tracefs", 0UL, NULL) == 0 &&
	    path_exists("/sys/kernel/tracing/events"))
		return "/sys/kernel/tracing";
	return NULL;
}

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static int probe_prog_type(enum bpf_prog_type t)
{
	static int cache[64];
	if ((unsigned)t >= 64)
		return 0;
	if (!cache[t])
		cache[t] = libbpf_probe_bpf_prog_type(t, NULL) == 1 ? 1 : -1;
	return cache[t] == 1;
}

/* Tracing programs (fentry/fexit/...) need the kernel to accept
 * BPF_PROG_TYPE_TRACING with a BTF target: try a trivial fentry program. */
static bool probe_fentry(void)
{
	static int cached;
	if (cached)
		return cached > 0;
	struct btf *vm = btf__load_vmlinux_btf();
	int id = vm ? btf__find_by_name_kind(vm, "bpf_fentry_test1", BTF_KIND_FUNC) : -1;
	if (id < 0 && vm)
		id = btf__find_by_name_kind(vm, "do_nanosleep", BTF_KIND_FUNC);
	btf__free(vm);
	if (id < 0) {
		cached = -1;
		return false;
	}
	struct bpf_insn insns[] = {
		{ .code = 0xb7, .dst_reg = 0, .imm = 0 },	/* r0 = 0 */
		{ .code = 0x95 },				/* exit */
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = (uint32_t)id);
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "probe", "GPL", insns, 2, &o);
	if (fd >= 0) {
		int lfd = bpf_raw_tracepoint_open(NULL, fd);
		if (lfd >= 0)
			close(lfd);
		close(fd);
		cached = lfd >= 0 ? 1 : -1;
	} else {
		cached = -1;
	}
	return cached > 0;
}

/* NULL if the kernel has what section sec needs, else a sentence naming the
 * missing feature. */
static const char *kernel_feature_missing(const char *sec)
{
	static char buf[512];

	if (has_prefix(sec, "kprobe") || has_prefix(sec, "kretprobe") ||
	    has_prefix(sec, "ksyscall") || has_prefix(sec, "kretsyscall")) {
		const char *tfs = tracefs_dir();
		char p[256];
		snprintf(p, sizeof(p), "%s/kprobe_events", tfs ? tfs : "/sys/kernel/tracing");
		if (!path_exists("/sys/bus/event_source/devices/kprobe/type") && !path_exists(p))
			return "kprobes are not available in this kernel (CONFIG_KPROBES / "
			       "CONFIG_KPROBE_EVENTS is off); use a tracepoint (tp/CATEGORY/NAME) instead";
		return NULL;
	}
	if (has_prefix(sec, "uprobe") || has_prefix(sec, "uretprobe") || has_prefix(sec, "usdt")) {
		if (!path_exists("/sys/bus/event_source/devices/uprobe/type"))
			return "uprobes are not available in this kernel (CONFIG_UPROBE_EVENTS is off)";
		return NULL;
	}
	if (has_prefix(sec, "fentry") || has_prefix(sec, "fexit") || has_prefix(sec, "fmod_ret") ||
	    has_prefix(sec, "lsm") || has_prefix(sec, "iter")) {
		if (!probe_fentry())
			return "BPF tracing programs (fentry/fexit, BPF trampolines) are not supported "
			       "by this kernel; use tp_btf/ or raw_tp/ on a tracepoint instead";
		return NULL;
	}
	if (has_prefix(sec, "tp_btf/") || has_prefix(sec, "raw_tp") || has_prefix(sec, "raw_tracepoint")) {
		if (has_prefix(sec, "tp_btf/") && !path_exists("/sys/kernel/btf/vmlinux"))
			return "tp_btf programs need the kernel's BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF)";
		if (!probe_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT))
			return "raw tracepoint programs are not supported by this kernel";
		return NULL;
	}
	if (has_prefix(sec, "tp/") || has_prefix(sec, "tracepoint/")) {
		const char *tfs = tracefs_dir();
		const char *tp = strchr(sec, '/') + 1;
		if (!tfs)
			return "tracefs is not mounted and cannot be mounted (mount -t tracefs nodev /sys/kernel/tracing)";
		snprintf(buf, sizeof(buf), "%s/events/%s", tfs, tp);
		if (!path_exists(buf)) {
			snprintf(buf, sizeof(buf), "tracepoint '%s' does not exist in this kernel "
				 "(see %s/available_events)", tp, tfs);
			return buf;
		}
		return NULL;
	}
	if (has_prefix(sec, "perf_event"))
		return NULL;
	snprintf(buf, sizeof(buf), "section '%s' is not a tracing attach point that 'bpfperf run' "
		 "attaches (tracepoint/, tp/, raw_tp/, tp_btf/, uprobe/, uretprobe/, usdt/, "
		 "perf_event, kprobe/, kretprobe/, fentry/, fexit/)", sec);
	return buf;
}

/* Effective capabilities from /proc/self/status (CapEff), or ~0 if unknown. */
static uint64_t cap_effective(void)
{
	char *s = read_file("/proc/self/status", NULL);
	uint64_t caps = ~0ULL;
	const char *p = s ? strstr(s, "CapEff:") : NULL;
	if (p)
		caps = strtoull(p + 7, NULL, 16);
	free(s);
	return caps;
}

int bpfobj_check_support(struct bpfobj *bo, bool skip_unsupported)
{
	int bad = 0, enabled = 0;
	uint64_t caps = cap_effective();
	bool sys_admin = caps & (1ULL << 21), perfmon = caps & (1ULL << 38), bpf = caps & (1ULL << 39);
	if (!sys_admin && !(bpf && perfmon)) {
		pr_err("no permission to load %s: BPF tracing programs need root, or CAP_BPF and "
		       "CAP_PERFMON; run with sudo", bo->path);
		return -EPERM;
	}
	for (int i = 0; i < bo->nr_progs; i++) {
		struct bpf_program *p = bo->progs[i];
		if (!bpf_program__autoload(p))
			continue;
		const char *sec = bpf_program__section_name(p);
		const char *why = kernel_feature_missing(sec);
		if (!why) {
			enabled++;
			continue;
		}
		if (skip_unsupported) {
			pr_warn("skipping program '%s' (section '%s'): %s",
				bpf_program__name(p), sec, why);
			bpf_program__set_autoload(p, false);
		} else {
			pr_err("program '%s' (section '%s') cannot run here: %s; "
			       "or pass --skip-unsupported to run the other programs",
			       bpf_program__name(p), sec, why);
			bad++;
		}
	}
	if (bad)
		return -EOPNOTSUPP;
	return enabled;
}

/* ------------------------------------------------------------------ load */

static libbpf_print_fn_t saved_print;
static bool quiet_btf_retry;

/* While loading, libbpf's copy of the verifier log is dropped: we print a
 * shorter one with the program's name and section. */
static int load_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (strstr(fmt, "PROG LOAD LOG") || strstr(fmt, "-- BEGIN") ||
	    strstr(fmt, "BPF program load failed") || strstr(fmt, "failed to load: %d"))
		return 0;
	/* ring buffers declared with a value type: expected, see bpfobj_open */
	if (quiet_btf_retry && strstr(fmt, "Retrying without BTF"))
		return 0;
	if (saved_print) {
		va_list c;
		va_copy(c, ap);
		int r = saved_print(level, fmt, c);
		va_end(c);
		return r;
	}
	return 0;
}

static void report_verifier(struct bpfobj *bo, int idx, int err)
{
	struct bpf_program *p = bo->progs[idx];
	char *log = bo->logs[idx];
	/* Split into lines and drop the statistics at the end. */
	char **lines = NULL;
	size_t n = 0, cap = 0;
	for (char *s = strtok(log, "\n"); s; s = strtok(NULL, "\n")) {
		ARRAY_GROW(lines, cap, n + 1);
		lines[n++] = s;
	}
	while (n > 0 && (has_prefix(lines[n - 1], "processed ") ||
			 has_prefix(lines[n - 1], "verification time") ||
			 has_prefix(lines[n - 1], "stack depth") ||
			 !*lines[n - 1]))
		n--;
	const char *reason = n ? lines[n - 1] : "no verifier log";
	pr_err("program '%s' (section '%s') in %s was rejected by the kernel verifier: %s (%s); "
	       "fix the program (the verifier's last instructions are below; -vvv shows the full log)",
	       bpf_program__name(p), bpf_program__section_name(p), bo->path, reason, log_strerr(err));
	size_t first = n > 21 ? n - 21 : 0;
	if (n > 1) {
		fprintf(stderr, "--- verifier log (last %zu of %zu lines) ---\n", n - first, n);
		for (size_t i = first; i < n; i++)
			fprintf(stderr, "%s\n", lines[i]);
		fprintf(stderr, "--- end of verifier log ---\n");
	}
	free(lines);
}

static bool have_privileges(void)
{
	return geteuid() == 0;
}

int bpfobj_load(struct bpfobj *bo)
{
	struct bpf_map *m;
	quiet_btf_retry = false;
	bpf_object__for_each_map(m, bo->obj)
		if (bpf_map__type(m) == BPF_MAP_TYPE_RINGBUF && map_def_value_type(bo->btf, bpf_map__name(m)))
			quiet_btf_retry = true;
	saved_print = libbpf_set_print(load_print);
	int err = bpf_object__load(bo->obj);
	libbpf_set_print(saved_print);
	corebtf_prep_done(&bo->core);	/* libbpf has read it */
	if (!err)
		return 0;
	for (int i = 0; i < bo->nr_progs; i++) {
		if (bo->logs[i][0]) {
			report_verifier(bo, i, err);
			return err;
		}
	}
	if (err == -EPERM || err == -EACCES) {
		pr_err("cannot load %s: %s; run as root (or with CAP_BPF and CAP_PERFMON)%s",
		       bo->path, log_strerr(err),
		       have_privileges() ? ", and check kernel.unprivileged_bpf_disabled / lockdown" : "");
		return err;
	}
	pr_err("cannot load %s into the kernel: %s (the libbpf messages above say which map or "
	       "program failed)", bo->path, log_strerr(err));
	return err;
}

/* ---------------------------------------------------------------- attach */

static void add_link(struct bpfobj *bo, struct bpf_link *l)
{
	if (bo->nr_links == bo->cap_links)
		ARRAY_GROW(bo->links, bo->cap_links, bo->nr_links + 1);
	bo->links[bo->nr_links++] = l;
}

int bpfobj_nr_links(const struct bpfobj *bo) { return (int)bo->nr_links; }


int bpfobj_parse_perf_event(const char *spec, struct bpfobj_perf_event *ev)
{
	char buf[128], err[256];
	struct perf_event_attr attr;
	char *name = NULL;
	if (strlen(spec) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", spec);
	memset(ev, 0, sizeof(*ev));
	ev->freq = 99;
	/* A trailing ":NUMBER" is the frequency; the rest is perf's event syntax. */
	char *colon = strrchr(buf, ':');
	if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		uint64_t f;
		if (!parse_u64(colon + 1, &f) || f == 0)
			return -EINVAL;
		ev->freq = f;
		*colon = '\0';
	}
	if (event_parse(buf, &attr, &name, err, sizeof(err)) < 0)
		return -EINVAL;
	ev->type = attr.type;
	ev->config = attr.config;
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	free(name);
	return 0;
}

static int attach_perf_event(struct bpfobj *bo, struct bpf_program *p, const struct bpfobj_attach_opts *o)
{
	struct bpfobj_perf_event def = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
					 .freq = 99, .name = "cpu-clock" };
	const struct bpfobj_perf_event *evs = o->nr_events ? o->events : &def;
	int nev = o->nr_events ? o->nr_events : 1;
	int ncpu = cpu_count_possible();
	bool *online = cpu_online_mask();
	int ret = 0;

	for (int e = 0; e < nev && !ret; e++) {
		for (int cpu = o->pid > 0 ? -1 : 0; cpu < (o->pid > 0 ? 0 : ncpu); cpu++) {
			if (cpu >= 0 && !online[cpu])
				continue;
			struct perf_event_attr a = {
				.size = sizeof(a), .type = evs[e].type, .config = evs[e].config,
				.freq = evs[e].freq ? 1 : 0,
				.inherit = o->pid > 0 && o->inherit,
			};
			if (evs[e].freq)
				a.sample_freq = evs[e].freq;
			else
				a.sample_period = evs[e].period;
			int fd = (int)syscall(SYS_perf_event_open, &a, o->pid > 0 ? o->pid : -1, cpu, -1,
					      PERF_FLAG_FD_CLOEXEC);
			if (fd < 0) {
				ret = -errno;
				if (evs[e].type == PERF_TYPE_HARDWARE && (errno == ENOENT || errno == EOPNOTSUPP))
					pr_err("program '%s': cannot open event %s: this machine has no hardware "
					       "PMU counters (%s); use a software event such as -e cpu-clock",
					       bpf_program__name(p), evs[e].name, strerror(errno));
				else
					pr_err("program '%s': cannot open perf event %s on %s %d: %s%s",
					       bpf_program__name(p), evs[e].name, cpu >= 0 ? "CPU" : "pid",
					       cpu >= 0 ? cpu : o->pid, strerror(errno),
					       errno == EACCES || errno == EPERM ? "; run as root or with CAP_PERFMON" : "");
				break;
			}
			struct bpf_link *l = bpf_program__attach_perf_event(p, fd);
			if (!l) {
				ret = -errno;
				close(fd);
				pr_err("program '%s': cannot attach to perf event %s: %s",
				       bpf_program__name(p), evs[e].name, log_strerr(ret));
				break;
			}
			add_link(bo, l);	/* the link owns and closes fd */
		}
	}
	free(online);
	return ret;
}

/* "uprobe/PATH:FUNC[+OFF]" (and uretprobe) with a pid: libbpf's
 * auto-attach always traces every process, so attach by hand. */
static struct bpf_link *attach_uprobe_pid(struct bpf_program *p, const char *sec, pid_t pid)
{
	bool ret = has_prefix(sec, "uretprobe");
	const char *spec = strchr(sec, '/');
	if (!spec || !spec[1]) {
		errno = EINVAL;
		return NULL;
	}
	spec++;
	const char *colon = strrchr(spec, ':');
	if (!colon) {
		errno = EINVAL;
		return NULL;
	}
	char *path = xstrndup(spec, (size_t)(colon - spec));
	char *func = xstrdup(colon + 1);
	size_t off = 0;
	char *plus = strchr(func, '+');
	if (plus) {
		*plus = 0;
		off = strtoul(plus + 1, NULL, 0);
	}
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .retprobe = ret, .func_name = *func ? func : NULL);
	struct bpf_link *l = bpf_program__attach_uprobe_opts(p, pid, path, off, &uo);
	free(path);
	free(func);
	return l;
}

static struct bpf_link *attach_usdt_pid(struct bpf_program *p, const char *sec, pid_t pid)
{
	/* usdt/PATH:PROVIDER:NAME */
	const char *spec = strchr(sec, '/');
	if (!spec) {
		errno = EINVAL;
		return NULL;
	}
	char *s = xstrdup(spec + 1);
	char *n2 = strrchr(s, ':');
	char *n1 = n2 ? memrchr(s, ':', (size_t)(n2 - s)) : NULL;
	struct bpf_link *l = NULL;
	if (!n1) {
		errno = EINVAL;
	} else {
		*n1 = *n2 = 0;
		l = bpf_program__attach_usdt(p, pid, s, n1 + 1, n2 + 1, NULL);
	}
	free(s);
	return l;
}

int bpfobj_attach(struct bpfobj *bo, const struct bpfobj_attach_opts *o)
{
	int failed = 0;
	for (int i = 0; i < bo->nr_progs; i++) {
		struct bpf_program *p = bo->progs[i];
		if (!bpf_program__autoload(p) || bpf_program__fd(p) < 0)
			continue;
		const char *sec = bpf_program__section_name(p);
		struct bpf_link *l = NULL;
		int err = 0;

		if (has_prefix(sec, "perf_event")) {
			err = attach_perf_event(bo, p, o);
			if (err) {
				failed++;
				if (!o->skip_unsupported)
					return err;
			}
			continue;
		}
		if (o->pid > 0 && (has_prefix(sec, "uprobe/") || has_prefix(sec, "uretprobe/")))
			l = attach_uprobe_pid(p, sec, o->pid);
		else if (o->pid > 0 && has_prefix(sec, "usdt/"))
			l = attach_usdt_pid(p, sec, o->pid);
		else
			l = bpf_program__attach(p);
		if (!l) {
			err = -errno;
			const char *why = kernel_feature_missing(sec);
			if (err == -EOPNOTSUPP || err == -ESRCH)
				why = why ? why : "libbpf has no auto-attach target in this section name "
				       "(uprobe/ and usdt/ need PATH:FUNCTION, e.g. SEC(\"uprobe//bin/bash:readline\"))";
			pr_err("cannot attach program '%s' (section '%s'): %s%s%s", bpf_program__name(p), sec,
			       log_strerr(err), why ? "; " : "", why ? why : "");
			failed++;
			if (!o->skip_unsupported)
				return err ? err : -EINVAL;
			continue;
		}
		pr_debug("attached '%s' at %s", bpf_program__name(p), sec);
		add_link(bo, l);
	}
	if (failed && !bo->nr_links) {
		pr_err("%s: no program could be attached", bo->path);
		return -ENOENT;
	}
	return 0;
}

/* --------------------------------------------------------------- streams */

static uint32_t map_def_value_type(const struct btf *btf, const char *map_name)
{
	if (!btf)
		return 0;
	int sec = btf__find_by_name_kind(btf, ".maps", BTF_KIND_DATASEC);
	if (sec < 0)
		return 0;
	const struct btf_type *t = btf__type_by_id(btf, (uint32_t)sec);
	const struct btf_var_secinfo *v = btf_var_secinfos(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *vt = btf__type_by_id(btf, v[i].type);
		if (!vt || !btf_is_var(vt) || strcmp(btf__name_by_offset(btf, vt->name_off), map_name))
			continue;
		uint32_t sid = vt->type;
		const struct btf_type *st = resolve(btf, &sid);
		if (!st || !btf_is_struct(st))
			return 0;
		const struct btf_member *m = btf_members(st);
		for (uint16_t k = 0; k < btf_vlen(st); k++) {
			if (strcmp(btf__name_by_offset(btf, m[k].name_off), "value"))
				continue;
			const struct btf_type *pt = btf__type_by_id(btf, m[k].type);
			if (pt && btf_is_ptr(pt))
				return pt->type;
		}
	}
	return 0;
}

static void print_record(struct stream *s, const void *data, size_t size)
{
	struct bpfobj *bo = s->bo;
	bo->records++;
	if (bo->out.json) {
		struct json_writer *jw = jw_new(bo->out.out, false);
		jw_start_object(jw);
		jw_kv_string(jw, "map", bpf_map__name(s->map));
		jw_key(jw, "record");
		if (s->type_id)
			btf_fmt_json(jw, bo->btf, s->type_id, data, size);
		else
			btf_fmt_hex_json(jw, data, size);
		jw_end_object(jw);
		jw_free(jw);
	} else {
		struct strbuf sb = {0};
		sb_printf(&sb, "%s: ", bpf_map__name(s->map));
		if (s->type_id)
			btf_fmt_text(&sb, bo->btf, s->type_id, data, size);
		else
			btf_fmt_hex_text(&sb, data, size);
		fprintf(bo->out.out, "%s\n", sb.buf);
		sb_free(&sb);
	}
}

static int rb_cb(void *ctx, void *data, size_t size)
{
	print_record(ctx, data, size);
	return 0;
}

static void pb_sample(void *ctx, int cpu, void *data, uint32_t size)
{
	(void)cpu;
	print_record(ctx, data, size);
}

static void pb_lost(void *ctx, int cpu, unsigned long long cnt)
{
	struct stream *s = ctx;
	s->bo->lost += cnt;
	if (s->bo->out.json) {
		struct json_writer *jw = jw_new(s->bo->out.out, false);
		jw_start_object(jw);
		jw_kv_string(jw, "map", bpf_map__name(s->map));
		jw_kv_int(jw, "cpu", cpu);
		jw_kv_uint(jw, "lost", cnt);
		jw_end_object(jw);
		jw_free(jw);
	} else {
		fprintf(s->bo->out.out, "%s: LOST %llu records on CPU %d\n", bpf_map__name(s->map), cnt, cpu);
	}
}

int bpfobj_streams_open(struct bpfobj *bo, const struct bpfobj_output *o)
{
	bo->out = *o;
	struct bpf_map *m;
	int n = 0;
	uint32_t forced = 0;
	if (o->event_type) {
		forced = bo->btf ? btf_fmt_find_struct(bo->btf, o->event_type) : 0;
		if (!forced) {
			pr_err("--event-type %s: %s has no struct or typedef named '%s'%s", o->event_type,
			       bo->path, o->event_type, bo->btf ? "" : " (it has no BTF: compile with clang -g)");
			return -ENOENT;
		}
	}
	bpf_object__for_each_map(m, bo->obj) {
		enum bpf_map_type t = bpf_map__type(m);
		if (t == BPF_MAP_TYPE_RINGBUF || t == BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			n++;
	}
	if (!n)
		return 0;
	bo->streams = xcalloc((size_t)n, sizeof(*bo->streams));
	bo->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (bo->epfd < 0) {
		pr_err("epoll_create1: %s", strerror(errno));
		return -errno;
	}
	uint32_t event_struct = bo->btf ? btf_fmt_find_struct(bo->btf, "event") : 0;
	bpf_object__for_each_map(m, bo->obj) {
		enum bpf_map_type t = bpf_map__type(m);
		if (t != BPF_MAP_TYPE_RINGBUF && t != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			continue;
		struct stream *s = &bo->streams[bo->nr_streams++];
		s->bo = bo;
		s->map = m;
		s->type_id = forced;
		if (!s->type_id) {
			uint32_t v = map_def_value_type(bo->btf, bpf_map__name(m));
			int sz;
			bool sg;
			/* a perf event array's declared value is the fd (an int): not the record */
			if (v && !(t == BPF_MAP_TYPE_PERF_EVENT_ARRAY && btf_fmt_int_info(bo->btf, v, &sz, &sg)))
				s->type_id = v;
		}
		if (!s->type_id)
			s->type_id = event_struct;
		if (!s->type_id)
			pr_warn("map '%s': record type unknown, records are shown as hex; "
				"declare __type(value, struct X) or pass --event-type X", bpf_map__name(m));
		int efd;
		if (t == BPF_MAP_TYPE_RINGBUF) {
			if (!bo->rb) {
				bo->rb = ring_buffer__new(bpf_map__fd(m), rb_cb, s, NULL);
				if (!bo->rb) {
					int err = -errno;
					pr_err("ring buffer map '%s': %s", bpf_map__name(m), log_strerr(err));
					return err;
				}
				efd = ring_buffer__epoll_fd(bo->rb);
				struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
				epoll_ctl(bo->epfd, EPOLL_CTL_ADD, efd, &ev);
			} else if (ring_buffer__add(bo->rb, bpf_map__fd(m), rb_cb, s)) {
				int err = -errno;
				pr_err("ring buffer map '%s': %s", bpf_map__name(m), log_strerr(err));
				return err;
			}
		} else {
			s->pb = perf_buffer__new(bpf_map__fd(m), 64, pb_sample, pb_lost, s, NULL);
			if (!s->pb) {
				int err = -errno;
				pr_err("perf event array map '%s': %s", bpf_map__name(m), log_strerr(err));
				return err;
			}
			efd = perf_buffer__epoll_fd(s->pb);
			struct epoll_event ev = { .events = EPOLLIN, .data.ptr = s };
			epoll_ctl(bo->epfd, EPOLL_CTL_ADD, efd, &ev);
		}
	}
	return bo->nr_streams;
}

int bpfobj_streams_poll(struct bpfobj *bo, int timeout_ms)
{
	if (bo->epfd < 0) {
		if (timeout_ms > 0) {
			struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L };
			nanosleep(&ts, NULL);
		}
		return 0;
	}
	uint64_t before = bo->records;
	struct epoll_event evs[16];
	int n = epoll_wait(bo->epfd, evs, 16, timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (int i = 0; i < n; i++) {
		struct stream *s = evs[i].data.ptr;
		if (!s)
			ring_buffer__consume(bo->rb);
		else
			perf_buffer__consume(s->pb);
	}
	fflush(bo->out.out);
	return (int)(bo->records - before);
}

void bpfobj_streams_stats(const struct bpfobj *bo, uint64_t *records, uint64_t *lost)
{
	/* drain what is left */
	if (bo->rb)
		ring_buffer__consume(bo->rb);
	for (int i = 0; i < bo->nr_streams; i++)
		if (bo->streams[i].pb)
			perf_buffer__consume(bo->streams[i].pb);
	*records = bo->records;
	*lost = bo->lost;
}

/* ------------------------------------------------------------------ dump */

static const char *map_type_name(enum bpf_map_type t)
{
	const char *n = libbpf_bpf_map_type_str(t);
	return n ? n : "unknown";
}

static bool is_percpu(enum bpf_map_type t)
{
	return t == BPF_MAP_TYPE_PERCPU_ARRAY || t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH || t == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
}

static bool dumpable(const struct bpf_map *m)
{
	switch (bpf_map__type(m)) {
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_BLOOM_FILTER:
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
		return false;
	default:
		break;
	}
	const char *n = bpf_map__name(m);
	if (bpf_map__is_internal(m) && (strstr(n, ".kconfig") || strstr(n, ".rodata.str")))
		return false;
	return bpf_map__fd(m) >= 0;
}

/* Name shown for a map: global data maps by their section (".bss"). */
static const char *display_name(const struct bpfobj *bo, const struct bpf_map *m)
{
	if (bpf_map__is_internal(m) && bo->btf) {
		uint32_t vid = bpf_map__btf_value_type_id(m);
		const struct btf_type *t = vid ? btf__type_by_id(bo->btf, vid) : NULL;
		if (t && btf_is_datasec(t))
			return btf__name_by_offset(bo->btf, t->name_off);
	}
	if (bpf_map__is_internal(m)) {
		const char *d = strchr(bpf_map__name(m), '.');
		if (d)
			return d;
	}
	return bpf_map__name(m);
}

struct map_iter {
	int fd;
	uint32_t key_size, value_size, stride;
	int nr_values;
	uint8_t *key, *next, *val;
	bool first, done;
};

static void iter_init(struct map_iter *it, const struct bpf_map *m)
{
	memset(it, 0, sizeof(*it));
	it->fd = bpf_map__fd(m);
	it->key_size = bpf_map__key_size(m);
	it->value_size = bpf_map__value_size(m);
	it->nr_values = is_percpu(bpf_map__type(m)) ? libbpf_num_possible_cpus() : 1;
	if (it->nr_values < 1)
		it->nr_values = 1;
	it->stride = it->nr_values > 1 ? (uint32_t)ALIGN_UP(it->value_size, 8) : it->value_size;
	it->key = xcalloc(1, it->key_size + 8);
	it->next = xcalloc(1, it->key_size + 8);
	it->val = xcalloc((size_t)it->nr_values, (size_t)it->stride + 8);
	it->first = true;
}

/* Next entry into it->key / it->val; false at the end. */
static bool iter_next(struct map_iter *it)
{
	for (;;) {
		if (it->done)
			return false;
		int err = bpf_map_get_next_key(it->fd, it->first ? NULL : it->key, it->next);
		it->first = false;
		if (err) {
			it->done = true;
			return false;
		}
		memcpy(it->key, it->next, it->key_size);
		if (bpf_map_lookup_elem(it->fd, it->key, it->val) == 0)
			return true;
		/* deleted meanwhile: go on */
	}
}

static void iter_free(struct map_iter *it)
{
	free(it->key);
	free(it->next);
	free(it->val);
}

static void json_kv(struct bpfobj *bo, struct json_writer *jw, uint32_t tid, const void *d, uint32_t sz)
{
	if (tid && bo->btf)
		btf_fmt_json(jw, bo->btf, tid, d, sz);
	else
		btf_fmt_hex_json(jw, d, sz);
}

static void text_kv(struct bpfobj *bo, struct strbuf *sb, uint32_t tid, const void *d, uint32_t sz)
{
	if (tid && bo->btf)
		btf_fmt_text(sb, bo->btf, tid, d, sz);
	else
		btf_fmt_hex_text(sb, d, sz);
}

static struct hist_state *hist_state(struct bpfobj *bo, const char *name, uint32_t nr)
{
	for (int i = 0; i < bo->nr_hists; i++)
		if (!strcmp(bo->hists[i].name, name))
			return &bo->hists[i];
	bo->hists = xrealloc(bo->hists, sizeof(*bo->hists) * (size_t)(bo->nr_hists + 1));
	struct hist_state *h = &bo->hists[bo->nr_hists++];
	h->name = xstrdup(name);
	h->nr = nr;
	h->prev = xcalloc(nr, sizeof(uint64_t));
	return h;
}

static void emit_hist(struct bpfobj *bo, const struct bpfobj_dump_opts *d, struct strbuf *sb,
		      const char *title, uint64_t *counts, uint32_t nr)
{
	if (d->heatmap) {
		struct hist_state *h = hist_state(bo, title, nr);
		uint64_t *delta = xcalloc(nr, sizeof(uint64_t));
		for (uint32_t i = 0; i < nr && i < h->nr; i++) {
			delta[i] = counts[i] >= h->prev[i] ? counts[i] - h->prev[i] : counts[i];
			h->prev[i] = counts[i];
		}
		time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		sb_printf(sb, "%02d:%02d:%02d %-16s |", tm.tm_hour, tm.tm_min, tm.tm_sec, title);
		hist_log2_heat_row(sb, delta, nr);
		sb_append(sb, "|\n");
		free(delta);
		return;
	}
	sb_printf(sb, "%s (log2 histogram):\n", title);
	hist_log2_print(sb, counts, nr, "value");
	sb_append(sb, "\n");
}

/* Histogram shapes: an array map of integer counts (log2 slots), or any map
 * whose value is a struct with a slots[] array of integers. */
static void map_histograms(struct bpfobj *bo, const struct bpf_map *m, const struct bpfobj_dump_opts *d,
			   struct strbuf *sb)
{
	if (!bo->btf)
		return;
	enum bpf_map_type t = bpf_map__type(m);
	uint32_t vid = bpf_map__btf_value_type_id(m);
	uint32_t kid = bpf_map__btf_key_type_id(m);
	int esz;
	bool sg;
	size_t soff;
	uint32_t snr;
	if (!vid || bpf_map__is_internal(m))
		return;
	struct map_iter it;
	if ((t == BPF_MAP_TYPE_ARRAY || t == BPF_MAP_TYPE_PERCPU_ARRAY) &&
	    btf_fmt_int_info(bo->btf, vid, &esz, &sg) && bpf_map__max_entries(m) >= 2 &&
	    bpf_map__max_entries(m) <= 65) {
		uint32_t nr = bpf_map__max_entries(m);
		uint64_t *counts = xcalloc(nr, sizeof(uint64_t));
		iter_init(&it, m);
		while (iter_next(&it)) {
			uint32_t k = (uint32_t)btf_fmt_read_uint(it.key, 4);
			if (k >= nr)
				continue;
			for (int c = 0; c < it.nr_values; c++)
				counts[k] += btf_fmt_read_uint(it.val + (size_t)c * it.stride, esz);
		}
		iter_free(&it);
		emit_hist(bo, d, sb, bpf_map__name(m), counts, nr);
		free(counts);
		return;
	}
	if (btf_fmt_find_slots(bo->btf, vid, &soff, &snr, &esz) &&
	    soff + (size_t)snr * (size_t)esz <= bpf_map__value_size(m)) {
		uint64_t *counts = xcalloc(snr, sizeof(uint64_t));
		iter_init(&it, m);
		while (iter_next(&it)) {
			memset(counts, 0, snr * sizeof(uint64_t));
			for (int c = 0; c < it.nr_values; c++)
				for (uint32_t s = 0; s < snr; s++)
					counts[s] += btf_fmt_read_uint(it.val + (size_t)c * it.stride + soff +
								       (size_t)s * (size_t)esz, esz);
			struct strbuf title = {0};
			sb_printf(&title, "%s", bpf_map__name(m));
			if (t != BPF_MAP_TYPE_ARRAY && t != BPF_MAP_TYPE_PERCPU_ARRAY) {
				sb_append(&title, " ");
				text_kv(bo, &title, kid, it.key, it.key_size);
			} else if (bpf_map__max_entries(m) > 1) {
				sb_printf(&title, "[%u]", (uint32_t)btf_fmt_read_uint(it.key, 4));
			}
			bool any = false;
			for (uint32_t s = 0; s < snr; s++)
				any |= counts[s] != 0;
			if (any || t == BPF_MAP_TYPE_HASH || bpf_map__max_entries(m) == 1)
				emit_hist(bo, d, sb, title.buf, counts, snr);
			sb_free(&title);
		}
		iter_free(&it);
		free(counts);
	}
}

static void dump_map_json(struct bpfobj *bo, struct json_writer *jw, const struct bpf_map *m)
{
	uint32_t kid = bo->btf ? bpf_map__btf_key_type_id(m) : 0;
	uint32_t vid = bo->btf ? bpf_map__btf_value_type_id(m) : 0;
	enum bpf_map_type t = bpf_map__type(m);
	struct map_iter it;

	jw_start_object(jw);
	jw_kv_string(jw, "name", display_name(bo, m));
	jw_kv_string(jw, "type", map_type_name(t));
	jw_key(jw, "entries");
	jw_start_array(jw);
	iter_init(&it, m);
	bool datasec = false;
	if (vid) {
		const struct btf_type *vt = btf__type_by_id(bo->btf, vid);
		datasec = vt && btf_is_datasec(vt);
	}
	while (iter_next(&it)) {
		jw_start_object(jw);
		if (!datasec) {
			jw_key(jw, "key");
			json_kv(bo, jw, kid, it.key, it.key_size);
		}
		if (it.nr_values > 1) {
			jw_key(jw, "values");
			jw_start_array(jw);
			for (int c = 0; c < it.nr_values; c++) {
				jw_start_object(jw);
				jw_kv_int(jw, "cpu", c);
				jw_key(jw, "value");
				json_kv(bo, jw, vid, it.val + (size_t)c * it.stride, it.value_size);
				jw_end_object(jw);
			}
			jw_end_array(jw);
		} else {
			jw_key(jw, "value");
			json_kv(bo, jw, vid, it.val, it.value_size);
		}
		jw_end_object(jw);
	}
	iter_free(&it);
	jw_end_array(jw);
	jw_end_object(jw);
}

static void dump_map_text(struct bpfobj *bo, struct strbuf *sb, const struct bpf_map *m)
{
	uint32_t kid = bo->btf ? bpf_map__btf_key_type_id(m) : 0;
	uint32_t vid = bo->btf ? bpf_map__btf_value_type_id(m) : 0;
	enum bpf_map_type t = bpf_map__type(m);
	bool array = t == BPF_MAP_TYPE_ARRAY || t == BPF_MAP_TYPE_PERCPU_ARRAY;
	struct map_iter it;
	size_t entries = 0, zero = 0;

	sb_printf(sb, "%s (%s):\n", display_name(bo, m), map_type_name(t));
	iter_init(&it, m);
	bool datasec = false;
	if (vid) {
		const struct btf_type *vt = btf__type_by_id(bo->btf, vid);
		datasec = vt && btf_is_datasec(vt);
	}
	while (iter_next(&it)) {
		entries++;
		/* Arrays are pre-sized: leave out the untouched (all-zero) entries. */
		if (array && !datasec) {
			bool nz = false;
			for (size_t b = 0; b < (size_t)it.stride * (size_t)it.nr_values && !nz; b++)
				nz = it.val[b] != 0;
			if (!nz) {
				zero++;
				continue;
			}
		}
		if (datasec) {
			sb_append(sb, "  ");
			text_kv(bo, sb, vid, it.val, it.value_size);
			sb_append(sb, "\n");
			continue;
		}
		sb_append(sb, "  [");
		text_kv(bo, sb, kid, it.key, it.key_size);
		sb_append(sb, "] = ");
		if (it.nr_values > 1) {
			sb_append(sb, "{ ");
			bool firstc = true;
			for (int c = 0; c < it.nr_values; c++) {
				const uint8_t *v = it.val + (size_t)c * it.stride;
				bool nz = false;
				for (uint32_t b = 0; b < it.value_size && !nz; b++)
					nz = v[b] != 0;
				if (!nz)
					continue;
				sb_printf(sb, "%s[cpu%d] = ", firstc ? "" : ", ", c);
				text_kv(bo, sb, vid, v, it.value_size);
				firstc = false;
			}
			sb_append(sb, firstc ? "0 }" : " }");
		} else {
			text_kv(bo, sb, vid, it.val, it.value_size);
		}
		sb_append(sb, ",\n");
	}
	iter_free(&it);
	if (!entries)
		sb_append(sb, "  (empty)\n");
	else if (zero)
		sb_printf(sb, "  (%zu zero entr%s not shown)\n", zero, zero == 1 ? "y" : "ies");
	sb_append(sb, "\n");
}

int bpfobj_dump_maps(struct bpfobj *bo, const struct bpfobj_dump_opts *d)
{
	struct bpf_map *m;
	if (d->o.jw && d->maps_only) {
		bpf_object__for_each_map(m, bo->obj)
			if (dumpable(m))
				dump_map_json(bo, d->o.jw, m);
		return 0;
	}
	if (d->o.jw) {
		struct json_writer *jw = d->o.jw;
		jw_start_object(jw);
		jw_key(jw, "maps");
		jw_start_array(jw);
		bpf_object__for_each_map(m, bo->obj)
			if (dumpable(m))
				dump_map_json(bo, jw, m);
		jw_end_array(jw);
		jw_end_object(jw);
		return 0;
	}
	struct strbuf sb = {0};
	if (d->heatmap) {
		bpf_object__for_each_map(m, bo->obj)
			if (dumpable(m))
				map_histograms(bo, m, d, &sb);
	} else {
		if (d->heading)
			sb_printf(&sb, "%s\n", d->heading);
		bpf_object__for_each_map(m, bo->obj) {
			if (!dumpable(m))
				continue;
			dump_map_text(bo, &sb, m);
			if (d->histograms)
				map_histograms(bo, m, d, &sb);
		}
	}
	if (sb.buf)
		fputs(sb.buf, d->o.out);
	fflush(d->o.out);
	sb_free(&sb);
	return 0;
}

/* ----------------------------------------------------------------- other */

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
	for (int i = 0; i < bo->nr_progs; i++)
		free(bo->logs[i]);
	free(bo->logs);
	free(bo->progs);
	for (int i = 0; i < bo->nr_hists; i++) {
		free(bo->hists[i].name);
		free(bo->hists[i].prev);
	}
	free(bo->hists);
	free(bo->perf_fds);
	free(bo->path);
	free(bo);
}

int bpfobj_open_perf_event_progs(const char *path, char *const *sets, int nr_sets,
				 struct bpfobj **out, int **fds, int *nr_fds)
{
	int err;
	*out = NULL;
	*fds = NULL;
	*nr_fds = 0;
	struct bpfobj *bo = bpfobj_open(path, sets, nr_sets, &err);
	if (!bo)
		return err;
	int n = 0;
	for (int i = 0; i < bo->nr_progs; i++) {
		bool pe = has_prefix(bpf_program__section_name(bo->progs[i]), "perf_event");
		bpf_program__set_autoload(bo->progs[i], pe);
		n += pe;
	}
	if (!n) {
		pr_err("%s has no SEC(\"perf_event\") program to use as a sample filter", path);
		bpfobj_close(bo);
		return -ENOENT;
	}
	err = bpfobj_load(bo);
	if (err) {
		bpfobj_close(bo);
		return err;
	}
	int *v = xcalloc((size_t)n, sizeof(int));
	int k = 0;
	for (int i = 0; i < bo->nr_progs; i++)
		if (bpf_program__autoload(bo->progs[i]))
			v[k++] = bpf_program__fd(bo->progs[i]);
	*out = bo;
	*fds = v;
	*nr_fds = k;
	return 0;
}

int bpfobj_map_read(struct bpfobj *bo, const char *map_name, const void *key,
		    void **values, size_t *value_stride, int *nr_values)
{
	struct bpf_map *m, *found = NULL;
	bpf_object__for_each_map(m, bo->obj) {
		if (!strcmp(bpf_map__name(m), map_name) ||
		    (bpf_map__is_internal(m) && map_name[0] == '.' && map_is_section(m, map_name))) {
			found = m;
			break;
		}
	}
	if (!found || bpf_map__fd(found) < 0)
		return -ENOENT;
	struct map_iter it;
	iter_init(&it, found);
	uint32_t zero = 0;
	const void *k = key ? key : &zero;
	if (!key && it.key_size != 4) {
		iter_free(&it);
		return -EINVAL;
	}
	if (bpf_map_lookup_elem(it.fd, k, it.val)) {
		int err = -errno;
		iter_free(&it);
		return err;
	}
	*values = it.val;
	*value_stride = it.stride;
	*nr_values = it.nr_values;
	it.val = NULL;
	iter_free(&it);
	return 0;
}

/* ---------------------------------------------------------------- xlated */

static char *map_name_by_id(uint32_t id)
{
	int fd = bpf_map_get_fd_by_id(id);
	struct bpf_map_info mi;
	uint32_t len = sizeof(mi);
	memset(&mi, 0, sizeof(mi));
	if (fd < 0)
		return xasprintf("map#?");
	int r = bpf_obj_get_info_by_fd(fd, &mi, &len);
	close(fd);
	return r ? xasprintf("map#?") : xasprintf("map:%s", mi.name);
}

int bpfobj_dump_xlated(struct bpfobj *bo, FILE *out)
{
	for (int i = 0; i < bo->nr_progs; i++) {
		struct bpf_program *p = bo->progs[i];
		int fd = bpf_program__fd(p);
		if (fd < 0)
			continue;
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
			int err = -errno;
			pr_err("program '%s': cannot read its info from the kernel: %s", bpf_program__name(p),
			       log_strerr(err));
			return err;
		}
		uint32_t nbytes = info.xlated_prog_len, nmaps = info.nr_map_ids;
		struct bpf_insn *insns = xcalloc(nbytes / sizeof(*insns) + 1, sizeof(*insns));
		uint32_t *ids = xcalloc(nmaps + 1, sizeof(*ids));
		memset(&info, 0, sizeof(info));
		info.xlated_prog_len = nbytes;
		info.xlated_prog_insns = (uint64_t)(uintptr_t)insns;
		info.nr_map_ids = nmaps;
		info.map_ids = (uint64_t)(uintptr_t)ids;
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &len) || info.xlated_prog_len != nbytes) {
			int err = errno ? -errno : -EAGAIN;
			pr_err("program '%s': cannot read its translated instructions: %s%s",
			       bpf_program__name(p), log_strerr(err),
			       nbytes ? "" : " (the kernel hides them: needs root / bpf_dump_raw_ok)");
			free(insns);
			free(ids);
			return err;
		}
		size_t n = nbytes / sizeof(*insns);
		fprintf(out, "PROG %s %s %zu\n", bpf_program__name(p), bpf_program__section_name(p), n);
		for (size_t k = 0; k < n; k++) {
			const struct bpf_insn *x = &insns[k];
			bool ld64 = x->code == (BPF_LD | BPF_IMM | BPF_DW);
			if (ld64 && (x->src_reg == BPF_PSEUDO_MAP_FD || x->src_reg == BPF_PSEUDO_MAP_VALUE)) {
				char *mn = map_name_by_id((uint32_t)x->imm);
				fprintf(out, "%zu: %02x %u %u %d %s\n", k, x->code, x->dst_reg, x->src_reg, x->off, mn);
				free(mn);
			} else {
				fprintf(out, "%zu: %02x %u %u %d %d\n", k, x->code, x->dst_reg, x->src_reg, x->off, x->imm);
			}
		}
		free(insns);
		free(ids);
	}
	return 0;
}
