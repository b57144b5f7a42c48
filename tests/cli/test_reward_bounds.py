#!/usr/bin/env python3
"""`pmc check` with reward bounds (F^{rew{"r"}<=b} φ, F{"r"}<b φ, >=, >;
docs/design.md §3): the coupon collector of examples/coupon against its
closed form and the QVBS reference, QVBS's firewire (Pmin, <=deadline) and
eajs (Pmax, >=B) instances against their index.json references, which must
lie inside the certified bounds, and the errors for input the algorithm does
not take.

Usage: test_reward_bounds.py PATH/TO/pmc   (meson passes it; PMC_SOURCE_ROOT
locates examples/, PMC_QVBS or the models folder's sibling `qvbs` the QVBS)
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction

from cli_support import exit_with_status, have_qvbs, qvbs_dir, source_root

PMC = None
ROOT = source_root()
COUPON = os.path.join(ROOT, "examples", "coupon", "coupon.pm")
COUPON_PROPS = os.path.join(ROOT, "examples", "coupon", "coupon.props")
QVBS = qvbs_dir()
HAVE_QVBS = have_qvbs()


def pmc(*args, check=True):
    run = subprocess.run([PMC, *args], capture_output=True, text=True, timeout=300)
    if check and run.returncode != 0:
        raise AssertionError(f"pmc {' '.join(args)} failed ({run.returncode}): {run.stderr}")
    return run


def records(run):
    return [json.loads(line) for line in run.stdout.splitlines()]


def all_collected_within(rounds, kinds=5, per_round=2):
    """P(every one of `kinds` coupons among rounds·per_round uniform draws),
    by inclusion and exclusion over the kinds missed."""
    draws = rounds * per_round
    return float(sum((-1) ** j * math.comb(kinds, j) * Fraction(kinds - j, kinds) ** draws for j in range(kinds + 1)))


def qvbs_reference(kind, name, model_file, values):
    """(directory, [model file, properties file], --const text, {property:
    exact reference}) of the QVBS instance of `model_file` whose open
    parameters are `values` (index.json's entry)."""
    directory = os.path.join(QVBS, "benchmarks", kind, name)
    with open(os.path.join(directory, "index.json")) as f:
        index = json.load(f)
    for entry in index["files"]:
        if model_file not in (entry["file"], entry.get("original-file", [None])[0]):
            continue
        for open_values in entry.get("open-parameter-values", []):
            given = {p["name"]: p["value"] for p in open_values["values"]}
            if given == values:
                constants = ",".join(f"{k}={v}" for k, v in given.items())
                results = {r["property"]: exact(r["value"]) for r in open_values.get("results", [])}
                return directory, entry.get("original-file", []), constants, results
    raise AssertionError(f"no QVBS instance {kind}/{name} {model_file} {values}")


def exact(value):
    if isinstance(value, dict):
        return value["num"] / value["den"] if "num" in value else float(value["approx"])
    return float(value)


class Checks(unittest.TestCase):
    def assert_certified(self, record, reference, what):
        """The value is within 1e-6 (relative) of `reference`, which lies
        inside the certified bounds (up to the rounding of the last bit)."""
        self.assertNotIn("error", record, what)
        value = record["value"]
        self.assertLessEqual(abs(value - reference), 1e-6 * max(abs(reference), 1e-9), (what, value, reference))
        self.assertIn("lower", record, what)
        slack = 1e-12 * max(abs(reference), 1)
        self.assertLessEqual(record["lower"] - slack, reference, (what, record["lower"], reference))
        self.assertGreaterEqual(record["upper"] + slack, reference, (what, record["upper"], reference))


class Coupon(Checks):
    def test_every_property_of_the_example(self):
        run = pmc("check", "--model", COUPON, "--property-file", COUPON_PROPS, "--const", "B=5", "--json")
        results = {r["name"]: r for r in records(run)}
        within = all_collected_within(5)
        self.assert_certified(results["collect_all"], 1.0, "collect_all")
        self.assert_certified(results["exp_draws"], 751 / 126, "exp_draws")
        self.assert_certified(results["collect_all_bounded"], within, "collect_all_bounded")
        self.assert_certified(results["collect_all_bounded_states"], within, "collect_all_bounded_states")
        self.assert_certified(results["more_than_B_rounds"], 1 - within, "more_than_B_rounds")
        self.assertEqual(results["collect_all_bounded"]["property"],
                         'P=? [ F^{rew{"numberDraws"}<=B} "_ret0_" ]')
        self.assertEqual(results["collect_all_bounded_states"]["property"],
                         'P=? [ F{"roundsByState"}<=B "_ret0_" ]')
        self.assertEqual(results["collect_all_bounded"]["constants"], {"B": 5})

    def test_a_range_of_the_bound(self):
        run = pmc("check", "--model", COUPON, "--property-file", COUPON_PROPS, "--const", "B=0:1:8", "--json",
                  "--property", "collect_all_bounded", "--property", "more_than_B_rounds")
        results = records(run)
        self.assertEqual(len(results), 18)
        for r in results:
            b = r["constants"]["B"]
            within = all_collected_within(b)
            expected = within if r["name"] == "collect_all_bounded" else 1 - within
            self.assert_certified(r, expected, f"{r['name']} B={b}")

    def test_strict_bounds_and_text_output(self):
        run = pmc("check", "--model", COUPON, "--property", 'P=? [ F{"numberDraws"}<4 "_ret0_" ]', "--property",
                  'P=? [ F^{rew{"numberDraws"}>=4} "_ret0_" ]', "--property", 'P>0.3 [ F{"numberDraws"}<=4 "_ret0_" ]')
        lines = run.stdout.splitlines()
        self.assertTrue(lines[0].startswith('P=? [ F{"numberDraws"}<4 "_ret0_" ]: 0.1152'), lines[0])
        self.assertTrue(lines[3].startswith('P=? [ F^{rew{"numberDraws"}>=4} "_ret0_" ]: 0.8848'), lines[3])
        self.assertIn("reward bound: ", run.stdout)
        self.assertIn('P>0.3 [ F{"numberDraws"}<=4 "_ret0_" ]: true', run.stdout)

    @unittest.skipUnless(HAVE_QVBS, "QVBS not found; set PMC_QVBS")
    def test_the_qvbs_reference(self):
        # QVBS's coupon is a probabilistic program; examples/coupon is the
        # same chain for 5 coupons drawn 2 at a time, with its properties.
        _, _, constants, references = qvbs_reference("dtmc", "coupon", "coupon.5-2.jani", {"B": 5})
        run = pmc("check", "--model", COUPON, "--property-file", COUPON_PROPS, "--const", constants, "--json")
        results = {r["name"]: r for r in records(run)}
        self.assertEqual(sorted(references), ["collect_all", "collect_all_bounded", "exp_draws"])
        for prop, reference in references.items():
            self.assert_certified(results[prop], reference, f"coupon {prop}")


@unittest.skipUnless(HAVE_QVBS, "QVBS not found; set PMC_QVBS")
class QvbsMdps(Checks):
    """The reward-bounded properties of QVBS's MDPs, from their own
    properties files with their index.json constants."""

    INSTANCES = [
        ("firewire", "firewire.false.prism", {"delay": 3, "deadline": 200}, "deadline"),
        ("firewire", "firewire.false.prism", {"delay": 3, "deadline": 400}, "deadline"),
        ("firewire", "firewire.false.prism", {"delay": 3, "deadline": 800}, "deadline"),
        ("eajs", "eajs.2.prism", {"energy_capacity": 100, "B": 5}, "ProbUtil"),
    ]

    def test_instances_match_their_references(self):
        for name, model_file, values, prop in self.INSTANCES:
            directory, files, constants, references = qvbs_reference("mdp", name, model_file, values)
            run = pmc("check", "--model", os.path.join(directory, files[0]), "--property-file",
                      os.path.join(directory, files[1]), "--const", constants, "--property", prop, "--json")
            [record] = records(run)
            self.assertTrue(record["sound"], (name, values))
            self.assert_certified(record, references[prop], f"{name} {values} {prop}")
            self.assertTrue(any(n.startswith("reward bound: ") for n in record["notes"]), record["notes"])


class Errors(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def error(self, model, prop, *args):
        run = pmc("check", "--model", model, "--property", prop, *args, "--json", check=False)
        self.assertEqual(run.returncode, 1, run.stderr)
        [record] = records(run)
        return record["error_code"], record["error"].splitlines()[0]

    def test_input_the_algorithm_does_not_take(self):
        half = self.write("half.pm", "dtmc\nmodule m\n  s : [0..2] init 0;\n  [a] s<2 -> (s'=s+1);\n"
                                     "  [] s=2 -> true;\nendmodule\nlabel \"end\" = s=2;\n"
                                     "rewards \"r\"\n  [a] true : 0.5;\nendrewards\n")
        self.assertEqual(self.error(half, 'P=? [ F{"r"}<=3 "end" ]'),
                         ("unsupported", 'column 8: reward bound over "r": the reward of the transition from state 0 '
                                         'to state 1 is 0.5; epoch unfolding needs non-negative integer rewards'))
        self.assertEqual(self.error(COUPON, 'P=? [ F{"time"}<=3 "_ret0_" ]'),
                         ("property", 'column 8: unknown reward structure "time" (the model has "numberDraws", '
                                      '"roundsByState")'))
        ctmc = self.write("decay.sm", "ctmc\nmodule m\n  s : [0..1] init 0;\n  [] s=0 -> 2 : (s'=1);\nendmodule\n"
                                      "label \"done\" = s=1;\nrewards \"r\"\n  s=0 : 1;\nendrewards\n")
        self.assertEqual(self.error(ctmc, 'P=? [ F^{rew{"r"}<=3} "done" ]'),
                         ("unsupported", 'column 8: reward bounds (^{rew{"r"}<=3}) on a CTMC are not supported; pmc '
                                         'checks them on DTMCs and MDPs'))
        self.assertEqual(self.error(COUPON, 'P=? [ F^{rew{"numberDraws"}<=2, rew{"roundsByState"}<=3} "_ret0_" ]'),
                         ("unsupported", "column 33: a second bound on one path formula (multi-dimensional bounds, "
                                         'as in F^{rew{"a"}<=5, rew{"b"}<=3} a) is not supported'))
        run = pmc("check", "--model", COUPON, "--property-file", COUPON_PROPS, "--const", "B=-1", "--property",
                  "collect_all_bounded", "--json", check=False)
        self.assertEqual(run.returncode, 1)
        [record] = records(run)
        self.assertEqual(record["error"], "column 30: reward bound B = -1 must be a non-negative number")

    def test_garbage_gets_a_column_and_no_crash(self):
        mismatches = []
        for prop, message in [
            ('P=? [ F^{rew{"numberDraws"}<=} "_ret0_" ]', "column 30: expected a non-negative reward bound but found '}'"),
            ('P=? [ F{ "_ret0_" ]', "column 19: expected '}' but found ']'"),
            ('P=? [ F^{rew{"numberDraws"', "column 27: expected '}' but found end of input"),
            ('P=? [ F^^ "_ret0_" ]', "column 9: expected '{' after '^'"),
            ('P=? [ F{"numberDraws"}<=3 ]', "column 27: expected a state formula but found ']'"),
            ('P=? [ F{"numberDraws"}<=-3 "_ret0_" ]', "column 25: expected a non-negative reward bound but found '-'"),
            ('P=? [ F^{rew{""}<=3} "_ret0_" ]', 'column 14: empty name ""'),
        ]:
            code, first = self.error(COUPON, prop)
            if code != "property" or not first.startswith(message):
                mismatches.append((prop, code, first))
        self.assertEqual(mismatches, [])


def main():
    global PMC
    PMC = sys.argv.pop(1)
    result = unittest.main(verbosity=2, exit=False).result
    skipped = [reason for _, reason in result.skipped if "QVBS not found" in reason]
    if result.wasSuccessful() and skipped:
        print(f"SKIP: {len(skipped)} test(s) need the QVBS (the team's data folder): {skipped[0]}")
        sys.exit(77)
    exit_with_status(result)


if __name__ == "__main__":
    main()
