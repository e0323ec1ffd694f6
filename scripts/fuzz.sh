#!/bin/sh
# scripts/fuzz.sh NAME [SECONDS]: build tests/fuzz/fuzz_NAME.c with libFuzzer,
# ASan and UBSan (clang) and fuzz it from tests/fuzz/corpus/NAME for SECONDS
# (default 60). New inputs go to build-fuzz/corpus-NAME; crashes to
# build-fuzz/crash-*. Add each crash to the corpus as a regression test.
#
# FUZZ_RUNS=N: stop after N executions instead (-runs=N, no time limit).
# FUZZ_ARGS: more libFuzzer options (e.g. -close_fd_mask=3 to silence the
#   target's own messages, which slow it down).
# scripts/fuzz.sh NAME build: only build build-fuzz/fuzz_NAME.
# scripts/fuzz.sh NAME merge: add to tests/fuzz/corpus/NAME the inputs of
#   build-fuzz/corpus-NAME that reach coverage it lacks (-merge=1: a minimal
#   set; the committed inputs stay as they are); review before committing.
#
# The library is compiled once into build-fuzz/obj/ (again when a source or
# header is newer). NAME's extra sources, if any, are tests/fuzz/NAME_*.c.
set -e
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/fuzz.sh NAME [SECONDS|merge]}
secs=${2:-60}
[ -f "tests/fuzz/fuzz_$name.c" ] || { echo "no tests/fuzz/fuzz_$name.c" >&2; exit 2; }
[ -f build/build.ninja ] || sh scripts/build.sh
mkdir -p build-fuzz/obj "build-fuzz/corpus-$name"
cflags="-g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
  -D_GNU_SOURCE -DBPFPERF_VERSION=\"fuzz\" -Isrc -Isrc/lib -Isrc/bpf -Isrc/bpf/include
  -Ibuild/src/bpf -Itests/fuzz $(pkg-config --cflags libbpf libelf libdw capstone zlib liblzma libzstd libtraceevent)"
newest_header=$(ls -t src/lib/*.h src/lib/*/*.h src/bpf/*.h build/src/bpf/*.h | head -1)
objs=""
stale=""
for src in src/lib/*.c src/lib/*/*.c; do
  obj="build-fuzz/obj/$(echo "$src" | tr / _).o"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_header" -nt "$obj" ]; then
    stale="$stale $src"
  fi
  objs="$objs $obj"
done
# the stale objects compiled on every CPU at once
if [ -n "$stale" ]; then
  export cflags
  # shellcheck disable=SC2086,SC2016
  printf '%s\n' $stale | xargs -P "$(nproc)" -I{} sh -c \
    'clang $cflags -c "{}" -o "build-fuzz/obj/$(echo "{}" | tr / _).o"' || exit 1
fi
extra=""
for e in tests/fuzz/"${name}"_*.c; do
  [ -f "$e" ] && extra="$extra $e"
done
# shellcheck disable=SC2086
clang $cflags -fsanitize=fuzzer "tests/fuzz/fuzz_$name.c" $extra $objs \
  $(pkg-config --libs libbpf libelf libdw capstone zlib liblzma libzstd libtraceevent) -lstdc++ -lm \
  -o "build-fuzz/fuzz_$name"
cd build-fuzz
[ "$secs" = build ] && exit 0
if [ "$secs" = merge ]; then
  # shellcheck disable=SC2086
  exec "./fuzz_$name" -merge=1 -max_len=65536 ${FUZZ_ARGS:-} "../tests/fuzz/corpus/$name" \
    "corpus-$name"
fi
if [ -n "${FUZZ_RUNS:-}" ]; then limit="-runs=$FUZZ_RUNS"; else limit="-max_total_time=$secs"; fi
# shellcheck disable=SC2086
"./fuzz_$name" "$limit" -max_len=65536 ${FUZZ_ARGS:-} "corpus-$name" "../tests/fuzz/corpus/$name"
