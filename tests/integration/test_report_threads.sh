#!/bin/sh
# report's thread and JIT keys against perf report 6.1 on the same files
# (perf's recording and ours): the sort key "pid" is the thread ("TID:comm",
# several threads of one process are several entries) named by the thread's
# last comm (after an exec), and code in anonymous memory is the DSO
# "[JIT] tid PID" (perf's /tmp/perf-PID.map, with or without that file).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd python3
cd "$TMP"
CMP="python3 $SRC/tests/integration/compare_table.py"
IGN='bpf_prog|\[unknown\]'
case "$(uname -m)" in x86_64|aarch64) ;; *) skip "no JIT loop for $(uname -m)";; esac

# three busy threads of one process; a shell that spins and then execs
# (its samples belong to the thread whose last comm is sleep); a JIT loop
cat >threads.py <<'PY'
import threading, time
def spin(secs):
    end = time.time() + secs
    while time.time() < end:
        pass
ts = [threading.Thread(target=spin, args=(0.3,)) for _ in range(3)]
for t in ts: t.start()
for t in ts: t.join()
PY
# the interpreter itself, not a wrapper script (pyenv's shims exec a chain
# of helpers whose comms would crowd the table)
PY=$(python3 -c 'import sys; print(sys.executable)')
cat >work.sh <<SH
"$PY" threads.py
"$PY" "$SRC/tests/workloads/jit_loop.py" 0.3
sh -c 'i=0; while [ \$i -lt 200000 ]; do i=\$((i + 1)); done; exec sleep 0.01'
"$PY" rename.py
SH
# a thread that spins under a long comm, then under a short one: perf sizes
# the Pid:Command column by the last comm
cat >rename.py <<'PY'
import ctypes, time
libc = ctypes.CDLL(None)
def spin(secs):
    end = time.time() + secs
    while time.time() < end:
        pass
libc.prctl(15, b"prerename_long1", 0, 0, 0)
spin(0.15)
libc.prctl(15, b"rn", 0, 0, 0)
spin(0.05)
PY
perf_rec -e cpu-clock -o perf.data -- sh work.sh || fail "perf record"
"$BPFPERF" record -e cpu-clock -o ours.data -- sh work.sh >/dev/null 2>&1 || fail "bpfperf record"

for F in perf.data ours.data; do
  for s in pid comm,pid pid,dso dso dso,sym; do
    perf --buildid-dir "$TMP/bid" report -i $F --stdio --no-children -g none -s $s > p.txt 2>/dev/null ||
      fail "perf report -s $s on $F"
    "$BPFPERF" report -i $F --no-children -g none -s $s > o.txt 2>o.err || { cat o.err; fail "report -s $s on $F"; }
    $CMP p.txt o.txt --min 1 --ignore "$IGN" > cmp.txt || { cat cmp.txt; fail "$F -s $s: not as perf"; }
    ok "$F -s $s ($(cat cmp.txt))"
  done
  # what the comparison is about: each of them must be there
  "$BPFPERF" report -i $F --no-children -g none -s pid,dso > o.txt
  threads=$(awk '$2 ~ /^[0-9]+:python/ && $3 ~ /^python|^libpython/ { print $2 }' o.txt | sort -u | wc -l)
  [ "$threads" -ge 4 ] || { cat o.txt; fail "$F: the 3 threads (and the main one) are not 4 entries"; }
  grep -q '\[JIT\] tid [0-9]' o.txt || { cat o.txt; fail "$F: no [JIT] tid entry"; }
  grep -Eq '[0-9]+:sleep +sh$|[0-9]+:sleep +libc' o.txt || { cat o.txt; fail "$F: the shell's samples are not the thread named sleep"; }
  ok "$F: $threads python threads, a [JIT] entry, the shell named by its exec"
done
