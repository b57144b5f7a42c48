#!/usr/bin/env python3
"""Every properties file of the QVBS PRISM-language benchmarks (DTMC, CTMC,
MDP) through the library's properties-file reader and property parser, with
each instance's constants from index.json: every property parses, or fails
with an error that names a construct NOT_YET lists, or a constant without a
value. No crash, no hang, no other error.

NOT_YET is the property language's to-do list as QVBS shows it: shrink it as
features land. A listed construct whose properties now parse fails the test
("stale"), so the list stays true.

Usage: test_qvbs_walk.py PATH/TO/properties_probe
(meson passes it; the QVBS copy is the team's data folder ../shared/qvbs
beside the source tree, or $PMC_QVBS; without it the test prints SKIP and
exits 77.)
"""
import json
import os
import re
import subprocess
import sys
from collections import Counter

ROOT = os.environ.get("PMC_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import qvbs_index  # noqa: E402

# (construct, a pattern that finds it in a property's text after the file's
# constants are substituted, a pattern of the error it gives today).
NOT_YET = [
    # Empty: every property of QVBS's PRISM-language DTMC/CTMC/MDP files
    # parses. A construct that lands here needs its "... is not supported"
    # error, e.g. ("multi-objective multi(...)", r"\bmulti\s*\(", r"multi\(\.\.\.\) is not supported").
]

# A constant the instance leaves without a value (a model file of index.json
# without instances): the reader's error names it.
MISSING_CONSTANT = r"constant '[^']+' has no value"

PROBE_SECONDS = 30


def probe(probe_exe, properties, constants):
    """The probe's records for one file, or a problem (crash, hang, output
    that is not JSON lines) as a string."""
    try:
        run = subprocess.run([probe_exe, properties, constants], capture_output=True, text=True,
                             timeout=PROBE_SECONDS)
    except subprocess.TimeoutExpired:
        return f"hangs (no answer in {PROBE_SECONDS} s)"
    if run.returncode != 0:
        return f"exit {run.returncode}: {run.stderr.strip()[-500:]}"
    try:
        return [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    except json.JSONDecodeError as e:
        return f"output is not JSON lines ({e}): {run.stdout[:300]}"


def constructs_in(text):
    return [c for c in NOT_YET if re.search(c[1], text)]


def judge(record):
    """(verdict, detail) for one property record: verdict "parses",
    "not yet" (detail: the construct), "missing constant", or "problem"."""
    text = record["text"]
    listed = constructs_in(text)
    if record["parses"]:
        if listed:
            return "problem", (f"parses although NOT_YET lists {listed[0][0]!r} for it: the construct landed, "
                               f"remove it from NOT_YET")
        return "parses", ""
    error = record["error"]
    for construct, _, message in listed:
        if re.search(message, error):
            return "not yet", construct
    if re.search(MISSING_CONSTANT, error):
        return "missing constant", ""
    first_line = error.splitlines()[0]
    if listed:
        return "problem", f"NOT_YET lists {listed[0][0]!r}, but the error is another: {first_line}"
    if "is not supported" in error:
        return "problem", f"not supported and not in NOT_YET (a regression, or add it): {first_line}"
    return "problem", f"a {record['code']} error naming no construct or constant: {first_line}"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test_qvbs_walk.py PATH/TO/properties_probe")
    probe_exe = sys.argv[1]
    qvbs = qvbs_index.default_qvbs_dir(ROOT)
    if not os.path.isdir(os.path.join(qvbs, "benchmarks")):
        print(f"SKIP: the QVBS benchmarks were not found at {os.path.abspath(qvbs)} (set PMC_QVBS)")
        sys.exit(77)

    problems, verdicts, files, seen = [], Counter(), set(), set()
    matched = Counter()  # NOT_YET entries seen failing as listed
    for instance in qvbs_index.instances(qvbs):
        key = (instance.properties, instance.all_constants())
        if key in seen:
            continue  # instances differing only in the model's constants read the file alike
        seen.add(key)
        files.add(instance.properties)
        where = f"{instance.benchmark} {os.path.basename(instance.properties)} [{instance.all_constants()}]"
        records = probe(probe_exe, instance.properties, instance.all_constants())
        if isinstance(records, str):
            problems.append(f"{where}: {records}")
            continue
        if len(records) == 1 and "file_error" in records[0]:
            error = records[0]["file_error"]
            if re.search(MISSING_CONSTANT, error):
                verdicts["file: missing constant"] += 1
            else:
                problems.append(f"{where}: the file is rejected: {error}")
            continue
        for record in records:
            verdict, detail = judge(record)
            verdicts[verdict] += 1
            if verdict == "not yet":
                matched[detail] += 1
            if verdict == "problem":
                problems.append(f"{where} property {record['name'] or record['text']!r}: {detail}")

    for construct, _, _ in NOT_YET:
        if matched[construct] == 0:
            problems.append(f"NOT_YET lists {construct!r}, but no property fails with it any more: remove it")
    print(f"{len(files)} properties files, {len(seen)} (file, constants) pairs: " +
          ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())))
    for construct, n in sorted(matched.items()):
        print(f"  not yet supported: {construct}: {n}")
    if problems:
        print(f"FAIL: {len(problems)} problem(s):")
        for p in problems:
            print(f"  {p}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
