#!/bin/sh
# scripts/fuzz.sh NAME [SECONDS]: build tests/fuzz/fuzz_NAME.c with libFuzzer,
# ASan and UBSan (clang) and fuzz it from tests/fuzz/corpus/NAME for SECONDS
# (default 60). New inputs go to build-fuzz/corpus-NAME; crashes to
# build-fuzz/crash-*. Add each crash to the corpus as a regression test.
set -e
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/fuzz.sh NAME [SECONDS]}
secs=${2:-60}
[ -f build/build.ninja ] || sh scripts/build.sh
mkdir -p build-fuzz "build-fuzz/corpus-$name"
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -D_GNU_SOURCE -DBPFPERF_VERSION='"fuzz"' -Isrc -Isrc/lib -Ibuild/src/bpf \
  "tests/fuzz/fuzz_$name.c" src/lib/*.c src/lib/*/*.c \
  $(pkg-config --libs libbpf libelf libdw capstone zlib liblzma) -lstdc++ -lm \
  -o "build-fuzz/fuzz_$name"
cd build-fuzz
"./fuzz_$name" -max_total_time="$secs" -max_len=65536 "corpus-$name" "../tests/fuzz/corpus/$name"
