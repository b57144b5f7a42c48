#!/usr/bin/env python3
"""Sound solvers on chains, side by side: iterations and seconds per solver.

For every manifest DTMC/CTMC property without a time bound or S (the linear
systems) of the listed models, and for QVBS sources given with --qvbs, runs
`pmc check --json --solver S` for each solver S, --repeat times, and prints
per property and solver: iterations, the solve phase's median seconds
(timings.solve: the solver's loop; its SCC search counts as precompute), the
whole check's median seconds without the load, and the value with its
bounds. The solvers' values must agree within twice the verification
tolerance (each is within ε of the solution, relative with a 1e-9 floor).

  python3 bench/chain_solvers.py PMC [--models DIR] [--model NAME ...]
        [--qvbs DIR:CONSTANTS ...] [--solver NAME ...] [--repeat K]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def linear_system_property(text):
    bounded = any(s in text for s in ("<=", "F[", "U[", ">=", "I=", "C<"))
    steady = text.startswith("S=?") or "[ S ]" in text
    return not bounded and not steady


def manifest_cases(models, names):
    with open(os.path.join(models, "manifest.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            if row["model"] not in names or row["type"] not in ("dtmc", "ctmc"):
                continue
            if not linear_system_property(row["property"]):
                continue
            files = row["files"].split(",")
            tra = next(x for x in files if x.startswith(row["model"] + ".tra"))
            path = os.path.join(models, row["model"], row["instance"], tra)
            yield f"{row['model']} {row['instance']}", ["--model", path, "--property", row["property"]]


def qvbs_cases(specs):
    for spec in specs:
        directory, constants = spec.split(":", 1)
        name = os.path.basename(directory.rstrip("/"))
        source = next(os.path.join(directory, x) for x in sorted(os.listdir(directory)) if x.endswith((".prism", ".pm")))
        props = next(os.path.join(directory, x) for x in sorted(os.listdir(directory)) if x.endswith((".props", ".prctl")))
        yield f"{name} {constants}", ["--model", source, "--const", constants, "--property-file", props]


def run(pmc, args, solver):
    out = subprocess.run([pmc, "check", "--json", "--solver", solver] + args, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("pmc")
    p.add_argument("--models", default=os.environ.get("PMC_MODELS", "../shared/models"))
    p.add_argument("--model", action="append", default=[])
    p.add_argument("--qvbs", action="append", default=[])
    p.add_argument("--solver", action="append", default=[])
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    solvers = a.solver or ["cpu.interval-vi", "cpu.topo-interval-vi"]
    cases = list(manifest_cases(a.models, set(a.model))) + list(qvbs_cases(a.qvbs))
    print("| model | property | solver | iterations | solve s | check s (no load) | value [lower, upper] |")
    print("|---|---|---|---:|---:|---:|---|")
    for name, args in cases:
        runs = {s: [] for s in solvers}
        for k in range(a.repeat):
            order = solvers if k % 2 == 0 else list(reversed(solvers))
            for s in order:
                runs[s].append(run(a.pmc, args, s))
        first = runs[solvers[0]][0]
        for i, record in enumerate(first):
            for s in solvers:
                records = [r[i] for r in runs[s] if i < len(r)]
                r = records[0]
                solve = statistics.median(x["timings"]["solve"] for x in records)
                check = statistics.median(x["timings"]["total"] - x["timings"]["load"] for x in records)
                # The verification tolerance (docs/design.md §7), with its floor.
                agrees = abs(r["value"] - record["value"]) <= 2e-6 * max(abs(record["value"]), 1e-9)
                print(f"| {name} | `{r['property']}` | {s} | {r['iterations']} | {solve:.4f} | {check:.3f} | "
                      f"{r['value']:.10g} [{r.get('lower', float('nan')):.10g}, {r.get('upper', float('nan')):.10g}]"
                      f"{'' if agrees and r['converged'] else ' DIFFERENT' if not agrees else ' not converged'} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
