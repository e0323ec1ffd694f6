#!/bin/sh
# bpfperf run: CO-RE relocations against the minimal kernel BTF (core_btf.c)
# give exactly what libbpf gives with the full kernel BTF. Oracle: the same
# object loaded twice, `--core-btf vmlinux` (plain libbpf: it reads
# /sys/kernel/btf/vmlinux) and the default minimal BTF; the kernel's
# translated instructions (bpf_prog_info.xlated_prog_insns, map ids shown as
# map names) must be identical. Objects: every example, and one built here
# with every relocation kind the minimal BTF serves (field byte offset/size/
# exists/signed/lshift/rshift, type id local/exists/size, enum value
# exists/value; nested structs, unions, arrays, bitfields, typedefs,
# function-pointer typedefs, ___flavor names, missing types and fields).
# Also: the fallbacks (bpf_core_type_id_kernel, fentry) are named at -v.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root
need_tracefs
need_cmd clang
need_examples
[ -r /sys/kernel/btf/vmlinux ] || skip "the kernel has no BTF (/sys/kernel/btf/vmlinux)"
VMH="$BUILD/src/bpf/vmlinux.h"
[ -f "$VMH" ] || fail "$VMH missing (ninja -C $BUILD)"

# compare OBJ EXPECT: xlated instructions equal in both modes; -v names the path
compare() {
  obj=$1 expect=$2 name=$(basename "$1")
  "$BPFPERF" -v run "$obj" --dump-xlated >"$TMP/min.txt" 2>"$TMP/min.err" ||
    { cat "$TMP/min.err"; fail "$name: load with the minimal CO-RE BTF failed"; }
  "$BPFPERF" run --core-btf vmlinux "$obj" --dump-xlated >"$TMP/full.txt" 2>"$TMP/full.err" ||
    { cat "$TMP/full.err"; fail "$name: load with the full kernel BTF failed"; }
  grep -q "$expect" "$TMP/min.err" || { cat "$TMP/min.err"; fail "$name: -v lacks '$expect'"; }
  [ "$(grep -c '^PROG ' "$TMP/full.txt")" -ge 1 ] || fail "$name: no program dumped"
  [ "$(wc -l <"$TMP/full.txt")" -gt 5 ] || fail "$name: xlated dump too short"
  if ! cmp -s "$TMP/min.txt" "$TMP/full.txt"; then
    diff "$TMP/full.txt" "$TMP/min.txt" | head -20
    fail "$name: translated instructions differ between the minimal and the full kernel BTF"
  fi
  ok "$name: $(grep -c '^PROG ' "$TMP/full.txt") program(s), $(grep -vc '^PROG ' "$TMP/full.txt") instructions identical ($expect)"
}

for e in tracex1 tracex2 tracex3 tracex4 dropmon; do
  compare "$EX/$e.bpf.o" "CO-RE against a minimal kernel BTF"
done
compare "$EX/sample_filter.bpf.o" "no CO-RE relocations"

cat >"$TMP/kinds.bpf.c" <<'BPF'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
char LICENSE[] SEC("license") = "GPL";

/* flavors: same kernel type under another local name */
struct task_struct___flav {
	int pid;
	int tgid;
	int no_such_field___in_kernel;
} __attribute__((preserve_access_index));
struct no_such_struct___flav { int x; } __attribute__((preserve_access_index));
enum bpf_func_id___flav { BPF_FUNC_map_lookup_elem___flav = 1, BPF_FUNC_no_such_helper___flav = 7777 };
union no_such_union { int a; } __attribute__((preserve_access_index));

__u64 out[48] = {};

SEC("tp/syscalls/sys_enter_write")
int kinds(struct trace_event_raw_sys_enter *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	struct task_struct___flav *tf = (void *)t;
	struct sk_buff *skb = (void *)ctx->args[0];
	int i = 0;

	out[i++] = BPF_CORE_READ(t, pid);					/* byte offset */
	out[i++] = BPF_CORE_READ(tf, tgid);					/* flavor */
	out[i++] = BPF_CORE_READ(t, se.vruntime);				/* nested struct */
	out[i++] = BPF_CORE_READ(t, comm[3]);					/* array element */
	out[i++] = BPF_CORE_READ(t, real_parent, pid);				/* through a pointer */
	out[i++] = bpf_core_field_size(t->comm);				/* byte size */
	out[i++] = bpf_core_field_size(t->se);
	out[i++] = bpf_core_field_exists(t->mm);				/* exists */
	out[i++] = bpf_core_field_exists(tf->no_such_field___in_kernel);	/* missing */
	out[i++] = __builtin_preserve_field_info(t->pid, BPF_FIELD_SIGNED);	/* signed */
	out[i++] = __builtin_preserve_field_info(t->flags, BPF_FIELD_SIGNED);
	out[i++] = BPF_CORE_READ_BITFIELD_PROBED(t, sched_reset_on_fork);	/* lshift/rshift */
	out[i++] = BPF_CORE_READ_BITFIELD_PROBED(&t->dl, dl_throttled);	/* bitfield in a nested struct */
	out[i++] = bpf_core_field_exists(skb->len);				/* anonymous unions/struct groups */
	out[i++] = bpf_core_field_size(skb->tstamp);
	out[i++] = BPF_CORE_READ(skb, dev, ifindex);
	out[i++] = bpf_core_type_id_local(struct task_struct);			/* type id local */
	out[i++] = bpf_core_type_exists(struct task_struct);			/* type exists */
	out[i++] = bpf_core_type_exists(struct no_such_struct___flav);
	out[i++] = bpf_core_type_exists(union no_such_union);
	out[i++] = bpf_core_type_exists(work_func_t);				/* typedef of a function pointer */
	out[i++] = bpf_core_type_exists(notifier_fn_t);
	out[i++] = bpf_core_type_exists(cpumask_var_t);				/* typedef of an array */
	out[i++] = bpf_core_type_size(struct task_struct);			/* type size */
	out[i++] = bpf_core_type_size(cpumask_var_t);
	out[i++] = bpf_core_type_size(struct sk_buff);
	out[i++] = bpf_core_type_size(atomic_t);
	out[i++] = bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_map_lookup_elem);	/* enum */
	out[i++] = bpf_core_enum_value(enum bpf_func_id, BPF_FUNC_probe_read_kernel);
	out[i++] = bpf_core_enum_value_exists(enum bpf_func_id___flav, BPF_FUNC_no_such_helper___flav);
	out[i++] = bpf_core_enum_value(enum bpf_func_id___flav, BPF_FUNC_map_lookup_elem___flav);
	out[i++] = bpf_core_enum_value(enum bpf_map_type, BPF_MAP_TYPE_RINGBUF);
	out[i++] = bpf_core_field_exists(ctx->args[5]);
	out[i++] = bpf_core_field_size(ctx->args);
	return 0;
}
BPF
clang -target bpf -g -O2 -D__TARGET_ARCH_x86 -I"$BUILD/src/bpf" -c "$TMP/kinds.bpf.c" -o "$TMP/kinds.bpf.o" 2>"$TMP/cc.err" ||
  { cat "$TMP/cc.err"; fail "cannot compile the relocation-kinds test object"; }
compare "$TMP/kinds.bpf.o" "CO-RE against a minimal kernel BTF"
# every kind the minimal BTF serves is in the object (bpftool lists the relocations)
bpftool btf dump file "$TMP/kinds.bpf.o" >/dev/null 2>&1 || true
"$BPFPERF" -vvv run "$TMP/kinds.bpf.o" --dump-xlated >/dev/null 2>"$TMP/dbg.err" || true
for k in byte_off byte_sz field_exists signed lshift_u64 rshift_u64 local_type_id type_exists type_size enumval_exists enumval_value; do
  grep -q "<$k>" "$TMP/dbg.err" || { grep "CO-RE" "$TMP/dbg.err" | head; fail "kinds.bpf.o: libbpf applied no <$k> relocation"; }
done
ok "kinds.bpf.o covers all 11 relocation kinds"
# the relocated values ran: the program's results agree with both loads' (the kernel ran it)
"$BPFPERF" run "$TMP/kinds.bpf.o" --json -- /bin/sh -c 'echo x >/dev/null' >"$TMP/run.json" 2>"$TMP/run.err" ||
  { cat "$TMP/run.err"; fail "kinds.bpf.o: run failed"; }
grep -q '"out"' "$TMP/run.json" || fail "kinds.bpf.o: no .bss dump"
ok "kinds.bpf.o: verified, attached and ran"

# fallbacks: the full kernel BTF where the minimal one cannot serve
cat >"$TMP/kid.bpf.c" <<'BPF'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
char LICENSE[] SEC("license") = "GPL";
__u64 id = 0;
SEC("tp/syscalls/sys_enter_getppid")
int kid(void *ctx)
{
	id = bpf_core_type_id_kernel(struct task_struct);
	return 0;
}
BPF
clang -target bpf -g -O2 -D__TARGET_ARCH_x86 -I"$BUILD/src/bpf" -c "$TMP/kid.bpf.c" -o "$TMP/kid.bpf.o" ||
  fail "cannot compile kid.bpf.c"
"$BPFPERF" -v run "$TMP/kid.bpf.o" --dump-xlated >"$TMP/kid.txt" 2>"$TMP/kid.err" || { cat "$TMP/kid.err"; fail "kid.bpf.o: load failed"; }
grep -q "full kernel BTF.*bpf_core_type_id_kernel" "$TMP/kid.err" || { cat "$TMP/kid.err"; fail "kid.bpf.o: fallback not named at -v"; }
ok "bpf_core_type_id_kernel: falls back to the full kernel BTF, says why"
expect_fail "--core-btf minimal on an object that needs kernel type ids" "cannot build a minimal CO-RE BTF.*type_id_kernel" \
  "$BPFPERF" run --core-btf minimal "$TMP/kid.bpf.o" --dump-xlated
expect_fail "--core-btf with a bad mode" "expected auto, vmlinux or minimal" "$BPFPERF" run --core-btf fast "$EX/tracex4.bpf.o"

cat >"$TMP/fent.bpf.c" <<'BPF'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
char LICENSE[] SEC("license") = "GPL";
__u64 n = 0;
SEC("fentry/do_nanosleep")
int BPF_PROG(fent, struct hrtimer_sleeper *t)
{
	n += BPF_CORE_READ(t, timer.state);
	return 0;
}
BPF
clang -target bpf -g -O2 -D__TARGET_ARCH_x86 -I"$BUILD/src/bpf" -c "$TMP/fent.bpf.c" -o "$TMP/fent.bpf.o" ||
  fail "cannot compile fent.bpf.c"
"$BPFPERF" -v run "$TMP/fent.bpf.o" --dump-xlated >/dev/null 2>"$TMP/fent.err" || true
grep -q "full kernel BTF.*section 'fentry/do_nanosleep'" "$TMP/fent.err" || { cat "$TMP/fent.err"; fail "fentry object: fallback not named at -v"; }
ok "fentry: falls back to the full kernel BTF (libbpf loads it anyway), says why"

# a relocated type that vmlinux lacks but a loaded module's BTF has: libbpf
# finds it there, so the minimal BTF (vmlinux only) must not be used; types
# absent everywhere (kinds.bpf.o above) keep the minimal BTF on such kernels.
# 9p is loaded in the QEMU guests of scripts/test-kernels.sh.
if [ -r /sys/kernel/btf/9pnet ] && ! grep -q "struct p9_client {" "$VMH"; then
  cat >"$TMP/mod.bpf.c" <<'BPF'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
char LICENSE[] SEC("license") = "GPL";
struct p9_client { int status; } __attribute__((preserve_access_index));
__u64 has = 0;
SEC("tp/syscalls/sys_enter_getppid")
int mod(void *ctx)
{
	has = bpf_core_type_exists(struct p9_client);
	return 0;
}
BPF
  clang -target bpf -g -O2 -D__TARGET_ARCH_x86 -I"$BUILD/src/bpf" -c "$TMP/mod.bpf.c" -o "$TMP/mod.bpf.o" ||
    fail "cannot compile mod.bpf.c"
  "$BPFPERF" -v run "$TMP/mod.bpf.o" --json -- true >"$TMP/mod.json" 2>"$TMP/mod.err" || { cat "$TMP/mod.err"; fail "mod.bpf.o: run failed"; }
  grep -q "full kernel BTF.*'p9_client' is not in vmlinux's BTF but in module [a-z0-9_]*'s" "$TMP/mod.err" ||
    { cat "$TMP/mod.err"; fail "mod.bpf.o: the module type did not make libbpf relocate"; }
  grep -q '"has":1' "$TMP/mod.json" || { cat "$TMP/mod.json"; fail "mod.bpf.o: libbpf did not find the module's type"; }
  ok "a type only a module has: relocated by libbpf against the module's BTF"
fi
exit 0
