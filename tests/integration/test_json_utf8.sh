#!/bin/sh
# Every JSON output parses with a strict UTF-8 parser when the data holds
# bytes that are not UTF-8: a workload whose comm (prctl PR_SET_NAME) and
# opened path are invalid UTF-8, seen by trace --json, report --json, lock
# --json (-t: comm per thread) and run --json (a ring buffer of comms). Each
# invalid byte must come out as \ufffd (docs/bpfperf-report.md, "JSON").
. "$(dirname "$0")/lib.sh"
need_root; need_tracefs; need_cmd python3
cd "$TMP" || fail "no temp dir"

cat > w.py <<'PY'
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
# stray 0xff 0xfe, a truncated sequence, a UTF-16 surrogate: never valid UTF-8
if libc.prctl(15, ctypes.c_char_p(b"bad\xff\xfe\xc3(\xed\xa0\x80q"), 0, 0, 0):
    sys.exit("prctl(PR_SET_NAME) failed")
for _ in range(3):
    try: os.open(b"/nonexistent_\xff\xfe\"\\", os.O_RDONLY)
    except OSError: pass
t = time.time()
while time.time() - t < float(sys.argv[1]): pass
PY

# strict.py FILE [lines [any]]: the file must decode as UTF-8 and parse as
# JSON (one document, or one per line), and hold the escaped comm (unless any).
cat > strict.py <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
text = raw.decode("utf-8", "strict")
docs = [json.loads(l) for l in text.splitlines() if l.strip()] if len(sys.argv) > 2 else [json.loads(text)]
want = "bad\ufffd\ufffd\ufffd(\ufffd\ufffd\ufffdq"
if len(sys.argv) < 4 and want not in json.dumps(docs, ensure_ascii=False):
    sys.exit("no comm %r in the output" % want)
print(len(docs), "documents")
PY

"$BPFPERF" trace --json -e openat -o trace.json -- python3 w.py 0 2>trace.err \
  || { cat trace.err; fail "trace --json failed"; }
python3 strict.py trace.json lines || { head -c 2000 trace.json | cat -v; fail "trace --json: not strict UTF-8 JSON"; }
grep -q '"/nonexistent_\\ufffd\\ufffd\\"\\\\"' trace.json || { grep -a nonexistent trace.json | cat -v; fail "trace --json: path not escaped"; }
ok "trace --json with a non-UTF-8 comm and path"

"$BPFPERF" record -e cpu-clock -F 999 -o r.data -- python3 w.py 0.3 >rec.out 2>&1 \
  || { cat rec.out; fail "record failed"; }
"$BPFPERF" report -i r.data --json --sort comm,dso,sym >report.json 2>report.err \
  || { cat report.err; fail "report --json failed"; }
python3 strict.py report.json || { head -c 2000 report.json | cat -v; fail "report --json: not strict UTF-8 JSON"; }
ok "report --json with a non-UTF-8 comm"

# threads of one process mapping and unmapping memory contend on its mmap_lock
cat > wl.py <<'PY'
import ctypes, mmap, threading, time
libc = ctypes.CDLL(None, use_errno=True)
def w():
    libc.prctl(15, ctypes.c_char_p(b"bad\xff\xfe\xc3(\xed\xa0\x80q"), 0, 0, 0)
    t = time.time()
    while time.time() - t < 0.5:
        m = mmap.mmap(-1, 1 << 20); m[0:1] = b"x"; m.close()
ts = [threading.Thread(target=w) for _ in range(4)]
[t.start() for t in ts]; [t.join() for t in ts]
PY
"$BPFPERF" lock contention -t --json -- python3 wl.py >lock.json 2>lock.err || { cat lock.err; fail "lock --json failed"; }
python3 strict.py lock.json || { head -c 2000 lock.json | cat -v; fail "lock --json: not strict UTF-8 JSON"; }
ok "lock contention -t --json with non-UTF-8 comms"

# run: whatever a BPF program copies (comms of every process) comes out parseable
need_cmd clang
cat > commrb.bpf.c <<'EOF2'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
char LICENSE[] SEC("license") = "GPL";
struct event { char comm[16]; __u32 pid; };
struct { __uint(type, BPF_MAP_TYPE_RINGBUF); __uint(max_entries, 1 << 16); __type(value, struct event); } events SEC(".maps");
SEC("tp/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
	struct event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	e->pid = bpf_get_current_pid_tgid() >> 32;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
EOF2
clang -target bpf -g -O2 -I"$BUILD/src/bpf" -c commrb.bpf.c -o commrb.bpf.o || fail "clang failed"
"$BPFPERF" run commrb.bpf.o --json -- python3 -c 'import ctypes, os
ctypes.CDLL(None).prctl(15, ctypes.c_char_p(b"bad\xff\xfe\xc3(\xed\xa0\x80q"), 0, 0, 0)
[os.getppid() for _ in range(3)]' >run.json 2>run.err || { cat run.err; fail "run --json failed"; }
python3 strict.py run.json lines any || { head -c 2000 run.json | cat -v; fail "run --json: not strict UTF-8 JSON"; }
ok "run --json of a ring buffer of comms"

# stat -j (perf's shape, on stderr like perf): strings through the same escaping
"$BPFPERF" stat -j -e cpu-clock,task-clock -- python3 w.py 0 >stat.out 2>stat.json || { cat stat.json; fail "stat -j failed"; }
python3 strict.py stat.json lines any || { cat -v stat.json; fail "stat -j: not strict JSON"; }
ok "stat -j parses"
