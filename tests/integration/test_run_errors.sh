#!/bin/sh
# bpfperf run on bad input: non-ELF, non-BPF ELF, corrupt object, object
# without BTF (still runs, hex dumps), verifier rejection (reason, program,
# section, instructions), no permission, bad options.
. "$(dirname "$0")/lib.sh"
need_root; need_tracefs; need_cmd clang
VH="$BUILD/src/bpf"
[ -f "$VH/vmlinux.h" ] || fail "no vmlinux.h in $VH"

echo "not an object" > "$TMP/text.o"
expect_fail "non-ELF" "not an ELF file" "$BPFPERF" run "$TMP/text.o"
expect_fail "host ELF" "not for the BPF target" "$BPFPERF" run /bin/true
expect_fail "missing file" "No such file" "$BPFPERF" run "$TMP/nope.bpf.o"
expect_fail "no object" "no BPF object given" "$BPFPERF" run
expect_fail "bad option" "unknown option|is unknown" "$BPFPERF" run --frobnicate x.o
expect_fail "bad duration" "expected a number of seconds" "$BPFPERF" run /bin/true --duration abc
expect_fail "bad event" "unknown event" "$BPFPERF" run /bin/true -e nosuchevent

# an object without BTF (no -g): runs, dumps its global data as hex bytes
cat > "$TMP/nobtf.bpf.c" <<'EOF2'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
char LICENSE[] SEC("license") = "GPL";
unsigned long long calls = 0;
SEC("tp/syscalls/sys_enter_getppid")
int on_getppid(void *ctx) { __sync_fetch_and_add(&calls, 1); return 0; }
EOF2
clang -target bpf -O2 -I"$VH" -c "$TMP/nobtf.bpf.c" -o "$TMP/nobtf.bpf.o" || fail "clang failed"
"$BPFPERF" run "$TMP/nobtf.bpf.o" -- python3 -c 'import os; [os.getppid() for _ in range(3)]' >"$TMP/out" 2>"$TMP/err" \
  || { cat "$TMP/err"; fail "object without BTF did not run"; }
grep -q "has no BTF" "$TMP/err" || fail "no warning about missing BTF"
grep -Eq '^  \[00 00 00 00\] = [0-9a-f]{2}( [0-9a-f]{2}){7},$' "$TMP/out" || { cat "$TMP/out"; fail "no hex dump of .bss"; }
ok "object without BTF: hex dump"

# corrupt object: a valid one cut in half
head -c 1500 "$BUILD/examples/tracex4.bpf.o" > "$TMP/cut.bpf.o"
expect_fail "truncated object" "cannot open BPF object" "$BPFPERF" run "$TMP/cut.bpf.o"

# verifier rejection: unchecked map lookup result dereferenced
cat > "$TMP/bad.bpf.c" <<'EOF2'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
char LICENSE[] SEC("license") = "GPL";
struct { __uint(type, BPF_MAP_TYPE_HASH); __uint(max_entries, 4); __type(key, __u32); __type(value, __u64); } m SEC(".maps");
SEC("tp/syscalls/sys_enter_getppid")
int null_deref(void *ctx) { __u32 k = 0; __u64 *v = bpf_map_lookup_elem(&m, &k); *v += 1; return 0; }
EOF2
clang -target bpf -g -O2 -I"$VH" -c "$TMP/bad.bpf.c" -o "$TMP/bad.bpf.o" || fail "clang failed"
expect_fail "verifier" "program 'null_deref' \(section 'tp/syscalls/sys_enter_getppid'\).*rejected by the kernel verifier: .*(invalid mem access|null)" \
  "$BPFPERF" run "$TMP/bad.bpf.o" --duration 1
grep -q -- "--- verifier log" "$TMP/err" || fail "no verifier log excerpt"
grep -q "call bpf_map_lookup_elem" "$TMP/err" || fail "verifier excerpt lacks the instructions"
ok "verifier rejection explained"

# no permission
if command -v setpriv >/dev/null 2>&1; then
  expect_fail "unprivileged" "run as root|permission|Operation not permitted" \
    setpriv --reuid=65534 --regid=65534 --clear-groups "$BPFPERF" run "$BUILD/examples/tracex4.bpf.o" --duration 1
fi

# a stream type that does not exist
expect_fail "bad --event-type" "no struct or typedef named 'nosuch'" \
  "$BPFPERF" run "$BUILD/examples/tracex1.bpf.o" --event-type nosuch --duration 0.2
