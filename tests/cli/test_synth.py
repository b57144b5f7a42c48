#!/usr/bin/env python3
"""End-to-end tests of `pmc synth` (docs/design.md §6): threshold and min/max
synthesis on the pCTMCs of $PMC_MODELS/pctmc (the reference models), --json,
--plot, and garbage input.
Usage: test_synth.py PATH/TO/pmc   (PMC_MODELS or PMC_DEFAULT_MODELS_DIR locate the models)
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from cli_support import exit_with_status
import xml.etree.ElementTree as ET

PMC = None
MODELS = os.environ.get("PMC_MODELS") or os.environ.get("PMC_DEFAULT_MODELS_DIR", "")
AM = os.path.join(MODELS, "pctmc", "am_10_4.drn")
SIR = os.path.join(MODELS, "pctmc", "sir_100.drn")
AM_PROPERTY = 'P=? [ F[10,10] "correct" ]'
SVG = "{http://www.w3.org/2000/svg}"


def pmc(*args, check=True):
    run = subprocess.run([PMC, *args], capture_output=True, text=True, timeout=120)
    if check and run.returncode != 0:
        raise AssertionError(f"pmc {' '.join(args)} failed ({run.returncode}): {run.stderr}")
    return run


def synth(*args, check=True):
    return pmc("synth", "--model", AM, "--property", AM_PROPERTY, *args, check=check)


@unittest.skipUnless(os.path.exists(AM), f"models not found ({AM}); set PMC_MODELS")
class Synth(unittest.TestCase):
    def test_threshold_json(self):
        j = json.loads(synth("--param", "k1=1:5", "k2=1:5", "--param", "k3=1:5", "--threshold", ">=0.9",
                             "--epsilon", "0.1", "--json").stdout)
        self.assertEqual(j["mode"], "threshold")
        self.assertEqual(j["threshold"], ">=0.9")
        self.assertLessEqual(j["undecided_fraction"], 0.1)
        self.assertEqual(j["num_regions"], len(j["regions"]))
        self.assertGreater(j["true_regions"], 0)
        self.assertGreater(j["false_regions"], 0)
        volume = 0
        for r in j["regions"]:
            self.assertIn(r["class"], ("true", "false", "undecided"))
            self.assertLessEqual(r["lower"], r["upper"])
            if r["class"] == "true":
                self.assertGreaterEqual(r["lower"], 0.9)
            if r["class"] == "false":
                self.assertLess(r["upper"], 0.9)
            v = 1
            for lo, hi in r["parameters"].values():
                v *= (hi - lo) / 4
            volume += v
        self.assertAlmostEqual(volume, 1.0, places=9)

    def test_bounded_property_needs_no_mode(self):
        out = pmc("synth", "--model", AM, "--property", 'P>=0.9 [ F[10,10] "correct" ]',
                  "--param", "k1=1:2", "k2=1:2", "k3=1:2").stdout
        self.assertIn("threshold synthesis", out)

    def test_max_text_and_json(self):
        out = synth("--param", "k1=1:3", "k2=1:3", "k3=1", "--max", "--epsilon", "0.05").stdout
        self.assertIn("maximum in [", out)
        j = json.loads(synth("--param", "k1=1:3", "k2=1:3", "k3=1", "--min", "--epsilon", "0.05", "--json").stdout)
        lo, hi = j["optimum"]
        self.assertLessEqual(lo, hi)
        self.assertLessEqual(hi - lo, 0.05 + 1e-12)
        self.assertGreater(j["optimum_regions"], 0)

    def test_sir_max_contains_reference(self):
        j = json.loads(pmc("synth", "--model", SIR, "--property", 'P=? [ "infected" U[100,120] "extinct" ]',
                           "--param", "ki=0.0123:0.02", "kr=0.0456:0.05", "--max", "--epsilon", "0.05",
                           "--json").stdout)
        self.assertGreaterEqual(j["optimum"][1], 0.3167506775667268 - 1e-7)  # PRISM at (0.0123, 0.0456)

    def test_plot_two_parameters_one_rect_per_region(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "regions.svg")
            j = json.loads(synth("--param", "k1=1:5", "k2=1:5", "k3=5", "--threshold", ">=0.9", "--epsilon", "0.05",
                                 "--json", "--plot", path).stdout)
            root = ET.parse(path).getroot()  # well-formed XML
            self.assertEqual(root.tag, SVG + "svg")
            rects = root.findall(f".//{SVG}rect")
            self.assertEqual(len(rects), j["num_regions"])
            self.assertGreater(len(rects), 1)

    def test_plot_one_and_three_parameters(self):
        with tempfile.TemporaryDirectory() as d:
            for name, params in (("one.svg", ["k1=1:5", "k2=1", "k3=1"]), ("three.svg", ["k1=1:5", "k2=1:5", "k3=1:5"])):
                path = os.path.join(d, name)
                synth("--param", *params, "--threshold", ">=0.99", "--epsilon", "0.2", "--plot", path)
                root = ET.parse(path).getroot()
                self.assertGreater(len(root.findall(f".//{SVG}rect")), 0)

    def test_garbage(self):
        cases = [
            (["--param", "k1", "k2=1:2", "k3=1:2", "--max"], "expected NAME=LO:HI"),
            (["--param", "k1=a:2", "k2=1:2", "k3=1:2", "--max"], "not a finite number"),
            (["--param", "k1=1:2:3", "k2=1:2", "k3=1:2", "--max"], "not a finite number"),
            (["--param", "=1:2", "k2=1:2", "k3=1:2", "--max"], "expected NAME=LO:HI"),
            (["--param", "kx=1:2", "k2=1:2", "k3=1:2", "--max"], "unknown parameter"),
            (["--param", "k1=2:1", "k2=1:2", "k3=1:2", "--max"], "lower bound 2 is above upper bound 1"),
            (["--param", "k1=1:2", "k2=1:2", "--max"], "no range for parameter k3"),
            (["--param", "k1=1:2", "k2=1:2", "k3=1:2"], "no synthesis mode"),
            (["--param", "k1=1:2", "k2=1:2", "k3=1:2", "--max", "--min"], "exclude each other"),
            (["--param", "k1=1:2", "k2=1:2", "k3=1:2", "--threshold", "0.9"], "bad threshold"),
            (["--param", "k1=1:2", "k2=1:2", "k3=1:2", "--max", "--epsilon", "-1"], "--epsilon"),
            (["--param", "k1=1:2", "k2=1:2", "k3=1:2", "--max", "--frobnicate"], "frobnicate"),
            (["--param", "k1=1:2", "k2=1:2", "k3=1:2", "--max", "--gpu-layout", "diagonal"],
             "gpu-layout: 'diagonal' is not auto"),
            (["--param", "k1=1:2", "k2=1:2", "k3=1:2", "--max", "--gpu-memory-limit", "-5"], "gpu-memory-limit"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                run = synth(*args, check=False)
                self.assertNotEqual(run.returncode, 0)
                self.assertEqual(run.stdout, "")
                self.assertIn(message, run.stderr)
        run = pmc("synth", "--model", AM, "--property", 'P=? [ F "correct" ]', "--param", "k1=1:2", "k2=1:2",
                  "k3=1:2", "--max", check=False)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("upper time bound", run.stderr)
        die = os.path.join(os.environ.get("PMC_SOURCE_ROOT", "."), "examples", "die", "die.tra")
        run = pmc("synth", "--model", die, "--property", 'P=? [ F<=1 "six" ]', "--param", "k=1:2", "--max",
                  check=False)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("parametric", run.stderr)


if __name__ == "__main__":
    PMC = sys.argv.pop(1)
    exit_with_status(unittest.main(verbosity=2, exit=False).result)
