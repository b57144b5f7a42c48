#!/usr/bin/env python3
"""`pmc check` with PRISM's filters and Storm's expected time T (docs/design.md §3):
what the text and JSON say, and the errors for bad input.

Usage: test_filters_time.py PATH/TO/pmc   (meson passes it; PMC_SOURCE_ROOT locates examples/)

Knuth's die (examples/die, with its .sta): P[F "six"] is 1/6 from s=0, 0 from
s=1, 1/3 from s=2 and 0 from s=3; a throw takes 11/3 coin flips (steps).
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from cli_support import exit_with_status

PMC = None
ROOT = os.environ.get("PMC_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
DIE = os.path.join(ROOT, "examples", "die", "die.tra")


def pmc(*args, check=True):
    run = subprocess.run([PMC, *args], capture_output=True, text=True, timeout=120)
    if check and run.returncode != 0:
        raise AssertionError(f"pmc {' '.join(args)} failed ({run.returncode}): {run.stderr}")
    return run


def record(prop, *extra):
    return json.loads(pmc("check", "--model", DIE, "--property", prop, "--json", *extra).stdout)


class Filters(unittest.TestCase):
    def test_max_with_bounds_from_the_states(self):
        prop = 'filter(max, P=? [ F "six" ], s<4)'
        out = pmc("check", "--model", DIE, "--property", prop).stdout
        self.assertIn(prop + ": 0.333333", out)
        self.assertIn("  filter: the maximum over the 4 states satisfying s<4; certified from the states' bounds: "
                      "the greatest lower bound and the greatest upper bound", out)
        r = record(prop)
        self.assertTrue(r["sound"])
        self.assertLessEqual(r["lower"], 1 / 3)
        self.assertGreaterEqual(r["upper"], 1 / 3)
        self.assertAlmostEqual(r["value"], 1 / 3, delta=1e-6)
        f = r["filter"]
        self.assertEqual((f["operator"], f["states"], f["state_count"]), ("max", "s<4", 4))
        self.assertEqual(f["bounds_rule"], "the greatest lower bound and the greatest upper bound")
        self.assertAlmostEqual(f["high"], 1 / 3, delta=1e-6)

    def test_sum_and_count(self):
        r = record('filter(sum, P=? [ F "six" ], s<4)')
        self.assertAlmostEqual(r["value"], 1 / 6 + 1 / 3, delta=1e-6)
        self.assertLessEqual(r["lower"], 0.5)
        self.assertGreaterEqual(r["upper"], 0.5)
        self.assertIn("sum of the lower bounds", r["filter"]["bounds_rule"])
        r = record('filter(count, "done")')
        self.assertEqual(r["value"], 6)
        self.assertEqual(r["filter"]["satisfied_count"], 6)

    def test_range_is_an_interval(self):
        prop = 'filter(range, P=? [ F "six" ], s<4)'
        out = pmc("check", "--model", DIE, "--property", prop).stdout
        self.assertIn(prop + ": [0 ± 0, 0.333333", out)
        r = record(prop)
        self.assertNotIn("value", r)
        self.assertEqual(r["filter"]["low"], 0)
        self.assertAlmostEqual(r["filter"]["high"], 1 / 3, delta=1e-6)
        self.assertLessEqual(r["filter"]["high_lower"], 1 / 3)
        self.assertGreaterEqual(r["filter"]["high_upper"], 1 / 3)
        with tempfile.TemporaryDirectory() as tmp:
            table = os.path.join(tmp, "results.tsv")
            pmc("check", "--model", DIE, "--property", prop, "--export-results", table)
            with open(table) as f:
                row = f.read().splitlines()[1].split("\t")
            self.assertTrue(row[2].startswith("[0,0.33333"), row)

    def test_forall_and_exists_are_truth_values(self):
        out = pmc("check", "--model", DIE, "--property", 'filter(forall, P>=0.1 [ F "six" ])').stdout
        self.assertIn('filter(forall, P>=0.1 [ F "six" ]): false', out)
        self.assertIn("  filter: it holds in 4 of all 13 states", out)
        r = record('filter(exists, P>=0.1 [ F "six" ], s>=1)')
        self.assertTrue(r["satisfied"])
        self.assertEqual(r["filter"]["satisfied_count"], 3)  # s=2, s=6 and (s=7,d=6)

    def test_argmax_and_print_list_states_with_their_variables(self):
        out = pmc("check", "--model", DIE, "--property", 'filter(argmax, P=? [ F "six" ], s<4)').stdout
        self.assertIn("  filter: 1 state of the 4 states satisfying s<4 may attain the maximum 0.333333", out)
        self.assertIn("    2 (s=2,d=0): 0.333333", out)
        out = pmc("check", "--model", DIE, "--property", 'filter(printall, P=? [ F "six" ], s<4)').stdout
        for line in ["    0 (s=0,d=0): 0.166666", "    1 (s=1,d=0): 0", "    3 (s=3,d=0): 0"]:
            self.assertIn(line, out)
        r = record('filter(print, P=? [ F "six" ], s<4)')
        self.assertEqual([e["state"] for e in r["filter"]["listed"]], [0, 2])
        self.assertEqual(r["filter"]["listed"][1]["variables"], "s=2,d=0")
        self.assertLessEqual(r["filter"]["listed"][1]["lower"], 1 / 3)
        self.assertGreaterEqual(r["filter"]["listed"][1]["upper"], 1 / 3)

    def test_the_shells_check(self):
        run = subprocess.run([PMC], input=f'load {DIE}\ncheck filter(min, R{{"coin_flips"}}=? [ F "done" ], s<7)\n',
                             capture_output=True, text=True, timeout=60)
        self.assertIn("filter: the minimum over the 7 states satisfying s<7", run.stdout)

    def test_bad_input(self):
        cases = [('filter(maxi, P=? [ F "six" ])', "column 8: unknown filter operator 'maxi': the operators are min, max"),
                 ("filter(max)", "column 11: expected ',' and the formula filter(max, ...) applies to"),
                 ('filter(max, P=? [ F "six" ], "seven")', 'column 30: unknown label "seven"'),
                 ('filter(sum, "six")', "filter(sum, ...) needs a number in each state"),
                 ('filter(forall, P=? [ F "six" ])', "filter(forall, ...) needs a truth value in each state"),
                 ('filter(state, P=? [ F "six" ], "done")', "exactly one state, but '\"done\"' holds in 6"),
                 ('T=? [ G "done" ]', "column 7: expected 'F' (T is the expected time"),
                 ('T=? [ F<=3 "done" ]', "T takes an unbounded 'F'")]
        for prop, message in cases:
            run = pmc("check", "--model", DIE, "--property", prop, check=False)
            self.assertEqual(run.returncode, 1, prop)
            self.assertIn(message, run.stderr, prop)
            r = json.loads(pmc("check", "--model", DIE, "--property", prop, "--json", check=False).stdout)
            self.assertEqual(r["error_code"], "property", prop)


class ExpectedTime(unittest.TestCase):
    def test_steps_of_a_dtmc(self):
        r = record('T=? [ F "done" ]')
        self.assertTrue(r["sound"])
        self.assertLessEqual(r["lower"], 11 / 3)
        self.assertGreaterEqual(r["upper"], 11 / 3)
        out = pmc("check", "--model", DIE, "--property", 'T<=4 [ F "done" ]').stdout
        self.assertIn('T<=4 [ F "done" ]: true (value 3.66666', out)

    def test_time_of_a_ctmc(self):
        # 0 →(2) 1, 0 →(1) 2, 1 →(4) 2: 1/3 in 0, then 1/4 in 1 w.p. 2/3: 1/2.
        with tempfile.TemporaryDirectory() as tmp:
            tra = os.path.join(tmp, "chain.tra")
            with open(tra, "w") as f:
                f.write("3 3\n0 1 2\n0 2 1\n1 2 4\n")
            with open(os.path.join(tmp, "chain.lab"), "w") as f:
                f.write('0="init" 1="done"\n0: 0\n2: 1\n')
            r = json.loads(pmc("check", "--model", tra, "--format", "prism-ctmc", "--property", 'T=? [ F "done" ]',
                               "--json").stdout)
            self.assertLessEqual(r["lower"], 0.5)
            self.assertGreaterEqual(r["upper"], 0.5)


if __name__ == "__main__":
    PMC = sys.argv.pop(1)
    exit_with_status(unittest.main(verbosity=2, exit=False).result)
