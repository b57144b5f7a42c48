#!/usr/bin/env python3
"""PRISM-language build rate of two pmc binaries, side by side.

For each case (a source and its constants), runs `pmc convert SOURCE
OUT.pmcb --const ...` with each binary in turn, --repeat times, and prints
the states, each binary's median seconds with the range, the states per
second and the speed-up. The two binaries must write byte-identical files
(the explorer's output is its contract: PRISM's state order and rows).

  python3 bench/build_rate.py BEFORE_PMC AFTER_PMC --case SOURCE[:CONSTANTS] ... [--repeat K]
      [--before-args "--build cpu"] [--after-args "--build gpu"]

The same binary twice with different --before-args/--after-args compares
two explorers of one build (the CPU's and the GPU's).
"""
import argparse
import filecmp
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def convert(pmc, source, constants, out, extra):
    args = [pmc, "convert", source, out] + (["--const", constants] if constants else []) + extra
    start = time.monotonic()
    run = subprocess.run(args, capture_output=True, text=True, timeout=3600)
    seconds = time.monotonic() - start
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {run.returncode}: {run.stderr.strip()[-300:]}")
    states = int(re.search(r"\((\d+) states", run.stdout).group(1))
    return seconds, states


def main():
    p = argparse.ArgumentParser()
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--case", action="append", required=True)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--before-args", default="", help="extra arguments of the first binary's convert")
    p.add_argument("--after-args", default="", help="extra arguments of the second binary's convert")
    a = p.parse_args()
    extra = {"before": a.before_args.split(), "after": a.after_args.split()}
    different = 0
    print(f"{'case':<60} {'states':>10} {'before s':>22} {'after s':>22} {'states/s':>16} {'speed-up':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for case in a.case:
            source, _, constants = case.partition(":")
            times = {"before": [], "after": []}
            outs = {k: os.path.join(tmp, k + ".pmcb") for k in times}
            states = 0
            for _ in range(a.repeat):
                for key, pmc in (("before", a.before), ("after", a.after)):
                    seconds, states = convert(pmc, source, constants, outs[key], extra[key])
                    times[key].append(seconds)
            if not filecmp.cmp(outs["before"], outs["after"], shallow=False):
                different += 1
                print(f"DIFFERENT: {case}: the two binaries wrote different models")
            b, f = statistics.median(times["before"]), statistics.median(times["after"])
            spread = lambda v: f"{statistics.median(v):.2f} ({min(v):.2f}-{max(v):.2f})"
            name = f"{os.path.basename(source)} {constants}"
            print(f"{name:<60} {states:>10} {spread(times['before']):>22} {spread(times['after']):>22} "
                  f"{states / b / 1e6:6.2f}M -> {states / f / 1e6:4.2f}M {b / f:7.2f}x")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
