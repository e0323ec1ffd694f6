#!/bin/sh
# mixed_workload.sh SECONDS: many processes and shared objects at once
# (gcc compiles, python3, the demo with its BPF program), for a large and
# varied recording.
secs=${1:-20}
src=$(cd "$(dirname "$0")/.." && pwd)
demo=${DEMO:-$src/build/demo/bpfperf-demo}
end=$(( $(date +%s) + secs ))
tmp=$(mktemp -d)
( while [ "$(date +%s)" -lt "$end" ]; do gcc -O2 -c "$src/bench/cpu_work.c" -o "$tmp/a.o"; done ) &
( while [ "$(date +%s)" -lt "$end" ]; do
    python3 -c 'import json,re,zlib
d=[{"k":i,"v":str(i)*5} for i in range(20000)]
s=json.dumps(d); zlib.compress(s.encode()); re.findall(r"\d+",s)'; done ) &
( "$demo" "$secs" >/dev/null 2>&1 ) &
wait
rm -rf "$tmp"
