#!/usr/bin/env python3
"""`pmc check` with properties as users write them (docs/design.md §3):
--const for the model's and the properties file's constants alike, ranges
(T=1:1:10) of property constants, --property NAME / --property N, bounds
written as expressions, and QVBS instances run as their index.json says.

Usage: test_property_constants.py PATH/TO/pmc   (meson passes it; PMC_SOURCE_ROOT
locates examples/, PMC_QVBS or the models folder's sibling `qvbs` the QVBS)
"""
import csv
import json
import os
import sys
import tempfile
import unittest

from cli_support import exit_with_status, have_qvbs, qvbs_dir, source_root

PMC = None
ROOT = source_root()
DIE = os.path.join(ROOT, "examples", "die", "die.tra")
SIR = os.path.join(ROOT, "examples", "sir", "sir.sm")
QVBS = qvbs_dir()

# P(F<=k "done") of the die, from 0 steps on: a coin flip a step, done after 3.
DIE_DONE_WITHIN = {1: 0.0, 2: 0.0, 3: 0.75, 4: 0.75, 5: 0.9375}

DIE_PROPS = """// the die's properties, over constants
const int T;
const int T2 = T - 1;
const double p;
formula two_flips = s >= 3;
label "finished" = "done";
"reach": P=? [ F<=T "done" ];
"earlier": P=? [ F<=T2 "finished" ];
"bound": P>=p [ F<=T "done" ];
"six": P=? [ F "six" ]
"""


def pmc(*args, check=True):
    import subprocess
    run = subprocess.run([PMC, *args], capture_output=True, text=True, timeout=300)
    if check and run.returncode != 0:
        raise AssertionError(f"pmc {' '.join(args)} failed ({run.returncode}): {run.stderr}")
    return run


def records(run):
    return [json.loads(line) for line in run.stdout.splitlines()]


class PropertyConstants(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.props = os.path.join(self.tmp.name, "die.props")
        with open(self.props, "w") as f:
            f.write(DIE_PROPS)

    def tearDown(self):
        self.tmp.cleanup()

    def check(self, *args, check=True):
        return pmc("check", "--model", DIE, "--property-file", self.props, *args, check=check)

    def test_const_gives_the_properties_constants(self):
        results = records(self.check("--const", "T=3,p=0.5", "--json"))
        self.assertEqual([r.get("name") for r in results], ["reach", "earlier", "bound", "six"])
        self.assertEqual(results[0]["property"], 'P=? [ F<=T "done" ]')  # as written
        self.assertEqual(results[0]["constants"], {"T": 3})
        self.assertAlmostEqual(results[0]["value"], DIE_DONE_WITHIN[3], delta=1e-12)
        # T2 = T - 1 is evaluated from T; the file's label and the model's "done" alike.
        self.assertEqual(results[1]["constants"], {"T": 3, "T2": 2})
        self.assertAlmostEqual(results[1]["value"], DIE_DONE_WITHIN[2], delta=1e-12)
        self.assertEqual(results[2]["constants"], {"T": 3, "p": 0.5})
        self.assertTrue(results[2]["satisfied"])
        self.assertNotIn("constants", results[3])
        text = self.check("--const", "T=3,p=0.5").stdout
        self.assertIn('"reach": P=? [ F<=T "done" ]: 0.75', text)
        self.assertIn("  constants: T=3\n", text)

    def test_a_constant_left_open_fails_only_its_properties(self):
        run = self.check("--const", "p=0.5", "--json", check=False)
        self.assertEqual(run.returncode, 1)
        results = records(run)
        self.assertIn("constant 'T' (int, ", results[0]["error"])
        self.assertIn("give it with --const T=", results[0]["error"])
        self.assertIn("constant 'T2' (int, ", results[1]["error"])
        self.assertIn("because constant 'T' has none", results[1]["error"])
        self.assertAlmostEqual(results[3]["value"], 1 / 6, delta=1e-6)

    def test_bad_constants_are_errors_that_say_why(self):
        for args, message in [
            (["--const", "T=3,p=0.5,Q=1"], "--const Q=1: neither the model nor the properties declare a constant 'Q' "
                                           "(the model's undefined constants: none; the properties file's: T (int), "
                                           "p (double))"),
            (["--const", "T=3,T=4,p=0.5"], "constant 'T' given twice"),
            (["--const", "T=0.5,p=0.5"], "constant T=0.5 given: T is an int constant"),
            (["--const", "T=3,p=yes"], "p is a double constant"),
            (["--const", "T=3,p=0.5,T2=1"], "--const T2=1: constant 'T2' is already defined in"),
            (["--const", "T=3:1,p=0.5"], "the step leads away from the range's end"),
            (["--const", "T=1:0:3,p=0.5"], "the step of a range cannot be 0"),
            (["--const", "T=a:b,p=0.5"], "'a' in the range is no number"),
            (["--const", "T=1:2:3:4,p=0.5"], "a range is lo:step:hi or lo:hi"),
            (["--const", "T=0:1:1000000,p=0.5"], "the range has 1000001 values"),
            (["--const", "T"], "expected NAME=VALUE"),
            (["--const", "T=1:3,p=0.5", "--scheduler", "x"], "--scheduler and --export-vector write one file per "
                                                              "property"),
        ]:
            run = self.check(*args, check=False)
            self.assertEqual(run.returncode, 2, (args, run.stderr))
            self.assertIn(message, run.stderr, args)
            self.assertEqual(run.stdout, "", args)

    def test_ranges_make_a_table_and_a_record_per_value(self):
        run = self.check("--const", "T=1:1:5,p=0.9", "--json", "--property", "reach", "--property", "six")
        results = records(run)
        self.assertEqual([r.get("constants") for r in results], [{"T": t} for t in range(1, 6)] + [None])
        for r in results[:5]:
            self.assertEqual(r["name"], "reach")
            self.assertAlmostEqual(r["value"], DIE_DONE_WITHIN[r["constants"]["T"]], delta=1e-12)
        self.assertAlmostEqual(results[5]["value"], 1 / 6, delta=1e-6)  # uses no T: once
        text = self.check("--const", "T=1:2:5,p=0.9", "--property", "bound").stdout.splitlines()
        self.assertEqual(text[0], '"bound": P>=p [ F<=T "done" ] with p=0.9')
        self.assertEqual(len(text), 4)
        self.assertTrue(text[1].startswith("  T=1: false (value 0"), text[1])
        self.assertTrue(text[2].startswith("  T=3: false (value 0.75"), text[2])
        self.assertTrue(text[3].startswith("  T=5: true (value 0.9375"), text[3])
        # lo:hi steps by 1; several ranges make every combination, the last varying fastest.
        results = records(self.check("--const", "T=2:3,p=0.5:0.5:1", "--json", "--property", "bound"))
        self.assertEqual([r["constants"] for r in results],
                         [{"T": 2, "p": 0.5}, {"T": 2, "p": 1.0}, {"T": 3, "p": 0.5}, {"T": 3, "p": 1.0}])
        self.assertEqual([r["satisfied"] for r in results], [False, False, True, False])
        # A value that fails is a row with its error, the others stand; in JSON a record with its constants.
        run = self.check("--const", "T=0:1:2,p=0.5", "--property", "earlier", check=False)
        self.assertEqual(run.returncode, 1)
        self.assertIn("  T=0: error: column 10: time bound T2 = -1 must be a non-negative number", run.stdout)
        self.assertIn("  T=2: 0", run.stdout)
        self.assertIn('"earlier" with T=0: column 10', run.stderr)
        run = self.check("--const", "T=0:1:2,p=0.5", "--property", "earlier", "--json", check=False)
        results = records(run)
        self.assertEqual(results[0]["constants"], {"T": 0, "T2": -1})
        self.assertIn("-1", results[0]["error"])
        self.assertEqual(results[2]["constants"], {"T": 2, "T2": 1})

    def test_export_results_has_the_constants(self):
        table = os.path.join(self.tmp.name, "r.tsv")
        self.check("--const", "T=3:4,p=0.5", "--property", "reach", "--export-results", table)
        with open(table) as f:
            rows = [line.split("\t") for line in f.read().splitlines()]
        self.assertEqual(rows[0][-1], "constants")
        self.assertEqual([r[-1] for r in rows[1:]], ["T=3", "T=4"])

    def test_every_export_format_records_each_values_constants(self):
        table, qvbs = os.path.join(self.tmp.name, "r.csv"), os.path.join(self.tmp.name, "r.json")
        self.check("--const", "T=3:4,p=0.5", "--property", "reach", "--property", "six", "--export-results", table)
        with open(table, newline="") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[0][-1], "constants")
        self.assertEqual([(r[1], r[-1]) for r in rows[1:]], [("reach", "T=3"), ("reach", "T=4"), ("six", "")])
        self.check("--const", "T=3:4,p=0.5", "--property", "reach", "--property", "bound", "--export-results", qvbs)
        with open(qvbs, encoding="utf-8") as f:
            file = json.load(f)
        # The run's single value in open-parameter-values, each entry its own.
        self.assertEqual(file["open-parameter-values"], [{"name": "p", "value": 0.5}])
        entries = file["data"][1:]
        self.assertEqual([(e["property"], e["parameter-values"]) for e in entries],
                         [("reach", [{"name": "T", "value": 3}]), ("reach", [{"name": "T", "value": 4}]),
                          ("bound", [{"name": "T", "value": 3}, {"name": "p", "value": 0.5}]),
                          ("bound", [{"name": "T", "value": 4}, {"name": "p", "value": 0.5}])])
        self.assertAlmostEqual(entries[0]["value"], DIE_DONE_WITHIN[3], delta=1e-12)
        self.assertAlmostEqual(entries[1]["value"], DIE_DONE_WITHIN[4], delta=1e-12)
        self.assertEqual([e["value"] for e in entries[2:]], [True, True])
        # A value that fails is listed under errors with its constants.
        self.check("--const", "T=0:1,p=0.5", "--property", "earlier", "--export-results", qvbs, check=False)
        with open(qvbs, encoding="utf-8") as f:
            file = json.load(f)
        self.assertEqual(file["errors"][0]["parameter-values"], [{"name": "T", "value": 0}, {"name": "T2", "value": -1}])
        self.assertIn("T2 = -1", file["errors"][0]["error"])
        self.assertEqual(file["data"][1]["parameter-values"], [{"name": "T", "value": 1}, {"name": "T2", "value": 0}])

    def test_expected_time_and_filters_take_constants(self):
        # The die's expected number of coin flips is 11/3 (Knuth and Yao).
        props = os.path.join(self.tmp.name, "time.props")
        with open(props, "w") as f:
            f.write('const int B;\nconst double T = 3;\n'
                    '"within": T<=B*2 [ F "done" ];\n'
                    '"time": T=? [ F "done" ];\n'
                    '"most": filter(max, P=? [ F<=B "done" ], "init");\n'
                    '"every": filter(forall, P>=T/10 [ F<=B "done" ] | "done");\n')
        run = pmc("check", "--model", DIE, "--property-file", props, "--const", "B=1:1:2", "--json")
        results = {(r["name"], r.get("constants", {}).get("B")): r for r in records(run)}
        self.assertEqual([results[("within", b)]["satisfied"] for b in (1, 2)], [False, True])
        self.assertEqual(results[("within", 2)]["property"], 'T<=(B*2) [ F "done" ]')
        self.assertAlmostEqual(results[("time", None)]["value"], 11 / 3, delta=1e-5)
        self.assertEqual([results[("most", b)]["value"] for b in (1, 2)], [0.0, 0.0])
        self.assertEqual(results[("every", 1)]["constants"], {"B": 1, "T": 3.0})
        run = pmc("check", "--model", DIE, "--property-file", props, "--const", "B=3", "--property", "most",
                  "--property", "every", "--json")
        most, every = records(run)
        self.assertAlmostEqual(most["value"], DIE_DONE_WITHIN[3], delta=1e-12)
        self.assertIn("filter", most)
        self.assertIn("satisfied", every)
        # T's threshold is a time: above 1 is fine, below 0 is refused once evaluated.
        for threshold, message in [("B-5", "time bound B - 5 = -2 must be a non-negative number"),
                                   ("B/0", "time bound B/0 = inf must be a non-negative number")]:
            run = pmc("check", "--model", DIE, "--property-file", props, "--const", "B=3", "--property",
                      f'T<={threshold} [ F "done" ]', "--property", "time", check=False)
            self.assertEqual(run.returncode, 1, run.stderr)
            self.assertIn(message, run.stderr)
            self.assertIn('"time": T=? [ F "done" ]: 3.66', run.stdout)  # the other property stands

    def test_property_by_name_and_by_position(self):
        results = records(self.check("--const", "T=4,p=0.5", "--property", "earlier", "--property", "1", "--json"))
        self.assertEqual([r["name"] for r in results], ["earlier", "reach"])
        self.assertAlmostEqual(results[0]["value"], DIE_DONE_WITHIN[3], delta=1e-12)
        # A formula among the selections runs with the file's constants.
        results = records(self.check("--const", "T=4,p=0.5", "--property", "4", "--property",
                                     'P=? [ F<=T+1 "done" ]', "--json"))
        self.assertEqual(results[0]["name"], "six")
        self.assertEqual(results[1]["property"], 'P=? [ F<=(T + 1) "done" ]')
        self.assertAlmostEqual(results[1]["value"], DIE_DONE_WITHIN[5], delta=1e-12)
        for args, message in [
            (["--property", "nosuch"], 'has no property named "nosuch" (its properties: "reach", "earlier", "bound", '
                                       '"six")'),
            (["--property", "5"], "has 4 properties (--property 1 to 4)"),
            (["--property", "0"], "has 4 properties"),
        ]:
            run = self.check("--const", "T=4,p=0.5", *args, check=False)
            self.assertEqual(run.returncode, 2, args)
            self.assertIn(message, run.stderr, args)
        run = pmc("check", "--model", DIE, "--property", "2", check=False)
        self.assertEqual(run.returncode, 2)
        self.assertIn("no --property-file is given", run.stderr)


class ModelAndPropertyConstants(unittest.TestCase):
    """A PRISM-language source's constants and a properties file's through one --const."""

    def test_one_const_for_both(self):
        with tempfile.TemporaryDirectory() as tmp:
            props = os.path.join(tmp, "sir.props")
            with open(props, "w") as f:
                f.write('const double T;\n"gone": P=? [ "infected" U<=T "extinct" ]\n'
                        '"by_rate": P=? [ "infected" U<=kr*100 "extinct" ]\n')
            results = records(pmc("check", "--model", SIR, "--property-file", props, "--const",
                                  "ki=0.05,kr=0.04,T=4", "--json"))
            self.assertEqual(results[0]["constants"], {"T": 4.0})
            # kr*100 = 4: the model's constant gives the same bound.
            self.assertNotIn("constants", results[1])
            self.assertAlmostEqual(results[0]["value"], results[1]["value"], delta=1e-12)
            self.assertGreater(results[0]["value"], 0)
            # A range of the property's constant: one build, a record per value, growing with T.
            results = records(pmc("check", "--model", SIR, "--property-file", props, "--property", "gone",
                                  "--const", "ki=0.05,kr=0.04,T=0:2:8", "--json"))
            values = [r["value"] for r in results]
            self.assertEqual([r["constants"]["T"] for r in results], [0.0, 2.0, 4.0, 6.0, 8.0])
            self.assertEqual(values[0], 0.0)
            self.assertEqual(values, sorted(values))
            # A range of a model constant needs a build per value: refused.
            run = pmc("check", "--model", SIR, "--property-file", props, "--const", "ki=0.01:0.01:0.05,kr=0.04,T=1",
                      check=False)
            self.assertEqual(run.returncode, 2)
            self.assertIn("ranges of the model's constants are not supported", run.stderr)
            # Names the model's and the file's undefined constants when the name is neither's.
            run = pmc("check", "--model", SIR, "--property-file", props, "--const", "ki=1,kr=1,T=1,x=2", check=False)
            self.assertEqual(run.returncode, 2)
            self.assertIn("the model's undefined constants: ki (double), kr (double); the properties file's: T (double)",
                          run.stderr)
            run = pmc("check", "--model", SIR, "--property-file", props, "--const", "ki=1,kr=1,T=1,ki=2", check=False)
            self.assertIn("constant 'ki' given twice", run.stderr)


def qvbs_instance(kind, name, model_file, values):
    """The index.json entry of a QVBS instance: (its directory, its files,
    the --const text of its open parameters (file parameters are written in
    the model file), its results by property name)."""
    directory = os.path.join(QVBS, "benchmarks", kind, name)
    with open(os.path.join(directory, "index.json")) as f:
        index = json.load(f)
    for entry in index["files"]:
        if entry["original-file"][0] != model_file:
            continue
        for open_values in entry.get("open-parameter-values", []):
            given = {p["name"]: p["value"] for p in open_values["values"]}
            if given == values:
                constants = ",".join(f"{k}={v}" for k, v in given.items())
                results = {r["property"]: r["value"] for r in open_values.get("results", [])}
                return directory, entry["original-file"], constants, results
    raise AssertionError(f"no QVBS instance {kind}/{name} {model_file} {values}")


def exact(value):
    """A QVBS reference value as a float (exact ones are num/den)."""
    if isinstance(value, dict):
        return value["num"] / value["den"] if "num" in value else float(value["approx"])
    return float(value)


@unittest.skipUnless(have_qvbs(), "QVBS not found; set PMC_QVBS")
class Qvbs(unittest.TestCase):
    """Instances whose properties files declare constants (T, t), run with the
    --const of their index.json (the model's parameters and the properties' in
    one), every property of the file checked, the exact references matched."""

    INSTANCES = [
        ("ctmc", "embedded", "embedded.prism", {"MAX_COUNT": 2, "T": 12}),
        ("ctmc", "tandem", "tandem.prism", {"c": 5, "T": 1000, "t": 0.2}),
        ("ctmc", "cluster", "cluster.prism", {"N": 2, "T": 2000, "t": 20}),
        ("ctmc", "polling", "polling.3.prism", {"T": 16}),
    ]

    def test_instances_match_their_references(self):
        checked = 0
        for kind, name, model_file, values in self.INSTANCES:
            directory, files, constants, references = qvbs_instance(kind, name, model_file, values)
            self.assertTrue(references, name)
            run = pmc("check", "--model", os.path.join(directory, files[0]), "--property-file",
                      os.path.join(directory, files[1]), "--const", constants, "--epsilon", "1e-9", "--json")
            results = {r["name"]: r for r in records(run)}
            for prop, reference in references.items():
                ref = exact(reference)
                r = results[prop]
                self.assertLessEqual(abs(r["value"] - ref), 1e-6 * max(abs(ref), 1e-9), (name, prop, r["value"], ref))
                if "lower" in r:
                    slack = 1e-12 * max(abs(ref), 1)
                    self.assertLessEqual(r["lower"] - slack, ref, (name, prop))
                    self.assertGreaterEqual(r["upper"] + slack, ref, (name, prop))
                checked += 1
            # The properties over the file's constants ran too, with their values.
            with_constants = [r for r in results.values() if "constants" in r]
            self.assertTrue(with_constants, name)
            for r in with_constants:
                self.assertNotIn("error", r, (name, r))
                for constant, value in r["constants"].items():
                    self.assertEqual(value, values[constant], (name, r["name"]))
        self.assertGreaterEqual(checked, 8)

    def test_a_range_of_the_time_bound(self):
        directory, files, constants, _ = qvbs_instance("ctmc", "tandem", "tandem.prism", {"c": 5, "T": 1000, "t": 0.2})
        constants = constants.replace("t=0.2", "t=0.1:0.1:0.4")
        run = pmc("check", "--model", os.path.join(directory, files[0]), "--property-file",
                  os.path.join(directory, files[1]), "--const", constants, "--property", "first_queue", "--json")
        results = records(run)
        self.assertEqual([r["constants"]["t"] for r in results], [0.1, 0.2, 0.3, 0.4])
        values = [r["value"] for r in results]
        self.assertEqual(values, sorted(values))  # F<=t: the longer the window, the likelier


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
