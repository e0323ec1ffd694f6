#!/bin/sh
# record copies the files its samples hit into perf's build-id cache
# (<dir>/<path>/<build-id>/elf, <dir>/.build-id/xx/rest, the kernel's
# kallsyms), so that a report after the binary was rebuilt or deleted still
# names its functions, ours and perf's (--buildid-dir the same directory).
# -N/--no-buildid-cache copies nothing (and then the symbols are lost: the
# control showing the checks would fail without the cache); the directory
# comes from --buildid-dir, the global --buildid-dir or PERF_BUILDID_DIR; a
# read-only cache directory gives one warning and a good recording.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd cc gcc
need_cmd readelf binutils
cd "$TMP"

mkwl() {  # NAME-OF-THE-HOT-FUNCTION: build bin/wl around it (0.5 s on the CPU)
  cat > wl.c <<EOF
#include <time.h>
static volatile unsigned long sink;
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
__attribute__((noinline)) void $1(void)
{
	double end = now() + 0.5;
	while (now() < end)
		for (int i = 0; i < 100000; i++)
			sink += i;
}
int main(void) { $1(); return 0; }
EOF
  mkdir -p bin && cc -O1 -Wl,--build-id -o bin/wl wl.c || fail "cannot build the workload"
}
syms() {  # FILE [bpfperf|perf [CACHE-DIR]]: the user-space symbols of the report
  if [ "${2:-bpfperf}" = perf ]; then
    perf --buildid-dir "${3:-$TMP/cache}" report -i "$1" --stdio --sort sym 2>/dev/null
  else
    "$BPFPERF" report -i "$1" --buildid-dir "${3:-$TMP/cache}" --sort sym 2>/dev/null
  fi | grep '\[\.\]'
}

mkwl bpfperf_cache_hot_fn
bid=$(readelf -n bin/wl | sed -n 's/.*Build ID: *//p')
[ -n "$bid" ] || skip "the compiler gives no build-id"
"$BPFPERF" record --buildid-dir "$TMP/cache" -e cpu-clock -o w.data -- "$TMP/bin/wl" >/dev/null 2>rec.err ||
  { cat rec.err; fail "record"; }
"$BPFPERF" record -N --buildid-dir "$TMP/nocache" -e cpu-clock -o n.data -- "$TMP/bin/wl" >/dev/null 2>&1 ||
  fail "record -N"

entry="$TMP/cache$TMP/bin/wl/$bid/elf"
[ -f "$entry" ] || { find cache | head -20; fail "no cache entry $entry"; }
cmp -s "$entry" bin/wl || fail "the cache entry is not a copy of the binary"
rest=${bid#??}
link="$TMP/cache/.build-id/$(echo "$bid" | cut -c1-2)/$rest"
[ "$(readlink "$link")" = "../..$TMP/bin/wl/$bid" ] || fail ".build-id link: $(readlink "$link")"
cmp -s "$link/elf" bin/wl || fail "the .build-id link does not lead to the copy"
kbid=$(perf buildid-list -k 2>/dev/null)
[ -z "$kbid" ] || [ -s "$TMP/cache/[kernel.kallsyms]/$kbid/kallsyms" ] || fail "no kallsyms copy"
libc=$(ldd bin/wl | sed -n 's/.*=> \(\/[^ ]*libc\.so[^ ]*\).*/\1/p' | head -1)
[ -n "$libc" ] && { find cache -path "*libc.so*/elf" | grep -q . || fail "libc is not in the cache"; }
[ -e "$TMP/nocache" ] && fail "record -N wrote a cache"
ok "cache: $TMP/bin/wl/$bid/elf, .build-id link, kallsyms; nothing with -N"

perf buildid-list -i w.data 2>/dev/null | grep -qxF "$bid $TMP/bin/wl" || fail "buildid-list lacks the workload"
syms w.data | grep -q bpfperf_cache_hot_fn || { syms w.data; fail "no symbol before any change"; }

# Rebuilt: same path, other code. The recording's build-id finds the copy.
mkwl bpfperf_other_fn
syms w.data | grep -q bpfperf_cache_hot_fn || { syms w.data; fail "rebuilt binary: symbol lost"; }
syms w.data perf | grep -q bpfperf_cache_hot_fn || fail "rebuilt binary: perf report lost the symbol"
syms n.data bpfperf "$TMP/nocache" | grep -q bpfperf_cache_hot_fn &&
  fail "control: without the cache the old symbol was found"
ok "rebuilt binary: symbols from the cache (ours and perf's); not without it"

# Deleted (as when the container is gone).
rm -f bin/wl
syms w.data | grep -q bpfperf_cache_hot_fn || fail "deleted binary: symbol lost"
syms w.data perf | grep -q bpfperf_cache_hot_fn || fail "deleted binary: perf report lost the symbol"
syms n.data bpfperf "$TMP/nocache" | grep -q bpfperf_cache_hot_fn &&
  fail "control: deleted binary named without the cache"
ok "deleted binary: symbols from the cache (ours and perf's)"

# The directory from PERF_BUILDID_DIR and from the global option.
mkwl bpfperf_cache_hot_fn
PERF_BUILDID_DIR="$TMP/env" "$BPFPERF" record -e cpu-clock -o e.data -- "$TMP/bin/wl" >/dev/null 2>&1 ||
  fail "record with PERF_BUILDID_DIR"
find env -name elf -path "*bin/wl*" | grep -q . || fail "PERF_BUILDID_DIR not used"
"$BPFPERF" --buildid-dir "$TMP/global" record -e cpu-clock -o g.data -- "$TMP/bin/wl" >/dev/null 2>&1 ||
  fail "bpfperf --buildid-dir DIR record"
find global -name elf -path "*bin/wl*" | grep -q . || fail "the global --buildid-dir not used"
# An entry already there is not copied again (its file is left as it is);
# files the first run did not hit may be added (in a guest, samples may fall
# in other libraries or kernel modules the second time).
n1=$(find global -type f | wc -l)
find global -type f -exec touch -d '2000-01-01 00:00' {} +
"$BPFPERF" -v record --buildid-dir "$TMP/global" -e cpu-clock -o g2.data -- "$TMP/bin/wl" >/dev/null 2>g2.err ||
  fail "second record"
grep -q "build-id cache: [0-9]* added ([0-9.]* MiB), [1-9][0-9]* already there" g2.err ||
  { grep build-id g2.err; fail "second record: no entry already there"; }
again=$(find global -type f ! -newermt '2001-01-01' | wc -l)
[ "$again" = "$n1" ] || { grep build-id g2.err; fail "second record: $((n1 - again)) of the $n1 entries were copied again"; }
ok "PERF_BUILDID_DIR, global --buildid-dir; entries not copied twice"

# A read-only cache directory: one warning, the recording is fine. The
# read-only bind mount lives in a private mount namespace (unshare -m).
mkdir -p ro
if unshare -m sh -c "mount --bind '$TMP/ro' '$TMP/ro' && mount -o remount,bind,ro '$TMP/ro' &&
    touch '$TMP/ro/x' 2>/dev/null && exit 3;
    exec '$BPFPERF' record --buildid-dir '$TMP/ro' -e cpu-clock -o ro.data -- '$TMP/bin/wl'" \
    >/dev/null 2>ro.err; then
  n=$(grep -c "cannot write the build-id cache" ro.err)
  [ "$n" = 1 ] || { cat ro.err; fail "read-only cache: $n warnings, expected one"; }
  grep -q "Read-only file system" ro.err || { cat ro.err; fail "read-only cache: the cause is not named"; }
  perf report -i ro.data --stdio >/dev/null 2>&1 || fail "read-only cache: the recording is unreadable"
  ok "read-only cache directory: one warning, a good recording"
else
  rc=$?
  [ $rc = 3 ] && fail "the bind mount is writable"
  grep -q "cannot write the build-id cache" ro.err && { cat ro.err; fail "record failed on a read-only cache"; }
  echo "note: no private read-only mount here (unshare -m: exit $rc); read-only case not run"
fi
