#!/usr/bin/env python3
"""`pmc` at its defaults, many times over, looking for the ways out that are
not clean: a signal, a hang, or an exit status other than 0 (ok), 1 (error),
2 (usage error), 3 (not converged) and 130 (cancelled by SIGINT).

Every run is `pmc check` (or the shell in script mode) with no solver
option, so that `auto` decides and CUDA may start in the background, over
every carried model: explicit files, .pmcb built from the sources, and the
sources themselves. The scenarios mix what ends a process early or oddly:
several properties per call, properties that do not parse, unknown labels,
--max-iterations 1, --json, SIGINT after a random delay, and shell scripts.

  python3 bench/stress.py PMC --sources DIR [--explicit DIR] [--work DIR]
        [--runs N] [--jobs J] [--seed S] [--timeout SECONDS] [--min-transitions N] [--max-transitions N]
        [--wrapper 'compute-sanitizer --error-exitcode 99'] [--log FILE]

Exit status 0 when every run ended cleanly, 1 otherwise; the last line is
"N runs: N clean, N signals, N hangs, N bad exit statuses".
"""
import argparse
import concurrent.futures
import os
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import time

from reference_set import build_pmcb, manifest_rows, source_file

CLEAN = {0, 1, 2, 3, 130}


def explicit_files(folder, row):
    files = []
    for name in row["files"].split(","):
        if ".sta" in name:
            continue
        path = os.path.join(folder, name)
        if not os.path.exists(path) and os.path.exists(path + ".gz"):
            path += ".gz"
        if not os.path.exists(path):
            return None
        files.append(path)
    return files


class Models:
    """Each instance as a list of (kind, load arguments) and its properties."""

    def __init__(self, pmc, sources, explicit, work, max_transitions, min_transitions=0):
        self.instances = []  # (name, [(kind, args)], [properties])
        by_key = {}
        for row in manifest_rows(sources):
            if (max_transitions and int(row["transitions"]) > max_transitions) or \
                    int(row["transitions"]) < min_transitions:
                continue
            key = (row["model"], row["instance"])
            if key not in by_key:
                src = source_file(os.path.join(sources, *key))
                if src is None:
                    continue
                const = ["--const", row["constants"]] if row.get("constants") else []
                pmcb = os.path.join(work, f"{key[0]}_{key[1]}.pmcb")
                if not os.path.exists(pmcb):
                    build_pmcb(pmc, src, row.get("constants", ""), pmcb)
                by_key[key] = (f"{key[0]} {key[1]}", [("source", [src, *const]), ("pmcb", [pmcb])], [])
                self.instances.append(by_key[key])
            by_key[key][2].append(row["property"])
        if explicit:
            for row in manifest_rows(explicit):
                key = (row["model"], row["instance"])
                files = explicit_files(os.path.join(explicit, *key), row)
                if files and key in by_key and not any(k == "explicit" for k, _ in by_key[key][1]):
                    by_key[key][1].append(("explicit", files))


BAD_PROPERTIES = ['P=? [ F "goal" ', 'P=? [ F "nonexistent_label" ]', 'Q=? [ F "x" ]', 'P=? [ F x=+ ]',
                  'R{"no_reward"}=? [ F true ]', 'P=? [ F<=-1 true ]', 'P>1.5 [ F true ]', '']


def scenario(rng, models, tmp, sigint_allowed=True):
    """One command: (name, argv, stdin text or None, SIGINT delay or None).

    Under a wrapper (compute-sanitizer) SIGINT reaches the wrapper, which
    ends by the signal itself whatever pmc does: no SIGINT scenarios there."""
    name, loads, props = rng.choice(models.instances)
    kind, load = rng.choice(loads)
    pick = rng.sample(props, rng.randint(1, min(3, len(props))))
    kinds = ["defaults", "defaults", "several", "json", "parse_error", "unknown_label", "max_iterations_1",
             "sigint", "sigint", "script"]
    what = rng.choice(kinds if sigint_allowed else [k for k in kinds if k != "sigint"])
    argv = ["check", "--model", *load]
    sigint = None
    if what == "several":
        pick = props[:]
    elif what == "parse_error":
        pick.insert(rng.randint(0, len(pick)), rng.choice(BAD_PROPERTIES[:1] + BAD_PROPERTIES[2:]))
    elif what == "unknown_label":
        pick.append(BAD_PROPERTIES[1])
    elif what == "max_iterations_1":
        argv += ["--max-iterations", "1"]
    elif what == "json":
        argv += ["--json"]
    elif what == "sigint":
        sigint = rng.uniform(0.0, 1.5)
        if rng.random() < 0.5:
            argv += ["--json"]
    if what == "script":
        lines = [f"load {' '.join(shlex.quote(a) for a in load)}"]
        lines += [f"check {p}" for p in pick + [rng.choice(BAD_PROPERTIES)]]
        lines += ["info", "release", f"check {pick[0]}"]
        return f"{name} ({kind}) script", ["-k"], "\n".join(lines) + "\n", None
    for p in pick:
        argv += ["--property", p]
    return f"{name} ({kind}) {what}", argv, None, sigint


def run(pmc, wrapper, case, timeout):
    label, argv, stdin, sigint = case
    cmd = wrapper + [pmc, *argv]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        if sigint is not None:
            try:
                out, err = proc.communicate(input=stdin, timeout=sigint)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGINT)
                out, err = proc.communicate(timeout=timeout)
        else:
            out, err = proc.communicate(input=stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return label, cmd, "hang", time.monotonic() - start, err + out[-400:]
    code = proc.returncode
    if code < 0:
        outcome = "signal " + signal.Signals(-code).name
    elif code in CLEAN:
        outcome = "clean"
    else:
        outcome = f"exit {code}"
    # compute-sanitizer reports on stdout
    return label, cmd, outcome, time.monotonic() - start, err if outcome == "clean" else err + out[-600:]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("pmc")
    p.add_argument("--sources", required=True)
    p.add_argument("--explicit")
    p.add_argument("--work", default="/tmp/pmc-stress")
    p.add_argument("--runs", type=int, default=500)
    # One at a time by default: each pmc uses every core, and several at once
    # oversubscribe OpenMP (a 0.1 s check took 20-30 s with 4 at once on 16 cores).
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--max-transitions", type=int, default=3_000_000)
    p.add_argument("--min-transitions", type=int, default=0)
    p.add_argument("--wrapper", default="")
    p.add_argument("--log")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    models = Models(args.pmc, args.sources, args.explicit, args.work, args.max_transitions, args.min_transitions)
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp()
    wrapper = shlex.split(args.wrapper)
    cases = [scenario(rng, models, tmp, sigint_allowed=not wrapper) for _ in range(args.runs)]
    counts = {"clean": 0, "signal": 0, "hang": 0, "exit": 0}
    log = open(args.log, "w") if args.log else None
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for label, cmd, outcome, seconds, err in pool.map(lambda c: run(args.pmc, wrapper, c, args.timeout), cases):
            counts[outcome.split()[0]] += 1
            line = f"{outcome:<16} {seconds:7.2f} s  {label}"
            if log:
                print(line, file=log, flush=True)
            if outcome != "clean":
                print(f"{line}\n    {shlex.join(cmd)}\n    stderr: {err.strip()[-400:]}", flush=True)
    print(f"{args.runs} runs in {time.monotonic() - start:.0f} s over {len(models.instances)} instances: "
          f"{counts['clean']} clean, {counts['signal']} signals, {counts['hang']} hangs, "
          f"{counts['exit']} bad exit statuses")
    return 0 if counts["clean"] == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
