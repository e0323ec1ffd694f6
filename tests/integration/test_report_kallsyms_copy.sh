#!/bin/sh
# report reads the running kernel's symbols from the kallsyms copy in perf's
# build-id cache when it is current (cheaper than /proc/kallsyms, which the
# kernel formats on every read), names the same kernel functions as with
# /proc/kallsyms, and falls back to /proc/kallsyms for a copy of another boot.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
cd "$TMP"
bid=$(perf buildid-list -k 2>/dev/null)
[ -n "$bid" ] || skip "the running kernel has no build-id (perf buildid-list -k is empty)"
export PERF_BUILDID_DIR="$TMP/debug"
mkdir -p "$TMP/debug/[kernel.kallsyms]/$bid"
copy="$TMP/debug/[kernel.kallsyms]/$bid/kallsyms"
cp /proc/kallsyms "$copy" || fail "cannot copy /proc/kallsyms"
grep -qE '^[0-9a-f]*[1-9a-f][0-9a-f]* T _s?text$' "$copy" || skip "kernel addresses are hidden in /proc/kallsyms"

"$BPFPERF" record -g -o k.data -- "$DEMO" 1 >/dev/null 2>&1 || fail "record"
"$BPFPERF" report -i k.data --no-children -vv > copy.txt 2> copy.err || fail "report with the copy"
grep -qF "kernel text symbols from $copy" copy.err || { grep -i kallsyms copy.err; fail "the copy was not used"; }
"$BPFPERF" report -i k.data --no-children --kallsyms /proc/kallsyms -vv > proc.txt 2> proc.err ||
  fail "report --kallsyms /proc/kallsyms"
grep -q "kernel text symbols from /proc/kallsyms" proc.err || fail "--kallsyms was not read"
grep -q '\[k\]' copy.txt || fail "no kernel entries in the report"
cmp -s copy.txt proc.txt || { diff copy.txt proc.txt | head; fail "the copy and /proc/kallsyms name different symbols"; }
ok "copy used, same report as /proc/kallsyms"

# A copy from a boot with another KASLR offset: _text elsewhere.
sed -i -E 's/^([0-9a-f]*)([0-9a-f]{7}) T _text$/\1abcdef0 T _text/; s/^([0-9a-f]*)([0-9a-f]{7}) T _stext$/\1abcdef0 T _stext/' "$copy"
"$BPFPERF" report -i k.data --no-children -vv > stale.txt 2> stale.err || fail "report with a stale copy"
grep -q "kernel text symbols from /proc/kallsyms" stale.err || { grep -i kallsyms stale.err; fail "a stale copy was used"; }
cmp -s stale.txt proc.txt || fail "reports differ after falling back to /proc/kallsyms"
ok "stale copy refused"
