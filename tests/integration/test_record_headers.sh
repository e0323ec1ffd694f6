#!/bin/sh
# The header features perf writes and its tools rely on, with perf 6.1 as the
# oracle: `perf report --header-only -I` on our file shows every field that
# it shows on perf's own file of the same workload (host, CPUs, memory,
# command line with argv[0], topologies, sample times; with -k the clock);
# our `report --header-only [-I]` prints the same text as perf's on both
# files; `perf data convert --to-json` reads our file (its JSON parses);
# `perf report --time X%/N` accepts it; `perf buildid-list` lists the kernel
# and the workload with the build-ids that `readelf -n` shows.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd python3
need_cmd readelf binutils
cd "$TMP"

"$BPFPERF" record -e cpu-clock -o ours.data -- "$DEMO" 1 >/dev/null 2>rec.err ||
  { cat rec.err; fail "bpfperf record"; }
# --no-bpf-event: perf 6.1 aborts (stack smashing in build-id code) on the
# program info of some BPF programs other tools may have loaded meanwhile;
# the BPF sections are not what this test compares.
perf_rec --no-bpf-event -e cpu-clock -o perf.data -- "$DEMO" 1 || fail "perf record failed three times"
perf report --header-only -I -i perf.data > perf.hdr 2>&1 || fail "perf --header-only on perf's file"
perf report --header-only -I -i ours.data > ours.hdr 2>&1 || { cat ours.hdr; fail "perf --header-only on our file"; }

# Every field perf shows for its own file, by its label.
for label in "hostname :" "os release :" "arch :" "nrcpus online :" "nrcpus avail :" "cpudesc :" \
             "cpuid :" "total memory :" "cmdline :" "sibling sockets :" "sibling threads :" "CPU 0:" \
             "node0 meminfo" "node0 cpu list :" "time of first sample :" "time of last sample :" \
             "sample duration :" "memory nodes" "pmu mappings:" "CPU cache info:" "  L1 "; do
  grep -q "^# $label" perf.hdr || continue	# not on this machine
  grep -q "^# $label" ours.hdr || { cat ours.hdr; fail "perf shows no '$label' for our file"; }
done
for f in BUILD_ID HOSTNAME OSRELEASE ARCH NRCPUS CPUDESC CPUID TOTAL_MEM CMDLINE CPU_TOPOLOGY \
         NUMA_TOPOLOGY SAMPLE_TIME PMU_MAPPINGS CACHE; do
  grep "^# missing features:" ours.hdr | grep -qw "$f" && fail "perf finds no $f in our file"
done
grep -q "^# cmdline : $BPFPERF record -e cpu-clock" ours.hdr ||
  { grep cmdline ours.hdr; fail "CMDLINE does not start with the executable's path"; }
ok "perf --header-only -I: every field of perf's own file"

# Our printer is perf's, byte for byte (both files, with and without -I).
for f in ours.data perf.data; do
  for i in "" -I; do
    perf report --header-only $i -i $f > p.txt 2>&1
    "$BPFPERF" report --header-only $i -i $f > o.txt 2>o.err || { cat o.err; fail "report --header-only $i -i $f"; }
    cmp -s p.txt o.txt || { diff p.txt o.txt | head -20; fail "report --header-only $i -i $f differs from perf's"; }
  done
done
"$BPFPERF" report --header --no-children -i ours.data > both.txt 2>/dev/null || fail "report --header"
head -1 both.txt | grep -q "^# ========" || fail "report --header: no header first"
grep -q "Samples:" both.txt || fail "report --header: no report after the header"
ok "report --header-only [-I] prints what perf prints; --header then the report"

# The clock: CLOCKID and CLOCK_DATA with -k, as perf -k.
"$BPFPERF" record -k monotonic -e cpu-clock -o mono.data -- "$DEMO" 0.3 >/dev/null 2>&1 || fail "record -k"
perf report --header-only -i mono.data > mono.hdr 2>&1
grep -q "^# clockid frequency: [1-9]" mono.hdr || { cat mono.hdr; fail "no CLOCKID with -k"; }
grep -q "^# clockid: monotonic (1)" mono.hdr || fail "no CLOCK_DATA with -k"
grep -q "^# reference time: .* (TOD) = .* (monotonic)" mono.hdr || fail "CLOCK_DATA reference time"
grep "^# event : name = cpu-clock" mono.hdr | grep "use_clockid = 1" | grep -q "clockid = 1$" || fail "-k: events without use_clockid"
"$BPFPERF" report --header-only -i mono.data > o.txt 2>&1
cmp -s mono.hdr o.txt || { diff mono.hdr o.txt; fail "report --header-only differs on a -k file"; }
ok "-k monotonic: CLOCKID, CLOCK_DATA"

# perf data convert --to-json: no crash, JSON that parses, with the CPU fields.
perf data convert --to-json ours.json -i ours.data >/dev/null 2>conv.err ||
  { cat conv.err; fail "perf data convert --to-json on our file (exit $?)"; }
python3 - ours.json <<'EOF' || fail "the JSON of our file"
import json, sys
d = json.load(open(sys.argv[1]))
h = d["headers"]
for k in ("hostname", "os-release", "arch", "cpu-desc", "cpuid", "nrcpus-online", "cmdline"):
    assert h.get(k) not in (None, "", []), k
assert d["samples"], "no samples"
EOF
ok "perf data convert --to-json"

# perf report --time needs the first and last sample times.
perf report --time 50%/2 -i ours.data --stdio > time.txt 2>&1 || { cat time.txt; fail "perf report --time"; }
grep -q "HINT: no first/last sample time" time.txt && fail "perf report --time: no sample times"
grep -q "time slices: 50%/2" time.txt || { head time.txt; fail "perf report --time: no slice"; }
ok "perf report --time 50%/2"

# The kernel's maps as perf writes them: [kernel.kallsyms]_text from _text to
# _etext and one map per module (its file, address and size). Without the
# module maps perf names samples in modules [unknown] where it reads the
# kernel through /proc/kcore (the guests).
kmaps() { perf report -D -i "$1" 2>/dev/null | sed -n 's/.*PERF_RECORD_MMAP -1\/0: //p' | sort; }
kmaps perf.data > kmaps.perf; kmaps ours.data > kmaps.ours
[ -s kmaps.perf ] || fail "no kernel map in perf's file"
cmp -s kmaps.perf kmaps.ours || { diff kmaps.perf kmaps.ours; fail "kernel maps not as perf writes them"; }
nmod=$(grep -c '\.ko' kmaps.ours)
if [ -s /proc/modules ]; then
  [ "$nmod" -gt 0 ] || fail "no module maps, while modules are loaded"
  ok "kernel maps as perf's: the kernel's text and $nmod modules"
else
  ok "kernel maps as perf's: the kernel's text (no modules here: the guests of scripts/test-kernels.sh have some)"
fi

# perf buildid-list: the kernel and the workload, with their build-ids.
perf buildid-list -i ours.data > bids.txt 2>&1 || fail "perf buildid-list"
kbid=$(perf buildid-list -k 2>/dev/null)
[ -z "$kbid" ] || grep -q "^$kbid \[kernel.kallsyms\]$" bids.txt || { cat bids.txt; fail "no kernel build-id"; }
demo_bid=$(readelf -n "$DEMO" | sed -n 's/.*Build ID: *//p')
[ -n "$demo_bid" ] || skip "the demo has no build-id"
grep -qxF "$demo_bid $DEMO" bids.txt || { cat bids.txt; fail "no build-id $demo_bid for $DEMO"; }
while read -r bid path; do	# every user file listed has the build-id of the file
  case $path in /*) ;; *) continue ;; esac
  [ -r "$path" ] || continue
  case $path in	# compressed modules (Debian 6.12's .ko.xz): their ELF inside
    *.xz) xz -dc "$path" > unpacked.elf 2>/dev/null; elf=unpacked.elf ;;
    *.zst) zstd -dcq "$path" > unpacked.elf 2>/dev/null; elf=unpacked.elf ;;
    *) elf=$path ;;
  esac
  real=$(readelf -n "$elf" 2>/dev/null | sed -n 's/.*Build ID: *//p')
  [ "$real" = "$bid" ] || fail "$path: build-id $bid listed, $real in the file"
done < bids.txt
# what perf lists for its own file of the same workload, we list too
perf buildid-list -i perf.data 2>/dev/null | while read -r bid path; do
  case $path in "$DEMO"|*libc.so*|"[kernel.kallsyms]") ;; *) continue ;; esac
  grep -qxF "$bid $path" bids.txt || fail "perf lists $bid $path for its file, not for ours"
done || exit 1
if [ -r /proc/modules ] && [ -s /proc/modules ]; then
  echo "note: modules are loaded; a module is listed only when a sample hit it"
fi
ok "perf buildid-list: kernel $kbid, $DEMO $demo_bid"

# Bad values: usage errors (exit 2) naming the option.
"$BPFPERF" record -k sundial -o bad.data -- true >/dev/null 2>bad.err; rc=$?
[ $rc = 2 ] && grep -q "invalid --clockid 'sundial': expected a clock" bad.err || { cat bad.err; fail "-k sundial: exit $rc"; }
"$BPFPERF" --buildid-dir >/dev/null 2>bad.err; rc=$?
[ $rc = 2 ] && grep -q "buildid-dir needs a directory" bad.err || { cat bad.err; fail "--buildid-dir without DIR: exit $rc"; }
"$BPFPERF" report --header --json -i ours.data >/dev/null 2>bad.err; rc=$?
[ $rc = 2 ] && grep -q "not with --json or --folded" bad.err || { cat bad.err; fail "--header --json: exit $rc"; }
ok "bad -k and --buildid-dir values, --header with --json"
