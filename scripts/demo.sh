#!/bin/sh
# Quick start, first command: install what is missing, build, record the bundled
# demo workload with call graphs, print the report and write a flame graph.
set -e
cd "$(dirname "$0")/.."
sh scripts/deps.sh
sh scripts/build.sh
out=${BPFPERF_DEMO_OUT:-demo-out}
mkdir -p "$out"
./build/bpfperf record -g -o "$out/perf.data" -- ./build/demo/bpfperf-demo 3
./build/bpfperf report -i "$out/perf.data" --no-children --percent-limit 1
./build/bpfperf report -i "$out/perf.data" --flamegraph "$out/flamegraph.html"
echo "flame graph: $out/flamegraph.html"
