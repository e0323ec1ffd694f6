#!/bin/sh
# Every JSON output parses with a strict UTF-8 parser when the data holds
# bytes that are not UTF-8: a workload whose comm (prctl PR_SET_NAME) and
# opened path are invalid UTF-8, seen by trace --json and report --json. Each
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

# strict.py FILE [lines]: the file must decode as UTF-8 and parse as JSON
# (one document, or one per line), and hold the escaped comm.
cat > strict.py <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
text = raw.decode("utf-8", "strict")
docs = [json.loads(l) for l in text.splitlines() if l.strip()] if len(sys.argv) > 2 else [json.loads(text)]
want = "bad\ufffd\ufffd\ufffd(\ufffd\ufffd\ufffdq"
if want not in json.dumps(docs, ensure_ascii=False):
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
