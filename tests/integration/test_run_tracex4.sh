#!/bin/sh
# bpfperf run on examples/tracex4: write size histogram from the syscall
# tracepoint, --set of const volatile strings/ints, text dump, histogram,
# global data, exit status of the command, and the kprobe variant's error.
. "$(dirname "$0")/lib.sh"
. "$SRC/examples/testlib.sh"
need_root; need_tracefs; need_examples; uniq_dd

# known workload: 300 writes of 4096 bytes to fd 1 -> slot 12 (4096..8191)
"$BPFPERF" run "$EX/tracex4.bpf.o" --set comm="$DDCOMM" --set fd=1 -- \
  "$DD" if=/dev/zero of=/dev/null bs=4096 count=300 >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "run exited non-zero"; }
cat "$TMP/out"
grep -qx '  \[12\] = 300,' "$TMP/out" || fail "write_hist slot 12 is not 300"
grep -q '(63 zero entries not shown)' "$TMP/out" || fail "other slots not all zero"
grep -q '{ .writes = 300, .bytes = 1228800 }' "$TMP/out" || fail ".bss globals wrong"
grep -q "{ .comm = \"$DDCOMM\", .fd = 1 }" "$TMP/out" || fail ".rodata does not show the --set values"
grep -Eq '4096 -> 8191 +: 300 +\|\*{40}\|' "$TMP/out" || fail "histogram row missing"
ok "tracex4 histogram, globals and --set"

# the command's exit status is propagated
"$BPFPERF" run "$EX/tracex4.bpf.o" --set comm=nomatch -- sh -c 'exit 3' >/dev/null 2>&1
[ $? = 3 ] || fail "exit status of the command not propagated"
ok "exit status propagated"

# --set errors
expect_fail "unknown global" "no global variable 'nosuch'" "$BPFPERF" run "$EX/tracex4.bpf.o" --set nosuch=1 -- true
expect_fail "bad int" "not a valid 4-byte signed integer" "$BPFPERF" run "$EX/tracex4.bpf.o" --set fd=abc -- true
expect_fail "out of range" "in-range" "$BPFPERF" run "$EX/tracex4.bpf.o" --set fd=99999999999 -- true
expect_fail "string too long" "holds at most 16" "$BPFPERF" run "$EX/tracex4.bpf.o" --set comm=01234567890123456789 -- true

# kprobe variant: on a kernel without kprobes, a clear error, and
# --skip-unsupported runs the tracepoint object alone
if [ ! -e /sys/bus/event_source/devices/kprobe/type ] && [ ! -e /sys/kernel/tracing/kprobe_events ]; then
  expect_fail "kprobe missing" "kprobes are not available" "$BPFPERF" run "$EX/tracex4_kprobe.bpf.o" -- true
  "$BPFPERF" run "$EX/tracex4_kprobe.bpf.o" "$EX/tracex4.bpf.o" --skip-unsupported --set comm="$DDCOMM" -- \
    "$DD" if=/dev/zero of=/dev/null bs=100 count=5 >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "--skip-unsupported run failed"; }
  grep -q "skipping program 'ksys_write_entry'" "$TMP/err" || fail "no skip warning"
  grep -qx '  \[6\] = 5,' "$TMP/out" || { cat "$TMP/out"; fail "tracepoint object did not run under --skip-unsupported"; }
  ok "kprobe error and --skip-unsupported"
else
  "$BPFPERF" run "$EX/tracex4_kprobe.bpf.o" --duration 0.5 >"$TMP/out" 2>&1 || fail "kprobe variant failed on a kernel with kprobes"
  ok "kprobe variant runs"
fi
