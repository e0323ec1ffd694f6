/* SPDX-License-Identifier: GPL-2.0-only */
/* BTF-typed value formatting: raw bytes of a map key/value, a ring buffer
 * record or a global variable, shown through their BTF type.
 *
 * Two forms from one walker:
 *  - JSON in the "formatted" encoding of `bpftool map dump -j`: struct/union
 *    -> object by member name, array -> array (printable NUL-terminated char
 *    arrays -> string), enum/enum64 -> enumerator name (number if none
 *    matches), bool -> true/false, ints -> decimal, bitfields and __int128 ->
 *    "0x..." strings, pointers -> decimal, typedef/const/volatile/restrict
 *    resolved through. Float (which bpftool refuses) -> a number. A DATASEC
 *    (global data: .bss, .data, .rodata) -> one object mapping each variable
 *    name to its value.
 *  - Text that reads like a C initializer: { .a = 1, .name = "lo", .v = { 1, 2 } }.
 *
 * The BTF and the bytes may be untrusted: every read is bounded by the given
 * size, recursion and output volume are capped, and malformed types give a
 * negative errno instead of a crash. */
#ifndef BPFPERF_BTF_FMT_H
#define BPFPERF_BTF_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;
struct json_writer;
struct strbuf;

/* JSON value for `size` bytes at data typed type_id. 0 or -errno (-EINVAL bad
 * type, -E2BIG data shorter than the type or output cap reached). On error
 * a value (possibly partial, but well-formed JSON) has still been written. */
int btf_fmt_json(struct json_writer *jw, const struct btf *btf, uint32_t type_id,
		 const void *data, size_t size);
/* The same in C-initializer text, appended to sb. */
int btf_fmt_text(struct strbuf *sb, const struct btf *btf, uint32_t type_id,
		 const void *data, size_t size);

/* Enumerators as the running kernel defines them. A BPF object's copy of a
 * kernel enum (from the build machine's vmlinux.h) may number it differently
 * than the kernel the program runs on (enum skb_drop_reason differs between
 * 6.1 and 6.12), while the values the kernel stores are its own. A table maps
 * each named enum of btf to the enum of the same name in kbtf (the kernel's
 * BTF), which then names the values and gives the numbers of enumerators.
 * kbtf must outlive the table. NULL when btf has no named enum that kbtf has. */
struct btf_fmt_kenums;
struct btf_fmt_kenums *btf_fmt_kenums_new(const struct btf *btf, const struct btf *kbtf);
void btf_fmt_kenums_free(struct btf_fmt_kenums *ke);
/* The kernel's enum for btf's type id (modifiers and typedefs skipped), or
 * NULL (ke NULL, or not a kernel enum); *kbtf is set to the BTF it lives in. */
const struct btf_type *btf_fmt_kenum(const struct btf_fmt_kenums *ke, uint32_t type_id,
				     const struct btf **kbtf);
/* btf_fmt_json/btf_fmt_text with enum values named by the kernel's enums (ke may be NULL). */
int btf_fmt_json_k(struct json_writer *jw, const struct btf *btf, const struct btf_fmt_kenums *ke,
		   uint32_t type_id, const void *data, size_t size);
int btf_fmt_text_k(struct strbuf *sb, const struct btf *btf, const struct btf_fmt_kenums *ke,
		   uint32_t type_id, const void *data, size_t size);

/* Fallback without BTF: JSON array of "0x.." byte strings (bpftool's raw
 * "key"/"value" form) and text "01 02 ff". */
void btf_fmt_hex_json(struct json_writer *jw, const void *data, size_t size);
void btf_fmt_hex_text(struct strbuf *sb, const void *data, size_t size);

/* Size of type_id (through modifiers), or -errno. */
long btf_fmt_type_size(const struct btf *btf, uint32_t type_id);

/* Type id (skipping modifiers) of a struct/union named name, or 0. */
uint32_t btf_fmt_find_struct(const struct btf *btf, const char *name);

/* Histogram shapes.
 * btf_fmt_int_info: type_id (through modifiers/typedefs) is an integer of 1,
 * 2, 4 or 8 bytes (or an enum); *size and *is_signed set. */
bool btf_fmt_int_info(const struct btf *btf, uint32_t type_id, int *size, bool *is_signed);
/* type_id is a struct with a member named "slots" (array of integers):
 * byte offset, number of slots and slot size. */
bool btf_fmt_find_slots(const struct btf *btf, uint32_t type_id, size_t *offset,
			uint32_t *nr, int *elem_size);
/* Read an unsigned integer of size 1/2/4/8 from possibly unaligned bytes. */
uint64_t btf_fmt_read_uint(const void *p, int size);

/* The type behind *id once modifiers (const, volatile, restrict, type tags)
 * and typedefs are skipped; *id becomes its id. NULL for a bad id or a
 * chain deeper than 32. */
const struct btf_type *btf_skip_mods(const struct btf *btf, uint32_t *id);

#endif
