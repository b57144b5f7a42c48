#!/usr/bin/env python3
"""--exact against the sound default, the whole check as a user runs it.

For every manifest property --exact computes (unbounded P=? [F/U], R=?/T=?
[F]) of a model built from its PRISM-language source with at most
--max-states states, runs `pmc check --json` from the source once per mode
and repetition, and prints: states, the exact value's digits (numerator
and denominator together), whether the exact value rounds to PRISM's
reference (within 1e-6 relative) and lies in the default's certified
bounds up to 1e-12 relative (those certify the model's doubles, whose
exact values differ from the source's rationals by an ulp or so: brp's
1/125000 is one ulp below the double model's 8.000000000000001e-06), and
per mode the median wall-clock seconds of the whole command
(build included) with (min-max), then the ratio exact / default.

  python3 bench/exact_results.py PMC [--models DIR] [--max-states N] [--repeat K] [--json FILE]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from fractions import Fraction

from sound_defaults import manifest  # the manifest's rows, as dicts by column name

sys.set_int_max_str_digits(0)


def in_scope(prop):
    bounded = any(mark in prop for mark in ("<=", ">=", "F[", "U[", "C<", "I=", "S=", "[ S ]", "LRA"))
    return not bounded and ("F " in prop or " U " in prop)


def rows(models, max_states):
    for row in manifest(models):
        if int(row["states"]) > max_states or not in_scope(row["property"]):
            continue
        folder = os.path.join(models, row["model"], row["instance"])
        sources = [n for n in os.listdir(folder) if n.startswith("model.")] if os.path.isdir(folder) else []
        if sources:
            row["source"] = os.path.join(folder, sources[0])
            yield row


def run(pmc, row, extra):
    args = [pmc, "check", "--model", row["source"], "--property", row["property"], "--json", *extra]
    if row.get("constants"):
        args += ["--const", row["constants"]]
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        return None, seconds, done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
    return json.loads(done.stdout.strip().splitlines()[-1]), seconds, ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pmc")
    parser.add_argument("--models", default=os.environ.get("PMC_MODELS", "../shared/models"))
    parser.add_argument("--max-states", type=int, default=60000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json")
    a = parser.parse_args()
    records = []
    print(f"{'instance':<22} {'property':<46} {'states':>7} {'digits':>7} {'ok':>3} "
          f"{'exact s (min-max)':>22} {'default s (min-max)':>22} {'ratio':>7}")
    for row in rows(a.models, a.max_states):
        times = {"exact": [], "default": []}
        record, error = None, ""
        for _ in range(a.repeat):
            for mode, extra in (("exact", ["--exact"]), ("default", [])):
                result, seconds, why = run(a.pmc, row, extra)
                if result is None:
                    error = f"{mode}: {why}"
                    break
                times[mode].append(seconds)
                if mode == "exact":
                    record = result
                else:
                    default = result
            if error:
                break
        name = f"{row['model']}/{row['instance']}"
        if error:
            print(f"{name:<22} {row['property'][:46]:<46} {row['states']:>7} error: {error}")
            records.append({"instance": name, "property": row["property"], "error": error})
            continue
        exact = record["exact"]
        reference = float(row["reference_value"]) if row["reference_value"] not in ("inf", "Infinity") else float("inf")
        value = float("inf") if exact == "Infinity" else float(Fraction(exact))
        ok = value == reference or abs(value - reference) <= 1e-6 * max(1.0, abs(reference))
        slack = 1e-12 * max(abs(value), 1e-300)
        inside = exact == "Infinity" or (default.get("lower", -1e300) - slack <= value <= default.get("upper", 1e300) + slack)
        digits = len(exact.replace("/", "").replace("-", ""))
        med = {m: statistics.median(t) for m, t in times.items()}
        span = {m: f"{med[m]:.3f} ({min(t):.3f}-{max(t):.3f})" for m, t in times.items()}
        print(f"{name:<22} {row['property'][:46]:<46} {row['states']:>7} {digits:>7} {'yes' if ok and inside else 'NO':>3} "
              f"{span['exact']:>22} {span['default']:>22} {med['exact'] / med['default']:>7.2f}")
        records.append({"instance": name, "property": row["property"], "states": int(row["states"]), "exact": exact,
                        "agrees": ok, "inside_default_bounds": inside, "seconds": times})
    if a.json:
        with open(a.json, "w") as f:
            json.dump(records, f, indent=1)


if __name__ == "__main__":
    main()
