#!/usr/bin/env python3
"""`pmc check --export-results FILE [--export-format tsv|csv|qvbs]`: the QVBS
results file (its fields as QVBS's own results files have them, its values
those pmc prints), the comma-separated table, and the errors for a format
pmc does not write.

Usage: test_results_export.py PATH/TO/pmc   (meson passes it; PMC_SOURCE_ROOT locates examples/)
"""
import csv
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction

from cli_support import exit_with_status, read_line_within, write_walk

PMC = None
ROOT = os.environ.get("PMC_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
DIE = os.path.join(ROOT, "examples", "die", "die.tra")
CONSENSUS = os.path.join(ROOT, "examples", "consensus", "consensus.nm")
CONSENSUS_PROPS = os.path.join(ROOT, "examples", "consensus", "consensus.props")
# QVBS's exact results for consensus N=2, K=2 (its index.json: Storm/exact),
# under the names of examples/consensus/consensus.props.
CONSENSUS_REFERENCES = {"disagree": Fraction(13, 120), "all_ones": Fraction(49, 128), "steps_max": Fraction(75),
                        "steps_min": Fraction(48)}
CONSENSUS_STATES = 272  # PRISM's count for K=2


def pmc(*args, check=True):
    run = subprocess.run([PMC, *args], capture_output=True, text=True, timeout=120)
    if check and run.returncode != 0:
        raise AssertionError(f"pmc {' '.join(args)} failed ({run.returncode}): {run.stderr}")
    return run


def printed_values(text):
    """{name or property: (value, half-width)} from `pmc check`'s text output."""
    values = {}
    for line in text.splitlines():
        m = re.match(r'^(?:"(?P<name>[^"]+)": )?(?P<prop>.+?): (?P<value>true|false|[-+0-9.e]+|inf)'
                     r'(?: ± (?P<width>[0-9.e+-]+))?', line)
        if m and not line.startswith(" "):
            value = m["value"]
            parsed = value == "true" if value in ("true", "false") else float(value)
            values[m["name"] or m["prop"]] = (parsed, float(m["width"] or 0))
    return values


def named_values(entry):
    return {v["name"]: v for v in entry["values"]}


class QvbsResultsFile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "pmc.2-2.json")
        cls.args = ["check", "--model", CONSENSUS, "--const", "K=2", "--property-file", CONSENSUS_PROPS,
                    "--property", '"verdict": P>=1 [ F "finished" ]', "--property", 'P=? [ F "no-such-label" ]']
        cls.outcome = pmc(*cls.args, "--export-results", cls.path, "--export-format", "qvbs", check=False)
        with open(cls.path, encoding="utf-8") as f:
            cls.file = json.load(f)
        cls.records = [json.loads(line) for line in pmc(*cls.args, "--json", check=False).stdout.splitlines()]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_has_the_fields_of_qvbs_results_files(self):
        f = self.file
        for key in ("file", "date", "open-parameter-values", "tool", "system", "command", "time", "memory",
                    "property-times", "data"):
            self.assertIn(key, f)
        self.assertEqual(f["file"], CONSENSUS)
        self.assertRegex(f["date"], r"^\d{4}-\d{2}-\d{2}$")
        self.assertEqual(f["open-parameter-values"], [{"name": "K", "value": 2}])
        self.assertEqual(f["tool"]["name"], "pmc")
        self.assertEqual(f"pmc {f['tool']['version']}", pmc("version").stdout.strip())
        for key in ("cpu", "os", "runtime"):
            self.assertTrue(f["system"][key], key)
            self.assertNotIn("(R)", f["system"]["cpu"])
            self.assertNotIn("GHz", f["system"]["cpu"])
        self.assertIsInstance(f["system"]["ram"], int)
        self.assertGreater(f["system"]["ram"], 0)
        self.assertIsInstance(f["memory"], int)
        self.assertGreater(f["memory"], 1 << 20)  # bytes, a process's peak resident memory
        self.assertTrue(f["command"].startswith("pmc check --model "))
        self.assertIn("--export-format qvbs", f["command"])
        self.assertIn("'\"verdict\": P>=1 [ F \"finished\" ]'", f["command"])  # shell-quoted
        # Seconds with millisecond precision; the whole run takes at least its parts.
        parts = sum(p["time"] for p in f["property-times"])
        self.assertGreaterEqual(f["time"] + 0.002 * len(f["property-times"]), parts)
        for p in f["property-times"]:
            self.assertEqual(p["time"], round(p["time"], 3))

    def test_state_space_group(self):
        group = self.file["data"][0]
        self.assertEqual(group["group"], "State space exploration")
        values = named_values(group)
        self.assertEqual(values["states"]["value"], CONSENSUS_STATES)
        info = json.loads(pmc("info", "--model", CONSENSUS, "--const", "K=2", "--json").stdout)
        self.assertEqual(values["states"]["value"], info["states"])
        self.assertEqual(values["transitions"]["value"], info["transitions"])
        self.assertEqual(values["choices"]["value"], info["choices"])  # an MDP
        self.assertEqual(values["time"]["unit"], "s")

    def test_values_are_the_printed_ones_and_the_references(self):
        by_property = {d["property"]: d for d in self.file["data"][1:]}
        # Named properties by name, the unnamed one by its text.
        self.assertEqual(sorted(by_property), sorted(["disagree", "all_ones", "steps_max", "steps_min",
                                                      'Pmax=? [ F<=T "finished" ]', "verdict"]))
        # The file's constant T = 20 the last one uses, with its value; the others use none.
        self.assertEqual(by_property['Pmax=? [ F<=T "finished" ]']["parameter-values"], [{"name": "T", "value": 20}])
        self.assertNotIn("parameter-values", by_property["disagree"])
        self.assertEqual([p["name"] for p in self.file["property-times"]], list(by_property))
        for name, exact in CONSENSUS_REFERENCES.items():
            entry = by_property[name]
            lower, upper = (float(x) for x in named_values(entry)["bounds"]["value"].strip("[]").split(","))
            self.assertLessEqual(Fraction(lower), exact, name)
            self.assertLessEqual(exact, Fraction(upper), name)
            self.assertAlmostEqual(entry["value"], float(exact), delta=1e-6 * float(exact), msg=name)
        # As `--json` and the text output give them.
        records = {r.get("name", r["property"]): r for r in self.records if "value" in r}
        printed = printed_values(pmc(*self.args, check=False).stdout)
        for name, entry in by_property.items():
            record = records[name]
            if name == "verdict":
                self.assertIs(entry["value"], True)
                self.assertIs(record["satisfied"], True)
                self.assertEqual(named_values(entry)["value"]["value"], record["value"])  # the operator's value
                self.assertIs(printed[name][0], True)
                continue
            self.assertEqual(entry["value"], record["value"], name)
            value, half_width = printed[name]
            self.assertAlmostEqual(entry["value"], value, delta=half_width + 1e-12, msg=name)

    def test_a_failed_property_is_listed_and_the_others_kept(self):
        self.assertEqual(self.outcome.returncode, 1)  # the unknown label
        errors = self.file["errors"]
        self.assertEqual(len(errors), 1)
        self.assertEqual(errors[0]["property"], 'P=? [ F "no-such-label" ]')
        self.assertIn("no-such-label", errors[0]["error"])
        self.assertEqual(len(self.file["data"]), 1 + 6)


class Cancelled(unittest.TestCase):
    def test_a_cancelled_check_leaves_a_valid_file_with_its_results(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            quick, long = 'P=? [ F<=10 "goal" ]', 'P=? [ F "goal" ]'
            # At epsilon 1e-15 the unbounded walk takes millions of sweeps.
            run = subprocess.Popen([PMC, "check", "--model", write_walk(tmp), "--epsilon", "1e-15",
                                    "--max-iterations", "100000000000", "--export-results", out,
                                    "--property", quick, long], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
            first = read_line_within(run.stdout, 30)
            self.assertTrue(first, "the first result did not come before the second property ended")
            run.send_signal(signal.SIGTERM)
            try:
                run.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                run.kill()
                self.fail("pmc check did not end after SIGTERM")
            self.assertEqual(run.returncode, 128 + signal.SIGTERM)
            with open(out, encoding="utf-8") as f:
                file = json.load(f)
            self.assertEqual([d.get("property") for d in file["data"][1:]], [quick])
            self.assertEqual(file["data"][0]["values"][1], {"name": "states", "value": 20001})


class Formats(unittest.TestCase):
    def test_json_extension_means_qvbs_and_csv_extension_csv(self):
        with tempfile.TemporaryDirectory() as tmp:
            out_json, out_csv = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.csv")
            pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--export-results", out_json)
            with open(out_json, encoding="utf-8") as f:
                entry = json.load(f)["data"][1]
            self.assertEqual(entry["property"], 'P=? [ F "six" ]')
            self.assertAlmostEqual(entry["value"], 1 / 6, delta=1e-6)
            # The property's quotes and a name with a comma, read back by a CSV reader.
            pmc("check", "--model", DIE, "--property", '"one, six": P=? [ F "six" ]', "--export-results", out_csv)
            with open(out_csv, newline="") as f:
                rows = list(csv.reader(f))
            self.assertEqual(rows[0][:3], ["property", "name", "value"])
            self.assertEqual(rows[1][:2], ['P=? [ F "six" ]', "one, six"])
            self.assertAlmostEqual(float(rows[1][2]), 1 / 6, delta=1e-6)
            self.assertEqual(len(rows[1]), 11)
            self.assertEqual(rows[0][-2:], ["error", "constants"])
            # --export-format wins over the extension.
            pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--export-results", out_csv,
                "--export-format", "tsv")
            with open(out_csv) as f:
                self.assertEqual(f.readline().split("\t")[:2], ["property", "name"])

    def test_a_format_pmc_does_not_write_is_named_with_the_formats(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.out")
            for bad in ("xml", "QVBS", "", "qvbs,csv"):
                run = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--export-results", out,
                          f"--export-format={bad}", check=False)
                self.assertEqual(run.returncode, 2, bad)
                self.assertIn("unknown results format", run.stderr, bad)
                self.assertIn("tsv, csv, qvbs", run.stderr, bad)
                self.assertFalse(os.path.exists(out), bad)  # refused before the model loads
            run = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--export-format", "qvbs",
                      check=False)
            self.assertEqual(run.returncode, 2)
            self.assertIn("--export-format needs --export-results FILE", run.stderr)
            # --format is the model's: the results' format given there is named.
            run = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--export-results", out,
                      "--format", "qvbs", check=False)
            self.assertEqual(run.returncode, 2)
            self.assertIn("the results' format is --export-format qvbs", run.stderr)

    def test_an_unwritable_qvbs_file_is_named(self):
        run = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--export-results",
                  "/nonexistent/dir/r.json", check=False)
        self.assertEqual(run.returncode, 1)
        self.assertIn("/nonexistent/dir/r.json: cannot open for writing", run.stderr)


if __name__ == "__main__":
    PMC = sys.argv.pop(1)
    exit_with_status(unittest.main(verbosity=2, exit=False).result)
