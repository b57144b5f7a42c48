#!/usr/bin/env python3
"""QVBS benchmarks whose properties use PRISM's filters or Storm's T, or that
value iteration or certification finds hard (Haddad–Monmege, steady state),
checked by `pmc check` against the exact references of their index.json: the
value within 1e-6 relative, the reference inside the certified bounds, at the
defaults.

Usage: test_qvbs_filters_time.py PATH/TO/pmc

The benchmarks are read from $PMC_QVBS, else from the team's data folder
(../shared/qvbs beside the source tree). Without them every test is skipped and
the program exits 77 (meson's SKIP), saying where it looked.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction

from cli_support import qvbs_dir, source_root

PMC = None
ROOT = source_root()
QVBS = qvbs_dir()
BENCHMARKS = os.path.join(QVBS, "benchmarks")
MISSING = f"QVBS benchmarks not found in {os.path.abspath(BENCHMARKS)}; set PMC_QVBS to run these tests"


def exact(value):
    """index.json's value: an integer, a float, or {"num", "den", "approx"}."""
    if isinstance(value, dict):
        return Fraction(int(value["num"]), int(value["den"]))
    return Fraction(repr(value))  # 0.7 is 7/10 as written, not the double nearest it


def named_properties(path):
    """The named properties of a QVBS properties file: name -> text."""
    with open(path) as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    properties = {}
    for piece in text.split(";"):
        match = re.match(r'\s*"([^"]+)"\s*:\s*(.+)', piece, re.S)
        if match:
            properties[match.group(1)] = " ".join(match.group(2).split())
    return properties


def references(benchmark, prop):
    """(model file stem, {constant: value}, exact value) of every instance of
    `benchmark` (e.g. "dtmc/herman") with a reference for `prop`."""
    with open(os.path.join(BENCHMARKS, benchmark, "index.json")) as f:
        index = json.load(f)
    out = []
    for model in index["files"]:
        for instance in model.get("open-parameter-values", []):
            for result in instance.get("results", []):
                if result["property"] == prop:
                    constants = {v["name"]: v["value"] for v in instance.get("values", [])}
                    out.append((model["file"].rsplit(".", 1)[0], constants, exact(result["value"])))
    return out


def model_file(benchmark, stem):
    directory = os.path.join(BENCHMARKS, benchmark)
    for ext in (".prism", ".pm", ".nm", ".sm"):
        if os.path.exists(os.path.join(directory, stem + ext)):
            return os.path.join(directory, stem + ext)
    raise AssertionError(f"{benchmark}: no PRISM source for {stem}")


def properties_file(benchmark):
    directory = os.path.join(BENCHMARKS, benchmark)
    for name in sorted(os.listdir(directory)):
        if name.endswith((".props", ".prctl", ".pctl", ".csl")):
            return os.path.join(directory, name)
    raise AssertionError(f"{benchmark}: no properties file")


# Built without GMP, pmc solves Haddad–Monmege's SCC in doubles only: the
# certificate closes at N=20 (a gap of ~1e-10), not at N=100 or 300.
HAVE_GMP = os.environ.get("PMC_HAVE_GMP", "1") == "1"


def haddad_monmege_instances(_, constants):
    return HAVE_GMP or constants["N"] == 20


def check(model, prop, constants=None, extra=()):
    args = [PMC, "check", "--model", model, "--property", prop, "--json", *extra]
    if constants:
        args += ["--const", ",".join(f"{k}={v}" for k, v in constants.items())]
    run = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({run.returncode}): {run.stderr}")
    return json.loads(run.stdout)


class Qvbs(unittest.TestCase):
    def setUp(self):
        if not os.path.isdir(BENCHMARKS):
            self.skipTest(MISSING)

    def expect_reference(self, record, reference, what):
        self.assertTrue(record["converged"], what)
        self.assertTrue(record["sound"], what)
        ref = float(reference)
        slack = 1e-12 * max(1.0, abs(ref))  # rounding of the reference to a double
        self.assertLessEqual(record["lower"], ref + slack, what)
        self.assertGreaterEqual(record["upper"], ref - slack, what)
        self.assertLessEqual(abs(record["value"] - ref), 1e-6 * abs(ref) + slack, what)

    def check_benchmark(self, benchmark, prop, keep=lambda stem, constants: True, extra=()):
        """Checks `prop` of every instance `keep` selects against its
        reference; yields the records."""
        text = named_properties(properties_file(benchmark))[prop]
        cases = [c for c in references(benchmark, prop) if keep(c[0], c[1])]
        self.assertTrue(cases, f"{benchmark}: no reference for {prop}")
        for stem, constants, reference in cases:
            what = f"{benchmark} {stem} {constants} {prop}: {text}"
            with self.subTest(instance=stem, constants=constants):
                record = check(model_file(benchmark, stem), f'"{prop}": {text}', constants, extra)
                self.expect_reference(record, reference, what)
                yield record

    def test_herman_steps_filter_max_over_init(self):
        # filter(max, R=? [ F "stable" ], "init"), over every state (all are
        # initial). From 13 processes up a check takes minutes: not here.
        small = {f"herman.{n}" for n in (3, 5, 7, 9, 11)}
        records = list(self.check_benchmark("dtmc/herman", "steps", lambda stem, _: stem in small))
        self.assertEqual(len(records), 5)
        for record in records:
            self.assertEqual(record["filter"]["operator"], "max")
            self.assertEqual(record["filter"]["states"], '"init"')
            self.assertEqual(record["filter"]["state_count"], record["initial_states"])

    def test_haddad_monmege_expected_steps(self):
        # T=? [ F "Done" ] on a chain built to defeat value iteration: one
        # SCC of 2N+1 states whose sweeps would need ~2^N rounds. At the
        # defaults it is solved by state elimination, exactly (in rationals)
        # where doubles are too ill-conditioned: N=20, 100 and 300 (1.9e30
        # and 3.1e89 steps) in one update.
        records = list(self.check_benchmark("dtmc/haddad-monmege", "exp_steps", haddad_monmege_instances))
        self.assertEqual(len(records), 3 if HAVE_GMP else 1)
        for record in records:
            self.assertTrue(record["sound"])
            self.assertEqual(record["iterations"], 1)
            self.assertIn("1 solved directly", record["kernel"])

    def test_haddad_monmege_target(self):
        # P=? [ F "Target" ] = 0.7 exactly: certified bounds around 0.7 at
        # the defaults on every instance (interval iteration alone needs about
        # 7 million sweeps at N=20 and ~2^N beyond).
        records = list(self.check_benchmark("dtmc/haddad-monmege", "target", haddad_monmege_instances))
        self.assertEqual(len(records), 3 if HAVE_GMP else 1)
        for record in records:
            self.assertTrue(record["sound"])
            self.assertLessEqual(record["lower"], 0.7)
            self.assertGreaterEqual(record["upper"], 0.7)
            self.assertIn("1 solved directly", record["kernel"])

    def test_haddad_monmege_exact(self):
        # --exact: Storm's exact results, 7/10 and the expected steps as
        # integers (1572862 at N=20, 31 and 91 digits at N=100 and 300).
        if not HAVE_GMP:
            self.skipTest("built without GMP: no exact results")
        for prop in ("target", "exp_steps"):
            text = named_properties(properties_file("dtmc/haddad-monmege"))[prop]
            cases = references("dtmc/haddad-monmege", prop)
            self.assertEqual(len(cases), 3)
            for stem, constants, reference in cases:
                with self.subTest(prop=prop, constants=constants):
                    record = check(model_file("dtmc/haddad-monmege", stem), f'"{prop}": {text}', constants,
                                   ("--exact",))
                    self.assertEqual(Fraction(record["exact"]), reference)
                    self.assertEqual(record["solver"], "cpu.exact-pi")
                    self.assertTrue(record["sound"])

    def test_polling_steady_state_is_certified(self):
        # S=? of a CTMC whose bottom SCC is small enough for its stationary
        # distribution in rationals (36 and 96 states): exact bounds around
        # index.json's exact value.
        if not HAVE_GMP:
            self.skipTest("built without GMP: steady state is not certified")
        text = named_properties(properties_file("ctmc/polling"))["s1"]
        cases = [c for c in references("ctmc/polling", "s1") if c[0] in ("polling.3", "polling.4")]
        self.assertEqual(len(cases), 2)
        for stem, _, reference in cases:  # the constant T is not s1's
            record = check(model_file("ctmc/polling", stem), f'"s1": {text}')
            self.expect_reference(record, reference, f"{stem} s1")
            self.assertTrue(record["sound"])
            self.assertEqual(record["solver"], "exact-bscc")
            self.assertLessEqual(record["upper"] - record["lower"], 1e-15)

    def test_polling_steady_state_beyond_rationals_is_bounded(self):
        # polling N=5..8 (240 to 3072 states): N=5 and 6 within the exact
        # solver's budget or not, N=7 and 8 beyond its 1024 states; every
        # one certified (exactly or by the bias sweeps' bracket) around
        # index.json's exact value, with or without GMP, and not under
        # --unsound.
        text = named_properties(properties_file("ctmc/polling"))["s1"]
        larger = {"polling.5", "polling.6", "polling.7", "polling.8"}
        cases = [c for c in references("ctmc/polling", "s1") if c[0] in larger]
        self.assertEqual(len(cases), 4)
        solvers = set()
        for stem, _, reference in cases:
            record = check(model_file("ctmc/polling", stem), f'"s1": {text}')
            self.expect_reference(record, reference, f"{stem} s1")
            solvers.add(record["solver"])
        self.assertIn("cpu.gauss-seidel", solvers)  # the bias sweeps ran at least once
        stem, _, reference = [c for c in cases if c[0] == "polling.8"][0]
        for solver in ("cpu.jacobi", "cpu.gauss-seidel"):
            record = check(model_file("ctmc/polling", stem), f'"s1": {text}', extra=("--solver", solver))
            self.expect_reference(record, reference, f"{stem} s1 --solver {solver}")
        unsound = check(model_file("ctmc/polling", stem), f'"s1": {text}', extra=("--unsound",))
        self.assertFalse(unsound["sound"])
        self.assertLessEqual(abs(unsound["value"] - float(reference)), 1e-5 * float(reference))

    def test_resource_gathering_minimal_expected_steps(self):
        # Tmin=? [ F "success" ] up to 90334 states (the 958894-state
        # instance is left out for time).
        records = list(self.check_benchmark("mdp/resource-gathering", "expsteps",
                                            lambda _, c: c["GOLD_TO_COLLECT"] <= 30))
        self.assertEqual(len(records), 3)

    def test_bluetooth_property_on_a_small_model(self):
        # Bluetooth's smallest instance has 3.4 billion states. Its property,
        # filter(max, R=? [ F rec=mrec ], "init"), is checked as written on a
        # model of the same names: rec counts to mrec, each step succeeding
        # with probability 1/2 (2 steps each), from rec=0 or rec=1: the
        # maximum over the initial states is 2*mrec.
        text = named_properties(properties_file("dtmc/bluetooth"))["time"]
        self.assertEqual(text, 'filter(max, R=? [ F rec=mrec ], "init")')
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "counter.pm")
            with open(source, "w") as f:
                f.write("dtmc\nconst int mrec;\nmodule counter\n  rec : [0..3];\n"
                        "  [] rec<mrec -> 0.5 : (rec'=rec+1) + 0.5 : true;\n  [] rec>=mrec -> true;\nendmodule\n"
                        "init rec<=1 endinit\nrewards true : 1; endrewards\n")
            for mrec in (1, 2, 3):
                record = check(source, text, {"mrec": mrec})
                self.expect_reference(record, Fraction(2 * mrec), f"counter mrec={mrec}: {text}")
                self.assertEqual(record["filter"]["state_count"], 2)


def exit_with_status(result):
    if not result.wasSuccessful():
        sys.exit(1)
    if any(reason == MISSING for _, reason in result.skipped):
        print(f"SKIP: {MISSING}")
        sys.exit(77)
    sys.exit(0)


if __name__ == "__main__":
    PMC = sys.argv.pop(1)
    exit_with_status(unittest.main(verbosity=2, exit=False).result)
