#!/usr/bin/env python3
"""End-to-end tests of the `pmc` shell (docs/design.md §6): pmc info/convert/devices.

Usage: test_cli.py PATH/TO/pmc   (meson passes it; PMC_SOURCE_ROOT locates examples/)
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from cli_support import exit_with_status, read_line_within, write_walk

PMC = None
ROOT = os.environ.get("PMC_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
DIE = os.path.join(ROOT, "examples", "die", "die.tra")
BAD = os.path.join(ROOT, "tests", "data", "bad")
MODELS = os.environ.get("PMC_MODELS") or os.environ.get("PMC_DEFAULT_MODELS_DIR", "")
CONSENSUS = os.path.join(ROOT, "examples", "consensus", "consensus.nm")
CONSENSUS_PROPS = os.path.join(ROOT, "examples", "consensus", "consensus.props")


def manifest_rows(model, instance):
    """The manifest's rows (dicts by column name) of one instance."""
    path = os.path.join(MODELS, "manifest.tsv")
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]
    return [r for r in rows if r["model"] == model and r["instance"] == instance]


def pmc(*args, check=True):
    run = subprocess.run([PMC, *args], capture_output=True, text=True, timeout=120)
    if check and run.returncode != 0:
        raise AssertionError(f"pmc {' '.join(args)} failed ({run.returncode}): {run.stderr}")
    return run


class Info(unittest.TestCase):
    def test_json_has_the_contract_fields(self):
        info = json.loads(pmc("info", "--model", DIE, "--json").stdout)
        self.assertEqual(info["type"], "dtmc")
        self.assertEqual(info["states"], 13)
        self.assertEqual(info["transitions"], 20)
        self.assertEqual(info["choices"], 13)
        self.assertEqual(info["labels"], ["init", "deadlock", "done", "one", "two", "three", "four", "five", "six"])
        self.assertEqual(info["rewards"], ["coin_flips"])

    def test_text_output(self):
        out = pmc("info", "--model", DIE).stdout
        self.assertIn("states:      13", out)
        self.assertIn('"coin_flips"', out)

    def test_listed_files(self):
        files = [DIE[:-4] + ext for ext in (".tra", ".lab", ".srew")]
        info = json.loads(pmc("info", "--json", "--model", *files).stdout)
        self.assertEqual(info["rewards"], ["coin_flips"])

    def test_errors_go_to_stderr_with_nonzero_status(self):
        run = pmc("info", "--model", os.path.join(BAD, "bad_row_sum.tra"), check=False)
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stdout, "")
        self.assertIn("bad_row_sum.tra", run.stderr)
        self.assertIn("probabilities sum to", run.stderr)

    def test_usage_errors(self):
        for args, message in [
            (["info"], "no model given"),
            (["info", "--model"], "--model needs a value"),
            (["info", "--model", DIE, "--bogus"], "unknown option"),
            (["info", "--model", DIE, "--json=yes"], "takes no value"),
            (["frobnicate"], "unknown command"),
            (["info", "--model", DIE, "--format", "xml"], "xml"),
        ]:
            run = pmc(*args, check=False)
            self.assertEqual(run.returncode, 2, args)
            self.assertIn(message, run.stderr, args)

    def test_missing_file(self):
        run = pmc("info", "--model", "/no/such/file.tra", check=False)
        self.assertEqual(run.returncode, 1)
        self.assertIn("/no/such/file.tra", run.stderr)


class Convert(unittest.TestCase):
    def test_round_trip_through_every_format(self):
        with tempfile.TemporaryDirectory() as tmp:
            reference = json.loads(pmc("info", "--json", DIE).stdout)
            previous = DIE
            for name in ("die.pmcb", "die.drn", "back.tra.gz", "final.pmcb"):
                target = os.path.join(tmp, name)
                self.assertIn("wrote", pmc("convert", previous, target).stdout)
                info = json.loads(pmc("info", "--json", target).stdout)
                for key in ("type", "states", "transitions", "rewards"):
                    self.assertEqual(info[key], reference[key], (name, key))
                # DRN keeps only labels that hold a state (not the empty "deadlock").
                nonempty = {l for l in reference["labels"] if reference["label_states"][l] > 0}
                self.assertTrue(nonempty <= set(info["labels"]), name)
                previous = target

    def test_convert_errors(self):
        run = pmc("convert", DIE, check=False)
        self.assertEqual(run.returncode, 2)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.pmcb")
            run = pmc("convert", os.path.join(BAD, "truncated.tra"), out, check=False)
            self.assertEqual(run.returncode, 1)
            self.assertFalse(os.path.exists(out), "a failed convert left a file")
            run = pmc("convert", DIE, os.path.join(tmp, "x.weird"), check=False)
            self.assertNotEqual(run.returncode, 0)
            self.assertIn("x.weird", run.stderr)


class Check(unittest.TestCase):
    def test_json_one_object_per_property(self):
        out = pmc("check", "--model", DIE, "--json", "--epsilon", "1e-12", "--property",
                  'P=? [ F "six" ]', 'R{"coin_flips"}=? [ F "done" ]', 'P>=0.2 [ F "six" ]').stdout
        results = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(results), 3)
        for r in results:
            for key in ("property", "value", "solver", "iterations", "seconds", "states", "transitions"):
                self.assertIn(key, r)
            self.assertEqual(r["states"], 13)
            self.assertTrue(r["converged"])
        self.assertAlmostEqual(results[0]["value"], 1 / 6, places=10)
        self.assertAlmostEqual(results[1]["value"], 11 / 3, places=9)
        self.assertEqual(results[2]["satisfied"], False)

    def test_every_solver_option(self):
        for solver in ("cpu.jacobi", "cpu.gauss-seidel", "cpu.power", "cpu.bicgstab"):
            for criterion in ("--relative", "--absolute"):
                r = json.loads(pmc("check", "--model", DIE, "--json", "--solver", solver, criterion,
                                   "--epsilon", "1e-10", "--property", 'P=? [ F "six" ]').stdout)
                self.assertEqual(r["solver"], solver)
                self.assertAlmostEqual(r["value"], 1 / 6, places=8)

    def test_sound_by_default(self):
        # Sound by default: certified bounds around the exact value, the value their midpoint.
        out = pmc("check", "--model", DIE, "--json", "--property", 'P=? [ F "six" ]',
                  'R{"coin_flips"}=? [ F "done" ]', 'P=? [ F<=3 "six" ]').stdout
        results = [json.loads(line) for line in out.splitlines()]
        for r, exact in zip(results, (1 / 6, 11 / 3, 1 / 8)):
            self.assertTrue(r["sound"], r)
            self.assertLessEqual(r["lower"], exact * (1 + 1e-12))
            self.assertGreaterEqual(r["upper"], exact * (1 - 1e-12))
            self.assertLessEqual(abs(r["value"] - exact), 1e-6 * exact)
        self.assertEqual(results[0]["solver"], "cpu.topo-interval-vi")
        self.assertEqual(results[2]["lower"], results[2]["upper"])  # bounded: exact
        text = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]').stdout
        self.assertRegex(text, r"P=\? \[ F \"six\" \]: 0\.1666\d* ± \d")

    def test_unsound_says_so(self):
        for args in (["--unsound"], ["--solver", "cpu.gauss-seidel"]):
            r = json.loads(pmc("check", "--model", DIE, "--json", *args, "--property", 'P=? [ F "six" ]').stdout)
            self.assertFalse(r["sound"], args)
            self.assertNotIn("lower", r)
            self.assertEqual(r["solver"], "cpu.gauss-seidel")
            self.assertTrue(any("not certified" in n for n in r["notes"]), r["notes"])
        text = pmc("check", "--model", DIE, "--unsound", "--property", 'P=? [ F "six" ]').stdout
        self.assertIn("not certified", text)
        self.assertNotIn("±", text)

    def test_named_solver_that_cannot_solve_is_an_error(self):
        run = pmc("check", "--model", DIE, "--solver", "cpu.topo-vi", "--property", 'P=? [ F "six" ]', check=False)
        self.assertEqual(run.returncode, 2)
        self.assertIn("does not solve this property's problems (linear system)", run.stderr)
        run = pmc("check", "--model", DIE, "--sound", "--unsound", "--property", 'P=? [ F "six" ]', check=False)
        self.assertEqual(run.returncode, 2)
        self.assertIn("exclude", run.stderr)

    def test_infinite_reward_is_a_string(self):
        r = json.loads(pmc("check", "--model", DIE, "--json", "--property", 'R=? [ F "one" ]').stdout)
        self.assertEqual(r["value"], "Infinity")

    def test_bad_properties_name_the_column(self):
        run = pmc("check", "--model", DIE, "--property", 'P=? [ F "seven" ]', 'P=? [ F<=2.5 "six" ]',
                  'P=? [ F "six" ]', check=False)
        self.assertEqual(run.returncode, 1)
        self.assertIn('column 9: unknown label "seven"', run.stderr)
        self.assertIn("column 7", run.stderr)
        self.assertIn("P=? [ F \"six\" ]: 0.1666", run.stdout)  # the good one still ran

    def test_bad_options(self):
        for args, message in [
            (["--solver", "gpu.magic"], "unknown solver"),
            (["--epsilon", "abc"], "not a number"),
            (["--epsilon", "2"], "outside [1e-15, 1)"),
            (["--epsilon", "1e-300"], "double precision cannot"),
            (["--solver", ""], "solver name is empty"),
            (["--max-iterations", "0"], "positive integer"),
            (["--relative", "--absolute"], "exclude"),
            (["--devices", "0,0"], "GPU 0 is listed twice"),
            (["--devices", "0,x"], "auto, all or device indices"),
            (["--devices", "-1"], "auto, all or device indices"),
            (["--devices", ""], "devices"),
            ([], "no property"),
        ]:
            props = ["--property", 'P=? [ F "six" ]'] if args else []
            run = pmc("check", "--model", DIE, *args, *props, check=False)
            self.assertEqual(run.returncode, 2, args)
            self.assertIn(message, run.stderr, args)

    def test_devices_reach_the_solver(self):
        # A listed GPU that is not there: no GPU at all (CI) or not that one.
        run = pmc("check", "--model", DIE, "--solver", "gpu.jacobi", "--devices", "0,1000",
                  "--property", 'P=? [ F "six" ]', check=False)
        self.assertIn(run.returncode, (1, 2))  # 2 where GPUs are listed: the index is a bad argument
        self.assertRegex(run.stderr, "GPU 1000 does not exist|no usable GPU|without CUDA")
        # The CPU solvers ignore the list.
        out = json.loads(pmc("check", "--model", DIE, "--solver", "cpu.jacobi", "--devices", "all", "--json",
                             "--property", 'P=? [ F "six" ]').stdout)
        self.assertAlmostEqual(out["value"], 1 / 6, places=5)
        # Two GPUs asked for at the (sound) defaults: the solve stays on one
        # device (or the CPU), and the result says why.
        out = json.loads(pmc("check", "--model", DIE, "--devices", "0,1", "--json",
                             "--property", 'P=? [ F "six" ]').stdout)
        self.assertAlmostEqual(out["value"], 1 / 6, places=5)
        self.assertTrue(any("several GPUs were asked for" in n and "--unsound" in n for n in out["notes"]),
                        out["notes"])
        out = json.loads(pmc("check", "--model", DIE, "--json", "--property", 'P=? [ F "six" ]').stdout)
        self.assertFalse(any("several GPUs" in n for n in out["notes"]), out["notes"])

    def test_not_converged_is_exit_3(self):
        run = pmc("check", "--model", DIE, "--solver", "cpu.jacobi", "--max-iterations", "2",
                  "--property", 'P=? [ F "six" ]', check=False)
        self.assertEqual(run.returncode, 3)
        self.assertIn("did not converge", run.stderr)
        self.assertIn("NOT CONVERGED", run.stdout)

    def test_scheduler_file_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--scheduler",
                      os.path.join(tmp, "s.txt"), check=False)
            self.assertEqual(run.returncode, 1)
            self.assertIn("no scheduler", run.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "s.txt")))

    PHASES = ("load", "gpu_startup", "precompute", "build", "transfer", "solve", "other")

    def test_json_timings_by_phase(self):
        out = pmc("check", "--model", DIE, "--json", "--property", 'P=? [ F "six" ]',
                  'R{"coin_flips"}=? [ F "done" ]').stdout
        results = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(results), 2)
        for r in results:
            t = r["timings"]
            self.assertEqual(set(t), set(self.PHASES) | {"total"}, t)
            for key, seconds in t.items():
                self.assertIsInstance(seconds, float, key)
                self.assertGreaterEqual(seconds, 0.0, key)
            # total, seconds and load come from the same numbers: equal up to rounding.
            self.assertLess(abs(t["total"] - (t["load"] + r["seconds"])), 1e-6 + 1e-9 * t["total"], r)
            self.assertLessEqual(abs(sum(t[p] for p in self.PHASES) - t["total"]), 1e-9 * t["total"], t)
            self.assertEqual(t["solve"], r["solve_seconds"])
        # The model is loaded once: its time goes to the first result only.
        self.assertGreater(results[0]["timings"]["load"], 0.0)
        self.assertEqual(results[1]["timings"]["load"], 0.0)
        # The first result that exists gets it, when the first property fails.
        run = pmc("check", "--model", DIE, "--json", "--property", 'P=? [ F "seven" ]', 'P=? [ F "six" ]',
                  check=False)
        self.assertEqual(run.returncode, 1)
        failed, checked = [json.loads(line) for line in run.stdout.splitlines()]
        self.assertIn("seven", failed["error"])
        self.assertGreater(checked["timings"]["load"], 0.0)

    def test_stats_prints_the_phases(self):
        line = re.compile(r"^  timings: load (\S+) s, GPU start-up (\S+) s, precompute (\S+) s, build (\S+) s, "
                          r"transfer (\S+) s, solve (\S+) s, other (\S+) s \(total (\S+) s\)$", re.MULTILINE)
        out = pmc("check", "--model", DIE, "--stats", "--property", 'P=? [ F "six" ]', 'P=? [ F<=3 "six" ]').stdout
        found = line.findall(out)
        self.assertEqual(len(found), 2, out)
        for numbers in found:
            for n in numbers:
                self.assertRegex(n, r"^(0|<0\.001|\d+\.\d{3})$", out)
        self.assertEqual(found[1][0], "0", out)  # the second property: the model was loaded already
        # Each line follows its result.
        lines = out.splitlines()
        self.assertTrue(lines[0].startswith('P=? [ F "six" ]: '), out)
        self.assertTrue(lines[2].startswith("  timings: "), out)
        self.assertNotIn("timings", pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]').stdout)
        # With --json the timings are in the object; the output stays JSON.
        out = pmc("check", "--model", DIE, "--json", "--stats", "--property", 'P=? [ F "six" ]').stdout
        self.assertIn("timings", json.loads(out))
        self.assertIn("--stats", pmc("help").stdout)

    def test_solvers_lists_the_registry(self):
        names = [s["name"] for s in json.loads(pmc("solvers", "--json").stdout)]
        for name in ("cpu.jacobi", "cpu.gauss-seidel", "cpu.power", "cpu.bicgstab", "cpu.steps", "cpu.interval-vi",
                     "cpu.topo-interval-vi", "gpu.interval-vi"):
            self.assertIn(name, names)


class PrismLanguage(unittest.TestCase):
    """PRISM-language sources through check, info and convert."""

    def write(self, tmp, name, text):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    @unittest.skipUnless(os.path.exists(os.path.join(MODELS, "manifest.tsv")), "models not found; set PMC_MODELS")
    def test_sources_reproduce_the_manifest(self):
        for model, instance, source in [("brp", "N16_M2", "model.pm"), ("consensus", "N2_K2", "model.nm")]:
            rows = manifest_rows(model, instance)
            self.assertTrue(rows, (model, instance))
            path = os.path.join(MODELS, model, instance, source)
            args = ["--model", path] + (["--const", rows[0]["constants"]] if rows[0]["constants"] else [])
            info = json.loads(pmc("info", "--json", *args).stdout)
            self.assertEqual(info["states"], int(rows[0]["states"]), path)
            self.assertEqual(info["transitions"], int(rows[0]["transitions"]), path)
            if rows[0]["choices"]:
                self.assertEqual(info["choices"], int(rows[0]["choices"]), path)
            properties = sorted({r["property"] for r in rows})
            run = pmc("check", "--json", *args, *sum((["--property", p] for p in properties), []))
            results = [json.loads(line) for line in run.stdout.splitlines()]
            self.assertEqual(len(results), len(properties))
            for result in results:
                reference = float(next(r for r in rows if r["property"] == result["property"])["reference_value"])
                self.assertAlmostEqual(result["value"], reference, delta=1e-5 * max(abs(reference), 1e-3),
                                       msg=(path, result["property"]))

    def test_example_with_property_file(self):
        run = pmc("check", "--model", CONSENSUS, "--const", "K=2", "--property-file", CONSENSUS_PROPS, "--json")
        results = [json.loads(line) for line in run.stdout.splitlines()]
        self.assertEqual([r.get("name") for r in results], ["disagree", "all_ones", "steps_max", "steps_min", None])
        self.assertAlmostEqual(results[0]["value"], 0.10833333333274026, delta=1e-6)
        self.assertAlmostEqual(results[2]["value"], 75.0, delta=1e-3)
        self.assertEqual(results[4]["property"], 'Pmax=? [ F<=T "finished" ]')  # as written, with its constants
        self.assertEqual(results[4]["constants"], {"T": 20})
        self.assertNotIn("constants", results[0])
        text = pmc("check", "--model", CONSENSUS, "--const=K=2", "--property-file", CONSENSUS_PROPS).stdout
        self.assertIn('"disagree": Pmax=? [ F "finished" & !"agree" ]: 0.1083', text)

    def test_property_file_layouts_and_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            props = self.write(tmp, "a.pctl", '/* block\ncomment */ P=? [ F "six" ]; "flips": R{"coin_flips"}=? [\n'
                               '  F "done" ] // trailing\n\n// only a comment\nP=? [ F<=N "done" ]; const int N = 3;\n')
            run = pmc("check", "--model", DIE, "--property-file", props, "--json")
            results = [json.loads(line) for line in run.stdout.splitlines()]
            self.assertEqual(len(results), 3)  # one record per property
            self.assertAlmostEqual(results[0]["value"], 1 / 6, delta=1e-6)
            self.assertEqual(results[1]["name"], "flips")
            self.assertAlmostEqual(results[1]["value"], 11 / 3, delta=1e-5)
            # A file's constants hold in all its properties, as in PRISM, wherever they are declared.
            self.assertEqual(results[2]["property"], "P=? [ F<=N \"done\" ]")
            self.assertEqual(results[2]["constants"], {"N": 3})
            self.assertAlmostEqual(results[2]["value"], 0.75, delta=1e-9)
            # A constant without a value fails the properties that use it, naming it and --const.
            path = self.write(tmp, "open.props", 'const int T;\n"t": P=? [ F<=T "done" ]\nP=? [ F "six" ]\n')
            run = pmc("check", "--model", DIE, "--property-file", path, "--json", check=False)
            self.assertEqual(run.returncode, 1)
            results = [json.loads(line) for line in run.stdout.splitlines()]
            self.assertIn("constant 'T' (int, ", results[0]["error"])
            self.assertIn("give it with --const T=", results[0]["error"])
            self.assertAlmostEqual(results[1]["value"], 1 / 6, delta=1e-6)
            for text, message in [
                ("const int x = 1/2;\nP=? [ F \"a\" ]\n", "p.props:1:15: type error"),
                ('label a = true;\n', "p.props:1: expected a label's name in double quotes"),
                ('"a": P=? [ F "done" ]\n"a": P=? [ F "six" ]\n', 'p.props:2: two properties are named "a"'),
                ("// nothing\n", "p.props: no property"),
                ('P=? [ F "done ]\n', "p.props:1: unterminated string"),
            ]:
                path = self.write(tmp, "p.props", text)
                run = pmc("check", "--model", DIE, "--property-file", path, check=False)
                self.assertNotEqual(run.returncode, 0, text)
                self.assertIn(message, run.stderr, text)
            run = pmc("check", "--model", DIE, "--property-file", os.path.join(tmp, "none.props"), check=False)
            self.assertEqual(run.returncode, 1)
            self.assertIn("none.props", run.stderr)

    def test_errors_reach_the_user(self):
        # Undefined constant: named, with how to set it.
        run = pmc("info", "--model", CONSENSUS, check=False)
        self.assertEqual(run.returncode, 1)
        self.assertIn("undefined constant K", run.stderr)
        self.assertIn("--const K=", run.stderr)
        self.assertEqual(run.stdout, "")
        # Unknown constant, malformed --const, --const on an explicit file.
        for args, message in [
            (["--const", "K=2,Q=3"], "Q"),
            (["--const", "K"], "NAME=VALUE"),
        ]:
            run = pmc("info", "--model", CONSENSUS, *args, check=False)
            self.assertEqual(run.returncode, 2, args)
            self.assertIn(message, run.stderr, args)
        for flag, value in [("--const", "K=2"), ("--max-states", "10")]:
            run = pmc("info", "--model", DIE, flag, value, check=False)
            self.assertEqual(run.returncode, 2, flag)
            self.assertIn(f"{flag} ", run.stderr)
            self.assertIn("PRISM-language sources", run.stderr)
        # --max-states exceeded.
        run = pmc("check", "--model", CONSENSUS, "--const", "K=2", "--max-states", "100", "--property",
                  'Pmax=? [ F "finished" ]', check=False)
        self.assertEqual(run.returncode, 1)
        self.assertIn("more than 100 reachable states", run.stderr)
        self.assertIn("--max-states", run.stderr)
        self.assertEqual(pmc("info", "--model", CONSENSUS, "--const", "K=2", "--max-states", "272").returncode, 0)
        run = pmc("info", "--model", CONSENSUS, "--const", "K=2", "--max-states", "lots", check=False)
        self.assertEqual(run.returncode, 2)
        # --build: the explorer; a bad value is a usage error, cpu and gpu give the same model, and gpu
        # without a GPU says so in the command line's words.
        run = pmc("info", "--model", CONSENSUS, "--const", "K=2", "--build", "fpga", check=False)
        self.assertEqual(run.returncode, 2)
        self.assertIn("--build 'fpga': give auto, cpu or gpu", run.stderr)
        on_cpu = json.loads(pmc("info", "--json", "--model", CONSENSUS, "--const", "K=2", "--build", "cpu").stdout)
        self.assertEqual(on_cpu["states"], 272)
        run = pmc("info", "--json", "--model", CONSENSUS, "--const", "K=2", "--build", "gpu", check=False)
        if run.returncode == 0:
            self.assertEqual(json.loads(run.stdout), on_cpu)
        else:
            self.assertEqual(run.returncode, 1)
            self.assertIn("--build gpu needs a GPU", run.stderr)
        # A syntax error: file:line:column, unchanged.
        with tempfile.TemporaryDirectory() as tmp:
            bad = self.write(tmp, "bad.pm", "dtmc\nmodule m\n  x : [0..1] init 0;\n  [] x=0 -> (x'=1) (x'=0);\nendmodule\n")
            run = pmc("check", "--model", bad, "--property", "P=? [ F x=1 ]", check=False)
            self.assertEqual(run.returncode, 1)
            self.assertRegex(run.stderr, re.escape(bad) + r":4:\d+: ")

    def test_convert_source_to_pmcb(self):
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, "consensus.pmcb")
            self.assertIn("272 states", pmc("convert", CONSENSUS, "--const", "K=2", target).stdout)
            built = json.loads(pmc("info", "--json", "--model", CONSENSUS, "--const", "K=2").stdout)
            self.assertEqual(json.loads(pmc("info", "--json", target).stdout), built)
            run = pmc("convert", DIE, os.path.join(tmp, "x.pm"), check=False)
            self.assertNotEqual(run.returncode, 0)
            self.assertIn("does not write PRISM-language", run.stderr)

    def test_format_name_and_help(self):
        info = json.loads(pmc("info", "--json", "--model", DIE[:-4] + ".pm", "--format", "prism-language").stdout)
        self.assertEqual(info["states"], 13)
        out = pmc("help").stdout
        for flag in ("--const", "--max-states", "--property-file", "prism-language"):
            self.assertIn(flag, out)


class MemoryLimit(unittest.TestCase):
    """--memory-limit on check, info and convert, and the shell's `set memory-limit`."""

    PROPERTY = 'P=? [ F "six" ]'

    def test_a_tiny_limit_refuses_the_check_with_need_and_limit(self):
        run = pmc("check", "--model", DIE, "--property", self.PROPERTY, "--memory-limit", "1K", check=False)
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stdout, "")
        self.assertIn("checking P=? [ F \"six\" ] needs ~", run.stderr)
        self.assertIn("more than the memory limit of 1.0 KiB", run.stderr)
        self.assertIn("--memory-limit", run.stderr)
        self.assertNotIn("internal error", run.stderr)

    def test_enough_memory_checks_as_usual(self):
        for limit in ("1.5G", "512M", "1048576", "0"):
            r = json.loads(pmc("check", "--model", DIE, "--json", "--property", self.PROPERTY,
                               "--memory-limit", limit).stdout)
            self.assertAlmostEqual(r["value"], 1 / 6, delta=1e-6, msg=limit)

    def test_bad_values_name_the_option(self):
        for value in ("abc", "-1", "4GB", "", "1.5X", "1e30"):
            for command in (["check", "--model", DIE, "--property", self.PROPERTY], ["info", "--model", DIE]):
                run = pmc(*command, "--memory-limit", value, check=False)
                self.assertEqual(run.returncode, 2, (command[0], value))
                self.assertIn("memory-limit", run.stderr, value)
                self.assertIn("not a size in bytes", run.stderr, value)

    def test_loading_respects_the_limit(self):
        # A PRISM-language source stops exploring; a header's claim is refused before reserving.
        run = pmc("info", "--model", CONSENSUS, "--const", "K=2", "--memory-limit", "4K", check=False)
        self.assertEqual(run.returncode, 1)
        self.assertIn("consensus.nm", run.stderr)
        self.assertIn("memory limit of 4.0 KiB", run.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            claim = os.path.join(tmp, "claim.tra")
            with open(claim, "w") as f:
                f.write("1000000 1\n0 0 1\n")
            for command in (["info", "--model", claim], ["convert", claim, os.path.join(tmp, "out.pmcb")]):
                run = pmc(*command, "--memory-limit", "1M", check=False)
                self.assertEqual(run.returncode, 1, command)
                self.assertIn("claim.tra:1: the header's model", run.stderr)
                self.assertIn("1000000 states", run.stderr)
                self.assertIn("memory limit of 1.0 MiB", run.stderr)
            self.assertEqual(json.loads(pmc("info", "--json", "--model", claim, "--memory-limit", "1G").stdout)["states"],
                             1000000)

    def test_help_documents_it(self):
        for command in ("check", "info", "convert"):
            out = pmc(command, "--help").stdout
            self.assertIn("--memory-limit", out, command)
        self.assertIn("the machine's", pmc("check", "--help").stdout)

    def test_the_shell_sets_it(self):
        script = f"load {DIE}\nset memory-limit 1K\ncheck {self.PROPERTY}\n"
        run = subprocess.run([PMC], input=script, capture_output=True, text=True, timeout=60)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("memory-limit = 1024 (1.0 KiB)", run.stdout)
        self.assertIn("memory limit of 1.0 KiB", run.stderr)
        script = f"set memory-limit 0\nshow settings\nload {DIE}\ncheck {self.PROPERTY}\n"
        run = subprocess.run([PMC], input=script, capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("0 (the machine's: ", run.stdout)
        run = subprocess.run([PMC], input="set memory-limit lots\n", capture_output=True, text=True, timeout=60)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("memory-limit: 'lots' is not a size in bytes", run.stderr)


class Misc(unittest.TestCase):
    def test_help_lists_commands(self):
        out = pmc("help").stdout
        for command in ("info", "convert", "devices", "version"):
            self.assertIn(f"pmc {command}", out)

    def test_version(self):
        self.assertRegex(pmc("version").stdout, r"^pmc \d+\.\d+\.\d+")

    def test_devices_is_honest(self):
        info = json.loads(pmc("devices", "--json").stdout)
        if info["devices"]:
            self.assertGreater(info["devices"][0]["total_bytes"], 0)
        else:
            self.assertTrue(info["problem"])


COMMANDS = ("check", "synth", "info", "convert", "devices", "solvers", "version", "help")
STORM = os.path.join(ROOT, "tests", "data", "storm")
PCTMC = os.path.join(MODELS, "pctmc")


class Help(unittest.TestCase):
    """--help and -h on every command: usage, every option, an example, exit 0, nothing run."""

    def option_names(self, command):
        # The options pmc's own table declares, read from the usage line of `pmc help`.
        out = pmc(command, "--help").stdout
        return out, set(re.findall(r"^  (--[a-z-]+)", out, re.M))

    def test_every_command_has_help(self):
        for command in COMMANDS:
            for flag in ("--help", "-h"):
                with self.subTest(command=command, flag=flag):
                    run = pmc(command, flag)
                    self.assertEqual(run.returncode, 0)
                    self.assertEqual(run.stderr, "")
                    self.assertTrue(run.stdout.startswith(f"usage: pmc {command}"), run.stdout[:80])
                    self.assertIn("example:\n  pmc ", run.stdout)
                    self.assertIn("-h, --help", run.stdout)

    def test_every_option_is_explained(self):
        for command in COMMANDS:
            out, listed = self.option_names(command)
            usage = out.splitlines()[0]
            with self.subTest(command=command):
                # Each option of the usage line has its own line with a description.
                for option in set(re.findall(r"--[a-z-]+", usage)):
                    self.assertIn(option, listed, f"{command}: {option} has no line")
                for line in out.splitlines():
                    if re.match(r"^  --[a-z-]+", line) and len(line.split()) == 1:
                        continue  # a long option name: its text is on the next line
                    if re.match(r"^  --[a-z-]+", line):
                        self.assertGreater(len(line.split()), 1, f"{command}: {line!r} says nothing")

    def test_help_runs_nothing(self):
        # With --help, a missing model or a bad option value is not looked at.
        run = pmc("check", "--model", "no/such/file.tra", "--epsilon", "7", "--help")
        self.assertTrue(run.stdout.startswith("usage: pmc check"))
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.pmcb")
            pmc("convert", DIE, out, "-h")
            self.assertFalse(os.path.exists(out))
        self.assertIn("usage: pmc devices", pmc("devices", "-h").stdout)  # not the device list

    def test_top_level(self):
        self.assertRegex(pmc("--version").stdout, r"^pmc \d+\.\d+\.\d+")
        out = pmc("--help").stdout
        self.assertIn("usage: pmc COMMAND", out)
        self.assertIn("pmc check", out)
        self.assertIn("usage: pmc synth", pmc("help", "synth").stdout)


@unittest.skipUnless(os.path.exists(os.path.join(PCTMC, "reference.tsv")), "pctmc models not found; set PMC_MODELS")
class ParameterPoint(unittest.TestCase):
    """pmc check --param on the pCTMCs, reference.tsv's rows within 1e-7 of PRISM."""

    def test_every_reference_row(self):
        with open(os.path.join(PCTMC, "reference.tsv")) as f:
            rows = [line.rstrip("\n").split("\t") for line in f if line.strip()][1:]
        self.assertGreaterEqual(len(rows), 19)
        by_point = {}
        for model, params, prop, value in rows:
            if model == "sir_200.drn":
                continue  # minutes at some points: test_parameter_point_all (suite full) covers it
            by_point.setdefault((model, params), []).append((prop, float(value)))
        for (model, params), props in by_point.items():
            args = ["check", "--model", os.path.join(PCTMC, model), "--json", "--param"]
            args += params.split(",")  # repeated values after one --param
            args += ["--property"] + [p for p, _ in props]
            results = [json.loads(line) for line in pmc(*args).stdout.splitlines()]
            for (prop, reference), r in zip(props, results, strict=True):
                with self.subTest(model=model, params=params):
                    self.assertLessEqual(abs(r["value"] - reference), 1e-7, f"{r['value']} vs {reference}")
                    self.assertTrue(r["sound"])
                    self.assertIn(f"parameters {params}", r["notes"])

    def test_errors(self):
        am = os.path.join(PCTMC, "am_10_4.drn")
        prop = 'P=? [ F[100,100] "correct" ]'
        run = pmc("check", "--model", am, "--property", prop, check=False)
        self.assertEqual(run.returncode, 2)
        self.assertIn("--param", run.stderr)
        self.assertIn("pmc synth", run.stderr)
        self.assertNotIn("not implemented", run.stderr)
        run = pmc("check", "--model", am, "--param", "k1=1,k2=2", "--property", prop, check=False)
        self.assertEqual(run.returncode, 2)
        self.assertIn("no value for k3", run.stderr)
        run = pmc("check", "--model", am, "--param", "k1=1,k2=2,k3=-0.5", "--property", prop, check=False)
        self.assertIn("parameter k3 = -0.5 is outside its range [0, inf)", run.stderr)
        run = pmc("check", "--model", am, "--param", "k1=1,k2=2,k3=3,k9=1", "--property", prop, check=False)
        self.assertIn("unknown parameter 'k9'", run.stderr)
        run = pmc("check", "--model", am, "--param", "k1", "--property", prop, check=False)
        self.assertIn("is not NAME=VALUE", run.stderr)
        run = pmc("check", "--model", DIE, "--param", "k1=1", "--property", 'P=? [ F "six" ]', check=False)
        self.assertIn("the model is a dtmc without parameters", run.stderr)


class StormExplicit(unittest.TestCase):
    """Storm's explicit dialect, read by content and written by pmc convert."""

    def test_die_and_dice_pair(self):
        die = pmc("check", "--json", "--model", os.path.join(STORM, "die.tra"),
                  "--property", 'P=? [ F "six" ]', 'R=? [ F "done" ]').stdout.splitlines()
        self.assertAlmostEqual(json.loads(die[0])["value"], 1 / 6, delta=1e-6)
        self.assertAlmostEqual(json.loads(die[1])["value"], 11 / 3, delta=1e-5)
        dice = pmc("check", "--json", "--model", os.path.join(STORM, "dice_pair.tra"),
                   "--property", 'Pmin=? [ F "two" ]', 'Pmax=? [ F "seven" ]', 'Rmax=? [ F "done" ]').stdout.splitlines()
        self.assertAlmostEqual(json.loads(dice[0])["value"], 1 / 36, delta=1e-6)
        self.assertAlmostEqual(json.loads(dice[1])["value"], 1 / 6, delta=1e-6)
        self.assertAlmostEqual(json.loads(dice[2])["value"], 22 / 3, delta=1e-5)

    def test_convert_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "die.tra")
            pmc("convert", DIE, out, "--to", "storm-explicit")
            with open(out) as f:
                self.assertEqual(f.readline(), "dtmc\n")
            with open(os.path.join(tmp, "die.lab")) as f:
                self.assertEqual(f.readline(), "#DECLARATION\n")
            self.assertTrue(os.path.exists(os.path.join(tmp, "die.coin_flips.state.rew")))
            back = json.loads(pmc("info", "--json", "--model", out).stdout)
            orig = json.loads(pmc("info", "--json", "--model", DIE).stdout)
            for key in ("type", "states", "transitions", "labels", "label_states", "rewards"):
                self.assertEqual(back[key], orig[key], key)
            # Forced: the PRISM reader says what it found.
            run = pmc("info", "--model", out, "--format", "prism", check=False)
            self.assertIn("expected the number of states, found 'dtmc'", run.stderr)

class ExitPaths(unittest.TestCase):
    """Every way out of `pmc check` is clean and loses nothing computed."""

    QUICK = 'P=? [ F<=10 "goal" ]'
    LONG = 'P=? [ F "goal" ]'

    def start_long_check(self, tmp, *extra):
        walk = write_walk(tmp)
        return subprocess.Popen([PMC, "check", "--model", walk, "--epsilon", "1e-15", "--max-iterations",
                                 "100000000000", *extra, "--property", self.QUICK, self.LONG],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def interrupt_after_first_result(self, run, sig):
        first = read_line_within(run.stdout, 30)
        self.assertTrue(first, "the first result did not reach the pipe before the second property ended")
        time.sleep(0.2)  # inside the long solve
        run.send_signal(sig)
        try:
            rest, err = run.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            run.kill()
            self.fail("pmc check did not end after the signal")
        return first + rest, err

    def test_sigint_keeps_the_results_already_printed(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = self.start_long_check(tmp)
            out, err = self.interrupt_after_first_result(run, signal.SIGINT)
            self.assertEqual(run.returncode, 130, err)
            self.assertIn(self.QUICK + ": ", out)
            self.assertNotIn(self.LONG, out)
            self.assertIn("pmc check: cancelled", err)

    def test_sigint_json_has_a_record_for_every_property(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = self.start_long_check(tmp, "--json")
            out, err = self.interrupt_after_first_result(run, signal.SIGINT)
            self.assertEqual(run.returncode, 130, err)
            records = [json.loads(line) for line in out.splitlines()]
            self.assertEqual([r["property"] for r in records], [self.QUICK, self.LONG])
            self.assertIn("value", records[0])
            self.assertEqual(records[1]["error_code"], "cancelled")
            self.assertIn("cancelled", err)

    def test_sigterm_cancels_too(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = self.start_long_check(tmp)
            out, err = self.interrupt_after_first_result(run, signal.SIGTERM)
            self.assertEqual(run.returncode, 128 + signal.SIGTERM, err)
            self.assertIn(self.QUICK + ": ", out)

    def test_json_record_for_every_property_failing_ones_with_error(self):
        run = pmc("check", "--model", DIE, "--json", "--property", 'P=? [ F "six"', 'P=? [ F "nope" ]',
                  'P=? [ F "six" ]', check=False)
        self.assertEqual(run.returncode, 1)
        records = [json.loads(line) for line in run.stdout.splitlines()]
        self.assertEqual(len(records), 3)
        self.assertEqual(records[0]["error_code"], "property")
        self.assertIn("column", records[0]["error"])
        self.assertEqual(records[1]["error_code"], "property")
        self.assertIn("nope", records[1]["error"])
        self.assertAlmostEqual(records[2]["value"], 1 / 6, places=6)
        self.assertNotIn("error", records[2])
        # A model that does not load: each property gets its record.
        run = pmc("check", "--model", "/no/such.tra", "--json", "--property", 'P=? [ F "a" ]', 'P=? [ F "b" ]',
                  check=False)
        self.assertEqual(run.returncode, 1)
        self.assertEqual([json.loads(l)["error_code"] for l in run.stdout.splitlines()], ["io", "io"])

    def test_load_warnings_are_reported(self):
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "stuck.pm")
            with open(source, "w") as f:
                f.write("dtmc\nmodule m\n  s : [0..2] init 0;\n  [] s=0 -> 0.5:(s'=1) + 0.5:(s'=2);\nendmodule\n"
                        "label \"one\" = s=1;\n")
            run = pmc("check", "--model", source, "--property", 'P=? [ F "one" ]')
            self.assertIn("pmc check: warning: ", run.stderr)
            self.assertIn("deadlock", run.stderr)
            self.assertIn("0.5", run.stdout)
            record = json.loads(pmc("check", "--model", source, "--json", "--property", 'P=? [ F "one" ]').stdout)
            self.assertTrue(any("deadlock" in w for w in record["warnings"]), record)

    def test_a_long_statement_in_a_properties_file_is_read_in_linear_time(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in [("spaces", 'P=? [ F "six" ]' + " " * 1_000_000),
                               ("parentheses", "P=? [ F " + "(" * 500_000 + '"six"' + ")" * 500_000 + " ]")]:
                path = os.path.join(tmp, name + ".props")
                with open(path, "w") as f:
                    f.write(text + "\n")
                began = time.monotonic()
                run = pmc("check", "--model", DIE, "--property-file", path, check=False)
                # Under a second (quadratic, the spaces alone took over 15 minutes);
                # sanitized builds run 3-10x slower.
                sanitized = "ASAN_OPTIONS" in os.environ or "UBSAN_OPTIONS" in os.environ
                self.assertLess(time.monotonic() - began, 5.0 if sanitized else 1.0, name)
                self.assertIn(run.returncode, (0, 1), name)  # a result, or "nested too deeply"


class ConvertOverInputs(unittest.TestCase):
    """`pmc convert` never writes over the files it reads."""

    def copy_die(self, tmp):
        for ext in (".tra", ".lab", ".srew"):
            shutil.copy(DIE[:-4] + ext, os.path.join(tmp, "die" + ext))
        return os.path.join(tmp, "die.tra")

    def contents(self, tmp):
        files = {}
        for name in sorted(os.listdir(tmp)):
            path = os.path.join(tmp, name)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as f:
                    files[name] = f.read()
        return files

    def test_same_file_symlink_and_hard_link_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            tra = self.copy_die(tmp)
            os.symlink(tra, os.path.join(tmp, "link.tra"))
            os.link(os.path.join(tmp, "die.lab"), os.path.join(tmp, "hard.lab"))
            shutil.copy(tra, os.path.join(tmp, "hard.tra"))
            before = self.contents(tmp)
            for out in ("die.tra", "link.tra", "hard.tra"):
                run = pmc("convert", tra, os.path.join(tmp, out), check=False)
                self.assertEqual(run.returncode, 2, out)
                self.assertIn("would overwrite the input", run.stderr, out)
            self.assertEqual(self.contents(tmp), before)
            pmcb = os.path.join(tmp, "die.pmcb")
            pmc("convert", tra, pmcb)
            run = pmc("convert", pmcb, pmcb, check=False)
            self.assertEqual(run.returncode, 2)
            self.assertIn("would overwrite the input", run.stderr)

    def test_a_converted_file_replaces_the_old_one_whole(self):
        with tempfile.TemporaryDirectory() as tmp:
            tra = self.copy_die(tmp)
            out = os.path.join(tmp, "out.pmcb")
            with open(out, "w") as f:
                f.write("an older file")
            pmc("convert", tra, out)
            self.assertEqual(json.loads(pmc("info", "--json", out).stdout)["states"], 13)
            self.assertEqual([n for n in os.listdir(tmp) if "pmc-tmp" in n], [])


if __name__ == "__main__":
    PMC = sys.argv.pop(1)
    exit_with_status(unittest.main(verbosity=2, exit=False).result)
