#!/usr/bin/env python3
"""pmc's JANI input against QVBS: every instance of a DTMC, CTMC or MDP
benchmark whose model file is a .jani and whose state count (index.json's,
the largest given) is at most --max-states is

1. built: `pmc info --model X.jani --const OPEN --json` gives its states,
   transitions and choices. Where the JANI file's original is a PRISM-language
   source (beside it), `pmc info` on that source with the instance's constants
   must give the same three counts; otherwise the state count is compared with
   index.json's counts (and the row says whose it matches: Storm, mcsta, ...;
   matching none is reported, not fatal: Storm and mcsta counted many of
   them with the property's goal states made absorbing, or after
   reductions, so the PDDL-born models have fewer states there);
2. checked: `pmc check --model X.jani --const OPEN --json` checks the file's
   own properties, each compared by name with index.json's reference by
   bench/qvbs_run.py's rules (an exact rational within 1e-6 relative or
   inside pmc's certified bounds, an interval with 1e-6 slack, a number
   without guarantee within 2e-6, a verdict, infinity): right / wrong /
   not converged / unsupported (pmc says so) / error (timeouts and crashes
   among them). A wrong or failed property is checked once more from the
   PRISM original and its properties file, where there are both, to tell a
   JANI problem from one of pmc's own; so is the first of each refusal;
3. timed: where there is a PRISM original, `pmc info` (load and build,
   the whole process's wall and CPU seconds) on the JANI file and on the
   PRISM source, the median of 3 above 50000 states, else one run, and
   their ratio JANI / PRISM (the goal: at most 1.5; one run of a model of
   tens of milliseconds is mostly noise on a shared machine).

Prints a row per instance (its counts, the build times) and per property,
then a summary: counts equal / differ, values right / wrong / unsupported /
errors, the ratios' median and maximum, every discrepancy with the command
that shows it and pmc's output, and the reasons pmc refused models or
properties, grouped, with the instances each affects.

Usage: jani_qvbs.py [PMC] [--qvbs DIR] [--max-states N] [--min-states N]
                    [--timeout S] [--only SUBSTRING...] [--try-unknown]
(PMC defaults to build-ref/shell/pmc; DIR to $PMC_QVBS or the team's data
folder ../shared/qvbs beside the source tree, whose copy has no .jani files:
give a full QVBS copy.)
"""
import argparse
import json
import os
import re
import resource
import shlex
import signal
import statistics
import subprocess
import sys
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, HERE)
import qvbs_index  # noqa: E402
import qvbs_run  # noqa: E402  (compare, value_text, first_line: the same rules and texts)

RATIO_GOAL = 1.5
MEDIAN_ABOVE = 50000       # states: time the builds 3 times above this
STATE_LIMIT_FACTOR = 20    # pmc's --max-states: generous, as qvbs_run.py (mcsta counts after reductions)


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(command, timeout, cpu=None):
    """(stdout, stderr, exit status, timed out, wall seconds) of a pmc call;
    past the timeout SIGTERM, so that pmc check prints the records it owes.
    `cpu`, a list, gets the call's CPU seconds (user and system; one call
    at a time)."""
    cpu_start = children_cpu()
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    timed_out = False
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        process.send_signal(signal.SIGTERM)
        try:
            out, err = process.communicate(timeout=qvbs_run.GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
    seconds = time.perf_counter() - start
    if cpu is not None:
        cpu.append(children_cpu() - cpu_start)
    return out, err, process.returncode, timed_out, seconds


def json_lines(text):
    records = []
    for line in text.splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return records


def command_text(command, directory=None):
    """The command as one shell line (run from the benchmark's directory,
    file names short, when given)."""
    if directory:
        short = [os.path.relpath(c, directory) if c.startswith(directory + os.sep) else c for c in command]
        return f"(cd {shlex.quote(directory)} && {shlex.join(short)})"
    return shlex.join(command)


def prism_open_constants(source):
    """The constants a PRISM-language source declares without a value (the
    instance's constants among them go to --const; the others, a properties
    file's such as T, would be an error)."""
    with open(source, encoding="utf-8", errors="replace") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return {m.group(1) for m in re.finditer(
        r"\bconst\s+(?:(?:int|double|bool|rate|prob)\s+)?([A-Za-z_]\w*)\s*;", text)}


def prism_cross_check(pmc, instance, name, limit, timeout):
    """The same property from the PRISM original and its properties file
    (when there are both), for a discrepancy's report: a line of text."""
    if not (instance.model and instance.properties and os.path.isfile(instance.model)
            and os.path.isfile(instance.properties)):
        return None
    declared = prism_open_constants(instance.model) | prism_open_constants(instance.properties)
    constants = qvbs_index.constants_argument(
        [(n, v) for n, v in instance.file_constants + instance.open_constants if n in declared])
    command = [pmc, "check", "--model", instance.model, "--property-file", instance.properties, "--property", name,
               "--json", "--max-states", str(limit)] + (["--const", constants] if constants else [])
    out, err, status, timed_out, _ = run(command, timeout)
    record = next(iter(json_lines(out)), None)
    text = command_text(command, instance.directory)
    if timed_out:
        return f"PRISM source: timeout after {timeout:g} s: {text}"
    if record is None:
        return f"PRISM source: {qvbs_run.first_line(err) or f'exit {status}'}: {text}"
    if "error" in record:
        return f"PRISM source: error ({record.get('error_code')}): {qvbs_run.first_line(record['error'])}: {text}"
    return (f"PRISM source: {qvbs_run.value_text(record)} [{record.get('lower')}, {record.get('upper')}] "
            f"({record.get('property')}): {text}")


def info_command(pmc, model, constants, max_states):
    command = [pmc, "info", "--model", model, "--json", "--max-states", str(max_states)]
    return command + (["--const", constants] if constants else [])


class Build:
    """One `pmc info`: the counts (None when it failed), its message, its
    seconds (every timed run), the command."""
    def __init__(self, command, timeout):
        self.command = command
        self.cpu = []
        out, err, self.status, self.timed_out, seconds = run(command, timeout, self.cpu)
        self.seconds = [seconds]
        self.stderr = err
        record = next((r for r in json_lines(out) if "states" in r), None)
        self.counts = None
        if record is not None and self.status == 0:
            self.counts = (record["states"], record["transitions"], record.get("choices", record["states"]))
        self.error = None
        if self.counts is None:
            if self.timed_out:
                self.error = f"timeout after {timeout:g} s"
            elif self.status is not None and self.status < 0:
                self.error = f"pmc crashed (signal {-self.status}): {qvbs_run.first_line(err)}"
            else:
                self.error = qvbs_run.first_line(err.replace("pmc info: error: ", "")) or f"exit {self.status}"

    def time_again(self, timeout):
        *_, seconds = run(self.command, timeout, self.cpu)
        self.seconds.append(seconds)

    def median(self):
        return statistics.median(self.seconds)

    def median_cpu(self):
        return statistics.median(self.cpu)


def counts_text(counts, model_type):
    if counts is None:
        return "-"
    states, transitions, choices = counts
    return f"{states}/{transitions}" + (f"/{choices}" if model_type == "mdp" else "")


def too_many_states(text):
    return "more than" in text and "reachable states" in text


def reason_of(message):
    """A refusal's reason without the file and the place in it, so that
    equal reasons group: 'x.jani: properties[2] "p1": path operator "U" ...'
    -> 'path operator "U" ...'."""
    text = message.strip()
    for prefix in qvbs_run.PATH_PREFIXES:
        text = text.replace(prefix, "")
    text = re.sub(r"^pmc \w+: error: ", "", text)
    text = re.sub(r"^[^\s:]+\.jani(\.gz|\.xz)?: ", "", text)
    # the place: a JSON path, properties[3] "name", automata[0].edges[2] ...
    text = re.sub(r'^(?=[^:]*\[\d+\])(?:[\w-]+(?:\[\d+\])?(?: "[^"]*")?(?:, |\.)?)+: ', "", text)
    return text.splitlines()[0] if text else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pmc", nargs="?", default=None, help="the pmc binary (default: build-ref/shell/pmc)")
    parser.add_argument("--pmc", dest="pmc_option", default=None, help="the same as the positional PMC")
    parser.add_argument("--qvbs", default=qvbs_index.default_qvbs_dir(ROOT))
    parser.add_argument("--max-states", type=int, default=200000)
    parser.add_argument("--min-states", type=int, default=0,
                        help="only instances above this many states (index.json's): to continue a run")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per pmc call")
    parser.add_argument("--only", nargs="+", default=[], help="benchmarks (type/name) containing one of these")
    parser.add_argument("--try-unknown", action="store_true",
                        help="also the instances index.json gives no state count for, built with "
                             "--max-states as pmc's limit (skipped when they exceed it)")
    args = parser.parse_args()
    pmc = os.path.abspath(args.pmc or args.pmc_option or os.path.join(ROOT, "build-ref", "shell", "pmc"))
    if not os.path.isdir(os.path.join(args.qvbs, "benchmarks")):
        sys.exit(f"jani_qvbs.py: no QVBS benchmarks at {args.qvbs}")
    args.qvbs = os.path.normpath(os.path.abspath(args.qvbs))
    qvbs_run.PATH_PREFIXES.append(os.path.join(args.qvbs, "benchmarks") + os.sep)

    values = {"right": 0, "wrong": 0, "not converged": 0, "unsupported": 0, "error": 0, "no reference": 0,
              "above the state limit": 0}
    skipped = defaultdict(int)
    counts_summary = {"equal": 0, "differ": 0, "PRISM failed": 0, "JANI failed": 0, "above the state limit": 0,
                      "index matched": 0, "index matched none": 0}
    index_matches = defaultdict(int)   # whose count a JANI file without PRISM original matched
    ratios = []                        # (wall ratio, instance text, states, CPU ratio)
    discrepancies = []                 # (kind, instance text, command, output)
    refusals = defaultdict(lambda: [set(), 0, None])  # reason -> [instances, properties, an example]
    timeouts = crashes = instances_run = jani_files = 0
    seen_files = set()

    def binary_stamp():
        try:
            return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.stat(pmc).st_mtime))
        except OSError as e:
            return str(e)
    stamp = binary_stamp()
    print(f"pmc: {pmc} (modified {stamp})")
    header = (f"{'benchmark':<26} {'instance':<18} {'property':<22} {'reference':<20} {'pmc (JANI)':<20} "
              f"{'verdict':<11} {'s':>7}  detail")
    print(header)
    print("-" * len(header))
    start = time.monotonic()

    def row(instance, name, reference, value, verdict, secs, detail):
        print(f"{instance.benchmark:<26} {instance.label()[:18]:<18} {name[:22]:<22} {reference[:20]:<20} "
              f"{value[:20]:<20} {verdict.upper() if verdict in ('wrong', 'differ') else verdict:<11} "
              f"{secs:>7}  {detail}", flush=True)

    for instance in qvbs_index.jani_instances(args.qvbs):
        if args.only and not any(o in instance.benchmark for o in args.only):
            continue
        if instance.states is None and not args.try_unknown:
            skipped["state count unknown"] += 1
            continue
        if instance.states is not None and instance.states > args.max_states:
            skipped["too large"] += 1
            continue
        if args.min_states and (instance.states is None or instance.states <= args.min_states):
            skipped["at most --min-states"] += 1
            continue
        if not os.path.isfile(instance.jani) or os.path.getsize(instance.jani) == 0:
            skipped["JANI file missing in this copy"] += 1
            continue
        where = f"{instance.benchmark} {instance.label()}"
        limit = args.max_states if instance.states is None else STATE_LIMIT_FACTOR * args.max_states
        directory = instance.directory

        # 1. counts
        jani = Build(info_command(pmc, instance.jani, instance.constants(), limit), args.timeout)
        if instance.states is None and jani.counts is None and too_many_states(jani.stderr):
            skipped["state count unknown, above --max-states"] += 1
            continue
        instances_run += 1
        if instance.jani not in seen_files:
            seen_files.add(instance.jani)
            jani_files += 1
        timeouts += jani.timed_out
        prism = None
        if instance.model and os.path.isfile(instance.model) and os.path.getsize(instance.model) > 0:
            # The PRISM source may leave the file's parameters open too, and
            # the instance's may be the properties file's (T): --const gets
            # those of the file's and the open parameters it declares
            # without a value, naming another is an error.
            declared = prism_open_constants(instance.model)
            constants = qvbs_index.constants_argument(
                [(n, v) for n, v in instance.file_constants + instance.open_constants if n in declared])
            prism = Build(info_command(pmc, instance.model, constants, limit), args.timeout)
            timeouts += prism.timed_out
        for build in (jani, prism):
            if build is not None and build.status is not None and build.status < 0 and not build.timed_out:
                crashes += 1
                discrepancies.append(("crash", where, command_text(build.command, directory), build.stderr.strip()))

        reference_text = "-"
        verdict, detail = "", ""
        if jani.counts is None and too_many_states(jani.stderr):
            verdict, detail = "too large", f"JANI: above pmc's --max-states {limit}"
            counts_summary["above the state limit"] += 1
        elif jani.counts is None:
            verdict, detail = "error", f"JANI: {jani.error}"
            counts_summary["JANI failed"] += 1
            if "unsupported" in jani.stderr or "not supported" in jani.stderr:
                verdict = "unsupported"
                refusals[reason_of(jani.stderr)][0].add(where)
            elif not jani.timed_out:
                discrepancies.append(("JANI build fails", where, command_text(jani.command, directory),
                                      jani.stderr.strip()))
        if prism is not None:
            reference_text = f"PRISM {counts_text(prism.counts, instance.model_type)}"
            if prism.counts is None and too_many_states(prism.stderr):
                detail = (detail + "; " if detail else "") + "PRISM: above the limit too"
            elif prism.counts is None:
                counts_summary["PRISM failed"] += 1
                discrepancies.append(("PRISM original's build fails", where, command_text(prism.command, directory),
                                      prism.stderr.strip()))
                detail = (detail + "; " if detail else "") + f"PRISM: {prism.error}"
                verdict = verdict or "error"
            elif jani.counts is not None:
                if jani.counts == prism.counts:
                    counts_summary["equal"] += 1
                    verdict = "equal"
                else:
                    counts_summary["differ"] += 1
                    verdict = "differ"
                    discrepancies.append((
                        "counts differ", where,
                        command_text(jani.command, directory) + "\n" + command_text(prism.command, directory),
                        f"JANI  {counts_text(jani.counts, 'mdp')} (states/transitions/choices)\n"
                        f"PRISM {counts_text(prism.counts, 'mdp')}"))
                # 3. build times
                if max(jani.counts[0], prism.counts[0]) > MEDIAN_ABOVE:
                    for _ in range(2):
                        jani.time_again(args.timeout)
                        prism.time_again(args.timeout)
                ratio = jani.median() / prism.median()
                cpu_ratio = jani.median_cpu() / max(prism.median_cpu(), 1e-6)
                ratios.append((ratio, where, jani.counts[0], cpu_ratio))
                detail = (f"build {jani.median():.3f} s / {prism.median():.3f} s = {ratio:.2f}x"
                          + (f" (median of {len(jani.seconds)})" if len(jani.seconds) > 1 else "")
                          + (f" ABOVE {RATIO_GOAL}x" if ratio > RATIO_GOAL else "")
                          + f", CPU {jani.median_cpu():.3f} s / {prism.median_cpu():.3f} s = {cpu_ratio:.2f}x")
        if jani.counts is not None:
            index_counts = ", ".join(f"{n} {note or '?'}" for n, note in instance.state_counts)
            matching = [note or "?" for n, note in instance.state_counts if n == jani.counts[0]]
            index_text = (f"index.json: = {'/'.join(matching)}" if matching else
                          f"index.json: {index_counts or 'no count'}")
            if prism is None:
                reference_text = f"index {'/'.join(str(n) for n, _ in instance.state_counts) or '?'}"
                if matching:
                    counts_summary["index matched"] += 1
                    for note in matching:
                        index_matches[note] += 1
                    verdict = "= index"
                elif instance.state_counts:
                    counts_summary["index matched none"] += 1
                    verdict = "index differs"
                    discrepancies.append(("state count matches no tool's in index.json (not fatal)", where,
                                          command_text(jani.command, directory),
                                          f"pmc {counts_text(jani.counts, 'mdp')}; index.json {index_counts}"))
                else:
                    verdict = "no count"
            detail = (detail + "; " if detail else "") + index_text
        row(instance, "[build]", reference_text, counts_text(jani.counts, instance.model_type), verdict,
            f"{jani.seconds[0]:.3f}", detail)

        # 2. values
        check = [pmc, "check", "--model", instance.jani, "--json", "--max-states", str(limit)]
        if instance.constants():
            check += ["--const", instance.constants()]
        out, err, status, timed_out, seconds = run(check, args.timeout)
        records = json_lines(out)
        timeouts += timed_out
        crashed = status is not None and status < 0 and not timed_out
        crashes += crashed
        if crashed:
            discrepancies.append(("crash", where, command_text(check, directory), err.strip()))
        by_name = {r.get("name") or r.get("property"): r for r in records}
        names = list(instance.references) + [n for n in by_name if n not in instance.references]
        # No record at all: the JANI file itself failed (its properties are
        # the command's, so there are no names either), said on stderr.
        failed = None
        if not records and not timed_out and not crashed:
            if "not supported" in err or "unsupported" in err:
                failed = "unsupported"
                refusals[reason_of(err)][0].add(where)
                refusals[reason_of(err)][1] += len(instance.references)
            elif too_many_states(err):
                failed = "above the state limit"
            else:
                failed = "error"
                discrepancies.append(("pmc check prints no record", where, command_text(check, directory),
                                      f"exit {status}; stderr:\n{err.strip()}"))
        if not records and not instance.references:
            verdict = failed or "error"
            values[verdict] += 1
            row(instance, "-", "-", "-", verdict, "", qvbs_run.first_line(err) or f"no output (exit {status})")
        for name in names:
            reference = instance.references.get(name)
            record = by_name.get(name)
            ref_text = reference.text() if reference else "-"
            pmc_text, secs = "-", ""
            one = command_text(check + ["--property", name], directory)
            if record is None:
                verdict = "error"
                if timed_out:
                    detail = f"timeout after {args.timeout:g} s"
                elif crashed:
                    detail = f"pmc crashed (signal {-status}): {qvbs_run.first_line(err)}"
                elif records:
                    detail = f"no record for it (exit {status}): {qvbs_run.first_line(err)}"
                    discrepancies.append(("no record for a property index.json names", where, one,
                                          f"names pmc printed: {', '.join(map(str, by_name))}"))
                else:
                    verdict = failed or "error"
                    detail = qvbs_run.first_line(err) or f"no output (exit {status})"
            elif "error" in record:
                code = record.get("error_code")
                verdict = "unsupported" if code == "unsupported" else "error"
                detail = qvbs_run.first_line(record["error"])
                if timed_out and code == "cancelled":
                    detail = f"timeout after {args.timeout:g} s"
                elif code == "unsupported":
                    entry = refusals[reason_of(record["error"])]
                    entry[0].add(where)
                    entry[1] += 1
                    # an example: the command, and whether pmc checks the PRISM original's (the first
                    # instance that has one)
                    if entry[2] is None or ("PRISM source" not in entry[2] and instance.properties):
                        cross = prism_cross_check(pmc, instance, name, limit, args.timeout)
                        entry[2] = f"$ {one}" + (f"\n{cross}" if cross else "")
                elif code == "model" and too_many_states(record["error"]):
                    verdict, detail = "above the state limit", f"above pmc's --max-states {limit}"
                else:
                    cross = prism_cross_check(pmc, instance, name, limit, args.timeout)
                    discrepancies.append((f"error ({code})", where, one,
                                          record["error"] + (f"\n{cross}" if cross else "")))
            else:
                pmc_text = qvbs_run.value_text(record)
                secs = f"{record.get('timings', {}).get('total', record.get('seconds', 0)):.3f}"
                if reference is None:
                    verdict, detail = "no reference", record.get("property", "")
                else:
                    verdict, detail = qvbs_run.compare(reference, record)
                    if verdict != "right":
                        cross = prism_cross_check(pmc, instance, name, limit, args.timeout)
                        discrepancies.append((
                            verdict, where, one,
                            f"reference {ref_text} ({reference.note or 'no note'}); pmc {pmc_text} "
                            f"[{record.get('lower')}, {record.get('upper')}], {detail}; "
                            f"property {record.get('property')}; solver {record.get('solver')}"
                            + (f"\n{cross}" if cross else "")))
            values[verdict] += 1
            row(instance, name, ref_text, pmc_text, verdict, secs, detail)

    print()
    print(f"instances run: {instances_run} ({jani_files} JANI files; at most {args.max_states} states by index.json;"
          f" skipped: " + (", ".join(f"{n} {k}" for k, n in skipped.items()) or "none") +
          f"), {time.monotonic() - start:.0f} s")
    print(f"counts against the PRISM originals: {counts_summary['equal']} equal, {counts_summary['differ']} differ, "
          f"{counts_summary['PRISM failed']} PRISM builds failed; JANI builds failed: {counts_summary['JANI failed']} "
          f"(refusals among them); "
          f"above pmc's --max-states ({STATE_LIMIT_FACTOR}x --max-states): {counts_summary['above the state limit']}")
    print(f"state counts without a PRISM original, against index.json: {counts_summary['index matched']} match "
          f"(" + (", ".join(f"{note} {n}" for note, n in sorted(index_matches.items())) or "-") +
          f"), {counts_summary['index matched none']} match none")
    print(f"properties: {values['right']} right, {values['wrong']} wrong, {values['not converged']} not converged, "
          f"{values['unsupported']} unsupported, {values['error']} errors ({timeouts} call(s) timed out, "
          f"{crashes} crashed), {values['no reference']} without reference, "
          f"{values['above the state limit']} above pmc's state limit")
    if ratios:
        def line(selected, what):
            worst = max(selected)
            cpu_worst = max(selected, key=lambda r: r[3])
            over = [f"{w} {r:.2f}x" for r, w, *_ in selected if r > RATIO_GOAL]
            print(f"  {what} ({len(selected)}): wall median {statistics.median(r for r, *_ in selected):.2f}x, "
                  f"max {worst[0]:.2f}x ({worst[1]}); CPU median {statistics.median(r[3] for r in selected):.2f}x, "
                  f"max {cpu_worst[3]:.2f}x ({cpu_worst[1]}); wall above {RATIO_GOAL}x: {len(over)}"
                  + (": " + "; ".join(over) if over else ""))
        print("build time JANI / PRISM (pmc info, the whole process, wall and CPU seconds):")
        line(ratios, "all instances with a PRISM original")
        big = [r for r in ratios if r[2] > MEDIAN_ABOVE]
        if big:
            line(big, f"above {MEDIAN_ABOVE} states, medians of 3")
        small = [r for r in ratios if r[2] <= MEDIAN_ABOVE]
        if small:
            line(small, f"at most {MEDIAN_ABOVE} states, one run each (the smallest take tens of ms: noise, "
                        f"process start and the JSON read)")
    if refusals:
        print("refused (pmc says unsupported), by reason: instances, properties")
        for reason, (where_set, properties, example) in sorted(refusals.items(), key=lambda kv: -len(kv[1][0])):
            print(f"  {len(where_set):>3} instance(s), {properties:>3} propert{'y' if properties == 1 else 'ies'}: "
                  f"{reason}")
            print(f"      {'; '.join(sorted(where_set))}")
            for line in (example or "").splitlines():
                print(f"      {line}")
    if discrepancies:
        print(f"discrepancies ({len(discrepancies)}):")
        for kind, where, command, output in discrepancies:
            print(f"  [{kind}] {where}")
            for line in command.splitlines():
                print(f"    $ {line}")
            for line in output.strip().splitlines()[:6]:
                print(f"    > {line[:300]}")
    if binary_stamp() != stamp:
        print(f"WARNING: {pmc} changed during the run (modified {binary_stamp()}, was {stamp}): "
              f"the rows before and after come from different builds")
    sys.exit(1 if values["wrong"] or crashes or counts_summary["differ"] else 0)


if __name__ == "__main__":
    main()
