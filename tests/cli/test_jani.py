#!/usr/bin/env python3
"""JANI models through the real `pmc` (formats/jani; the models are the
hand-written ones of tests/data/jani): `pmc check` checks every property of
the file, named, or those --property names, or PRISM text given instead;
JSON records carry the names; a property pmc cannot translate fails alone
(exit 1, the others printed); `pmc info` and `pmc convert` build the model;
an open constant's message says how to set it.

Usage: test_jani.py PATH/TO/pmc   (meson passes it; PMC_SOURCE_ROOT locates tests/data/jani)

Values by hand (the models' comments): consensus with K=2 has 272 states;
disagree 13/120, steps_min 48; the die's six 1/6; the relay 11 states, 14
choices, 17 transitions and 3 initial states.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from cli_support import exit_with_status, source_root

PMC = None
DATA = os.path.join(source_root(), "tests", "data", "jani")
CONSENSUS = os.path.join(DATA, "consensus.jani")
DIE = os.path.join(DATA, "die.jani")
RELAY = os.path.join(DATA, "relay.jani")
# x counts to 2 by fair coins; T, open, is read only by the property.
BOUND_JANI = """{"jani-version": 1, "name": "m", "type": "dtmc", "constants": [{"name": "T", "type": "int"}],
  "variables": [{"name": "done", "type": "bool", "transient": true, "initial-value": false}],
  "automata": [{"name": "main",
    "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2},
                   "initial-value": 0}],
    "locations": [{"name": "l", "transient-values": [{"ref": "done", "value": {"op": "=", "left": "x", "right": 2}}]}],
    "initial-locations": ["l"],
    "edges": [
      {"location": "l", "guard": {"exp": {"op": "<", "left": "x", "right": 2}},
       "destinations": [{"location": "l", "probability": {"exp": 0.5},
                         "assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}]},
                        {"location": "l", "probability": {"exp": 0.5}}]},
      {"location": "l", "guard": {"exp": {"op": "=", "left": "x", "right": 2}}, "destinations": [{"location": "l"}]}]}],
  "system": {"elements": [{"automaton": "main"}]},
  "properties": [{"name": "soon", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
    "values": {"op": "Pmin", "exp": {"op": "F", "exp": "done", "step-bounds": {"upper": "T"}}}}}]}"""
CONSENSUS_NAMES = ["disagree", "all_ones", "steps_max", "steps_min", "finished_within_T", "terminates"]


def pmc(*args, status=0):
    run = subprocess.run([PMC, *args], capture_output=True, text=True, timeout=120)
    if status is not None and run.returncode != status:
        raise AssertionError(f"pmc {' '.join(args)}: exit {run.returncode}, expected {status}: {run.stderr}")
    return run


def records(run):
    return [json.loads(line) for line in run.stdout.splitlines()]


class Check(unittest.TestCase):
    def test_every_property_of_the_file_named(self):
        out = pmc("check", "--model", CONSENSUS, "--const", "K=2").stdout
        results = [line for line in out.splitlines() if not line.startswith("  ")]
        self.assertEqual([line.split(":")[0] for line in results], [f'"{n}"' for n in CONSENSUS_NAMES])
        self.assertIn('"disagree": Pmax=? [ F "finished" & !"agree" ]: 0.10833', out)
        self.assertIn('"steps_min": R{"steps"}min=? [ F "finished" ]: 48.0000', out)
        self.assertIn('"terminates": filter(forall, Pmin>=1 [ F "finished" ], "init"): true', out)

    def test_property_selects_by_name(self):
        out = pmc("check", "--model", CONSENSUS, "--const", "K=2", "--property", "steps_min").stdout
        self.assertTrue(out.startswith('"steps_min": R{"steps"}min=? [ F "finished" ]: 48.0000'), out)
        self.assertNotIn("disagree", out)
        # Two names, in the order given.
        rs = records(pmc("check", "--model", CONSENSUS, "--const", "K=2", "--property", "steps_max", "disagree",
                         "--json"))
        self.assertEqual([r["name"] for r in rs], ["steps_max", "disagree"])

    def test_an_unknown_name_lists_the_names(self):
        run = pmc("check", "--model", CONSENSUS, "--const", "K=2", "--property", "nosuch", status=2)
        self.assertEqual(run.stdout, "")
        listed = ", ".join(f'"{n}"' for n in CONSENSUS_NAMES)
        self.assertIn(f'has no property named "nosuch" (its properties: {listed})', run.stderr)

    def test_prism_text_instead_of_the_files_properties(self):
        out = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]').stdout
        self.assertTrue(out.startswith('P=? [ F "six" ]: 0.16666'), out)
        self.assertNotIn("flips", out)

    def test_json_records_carry_the_names(self):
        rs = records(pmc("check", "--model", CONSENSUS, "--const", "K=2", "--json"))
        self.assertEqual([r["name"] for r in rs], CONSENSUS_NAMES)
        by_name = {r["name"]: r for r in rs}
        self.assertAlmostEqual(by_name["disagree"]["value"], 13 / 120, delta=1e-6)
        self.assertLessEqual(by_name["steps_min"]["lower"], 48)
        self.assertGreaterEqual(by_name["steps_min"]["upper"], 48)
        self.assertEqual(by_name["disagree"]["states"], 272)

    def test_an_untranslatable_property_fails_alone(self):
        # The die with a property bounding a reward on both sides (pmc's reward bounds have one) between its two.
        with open(DIE, encoding="utf-8") as f:
            model = json.load(f)
        model["properties"].insert(1, {"name": "bounded", "expression": {
            "op": "filter", "fun": "values", "states": {"op": "initial"},
            "values": {"op": "Pmax", "exp": {"op": "F", "exp": "six", "reward-bounds": [
                {"exp": "coin_flips", "accumulate": ["steps"], "bounds": {"lower": 1, "upper": 3}}]}}}})
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "die.jani")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(model, f, ensure_ascii=False)
            run = pmc("check", "--model", path, status=1)
            self.assertIn('"six": P=? [ true U "six" ]: 0.16666', run.stdout)
            self.assertIn('"flips": R{"coin_flips"}=? [ F "done" ]: 3.66666', run.stdout)
            self.assertIn(f'pmc check: error: "bounded": {path}: properties[1] "bounded": a reward bound must have '
                          "one side, a lower or an upper bound", run.stderr)
            rs = records(pmc("check", "--model", path, "--json", status=1))
            self.assertEqual([r["name"] for r in rs], ["six", "bounded", "flips"])
            self.assertEqual(rs[1]["error_code"], "unsupported")
            self.assertNotIn("error", rs[0])

    def test_a_missing_constant_says_how_to_set_it(self):
        run = pmc("check", "--model", CONSENSUS, status=1)
        self.assertEqual(run.stdout, "")
        self.assertIn(f"pmc check: error: {CONSENSUS}: undefined constant K (int): set it with --const K=...",
                      run.stderr)
        run = pmc("info", "--model", CONSENSUS, status=1)
        self.assertIn("undefined constant K (int): set it with --const K=...", run.stderr)

    def test_a_constant_only_the_properties_read_is_theirs(self):
        # QVBS majority's T: `pmc info` builds without it, `pmc check` asks
        # for it by the property, and with it answers (two fair successes
        # within 3 steps: 1/2).
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bound.jani")
            with open(path, "w") as out:
                out.write(BOUND_JANI)
            self.assertIn("states:      3", pmc("info", "--model", path).stdout)
            run = pmc("check", "--model", path, status=1)
            self.assertIn("constant 'T' (int, " + path + ") has no value: give it with --const T=...", run.stderr)
            r = records(pmc("check", "--model", path, "--const", "T=3", "--json"))
            self.assertEqual(len(r), 1)
            self.assertEqual(r[0]["name"], "soon")
            self.assertAlmostEqual(r[0]["value"], 0.5, places=9)

    def test_help_mentions_jani(self):
        out = pmc("check", "--help").stdout
        self.assertIn("a JANI model (.jani, whose properties pmc check checks unless --property is given)", out)
        format_help = [line for line in out.splitlines() if line.startswith("  --format F")]
        self.assertEqual(len(format_help), 1, out)
        self.assertIn("prism-language, jani", format_help[0])


class InfoAndConvert(unittest.TestCase):
    def test_info(self):
        out = pmc("info", "--model", RELAY).stdout
        for line in ["type:        mdp", "states:      11", "transitions: 17", "choices:     14", "initial:     3",
                     '"done" (3 states)', '"cost" state transition']:
            self.assertIn(line, out)
        r = json.loads(pmc("info", "--model", CONSENSUS, "--const", "K=2", "--json").stdout)
        self.assertEqual((r["states"], r["transitions"]), (272, 492))

    def test_convert(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "relay.tra")
            run = pmc("convert", RELAY, out)
            self.assertIn("(11 states, 17 transitions)", run.stdout + run.stderr)
            with open(out) as f:
                tra = f.read()
            self.assertTrue(tra.startswith("# Transitions (MDP)\n11 14 17\n"), tra)
            self.assertEqual(tra.count(" transfer\n"), 6)  # 3 choices, 2 branches each
            self.assertEqual(tra.count(" drop\n"), 3)
            with open(os.path.join(tmp, "relay.sta")) as f:
                self.assertEqual(f.read().split("\n")[1], "(x,location,receiver_x)")
            # The renamed local is a PRISM name: the files read back, and a property names it.
            back = pmc("info", "--model", out)
            self.assertIn("states:      11", back.stdout)
            named = records(pmc("check", "--model", RELAY, "--property", "filter(count, receiver_x=1)", "--json"))
            self.assertNotIn("error", named[0])
            # A converted model checks as the JANI model does.
            out = os.path.join(tmp, "consensus.tra")
            pmc("convert", CONSENSUS, out, "--const", "K=2")
            a = records(pmc("check", "--model", out, "--property", 'Pmax=? [ F "finished" & !"agree" ]', "--json"))
            b = records(pmc("check", "--model", CONSENSUS, "--const", "K=2", "--property", "disagree", "--json"))
            self.assertEqual(a[0]["value"], b[0]["value"])
            self.assertEqual((a[0]["states"], a[0]["transitions"]), (272, 492))

    def test_a_model_pmc_refuses_still_gives_a_record_per_property(self):
        # A real-valued state variable is refused; --json still gives each property its record.
        with open(DIE, encoding="utf-8") as f:
            model = json.load(f)
        model["automata"][0]["variables"].append({"name": "v", "type": "real", "initial-value": 0})
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "die.jani")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(model, f, ensure_ascii=False)
            rs = records(pmc("check", "--model", path, "--json", status=1))
            self.assertEqual([r["name"] for r in rs], ["six", "flips"])
            for r in rs:
                self.assertEqual(r["error_code"], "unsupported")
                self.assertIn('automata[0] "knuth_yao": real-valued state variables are not supported', r["error"])


if __name__ == "__main__":
    PMC = sys.argv.pop(1)
    exit_with_status(unittest.main(verbosity=2, exit=False).result)
