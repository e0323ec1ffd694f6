#!/bin/sh
# Clear errors and non-zero exits for bad input, never a crash or a hang.
. "$(dirname "$0")/lib.sh"
need_root
cd "$TMP"
expect_fail "unknown event" "unknown event 'cpu-clok'.*did you mean.*cpu-clock" "$BPFPERF" record -e cpu-clok -o a.data -- true
expect_fail "unknown tracepoint" "unknown tracepoint" "$BPFPERF" record -e nosuch:event -o a.data -- true
expect_fail "bad option" "unknown option" "$BPFPERF" record --bogus -- true
expect_fail "bad frequency" "invalid --freq 'abc'" "$BPFPERF" record -F abc -- true
expect_fail "-F and -c" "choose a frequency or a period" "$BPFPERF" record -F 99 -c 1000 -- true
expect_fail "command not found" "cannot run 'no-such-command-xyz'.*No such file" "$BPFPERF" record -o a.data -- no-such-command-xyz
expect_fail "no such pid" "no such process" "$BPFPERF" record -p 999999999 -o a.data
expect_fail "bad cpu list" "bad CPU list" "$BPFPERF" record -C 0-99999 -o a.data -- true
expect_fail "missing file" "cannot open nonexistent.data.*No such file" "$BPFPERF" report -i nonexistent.data
printf 'hello, this is not perf data at all' > junk.data
expect_fail "not perf.data" "not a perf.data file" "$BPFPERF" report -i junk.data
"$BPFPERF" record -o good.data -- "$DEMO" 0.6 >/dev/null 2>&1 || fail "record"
# (a key may name a tracepoint field: checked against the recording's events)
expect_fail "bad sort key" "unknown sort key 'bogus'" "$BPFPERF" report -i good.data --sort comm,bogus
size=$(stat -c %s good.data)
head -c $((size / 2)) good.data > trunc.data
expect_fail "truncated file" "offset [0-9]+.*truncated|cut short|outside" "$BPFPERF" report -i trunc.data
# Corrupt one record header in the middle of the data section.
python3 - good.data bad.data <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
data_off, data_size = struct.unpack_from('<QQ', b, 40)
off = data_off
for _ in range(20):          # walk to the 20th record
    typ, misc, size = struct.unpack_from('<IHH', b, off)
    off += size
struct.pack_into('<H', b, off + 6, 3)   # size 3: impossible
open(sys.argv[2], 'wb').write(b)
PY
expect_fail "corrupt record" "record at offset [0-9]+" "$BPFPERF" report -i bad.data
# No permission: an unprivileged user cannot profile system-wide.
if command -v setpriv >/dev/null 2>&1 && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
  expect_fail "no permission" "permission denied.*CAP_PERFMON" \
    setpriv --reuid=65534 --regid=65534 --clear-groups "$BPFPERF" record -a -o /tmp/np-$$.data --duration 0.2
fi
ok "errors"
