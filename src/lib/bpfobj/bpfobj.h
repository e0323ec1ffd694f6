/* SPDX-License-Identifier: GPL-2.0-only */
/* Loading any BPF object file the way `bpfperf run` does it, as a library:
 *
 *   bpfobj_open(path, &open_opts, &bo);               open, CO-RE target, assign globals
 *   bpfobj_check_support(bo, skip_unsupported);       probe the kernel per section
 *   bpfobj_load(bo);                                  verifier errors explained
 *   bpfobj_attach(bo, &attach_opts);                  attach every program by its section
 *   bpfobj_streams_open(bo, &stream_opts);            ring buffer / perf event array
 *   bpfobj_streams_poll(bo, timeout_ms);              ... while running
 *   bpfobj_dump_maps(bo, &dump_opts);                 every other map, typed by BTF
 *   bpfobj_close(bo);
 *
 * Error convention (every function here unless its comment says otherwise):
 * a failure returns a negative errno and logs one message through log.h
 * (pr_err) that names the object, program or map, says why, and what to do
 * (bpfobj_check_support: one per program the kernel cannot run); the caller
 * adds nothing and just propagates the error. Messages never name
 * command-line options: the library does not know them. Output other than
 * messages goes only to the FILE* the caller hands in.
 * Two kinds of function are silent and leave the message to the caller:
 * look-ups whose "not found" is an ordinary answer (bpfobj_find_global,
 * bpfobj_global_u64, bpfobj_map_read: -ENOENT) and parsers of caller-given
 * text (bpfobj_parse_perf_event: -EINVAL), because only the caller knows
 * where the text came from.
 *
 * Sources: open.c (open, close), globals.c (DATASEC look-ups, assignments),
 * section.c (kernel feature probes per section), load.c (load, verifier
 * report, xlated dump, sample filters), attach.c, stream.c, dump.c (maps; the
 * histogram drawing itself is out/log2hist.h). bpfobj_int.h is the private
 * state they share. */
#ifndef BPFPERF_BPFOBJ_H
#define BPFPERF_BPFOBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct bpfobj;
struct bpf_object;
struct json_writer;

/* Target of CO-RE relocations:
 * AUTO: a minimal BTF of only the kernel types the object's relocations use
 * (fast start), or the full kernel BTF loaded by libbpf when the object needs
 * it (the info log level says which and why); VMLINUX: always the full kernel
 * BTF (libbpf's own behaviour); MINIMAL: the minimal BTF or an error. */
enum bpfobj_core_btf { BPFOBJ_CORE_BTF_AUTO, BPFOBJ_CORE_BTF_VMLINUX, BPFOBJ_CORE_BTF_MINIMAL };

struct bpfobj_open_opts {
	enum bpfobj_core_btf core_btf;	/* 0: AUTO */
	char *const *sets;		/* "NAME=VALUE" assignments, see bpfobj_set */
	int nr_sets;
};

/* Open the object file (opts NULL: AUTO CO-RE, no assignments), prepare its
 * CO-RE target and apply opts->sets (every variable must exist). 0 and *out
 * set, or -errno with *out NULL. */
int bpfobj_open(const char *path, const struct bpfobj_open_opts *opts, struct bpfobj **out);

/* Print every loaded program's translated instructions (as the kernel
 * reports them) to out, one "PROG NAME" line then one line per instruction
 * (hex code/regs/off/imm); map references show the map's name instead of its
 * id, so two loads of the same object compare equal. 0 or -errno. */
int bpfobj_dump_xlated(struct bpfobj *bo, FILE *out);

/* Apply one "NAME=VALUE" assignment before load to a `const volatile`
 * (.rodata) or initialized (.data) global: integers (decimal, 0x hex,
 * negative), bool (true/false/1/0), enums (enumerator name or number) and
 * strings into char arrays. Returns 1 when applied, 0 when the object has no
 * such variable and !must_exist, or -errno. */
int bpfobj_set(struct bpfobj *bo, const char *assign, bool must_exist);
/* Whether the object has a global variable called name. */
bool bpfobj_has_global(const struct bpfobj *bo, const char *name);

/* Where a global variable lives, from the object's BTF (its DATASECs). */
struct bpfobj_global {
	const char *sec;	/* ".bss", ".data", ".rodata", ... (owned by the object) */
	uint32_t type_id;	/* the variable's type in the object's BTF */
	uint32_t offset;	/* bytes into the section's data */
	uint32_t size;
};
/* Find global variable name in section sec (NULL: any section). 0, or
 * -ENOENT (no BTF, no such variable) without a message. */
int bpfobj_find_global(const struct bpfobj *bo, const char *sec, const char *name,
		       struct bpfobj_global *g);
/* Read the 8-byte global name in section sec of a loaded object (e.g. a
 * counter in ".bss"). 0, -ENOENT (no such 8-byte variable, the section is not
 * loaded) without a message, or -errno. */
int bpfobj_global_u64(struct bpfobj *bo, const char *sec, const char *name, uint64_t *val);

/* Probe the running kernel for what each program's section needs (kprobes,
 * uprobes, tracing programs, the named tracepoint, ...). A program the kernel
 * cannot serve is an error naming the missing feature, or, with
 * skip_unsupported, a warning and the program is not loaded. Returns the
 * number of programs that will be loaded (0 is not an error here: the caller
 * decides), -EPERM or -EOPNOTSUPP. */
int bpfobj_check_support(struct bpfobj *bo, bool skip_unsupported);

/* Load into the kernel. A program the verifier rejects is reported with its
 * name, section, the verifier's reason and the instructions before it. */
int bpfobj_load(struct bpfobj *bo);

/* One perf event for SEC("perf_event") programs: type/config as in
 * perf_event_attr, sampled at freq Hz (or every period events if !freq). */
struct bpfobj_perf_event {
	uint32_t type;
	uint64_t config;
	uint64_t freq;
	uint64_t period;
	char name[64];
};
/* Parse "EVENT[:FREQ]": EVENT in perf's syntax (see event_parse in
 * event/event.h), FREQ in Hz (default 99). 0 or -EINVAL (silent). */
int bpfobj_parse_perf_event(const char *spec, struct bpfobj_perf_event *ev);

struct bpfobj_attach_opts {
	pid_t pid;			/* -1: system wide; else uprobe/usdt/perf_event target */
	bool inherit;			/* perf events follow children of pid */
	const struct bpfobj_perf_event *events;	/* for perf_event programs; */
	int nr_events;			/* none given: cpu-clock at 99 Hz */
	bool skip_unsupported;		/* attach failures: warn and go on */
};
/* Attach every loaded program by its section name. 0 or -errno. */
int bpfobj_attach(struct bpfobj *bo, const struct bpfobj_attach_opts *o);
/* Number of attachments made by bpfobj_attach(). */
int bpfobj_nr_links(const struct bpfobj *bo);

struct bpfobj_output {
	FILE *out;
	struct json_writer *jw;		/* map dumps: JSON into this writer; NULL: text */
	bool json;			/* stream records: one JSON object per line */
	const char *event_type;		/* struct name for stream records, or NULL */
};
/* Set up streaming of every ring buffer and perf event array map: each record
 * decoded by BTF (the event_type struct, else the map's declared value type,
 * else a struct named "event"), one text line or one JSON object per record.
 * Returns the number of streamed maps (>= 0) or -errno. */
int bpfobj_streams_open(struct bpfobj *bo, const struct bpfobj_output *o);
/* Wait up to timeout_ms for records and print them. Returns records printed or -errno. */
int bpfobj_streams_poll(struct bpfobj *bo, int timeout_ms);
/* Records printed and records the kernel reported lost (perf event arrays;
 * a ring buffer's failed reservations are not visible to user space). */
void bpfobj_streams_stats(struct bpfobj *bo, uint64_t *records, uint64_t *lost);

struct bpfobj_dump_opts {
	struct bpfobj_output o;
	bool histograms;	/* text: also render log2 histogram maps */
	bool heatmap;		/* text: one heat-map row per histogram (interval deltas) */
	const char *heading;	/* text: printed before the maps, or NULL */
	bool maps_only;		/* JSON: only the map objects, into an array the caller opened */
};
/* Dump every map except streams: {"maps": [{"name", "type", "entries":
 * [{"key": K, "value": V}]}]} in JSON, C-initializer text otherwise. */
int bpfobj_dump_maps(struct bpfobj *bo, const struct bpfobj_dump_opts *d);

void bpfobj_close(struct bpfobj *bo);

/* ---- Several objects run together (bpfperf run OBJ...) ---- */
/* Every map of objs[0..n) (bpfobj_dump_maps): with d->o.json one
 * {"maps": [...]} line for them all (d->o.jw is not used), else text with
 * d->heading before the first object's maps. */
void bpfobj_dump_maps_all(struct bpfobj *const *objs, int n, const struct bpfobj_dump_opts *d);
/* bpfobj_streams_poll of every object, the wait shared between them. 0 or -errno. */
int bpfobj_streams_poll_all(struct bpfobj *const *objs, int n, int timeout_ms);
/* bpfobj_streams_stats summed over the objects. */
void bpfobj_streams_stats_all(struct bpfobj *const *objs, int n, uint64_t *records, uint64_t *lost);

struct bpf_object *bpfobj_object(const struct bpfobj *bo);
bool bpfobj_has_btf(const struct bpfobj *bo);

/* ---- For `bpfperf record`'s sample filters ----
 * Open path with opts (see bpfobj_open), load only its SEC("perf_event")
 * programs (others are not loaded) and return their fds in *fds (an array of
 * *nr_fds ints the caller frees with free(); the fds belong to *out and stay
 * valid until bpfobj_close(*out)). Attach each fd yourself with
 * ioctl(event_fd, PERF_EVENT_IOC_SET_BPF, fd). Returns 0 or -errno;
 * no perf_event program in the object is -ENOENT (also reported). */
int bpfobj_open_perf_event_progs(const char *path, const struct bpfobj_open_opts *opts,
				 struct bpfobj **out, int **fds, int *nr_fds);

/* Read the value(s) of map_name for key into a new buffer *values (free()):
 * one value for ordinary maps, one per possible CPU (each value_size bytes,
 * rounded up to 8) for per-CPU maps; *nr_values says how many and
 * *value_stride the bytes between them. For global data pass map_name ".bss",
 * ".data" or ".rodata" and key NULL. Returns 0, -ENOENT (no such map or key)
 * or -errno, without a message. */
int bpfobj_map_read(struct bpfobj *bo, const char *map_name, const void *key,
		    void **values, size_t *value_stride, int *nr_values);

#endif
