#!/usr/bin/env python3
"""Sound default vs unsound default, the whole check as a user runs it.

For every manifest property of a model with at least --min-transitions
transitions, runs `pmc check --json` once per mode and repetition (the model
loaded by each run; `seconds` is the check without the load), and prints per
property and mode: the solver, iterations, median seconds with (min-max) over
the repetitions, the iteration loops' median seconds, ms per iteration and
GB/s (bytes the largest solve streams per iteration), the value's relative error against PRISM's reference, whether
the result is certified and whether the reference lies within its bounds, then
the ratio of each mode's median to the first mode's and their geometric mean.

  python3 bench/sound_defaults.py PMC [--models DIR] [--min-transitions N]
        [--repeat K] [--mode NAME=ARGS ...] [--json FILE]

Modes default to "unsound=--unsound" and "sound=" (the defaults); on the device
machine add e.g. "sound-gpu=--solver gpu" "unsound-cpu16=--solver cpu --unsound".
"""
import argparse
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import time


def manifest(models):
    rows = []
    with open(os.path.join(models, "manifest.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            fields = dict(zip(header, line.rstrip("\n").split("\t")))
            rows.append(fields)
    return rows


def model_files(models, row):
    folder = os.path.join(models, row["model"], row["instance"])
    files = []
    for name in row["files"].split(","):
        if name.endswith(".sta") or name.endswith(".sta.gz"):
            continue  # state valuations: not needed to check
        path = os.path.join(folder, name)
        if not os.path.exists(path) and os.path.exists(path + ".gz"):
            path += ".gz"
        files.append(path)
    return files


def rows_in_range(models, min_transitions, max_transitions):
    """(row, model files, transitions) for the manifest's properties whose
    model has min..max transitions (max 0: no upper limit) and whose files
    are there."""
    for row in manifest(models):
        n = int(row["transitions"])
        if n < min_transitions or (max_transitions and n > max_transitions):
            continue
        files = model_files(models, row)
        if all(os.path.exists(f) for f in files):
            yield row, files, n


def run(pmc, files, prop, extra):
    """`pmc check --json`'s last record, with the command's wall time, or
    {"error": ...} where it failed."""
    cmd = [pmc, "check", "--model", *files, "--property", prop, "--json", *extra]
    start = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    if out.returncode not in (0, 3):
        return {"error": out.stderr.strip()[-200:]}
    record = json.loads(out.stdout.strip().splitlines()[-1])
    record["wall"] = wall
    return record


def relative_error(value, ref):
    if isinstance(value, str) or isinstance(ref, str):
        return 0.0 if value == ref else math.inf
    return abs(value - ref) / max(abs(ref), 1e-9)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("pmc")
    p.add_argument("--models", default=os.environ.get("PMC_MODELS", "../shared/models"))
    p.add_argument("--min-transitions", type=int, default=100000)
    p.add_argument("--max-transitions", type=int, default=0)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--mode", action="append", default=[])
    p.add_argument("--json")
    args = p.parse_args()
    modes = [m.split("=", 1) for m in (args.mode or ["unsound=--unsound", "sound="])]
    records = []
    ratios = {name: [] for name, _ in modes[1:]}
    for row, files, n in rows_in_range(args.models, args.min_transitions, args.max_transitions):
        ref_text = row["reference_value"]
        ref = "Infinity" if ref_text == "Infinity" else float(ref_text)
        print(f"{row['model']} {row['instance']} ({n} transitions) {row['property']}", flush=True)
        base = None
        for name, extra in modes:
            results = [run(args.pmc, files, row["property"], shlex.split(extra)) for _ in range(args.repeat)]
            if "error" in results[0]:
                print(f"  {name:<14} error: {results[0]['error']}")
                continue
            secs = [r["seconds"] for r in results]
            r = results[0]
            med = statistics.median(secs)
            inside = ""
            if r.get("sound") and not isinstance(ref, str):
                inside = "ref inside" if r["lower"] - 1e-9 * abs(ref) <= ref <= r["upper"] + 1e-9 * abs(ref) else "REF OUTSIDE"
            err = relative_error(r["value"], ref)
            ratio = ""
            if base is None:
                base = med
            elif base > 0:
                ratios[name].append(med / base)
                ratio = f"{med / base:5.2f}x"
            # The iteration loops alone: ms per iteration and achieved GB/s
            # (bytes the largest solve streams per iteration).
            loops = statistics.median(x.get("solve_seconds", 0) for x in results)
            per_it = loops / r["iterations"] if r["iterations"] else 0
            gbs = r.get("bytes_per_iteration", 0) / per_it / 1e9 if per_it > 0 else 0
            print(f"  {name:<14} {r['solver']:<32} {r['iterations']:>8} it  {med:8.3f} s ({min(secs):.3f}-{max(secs):.3f})"
                  f"  loops {loops:7.3f} s {per_it * 1e3:8.4f} ms/it {gbs:6.1f} GB/s"
                  f"  rel.err {err:.1e}  {'sound' if r.get('sound') else 'unsound'} {inside} {ratio}", flush=True)
            records.append({"model": row["model"], "instance": row["instance"], "property": row["property"],
                            "mode": name, "solver": r["solver"], "iterations": r["iterations"],
                            "seconds": secs, "solve_seconds": [x.get("solve_seconds") for x in results],
                            "bytes_per_iteration": r.get("bytes_per_iteration"), "value": r["value"], "reference": ref_text,
                            "sound": r.get("sound"), "lower": r.get("lower"), "upper": r.get("upper"),
                            # each run's phases: where a whole check's time went
                            "timings": [x.get("timings") for x in results]})
    for name, values in ratios.items():
        if values:
            gm = math.exp(sum(math.log(v) for v in values) / len(values))
            print(f"geometric mean {name} / {modes[0][0]}: {gm:.2f}x over {len(values)} properties "
                  f"(min {min(values):.2f}x, max {max(values):.2f}x)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
