#!/bin/sh
# report --kallsyms on a file that is not kallsyms: 40 MB without a newline
# is read in constant memory (it took 893 MB before), with a warning that
# names the file; a real kallsyms still resolves kernel samples.
. "$(dirname "$0")/lib.sh"
need_root; need_cmd python3
cd "$TMP" || fail "no temp dir"
"$BPFPERF" record -e cpu-clock -F 999 -o k.data -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >rec.out 2>&1 \
  || { cat rec.out; fail "record failed"; }
python3 -c '
import sys
with open("nonl.txt", "wb") as f:
    f.write(b"ffffffff81000000 T " + b"x" * (40 << 20))'
python3 - "$BPFPERF" <<'PY' || fail "memory not bounded"
import resource, subprocess, sys
r = subprocess.run([sys.argv[1], "report", "-i", "k.data", "--kallsyms", "nonl.txt"], capture_output=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
err = r.stderr.decode()
print(f"report --kallsyms (40 MB, no newline): exit {r.returncode}, max RSS {rss} MiB")
assert r.returncode == 0, err
assert "nonl.txt: 1 lines of 4096 bytes or more skipped" in err, err
assert rss < 128, rss
PY
ok "kallsyms without newlines: bounded memory"

cp /proc/kallsyms real.txt
"$BPFPERF" report -i k.data --kallsyms real.txt --sort dso >rep.txt 2>rep.err || { cat rep.err; fail "report with a real kallsyms failed"; }
grep -q "skipped" rep.err && { cat rep.err; fail "lines of a real kallsyms skipped"; }
ok "real kallsyms: nothing skipped"
