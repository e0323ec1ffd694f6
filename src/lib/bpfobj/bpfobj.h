/* SPDX-License-Identifier: GPL-2.0-only */
/* Loading any BPF object file the way `bpfperf run` does it, as a library:
 *
 *   bo = bpfobj_open(path, sets, nr_sets, &err);      open, apply --set NAME=VALUE
 *   bpfobj_check_support(bo, skip_unsupported);       probe the kernel per section
 *   bpfobj_load(bo);                                  verifier errors explained
 *   bpfobj_attach(bo, &attach_opts);                  attach every program by its section
 *   bpfobj_streams_open(bo, &stream_opts);            ring buffer / perf event array
 *   bpfobj_streams_poll(bo, timeout_ms);              ... while running
 *   bpfobj_dump_maps(bo, &dump_opts);                 every other map, typed by BTF
 *   bpfobj_close(bo);
 *
 * Every function reports its own errors through log.h (naming the object,
 * the program or map, the cause and the fix) and returns a negative errno. */
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

/* Open the object file and assign `const volatile` (.rodata) and initialized
 * (.data) globals from "NAME=VALUE" strings: integers (decimal, 0x hex,
 * negative), bool (true/false/1/0), enums (enumerator name or number) and
 * strings into char arrays. NULL and *err < 0 on failure (reported). */
struct bpfobj *bpfobj_open(const char *path, char *const *sets, int nr_sets, int *err);

/* Target of CO-RE relocations for the objects opened from now on:
 * AUTO: a minimal BTF of only the kernel types the object's relocations use
 * (fast start), or the full kernel BTF loaded by libbpf when the object needs
 * it (-v says which and why); VMLINUX: always the full kernel BTF (libbpf's
 * own behaviour); MINIMAL: the minimal BTF or an error. */
enum bpfobj_core_btf { BPFOBJ_CORE_BTF_AUTO, BPFOBJ_CORE_BTF_VMLINUX, BPFOBJ_CORE_BTF_MINIMAL };
void bpfobj_set_core_btf(enum bpfobj_core_btf mode);

/* Print every loaded program's translated instructions (as the kernel
 * reports them) to out, one "PROG NAME" line then one line per instruction
 * (hex code/regs/off/imm); map references show the map's name instead of its
 * id, so two loads of the same object compare equal. 0 or -errno. */
int bpfobj_dump_xlated(struct bpfobj *bo, FILE *out);

/* Apply one "NAME=VALUE" assignment (see bpfobj_open) before load. Returns
 * 1 when applied, 0 when the object has no such variable and !must_exist,
 * or -errno (reported). */
int bpfobj_set(struct bpfobj *bo, const char *assign, bool must_exist);
/* Whether the object has a global variable called name. */
bool bpfobj_has_global(const struct bpfobj *bo, const char *name);

/* Probe the running kernel for what each program's section needs (kprobes,
 * uprobes, tracing programs, the named tracepoint, ...). A program the kernel
 * cannot serve is an error naming the missing feature, or, with
 * skip_unsupported, a warning and the program is not loaded. Returns the
 * number of programs that will be loaded (0 is not an error here: the caller
 * decides) or -EOPNOTSUPP (reported). */
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
 * event/event.h), FREQ in Hz (default 99). 0 or -EINVAL. */
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
 * decoded by BTF (the --event-type struct, else the map's declared value type,
 * else a struct named "event"), one text line or one JSON object per record.
 * Returns the number of streamed maps (>= 0) or -errno. */
int bpfobj_streams_open(struct bpfobj *bo, const struct bpfobj_output *o);
/* Wait up to timeout_ms for records and print them. Returns records printed or -errno. */
int bpfobj_streams_poll(struct bpfobj *bo, int timeout_ms);
/* Records printed and records the kernel reported lost (perf event arrays;
 * a ring buffer's failed reservations are not visible to user space). */
void bpfobj_streams_stats(const struct bpfobj *bo, uint64_t *records, uint64_t *lost);

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

struct bpf_object *bpfobj_object(const struct bpfobj *bo);
bool bpfobj_has_btf(const struct bpfobj *bo);

/* ---- For `bpfperf record --bpf-object OBJ` (sample filters) ----
 * Open path, apply the --set assignments, load only its SEC("perf_event")
 * programs (others are not loaded) and return their fds in *fds (an array of
 * *nr_fds ints the caller frees with free(); the fds belong to *out and stay
 * valid until bpfobj_close(*out)). Attach each fd yourself with
 * ioctl(event_fd, PERF_EVENT_IOC_SET_BPF, fd). Returns 0 or -errno (reported);
 * no perf_event program in the object is -ENOENT. */
int bpfobj_open_perf_event_progs(const char *path, char *const *sets, int nr_sets,
				 struct bpfobj **out, int **fds, int *nr_fds);

/* Read the value(s) of map_name for key into a new buffer *values (free()):
 * one value for ordinary maps, one per possible CPU (each value_size bytes,
 * rounded up to 8) for per-CPU maps; *nr_values says how many and
 * *value_stride the bytes between them. For global data pass map_name ".bss",
 * ".data" or ".rodata" and key NULL. Returns 0, -ENOENT (no such map or key)
 * or -errno. */
int bpfobj_map_read(struct bpfobj *bo, const char *map_name, const void *key,
		    void **values, size_t *value_stride, int *nr_values);

#endif
