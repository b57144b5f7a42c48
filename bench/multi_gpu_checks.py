#!/usr/bin/env python3
"""Whole checks on one GPU against the same check split over several.

For each case (a PRISM-language source with its constants and a property),
builds the model once into a .pmcb (`pmc convert`, timed: the build a user
pays from the source), then runs `pmc check --json --stats` with
`--devices 0` and with `--devices LIST`, alternating, --repeat times, and
prints per configuration the medians (and ranges) of the whole check, its
phases, the solve's ms per iteration and the value. Both configurations
must report the same value and iterations (the split computes the same
rows in the same order).

The split solvers are the unsound gpu.jacobi (chains) and gpu.vi (MDPs),
named with --solver: the sound defaults never split.

  python3 bench/multi_gpu_checks.py PMC --case NAME:SOURCE:CONSTANTS:SOLVER:PROPERTY ...
        [--devices 0,1] [--repeat K] [--work DIR]

e.g. --case 'crowds:crowds.prism:TotalRuns=6,CrowdSize=20:gpu.jacobi:P=? [ F observe0>1 ]'
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def parse_case(text):
    parts = text.split(":", 4)
    if len(parts) != 5:
        raise SystemExit(f"--case {text!r}: expected NAME:SOURCE:CONSTANTS:SOLVER:PROPERTY")
    return dict(zip(("name", "source", "constants", "solver", "property"), parts))


def check(pmc, model, case, devices):
    args = [pmc, "check", "--model", model, "--property", case["property"], "--solver", case["solver"],
            "--unsound", "--devices", devices, "--json", "--stats"]
    start = time.monotonic()
    out = subprocess.run(args, capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - start
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode != 0 or not lines:
        raise SystemExit(f"{case['name']} --devices {devices}: exit {out.returncode}: {out.stderr.strip()[-400:]}")
    result = json.loads(lines[-1])
    result["wall"] = wall
    return result


def summary(values):
    med = statistics.median(values)
    return f"{med:.3f} [{min(values):.3f}-{max(values):.3f}]"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("pmc")
    p.add_argument("--case", action="append", required=True, type=parse_case)
    p.add_argument("--devices", default="0,1")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--work", default="/tmp/pmc-multi-checks")
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    failures = 0
    for case in a.case:
        model = os.path.join(a.work, case["name"] + ".pmcb")
        convert = [a.pmc, "convert", case["source"], model] + (["--const", case["constants"]] if case["constants"] else [])
        start = time.monotonic()
        out = subprocess.run(convert, capture_output=True, text=True, timeout=600)
        if out.returncode != 0:
            raise SystemExit(f"{case['name']}: pmc convert failed: {out.stderr.strip()[-400:]}")
        print(f"\n{case['name']} {case['constants']} {case['property']} ({case['solver']}): "
              f"built in {time.monotonic() - start:.1f} s: {out.stdout.strip().splitlines()[-1]}")
        runs = {"0": [], a.devices: []}
        for _ in range(a.repeat):
            for devices in runs:
                runs[devices].append(check(a.pmc, model, case, devices))
        print(f"{'devices':<8} {'whole s':>22} {'load':>6} {'pre':>6} {'build':>6} {'solve s':>7} {'ms/it':>7} "
              f"{'it':>6}  value, kernel")
        solve_ms = {}
        for devices, results in runs.items():
            t = [r["timings"] for r in results]
            per_it = [1e3 * x["solve"] / max(r["iterations"], 1) for x, r in zip(t, results)]
            solve_ms[devices] = statistics.median(per_it)
            med = lambda key: statistics.median(x.get(key, 0) for x in t)
            print(f"{devices:<8} {summary([x['total'] for x in t]):>22} {med('load'):6.3f} {med('precompute'):6.3f} "
                  f"{med('build'):6.3f} {med('solve'):7.4f} {statistics.median(per_it):7.4f} "
                  f"{results[0]['iterations']:>6}  {results[0].get('value')!r}, {results[0].get('kernel', '')}")
        one, split = runs["0"][0], runs[a.devices][0]
        v1, v2 = one.get("value"), split.get("value")
        same_value = v1 == v2 or (v1 is not None and v2 is not None and abs(v1 - v2) <= 1e-12 * abs(v1))
        if not same_value or one["iterations"] != split["iterations"]:
            failures += 1
            print(f"MISMATCH: one GPU {one.get('value')} in {one['iterations']} iterations, "
                  f"split {split.get('value')} in {split['iterations']}")
        print(f"solve speed-up {solve_ms['0'] / solve_ms[a.devices]:.2f}x per iteration")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
