#!/usr/bin/env python3
"""pmc against QVBS's reference results: every instance of the PRISM-language
DTMC, CTMC and MDP benchmarks with at most --max-states states (index.json's
count) is checked as its index.json describes it,

    pmc check --model SOURCE --const OPEN-PARAMETERS --property-file PROPS --json

and each property's value is compared with the reference: an exact rational
(right when within 1e-6, relative, or when pmc's certified bounds contain
it), an interval (right when the value lies in it, 1e-6 slack), a number
without guarantee (2e-6: both sides' error), a verdict or infinity.

Prints one row per property (benchmark, instance, property, reference, pmc's
value, verdict and its detail: the relative error, whether the bounds contain
the reference, or the error; seconds, load included for the first property)
and a summary: checked right / wrong / unsupported / errors (timeouts and
crashes among them), and the instances whose state count differs from
index.json's.

Usage: qvbs_run.py PMC [--qvbs DIR] [--max-states N] [--timeout S]
                       [--only SUBSTRING...] [--pmc-arg ARG...]
(DIR defaults to the team's data folder ../shared/qvbs beside the source tree,
or $PMC_QVBS.)
"""
import argparse
import json
import math
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import qvbs_index  # noqa: E402

EXACT_TOLERANCE = 1e-6     # relative, as pmc's default --epsilon
APPROX_TOLERANCE = 2e-6    # a reference computed to 1e-6 itself
GRACE_SECONDS = 10         # after SIGTERM, for pmc to print the records it owes
PATH_PREFIXES = []         # the QVBS directory, left out of messages


def run_pmc(pmc, instance, timeout, max_states, extra):
    """pmc's JSON records for the instance's properties file, the exit
    status, whether it timed out, and the seconds it ran."""
    command = [pmc, "check", "--model", instance.model, "--property-file", instance.properties, "--json",
               "--max-states", str(max_states)]
    if instance.constants():
        command += ["--const", instance.constants()]
    command += extra
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    timed_out = False
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        # SIGTERM cancels: pmc prints a record for each property not done.
        timed_out = True
        process.send_signal(signal.SIGTERM)
        try:
            out, err = process.communicate(timeout=GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
    seconds = time.monotonic() - start
    records = []
    for line in out.splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return records, process.returncode, timed_out, seconds, err


def number(value):
    """A JSON value of pmc's as a float ("Infinity", "NaN" included)."""
    if isinstance(value, str):
        return {"Infinity": math.inf, "-Infinity": -math.inf}.get(value, math.nan)
    return float(value)


def relative_error(value, exact):
    if exact == 0:
        return abs(value)
    return float(abs(Fraction(value) - exact) / abs(exact))


def compare(reference, record):
    """("right" or "wrong", detail) for a record that has a value."""
    if record.get("converged") is False:
        bounds = ""
        if reference.kind == "exact" and "lower" in record and "upper" in record:
            inside = Fraction(number(record["lower"])) <= reference.exact <= Fraction(number(record["upper"]))
            bounds = f"; its bounds [{number(record['lower']):.6g}, {number(record['upper']):.6g}] " + \
                     ("contain the reference" if inside else "MISS the reference")
        return "not converged", f"{record.get('iterations')} iterations{bounds}"
    if reference.kind == "bool":
        got = record.get("satisfied")
        return ("right" if got == reference.verdict else "wrong"), ""
    value = number(record["value"])
    if reference.kind == "infinity":
        return ("right" if value == math.inf else "wrong"), ""
    if not math.isfinite(value):
        return "wrong", "not finite"
    lower, upper = record.get("lower"), record.get("upper")
    certified = lower is not None and upper is not None
    if reference.kind == "exact":
        error = relative_error(value, reference.exact)
        detail = f"rel.err {error:.1e}"
        contains = False
        if certified:
            low, high = Fraction(number(lower)), Fraction(number(upper))
            contains = low <= reference.exact <= high
            # By how much, relative: rounding in the last bit is ~1e-16.
            miss = max(low - reference.exact, reference.exact - high, 0)
            detail += ", bounds contain it" if contains else \
                f", bounds miss it by {float(miss / abs(reference.exact)) if reference.exact else float(miss):.1e}"
        return ("right" if error <= EXACT_TOLERANCE or contains else "wrong"), detail
    if reference.kind == "interval":
        slack = EXACT_TOLERANCE * max(abs(reference.lower), abs(reference.upper))
        inside = reference.lower - slack <= value <= reference.upper + slack
        return ("right" if inside else "wrong"), "in the interval" if inside else "outside the interval"
    error = relative_error(value, Fraction(reference.approx))
    return ("right" if error <= APPROX_TOLERANCE else "wrong"), f"rel.err {error:.1e} (approx. reference)"


def value_text(record):
    if "satisfied" in record:
        return "true" if record["satisfied"] else "false"
    value = record.get("value")
    return f"{value:.12g}" if isinstance(value, (int, float)) else str(value)


def first_line(text, width=110):
    text = (text or "").strip().replace("pmc check: error: ", "")
    for prefix in PATH_PREFIXES:
        text = text.replace(prefix, "")
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= width else line[:width - 3] + "..."


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pmc")
    parser.add_argument("--qvbs", default=qvbs_index.default_qvbs_dir(ROOT))
    parser.add_argument("--max-states", type=int, default=50000)
    parser.add_argument("--timeout", type=float, default=60, help="seconds per instance (all its properties)")
    parser.add_argument("--only", nargs="+", default=[], help="benchmarks whose name contains one of these")
    parser.add_argument("--pmc-arg", action="append", default=[], help="passed on to pmc check (repeatable)")
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.qvbs, "benchmarks")):
        sys.exit(f"qvbs_run.py: no QVBS benchmarks at {args.qvbs}")
    args.qvbs = os.path.normpath(os.path.abspath(args.qvbs))
    PATH_PREFIXES.append(os.path.join(args.qvbs, "benchmarks") + os.sep)

    counts = {"right": 0, "wrong": 0, "not converged": 0, "unsupported": 0, "error": 0, "no reference": 0}
    skipped = {"not PRISM": 0, "model file empty in this copy": 0, "too large": 0, "state count unknown": 0}
    timeouts, crashes, state_mismatches, instances_run = 0, 0, [], 0
    wrong_rows = []
    header = f"{'benchmark':<24} {'instance':<16} {'property':<22} {'reference':<20} {'pmc':<20} {'verdict':<11} {'s':>7}  detail"
    print(header)
    print("-" * len(header))
    start = time.monotonic()
    for instance in qvbs_index.instances(args.qvbs):
        if args.only and not any(o in instance.benchmark for o in args.only):
            continue
        if instance.model is None:
            skipped["not PRISM"] += 1
            continue
        if os.path.getsize(instance.model) == 0:
            skipped["model file empty in this copy"] += 1
            continue
        if instance.states is None:
            skipped["state count unknown"] += 1
            continue
        if instance.states > args.max_states:
            skipped["too large"] += 1
            continue
        instances_run += 1
        # A model that explodes says so instead of taking the machine's
        # memory. Generous: index.json's counts are some tool's (its note),
        # and mcsta's are after reductions PRISM and pmc do not make.
        records, status, timed_out, seconds, stderr = run_pmc(args.pmc, instance, args.timeout,
                                                              20 * args.max_states, args.pmc_arg)
        timeouts += timed_out
        crashed = status is not None and status < 0 and not timed_out
        crashes += crashed
        by_name = {r.get("name") or r.get("property"): r for r in records}
        built = next((r.get("states") for r in records if "states" in r), None)
        if built is not None and built != instance.states:
            state_mismatches.append(f"{instance.benchmark} {instance.label()}: pmc {built}, index.json {instance.states}"
                                    f" ({instance.states_note or 'no note'})")
        names = list(instance.references) + [n for n in by_name if n not in instance.references]
        for name in names:
            reference = instance.references.get(name)
            record = by_name.get(name)
            ref_text = reference.text() if reference else "-"
            if record is None:
                verdict = "error"
                if timed_out:
                    detail = f"timeout after {args.timeout:g} s"
                elif crashed:
                    detail = f"pmc crashed (signal {-status}): {first_line(stderr)}"
                elif records:
                    detail = f"no record for it (exit {status}): {first_line(stderr)}"
                else:  # the model or the properties file failed
                    detail = first_line(stderr)
                pmc_text, secs = "-", ""
            elif "error" in record:
                verdict = "unsupported" if record.get("error_code") == "unsupported" else "error"
                detail = first_line(record["error"])
                if timed_out and record.get("error_code") == "cancelled":
                    detail = f"timeout after {args.timeout:g} s"
                pmc_text, secs = "-", ""
            else:
                pmc_text = value_text(record)
                secs = f"{record.get('timings', {}).get('total', record.get('seconds', 0)):.3f}"
                if reference is None:
                    verdict, detail = "no reference", ""
                else:
                    verdict, detail = compare(reference, record)
            counts[verdict] += 1
            row = (f"{instance.benchmark:<24} {instance.label():<16} {name[:22]:<22} {ref_text[:20]:<20} "
                   f"{pmc_text[:20]:<20} {verdict.upper() if verdict == 'wrong' else verdict:<11} {secs:>7}  {detail}")
            print(row, flush=True)
            if verdict == "wrong":
                wrong_rows.append(row)

    print()
    print(f"instances run: {instances_run} (of at most {args.max_states} states; skipped: " +
          ", ".join(f"{n} {k}" for k, n in skipped.items()) + f"), {time.monotonic() - start:.0f} s")
    print(f"properties: {counts['right']} right, {counts['wrong']} wrong, {counts['not converged']} not converged "
          f"(within --max-iterations), {counts['unsupported']} unsupported, "
          f"{counts['error']} errors ({timeouts} instance(s) timed out, {crashes} crashed), "
          f"{counts['no reference']} without reference")
    if state_mismatches:
        print(f"state counts that differ from index.json's ({len(state_mismatches)}; its note says which tool counted):")
        for m in state_mismatches:
            print(f"  {m}")
    if wrong_rows:
        print("wrong:")
        for row in wrong_rows:
            print(f"  {row}")
    sys.exit(1 if counts["wrong"] or crashes else 0)


if __name__ == "__main__":
    main()
