#!/usr/bin/env python3
"""`auto` against `cpu` and `gpu`, whole commands as a user times them.

Builds each instance once from its PRISM-language source into a .pmcb
(`pmc convert SOURCE --const ... X.pmcb`), then runs
`pmc check --model X.pmcb --property P --json [--solver cpu|gpu]` per mode
and repetition (modes interleaved within a repetition, so that drift hits
them alike) and times each process from start to exit. Prints per property
each mode's median wall time (min-max), auto's pick and reason, and whether
auto is within 10% (or 5 ms) of the faster of cpu and gpu; then the count.
Values are compared with the manifest's reference (relative error).

  python3 bench/auto_choice.py PMC --sources DIR [--holdout DIR] [--work DIR]
        [--repeat K] [--min-transitions N] [--only SUBSTRING ...] [--modes cpu,gpu,auto]
        [--once-above SECONDS] [--settle K] [--json FILE]

--sources: a folder with manifest.tsv and <model>/<instance>/model.{pm,sm,nm}
(the reference set's layout). --holdout: a folder with the QVBS sources named
in HOLDOUT below (instances the manifest does not have; no reference values).

Modes run in every order in turn, and after a run that started CUDA (every
`--solver gpu` run, and any run whose solver is a GPU one) the harness waits
--gpu-pause seconds (0.3): the driver frees a context after the process has
gone, and that slows whatever runs next.

--settle K: where auto is not clearly faster (at least 0.85x of the faster),
run K more repetitions of auto, the faster mode and any mode within 1.5x (rows whose
faster mode takes at most --settle-below seconds, 3 by default)
(interleaved) and decide on the medians of all runs. The
rule looks only at the first medians, not at which way the verdict went, so
it adds samples where the noise can flip a verdict, for oks and misses alike.
"""
import argparse
import itertools
import json
import os
import signal
import statistics
import subprocess
import sys
import time

from reference_set import build_pmcb, manifest_rows, source_file

# QVBS instances beside the manifest's (sources from ahartmanns/qcomp,
# properties from their .props files with the QComp 2020 constants put in):
# (name, source file, --const, properties).
HOLDOUT = [
    ("csma N3_K2", "csma.3-2.prism", "", [
        'Pmax=? [ F "all_delivered" ]',
        'Pmax=? [ !"collision_max_backoff" U "all_delivered" ]',
        'Pmin=? [ !"collision_max_backoff" U "all_delivered" ]',
        'Pmin=? [ F min_backoff_after_success<K ]',
        'R{"time"}max=? [ F "all_delivered" ]',
        'R{"time"}min=? [ F "all_delivered" ]']),
    ("herman N11", "herman.11.prism", "", ['R{"steps"}=? [ F "stable" ]', 'P=? [ F<=10 "stable" ]']),
    ("cluster N32", "cluster.prism", "N=32", [
        'R{"time_not_min"}=? [ C<=2000 ]', 'R{"percent_op"}=? [ I=20 ]', 'S=? [ "premium" ]',
        'P=? [ F<=2000 !"minimum" ]', 'P=? [ F[20,20] !"minimum" ]', 'P=? [ "minimum" U<=20 "premium" ]',
        'P=? [ !"minimum" U>=20 "minimum" ]', 'R{"num_repairs"}=? [ C<=2000 ]']),
    ("tandem C127", "tandem.prism", "c=127", [
        'R{"customers"}=? [ S ]', 'R=? [ I=0.2 ]', 'P=? [ F<=0.2 sc=c ]',
        'P=? [ F<=1000 sc=c & sm=c & ph=2 ]', 'P=? [ sm=c U<=0.2 sm<c ]']),
    ("wlan M3_C2", "wlan.3.prism", "COL=2", [
        'Pmax=? [ F col=COL ]', 'R{"cost"}max=? [ F s1=12 & s2=12 ]', 'R{"cost"}min=? [ F s1=12 & s2=12 ]',
        'R{"collisions"}max=? [ F s1=12 & s2=12 ]', 'P>=1 [ F s1=12 & s2=12 ]',
        'R{"time"}max=? [ F s1=12 & s2=12 ]', 'R{"time"}min=? [ F s1=12 & s2=12 ]']),
    ("zeroconf N20_K2", "zeroconf.prism", "N=20,K=2,reset=true", [
        'Pmax=? [ F (l=4 & ip=1) ]', 'Pmin=? [ F (l=4 & ip=1) ]']),
]

MODES = [("cpu", ["--solver", "cpu"]), ("gpu", ["--solver", "gpu"]), ("auto", [])]
ALLOWED = (0, 3)  # a result (3: printed, not converged)


def run_once(pmc, model, prop, extra, timeout):
    cmd = [pmc, "check", "--model", model, "--property", prop, "--json", *extra]
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"wall": timeout, "status": "timeout"}
    wall = time.perf_counter() - start
    record = {"wall": wall, "returncode": done.returncode}
    if done.returncode < 0:
        record["status"] = "signal " + signal.Signals(-done.returncode).name
    elif done.returncode not in ALLOWED:
        record["status"] = f"exit {done.returncode}: {done.stderr.strip()[-200:]}"
    else:
        record["status"] = "ok"
        lines = [l for l in done.stdout.splitlines() if l.startswith("{")]
        record["result"] = json.loads(lines[-1]) if lines else {}
    return record


def relative_error(value, ref):
    if ref in ("", None):
        return None
    if isinstance(value, str) or ref == "Infinity":
        return 0.0 if str(value) == ref else float("inf")
    if isinstance(value, bool):
        return 0.0
    r = float(ref)
    return abs(value - r) / max(abs(r), 1e-9)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("pmc")
    p.add_argument("--sources", required=True)
    p.add_argument("--holdout")
    p.add_argument("--work", default="/tmp/pmc-auto-choice")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--min-transitions", type=int, default=0)
    p.add_argument("--only", action="append", default=[],
                   help="rows whose 'model instance property' contains this (repeatable: any of them)")
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--once-above", type=float, default=4.0)
    p.add_argument("--modes", default="cpu,gpu,auto", help="a subset of cpu,gpu,auto")
    p.add_argument("--settle", type=int, default=0,
                   help="extra repetitions where auto is within 0.85-1.5x of the faster")
    p.add_argument("--gpu-pause", type=float, default=0.3,
                   help="seconds to wait after a run that used the GPU, before the next run")
    p.add_argument("--settle-below", type=float, default=3.0,
                   help="settle only rows whose faster mode takes at most this many seconds")
    p.add_argument("--json")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    modes = [(m, extra) for m, extra in MODES if m in args.modes.split(",")]

    def wanted(row):
        return not args.only or any(o in row for o in args.only)

    # (label, model file, property, reference, transitions)
    cases = []
    built = {}
    for row in manifest_rows(args.sources):
        key = f"{row['model']} {row['instance']}"
        if int(row["transitions"]) < args.min_transitions or not wanted(key + " " + row["property"]):
            continue
        if key not in built:
            src = source_file(os.path.join(args.sources, row["model"], row["instance"]))
            out = os.path.join(args.work, f"{row['model']}_{row['instance']}.pmcb")
            seconds = build_pmcb(args.pmc, src, row.get("constants", ""), out)
            built[key] = out
            print(f"built {key} from {os.path.basename(src)} in {seconds:.2f} s", flush=True)
        cases.append((key, built[key], row["property"], row["reference_value"], int(row["transitions"])))
    if args.holdout:
        for name, file, constants, props in HOLDOUT:
            if args.only and not any(wanted(name + " " + q) for q in props):
                continue
            out = os.path.join(args.work, name.replace(" ", "_") + ".pmcb")
            seconds = build_pmcb(args.pmc, os.path.join(args.holdout, file), constants, out)
            print(f"built {name} from {file} in {seconds:.2f} s", flush=True)
            for q in props:
                if wanted(name + " " + q):
                    cases.append((name, out, q, "", None))

    records, within, compared = [], 0, 0
    print(f"\n{'model':<22} {'property':<46} " + " ".join(f"{m:>19}" for m, _ in modes) +
          "  auto's pick         auto/faster")
    orders = itertools.count()

    def next_order(chosen):
        # Every order of the modes in turn, across rows: no mode always runs
        # right after the same other one. A process that used the GPU slows
        # the next one while the driver frees its context, and a fixed
        # rotation put auto right after gpu every time.
        perms = list(itertools.permutations(chosen))
        return perms[next(orders) % len(perms)]

    for key, model, prop, ref, transitions in cases:
        walls = {m: [] for m, _ in modes}
        runs = {m: [] for m, _ in modes}

        def measure(mode, extra):
            r = run_once(args.pmc, model, prop, extra, args.timeout)
            runs[mode].append(r)
            if r["status"] == "ok":
                walls[mode].append(r["wall"])
            # `--solver gpu` starts CUDA while the model loads even where the
            # property then runs on the CPU (S has no GPU solver): its
            # process leaves a context to free as much as a GPU solve does.
            if mode == "gpu" or str(r.get("result", {}).get("solver", "")).startswith("gpu"):
                time.sleep(args.gpu_pause)
        for rep in range(args.repeat):
            for mode, extra in next_order(modes):
                # A mode whose first run took over --once-above seconds runs
                # once: its spread cannot move a verdict by 10% or 5 ms.
                if rep > 0 and runs[mode] and runs[mode][0]["wall"] > args.once_above:
                    continue
                measure(mode, extra)
        med = {m: statistics.median(walls[m]) for m, _ in modes if walls[m]}
        if args.settle and "auto" in med and ("cpu" in med or "gpu" in med):
            faster_mode = min((m for m in ("cpu", "gpu") if m in med), key=lambda m: med[m])
            faster = med[faster_mode]
            if med["auto"] >= 0.85 * faster and faster <= args.settle_below:
                close = [(m, extra) for m, extra in modes
                         if m in med and (m in ("auto", faster_mode) or med[m] <= 1.5 * faster)]
                for rep in range(args.settle):
                    for mode, extra in next_order(close):
                        measure(mode, extra)
        cells, med = [], {}
        for mode, _ in modes:
            bad = [r["status"] for r in runs[mode] if r["status"] != "ok"]
            if walls[mode]:
                med[mode] = statistics.median(walls[mode])
                cells.append(f"{med[mode]:7.3f} ({min(walls[mode]):.3f}-{max(walls[mode]):.3f}) n={len(walls[mode])}"
                             + ("!" if bad else " "))
            else:
                cells.append(f"{bad[0][:19]:>19}")
        auto_run = next((r for r in runs.get("auto", []) if r["status"] == "ok"), None)
        pick = auto_run["result"].get("solver", "?") if auto_run else "-"
        verdict = ""
        errors = {m: relative_error(r["result"].get("value"), ref) for m in med
                  for r in runs[m][:1] if r["status"] == "ok"}
        if "auto" in med and ("cpu" in med or "gpu" in med):
            faster = min(med[m] for m in ("cpu", "gpu") if m in med)
            ok = med["auto"] <= 1.10 * faster or med["auto"] - faster <= 0.005
            compared += 1
            within += ok
            verdict = f"{med['auto'] / faster:5.2f}x {'ok' if ok else 'MISS'}"
        print(f"{key:<22} {prop[:46]:<46} " + " ".join(cells) + f"  {pick[:19]:<19} {verdict}", flush=True)
        if auto_run and verdict.endswith("MISS"):
            print(f"    reason: {auto_run['result'].get('solver_reason', '')}", flush=True)
        records.append({"model": key, "property": prop, "transitions": transitions, "reference": ref,
                        "medians": med, "runs": runs, "relative_errors": errors, "verdict": verdict})
    print(f"\nauto within 10% (or 5 ms) of the faster of cpu and gpu: {within} of {compared}")
    bad_runs = sum(1 for rec in records for m in rec["runs"] for r in rec["runs"][m]
                   if r["status"] not in ("ok",) and not r["status"].startswith("exit"))
    print(f"runs ended by a signal or a timeout: {bad_runs}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
