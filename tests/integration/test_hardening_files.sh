#!/bin/sh
# Output files are never written through a symlink nor into an existing file:
# a symlink planted at the path of record -o, report -o, report --flamegraph,
# trace -o and stat -o is replaced by a regular file and its target left
# alone; modes 0600 (perf.data) and 0644 (what is meant to be shared); no
# temporary file left behind; a failed write leaves the old file as it was.
# (lock has no output file: its -o is --owner.)
# report refuses an input another user owns unless -f, as perf does.
# Every write is checked: /dev/full as stdout or -o FILE exits 1 naming the
# file and the errno; /dev/null and '-' still work.
. "$(dirname "$0")/lib.sh"
need_root
need_tracefs
id nobody >/dev/null 2>&1 || skip "no user 'nobody' to own a foreign file"
cd "$TMP"
umask 022

echo "victim: must not change" > victim
cp victim victim.orig
victim_intact() {
  cmp -s victim victim.orig || fail "$1: the symlink's target was written"
  [ -f victim ] && [ ! -L victim ] || fail "$1: the target was replaced"
}
# regular NAME MODE WHAT: NAME is a regular file (not the symlink) with MODE
regular() {
  [ -f "$1" ] && [ ! -L "$1" ] || fail "$3: $1 is not a regular file ($(ls -l "$1"))"
  [ -s "$1" ] || fail "$3: $1 is empty"
  m=$(stat -c %a "$1")
  [ "$m" = "$2" ] || fail "$3: $1 has mode $m, not $2"
  victim_intact "$3"
  ok "$3: symlink replaced by a regular file, mode $2, target untouched"
}

# record -o: perf.data, 0600. perf's backup only moves a non-empty file
# away: a dangling symlink or one to an empty file was written through.
ln -s created.victim rec.data
"$BPFPERF" record -o rec.data -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
  >/dev/null 2>rec.err || { cat rec.err; fail "record -o onto a symlink exited $?"; }
regular rec.data 600 "record -o (dangling symlink)"
[ ! -e created.victim ] || fail "record -o created the dangling symlink's target"
"$BPFPERF" report -i rec.data >/dev/null 2>&1 || fail "the recording does not read back"
: > empty.victim
ln -s empty.victim rec2.data
"$BPFPERF" record -o rec2.data -- true >/dev/null 2>&1 || fail "record -o onto a symlink to an empty file exited $?"
regular rec2.data 600 "record -o (symlink to an empty file)"
[ ! -s empty.victim ] || fail "record -o wrote into the symlink's empty target"
# perf's backup, kept: the existing file becomes .old, a symlink at .old is replaced
ln -s victim rec.data.old
cp rec.data first.data
"$BPFPERF" record -o rec.data -- true >/dev/null 2>&1 || fail "second record exited $?"
regular rec.data.old 600 "record -o, existing file to .old"
cmp -s rec.data.old first.data || fail "rec.data.old is not the previous recording"

# report -o, --flamegraph: meant to be shared, 0644
ln -s victim report.txt
"$BPFPERF" report -i rec.data -o report.txt 2>/dev/null || fail "report -o onto a symlink exited $?"
regular report.txt 644 "report -o"
grep -q '^#' report.txt || fail "report -o: no report in the file"
ln -s victim fg.html
"$BPFPERF" report -i rec.data --flamegraph fg.html 2>/dev/null || fail "report --flamegraph exited $?"
regular fg.html 644 "report --flamegraph"
grep -qi '<html' fg.html || fail "--flamegraph: no page written"

# trace -o, stat -o: 0644
ln -s victim trace.txt
"$BPFPERF" trace -o trace.txt -- cat /etc/hostname >/dev/null 2>trace.err || { cat trace.err; fail "trace -o exited $?"; }
regular trace.txt 644 "trace -o"
grep -q 'openat' trace.txt || fail "trace -o: no calls in the file"
ln -s victim stat.txt
"$BPFPERF" stat -o stat.txt -- true 2>stat.err || { cat stat.err; fail "stat -o exited $?"; }
regular stat.txt 644 "stat -o"
grep -q 'task-clock\|cpu-clock' stat.txt || fail "stat -o: no counts in the file"

# a plain file someone else left at the path is replaced, not reused
echo planted > planted.txt
chown nobody planted.txt
"$BPFPERF" report -i rec.data -o planted.txt 2>/dev/null || fail "report -o onto another user's file exited $?"
[ "$(stat -c %U planted.txt)" = root ] || fail "report -o reused another user's file"
ok "another user's file at the path is replaced, not reused"

left=$(ls -A | grep -E '^\..+\.[A-Za-z0-9]{6}$' || true)
[ -z "$left" ] || fail "temporary files left behind: $left"
ok "no temporary file left behind"

# A failed write (file size limit: EFBIG, SIGXFSZ ignored) leaves the old file.
cp fg.html fg.before
( trap '' XFSZ; ulimit -f 2; exec "$BPFPERF" report -i rec.data --flamegraph fg.html ) 2>efbig.err \
  && fail "a flame graph over the file size limit: exited 0"
grep -q 'fg.html.*File too large' efbig.err || { cat efbig.err; fail "no message naming fg.html and EFBIG"; }
cmp -s fg.html fg.before || fail "a failed write changed fg.html"
left=$(ls -A | grep -E '^\..+\.[A-Za-z0-9]{6}$' || true)
[ -z "$left" ] || fail "temporary files left after a failed write: $left"
ok "failed write: exit 1, message, the old file as it was, no temporary file"

# report's input owned by another user: refused, -f reads it (with a warning)
cp rec.data foreign.data
chown nobody foreign.data
expect_fail "report of another user's file" "foreign.data.*not owned by the current user or root.*-f" \
  "$BPFPERF" report -i foreign.data
"$BPFPERF" report -f -i foreign.data >f.out 2>f.err || { cat f.err; fail "report -f exited $?"; }
grep -q '^#' f.out || fail "report -f printed no report"
grep -q 'warning:.*foreign.data.*uid' f.err || { cat f.err; fail "report -f: no warning about the owner"; }
ok "report -f reads it, with a warning"
"$BPFPERF" report --force -i foreign.data >/dev/null 2>&1 || fail "report --force exited $?"
if command -v perf >/dev/null 2>&1; then
  perf --buildid-dir "$(mktemp -d)" report -i foreign.data --stdio >/dev/null 2>perf.err \
    && echo "note: perf read the foreign file (older perf?)"
  grep -q 'not owned by current user or root' perf.err && ok "perf refuses it too"
fi

# /dev/full: exit 1 and a message naming the file and the errno
expect_fail "report > /dev/full" "standard output.*No space left on device" \
  sh -c '"$1" report -i rec.data >/dev/full' sh "$BPFPERF"
expect_fail "report -o /dev/full" "/dev/full.*No space left on device" \
  "$BPFPERF" report -i rec.data -o /dev/full
expect_fail "report --flamegraph /dev/full (larger than a stdio buffer)" "/dev/full.*No space left on device" \
  "$BPFPERF" report -i rec.data --flamegraph /dev/full
expect_fail "trace -o /dev/full" "/dev/full.*No space left on device" \
  "$BPFPERF" trace -o /dev/full -- true
expect_fail "stat -o /dev/full" "/dev/full.*No space left on device" \
  "$BPFPERF" stat -o /dev/full -- true
expect_fail "trace > /dev/full" "standard output.*No space left on device" \
  sh -c '"$1" trace -- true >/dev/full' sh "$BPFPERF"
expect_fail "lock contention > /dev/full" "standard output.*No space left on device" \
  sh -c '"$1" lock contention -- true >/dev/full' sh "$BPFPERF"
"$BPFPERF" stat -- true 2>/dev/full && fail "stat 2> /dev/full (the counts on stderr): exited 0"
ok "stat 2> /dev/full: exit $?"

# devices and '-' are written in place
"$BPFPERF" report -i rec.data -o /dev/null || fail "report -o /dev/null exited $?"
"$BPFPERF" trace -o /dev/null -- true || fail "trace -o /dev/null exited $?"
"$BPFPERF" stat -o /dev/null -- true || fail "stat -o /dev/null exited $?"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
"$BPFPERF" report -i rec.data -o - > dash.out || fail "report -o - exited $?"
grep -q '^#' dash.out || fail "report -o -: nothing on stdout"
[ ! -e ./- ] || fail "report -o - created a file named '-'"
link=0; [ -L /dev/stdout ] && link=1	# a bare devtmpfs (the QEMU guests) has none
"$BPFPERF" report -i rec.data -o /dev/stdout > devstdout.out || fail "report -o /dev/stdout exited $?"
cmp -s dash.out devstdout.out || { diff dash.out devstdout.out | head -20; fail "report -o /dev/stdout differs from -o -"; }
if [ $link = 1 ]; then [ -L /dev/stdout ] || fail "/dev/stdout was replaced"
else [ ! -e /dev/stdout ] || fail "a file /dev/stdout was created"; fi
# where /dev has no stdout link (a bare devtmpfs): still standard output,
# as in bash's redirections, and no file created there
if command -v unshare >/dev/null; then
  unshare -m sh -c 'mount -t tmpfs bare /dev && mknod -m 666 /dev/null c 1 3 &&
    "$0" report -i rec.data -o /dev/stdout > nolink.out && [ ! -e /dev/stdout ]' "$BPFPERF" ||
    fail "report -o /dev/stdout without a /dev/stdout link failed or created a file"
  cmp -s dash.out nolink.out || { diff dash.out nolink.out | head; fail "-o /dev/stdout without the link is not standard output"; }
fi
ok "/dev/null, - and /dev/stdout written in place"
ok "hardening of files"
