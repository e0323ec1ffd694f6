#!/usr/bin/env python3
"""Parse perf stat's -x, and -j outputs (perf 6.1's field layout, with the
interval, -A, --per-core/--per-socket and cgroup columns): the one
parser the stat tests run on perf's own output and on bpfperf stat's.

  stat_parse.py csv|json FILE [EVENT]   -> "event value" lines (or one value)

A line that does not have perf's fields is an error (exit 1)."""
import json
import re
import sys

CSV_FIELDS = ["value", "unit", "event", "runtime", "pcnt", "metric_value", "metric_unit"]
JSON_KEYS = ["counter-value", "unit", "event", "event-runtime", "pcnt-running", "metric-value", "metric-unit"]


def num(v):
    return None if v.startswith("<") else float(v)


def parse_csv(lines):
    out = []
    for line in lines:
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        f = line.split(",")
        # optional leading interval timestamp and CPUn column, as perf prints them
        rec = {}
        if f and re.fullmatch(r"\s*\d+\.\d{9}", f[0]):  # "%6lu.%09lu"
            rec["interval"] = float(f.pop(0))
        if f and f[0].startswith("CPU"):
            rec["cpu"] = int(f.pop(0)[3:])
        elif f and re.fullmatch(r"S\d+-D\d+-C\d+", f[0]):  # --per-core: core, CPUs counted
            rec["core"], rec["aggregate_number"] = f.pop(0), int(f.pop(0))
        elif f and re.fullmatch(r"S\d+", f[0]):  # --per-socket
            rec["socket"], rec["aggregate_number"] = f.pop(0), int(f.pop(0))
        if len(f) == 8 and f[3].endswith("%"):  # -r: a variance column after the event
            rec["variance"] = f.pop(3)
        elif len(f) == 8:  # --for-each-cgroup: the cgroup after the event
            rec["cgroup"] = f.pop(3)
        if len(f) != len(CSV_FIELDS):
            raise SystemExit(f"not perf's CSV layout ({len(f)} fields): {line!r}")
        rec.update(dict(zip(CSV_FIELDS, f)))
        rec["value"] = num(rec["value"])
        int(rec["runtime"]); float(rec["pcnt"])
        out.append(rec)
    return out


def parse_json(lines):
    out = []
    for line in lines:
        if not line.strip() or line.startswith("#"):  # perf -o FILE: "# started on ..."
            continue
        d = json.loads(line)
        missing = [k for k in JSON_KEYS if k not in d]
        if missing:
            raise SystemExit(f"not perf's JSON keys (lacks {missing}): {line!r}")
        rec = {"event": d["event"], "unit": d["unit"], "value": num(d["counter-value"]),
               "runtime": d["event-runtime"], "metric_unit": d["metric-unit"],
               "metric_value": d["metric-value"]}
        for k in ("interval", "cpu", "cgroup", "core", "socket"):
            if k in d:
                rec[k] = d[k]
        if "core" in d or "socket" in d:
            rec["aggregate_number"] = d["aggregate-number"]
        out.append(rec)
    return out


def parse(kind, path):
    with open(path) as fh:
        lines = fh.readlines()
    return parse_csv(lines) if kind == "csv" else parse_json(lines)


if __name__ == "__main__":
    recs = parse(sys.argv[1], sys.argv[2])
    if len(sys.argv) > 3:
        vals = [r["value"] for r in recs if r["event"] == sys.argv[3]]
        if not vals or vals[0] is None:
            raise SystemExit(f"no value for {sys.argv[3]}")
        print(sum(vals))
    else:
        for r in recs:
            print(r["event"], r["value"])
