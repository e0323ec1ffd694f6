/* SPDX-License-Identifier: GPL-2.0-only */
/* The address-space model of a recording and symbolization, in process
 * (never shelling out): processes and threads with their comm and memory
 * maps, the kernel (kallsyms, modules), BPF programs (from KSYMBOL records and
 * saved program info), and user ELF files (symtab/dynsym, .gnu_debugdata,
 * separate debug files by build-id, C++ demangling), cached by file/build-id.
 *
 * Feed it the side-band records in time order (machine_comm/mmap/fork/exit/
 * ksymbol), then resolve sample addresses with machine_resolve(). All strings
 * returned are interned: equal strings have equal pointers, and they live as
 * long as the machine. */
#ifndef BPFPERF_SYM_MACHINE_H
#define BPFPERF_SYM_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct machine;

struct machine_opts {
	const char *kallsyms;	/* default "/proc/kallsyms" */
	const char *modules;	/* default "/proc/modules" */
	bool no_demangle;	/* keep C++ names mangled */
	bool live;		/* files may be read through /proc/PID/root for live pids */
	const char *buildid_dir;	/* perf's build-id cache (NULL: $PERF_BUILDID_DIR,
					 * else ~/.debug): looked at first for files with a
					 * build-id, and for the kallsyms copy */
};

struct machine *machine_new(const struct machine_opts *opts);
void machine_free(struct machine *m);

/* Side-band, in time order. pid = process (tgid), tid = thread. */
void machine_comm(struct machine *m, int pid, int tid, const char *comm, bool exec);
/* Before the side-band: the first COMM record of each thread, whatever its
 * time. A thread whose samples come before any comm is known for it (no
 * synthesized COMM, no FORK from a named parent: a workload sampled between
 * its exec's rename and the COMM record) is named by it, as perf names such a
 * thread once its first COMM arrives, instead of ":tid". */
void machine_comm_first(struct machine *m, int pid, int tid, const char *comm);
/* A user or kernel mapping (MMAP/MMAP2). kernel=true for the kernel's own maps
 * (pid -1 in perf.data: "[kernel.kallsyms]_text" and modules). build_id may be
 * NULL. prot as in MMAP2 (PROT_EXEC bit tells code from data); pass PROT_EXEC
 * when unknown (old MMAP records). */
void machine_mmap(struct machine *m, int pid, int tid, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *filename, const uint8_t *build_id,
		  size_t build_id_len, uint32_t prot, bool kernel);
/* A build-id for the file at path (HEADER_BUILD_ID), used for its maps that
 * carry none (synthesized MMAP2 records, old kernels). Call before the maps. */
void machine_build_id(struct machine *m, const char *path, const uint8_t *build_id, size_t len);
/* The order in which perf creates its dsos, which orders the call-graph
 * siblings of equal period (perf's tree of callees compares dso pointers,
 * allocated in that order): first HEADER_BUILD_ID's entries in their order
 * (machine_dso_header, before the records; kernel: a kernel-mode entry),
 * then the kernel, module, user and BPF program maps as their MMAP and
 * KSYMBOL records come. machine_dso_rank gives a shown dso name's place in
 * it from 1, 0 for one without a map ("[unknown]"). Read it once the
 * records are processed. */
void machine_dso_header(struct machine *m, const char *path, bool kernel);
uint32_t machine_dso_rank(const struct machine *m, const char *dso);
/* FORK: the child (pid,tid) gets a copy of the parent's (ppid,ptid) comm and,
 * when it is a new process (pid != ppid), of its maps; a new thread shares them. */
void machine_fork(struct machine *m, int pid, int tid, int ppid, int ptid);
void machine_exit(struct machine *m, int pid, int tid);
/* KSYMBOL: a BPF program (or other kernel text) at [addr, addr+len) named name.
 * unregister=true ends it; a program unloaded before the end of the recording
 * must still resolve for samples taken while it existed (time order), and
 * also afterwards if no other symbol took its place. */
void machine_ksymbol(struct machine *m, uint64_t addr, uint32_t len, const char *name,
		     bool unregister);

/* Where a sample's address is: the perf cpumode of the sample or of the
 * callchain context marker. */
enum addr_space { AS_KERNEL, AS_USER, AS_GUEST_KERNEL, AS_GUEST_USER, AS_UNKNOWN };

struct resolved {
	const char *dso;	/* perf's "Shared Object" column: "[kernel.kallsyms]",
				 * "[modname]", "bpf_prog_<tag>_<name>" for BPF, basename of
				 * the file for user space ("libc.so.6"), "[vdso]",
				 * "[unknown]" when no map covers the address */
	const char *dso_path;	/* full path where known, else same as dso */
	const char *sym;	/* symbol name (demangled); when unresolved perf's
				 * form: hex address relative to the dso, "%#.16llx"
				 * (or of the raw address for "[unknown]") */
	const char *ip_sym;	/* no symbol: the address itself in perf's "%#.16llx"
				 * form, as perf names such a frame in call chains
				 * and in the children entries of its callers (sym
				 * is of its place in the file, as the entry of
				 * samples taken there); the same pointer as sym
				 * when that is the address itself (kernel, no
				 * map). NULL when a symbol covers the address */
	uint64_t sym_start;	/* symbol start in the dso's address space (0 if none) */
	uint64_t rel_addr;	/* address relative to the dso (file vaddr for ELF) */
	bool found;		/* a symbol covers the address */
	char level;		/* 'k' kernel (incl. BPF), '.' user, '?' unknown */
};

/* Resolve one address of thread (pid, tid). Fast: results are cached per
 * (dso, address); designed for millions of calls. */
void machine_resolve(struct machine *m, int pid, int tid, uint64_t addr,
		     enum addr_space space, struct resolved *out);

/* Resolution in two stages, for pipelines. machine_resolve_early() resolves
 * what depends on the time-ordered side-band (user maps, BPF programs) and
 * returns 0, or returns what is left for machine_resolve_late(): 'k' for
 * kernel text outside BPF programs, '.' for a user address outside any map,
 * '?' for a guest address. That needs only kallsyms and the kernel maps and
 * has its own cache, so after machine_set_threaded(m, true) one other thread
 * may call machine_resolve_late() (and machine_load_kernel_symbols()) while
 * this one goes on with side-band calls and early resolves. Once the kernel
 * symbols are loaded, machine_resolve_early() resolves everything itself (in
 * its own cache) and returns 0, unless defer asks it to leave the rest to the
 * late stage anyway (a pipeline balancing its threads). machine_resolve() is
 * both stages. */
char machine_resolve_early(struct machine *m, int pid, int tid, uint64_t addr,
			   enum addr_space space, bool defer, struct resolved *out);
void machine_resolve_late(struct machine *m, uint64_t addr, char what, struct resolved *out);
void machine_set_threaded(struct machine *m, bool on);

/* perf's srcline of a resolved address: "file.c:123" from the DWARF line
 * table of a user-space file, else "sym+OFFSET" (decimal), else
 * "dso[hexaddr]". Interned; thread-safe. */
const char *machine_srcline(struct machine *m, const struct resolved *r);

/* Current comm of a thread ("[unknown]"-free: falls back to ":<tid>" as perf). */
const char *machine_comm_of(struct machine *m, int pid, int tid);

/* The comm of thread tid as perf's thread has it now (its COMM records,
 * or its parent's from FORK), else ":<tid>": none of machine_comm_of's
 * fall-backs to the process or to a later first COMM (perf report -D). */
const char *machine_thread_comm(struct machine *m, int tid);

/* BPF program info saved in the file (HEADER_BPF_PROG_INFO), to name programs
 * whose KSYMBOL records are missing and to give subprogram names. The
 * pointer fields of info are already relocated into data by the caller. */
struct bpf_prog_info;
void machine_bpf_prog_info(struct machine *m, const struct bpf_prog_info *info);

/* C++ names with their parameter lists (perf -v); default: without, as perf
 * shows them. Call before the first machine_resolve(). */
void machine_set_demangle_params(struct machine *m, bool params);

/* Load kernel symbols now instead of at the first kernel address. No other
 * call on the same machine may run concurrently (it interns strings). */
void machine_load_kernel_symbols(struct machine *m);

/* The kernel data symbol (a variable: a global lock, a per-CPU area) covering
 * addr, and addr's offset in it; false if none (kallsyms read on first use). */
bool machine_kernel_data_symbol(struct machine *m, uint64_t addr, const char **name, uint64_t *off);
/* Kernel symbol addresses by name, aliases and section markers included
 * (__sched_text_start...): 0 for a name not found; the number found or -errno. */
int machine_kernel_symbol_addrs(struct machine *m, const char *const *names, uint64_t *addrs, size_t n);
/* Intern a string in the machine's string table (stable pointer). */
const char *machine_intern(struct machine *m, const char *s);

#endif
