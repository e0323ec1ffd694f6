#!/bin/sh
# A recording whose tracepoint format crashes libtraceevent's parser (issue
# 37): sched_switch's print format with one ',' turned into '#' (': "R",
# REC->prev_state' becomes ': "R"# REC->prev_state'), in perf's recording and
# in ours. Every report view exits 0 (or with a clear error), never by a
# signal; the views that print the event show "[FAILED TO PARSE]" and its
# fields; the fields still sort exactly as in the intact file; one warning
# names the event. The unmutated files print the formatted lines.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd perf linux-perf
need_cmd python3
need_tracefs
cd "$TMP"
PERF="perf --buildid-dir $TMP/bid"
perf_rec --no-bpf-event -e sched:sched_switch -o perf.data -- sh -c 'sleep 0.01; sleep 0.01' ||
  fail "perf record -e sched:sched_switch"
"$BPFPERF" record -e sched:sched_switch -o ours.data -- sh -c 'sleep 0.01; sleep 0.01' >/dev/null 2>rec.err ||
  { cat rec.err; fail "bpfperf record -e sched:sched_switch"; }

mutate() {	# $1 -> $2: the one byte changed
  python3 - "$1" "$2" <<'PY' || fail "mutate $1: the print format's ': \"R\", REC->prev_state' not found once"
import sys
d = open(sys.argv[1], 'rb').read()
a = b': "R", REC->prev_state'
if d.count(a) != 1:
    sys.exit(1)
open(sys.argv[2], 'wb').write(d.replace(a, b': "R"# REC->prev_state'))
PY
}

for F in perf ours; do
  mutate $F.data $F-bad.data
  # the crash is libtraceevent's: its parser dies on this format in a process of its own
  for v in "" "-s trace" "-s trace_fields" "-s prev_comm" "--raw-trace -s trace" \
      "-s sched:sched_switch.next_pid" "-s comm,prev_state,next_comm" \
      "--json -s trace" "--folded" "-D" "--stats" "--header" "-s trace -q"; do
    # shellcheck disable=SC2086
    "$BPFPERF" report -i $F-bad.data $v > out.txt 2> err.txt
    rc=$?
    [ $rc -lt 128 ] || { cat err.txt; fail "$F-bad.data: report $v died by signal $((rc - 128))"; }
    [ $rc -eq 0 ] || { cat err.txt; fail "$F-bad.data: report $v exited $rc"; }
    # the views of tracepoint keys read the formats: one warning (-q: none);
    # the others (the default: trace on perf's file of tracepoints only, not
    # on ours, which has a dummy event) at most one
    n=$(grep -c 'warning: .*tracepoint sched:sched_switch crashes libtraceevent' err.txt)
    case " $v " in
      *" -q "*) [ "$n" -eq 0 ] ;;
      *" -s "*) [ "$n" -eq 1 ] ;;
      *) [ "$n" -le 1 ] ;;
    esac || { cat err.txt; fail "$F-bad.data: report $v: $n warnings naming sched:sched_switch"; }
    ok "$F-bad.data: report $v: exit 0"
  done
  "$BPFPERF" report -i $F-bad.data -s trace > bad.txt 2>/dev/null
  grep -q '^ *[0-9.]*%  \[FAILED TO PARSE\] prev_comm=.* next_pid=' bad.txt ||
    { cat bad.txt; fail "$F-bad.data: -s trace does not show [FAILED TO PARSE] with the fields"; }
  ! grep -q '==>' bad.txt || fail "$F-bad.data: -s trace printed the print format it could not parse"
  "$BPFPERF" report -i $F.data -s trace > good.txt 2>good.err || { cat good.err; fail "$F.data: report -s trace"; }
  grep -q 'prev_state=[A-Z+|]* ==> next_comm=' good.txt || { cat good.txt; fail "$F.data: -s trace not formatted"; }
  [ ! -s good.err ] || { cat good.err; fail "$F.data: report -s trace warned on an intact file"; }
  # the fields are intact: sorting by them gives what the intact file gives
  for k in sched:sched_switch.next_pid prev_comm,next_comm; do
    "$BPFPERF" report -i $F.data -s $k > a.txt 2>/dev/null
    "$BPFPERF" report -i $F-bad.data -s $k > b.txt 2>/dev/null
    diff a.txt b.txt > d.txt || { cat d.txt; fail "$F-bad.data: -s $k differs from the intact file's"; }
    grep -q '%' b.txt || fail "$F-bad.data: -s $k has no entries"
  done
  ok "$F-bad.data: [FAILED TO PARSE] with its fields, sort keys as the intact file's"
done
