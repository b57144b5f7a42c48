#!/usr/bin/env python3
"""Two builds of pmc on the same machine, same run: did a change move the figures?

For every manifest property of a model with at least --min-transitions
transitions and every mode, runs `pmc check --json` with the BEFORE and the
AFTER binary in turn (the order alternates by repetition: before first, then
after first, ...), so that drift of the machine falls on both alike. Prints
per property and mode the median seconds of each (the check without the
load, as bench/sound_defaults.py reports it) with min-max, the whole
command's wall time, both solvers, and after/before; then the geometric mean
of after/before per mode. The values must agree: a property whose answers
differ by more than 1e-6 relative is flagged DIFFERENT.

  python3 bench/before_after.py BEFORE_PMC AFTER_PMC [--models DIR]
        [--min-transitions N] [--repeat K] [--mode NAME=ARGS ...] [--json FILE]
"""
import argparse
import json
import math
import os
import shlex
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sound_defaults import rows_in_range, run  # noqa: E402


def same_value(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-12)
    return a == b


def summary(values):
    return f"{statistics.median(values):7.3f} ({min(values):.3f}-{max(values):.3f})"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--models", default=os.environ.get("PMC_MODELS", "../shared/models"))
    p.add_argument("--min-transitions", type=int, default=100000)
    p.add_argument("--max-transitions", type=int, default=0)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--mode", action="append", default=[])
    p.add_argument("--json")
    args = p.parse_args()
    modes = [m.split("=", 1) for m in (args.mode or ["default="])]
    ratios = {name: [] for name, _ in modes}
    records = []
    differences = 0
    for row, files, n in rows_in_range(args.models, args.min_transitions, args.max_transitions):
        print(f"{row['model']} {row['instance']} ({n} transitions) {row['property']}", flush=True)
        for name, extra in modes:
            runs = {"before": [], "after": []}
            for k in range(args.repeat):
                order = ("before", "after") if k % 2 == 0 else ("after", "before")
                for which in order:
                    pmc = args.before if which == "before" else args.after
                    runs[which].append(run(pmc, files, row["property"], shlex.split(extra)))
            failed = [w for w in runs if any("error" in r for r in runs[w])]
            if failed:
                for w in failed:
                    error = next(r["error"] for r in runs[w] if "error" in r)
                    print(f"  {name:<8} {w} error: {error}")
                continue
            b, a = runs["before"], runs["after"]
            before_s = [r["seconds"] for r in b]
            after_s = [r["seconds"] for r in a]
            ratio = statistics.median(after_s) / statistics.median(before_s) if statistics.median(before_s) > 0 else 1.0
            ratios[name].append(ratio)
            agree = same_value(b[0]["value"], a[0]["value"])
            differences += not agree
            print(f"  {name:<8} before {summary(before_s)} s  after {summary(after_s)} s  {ratio:5.2f}x"
                  f"  wall {statistics.median(r['wall'] for r in b):.3f} / {statistics.median(r['wall'] for r in a):.3f} s"
                  f"  {b[0]['solver']} / {a[0]['solver']}{'' if agree else '  DIFFERENT'}", flush=True)
            records.append({"model": row["model"], "instance": row["instance"], "property": row["property"],
                            "mode": name, "before": before_s, "after": after_s,
                            "before_wall": [r["wall"] for r in b], "after_wall": [r["wall"] for r in a],
                            "before_solver": b[0]["solver"], "after_solver": a[0]["solver"],
                            "before_value": b[0]["value"], "after_value": a[0]["value"]})
    for name, values in ratios.items():
        if values:
            gm = math.exp(sum(math.log(v) for v in values) / len(values))
            print(f"geometric mean after / before, {name}: {gm:.3f}x over {len(values)} properties "
                  f"(min {min(values):.2f}x, max {max(values):.2f}x)")
    print(f"values that differ: {differences}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
