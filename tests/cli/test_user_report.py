#!/usr/bin/env python3
"""What a new user hit (messages, exports, progress), end to end through `pmc`.

Usage: test_user_report.py PATH/TO/pmc   (meson passes it; PMC_SOURCE_ROOT locates examples/)
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from cli_support import exit_with_status, write_walk

PMC = None
ROOT = os.environ.get("PMC_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
DIE = os.path.join(ROOT, "examples", "die", "die.tra")
CONSENSUS = os.path.join(ROOT, "examples", "consensus", "consensus.nm")


def pmc(*args, check=True, env=None, stdin=None):
    run = subprocess.run([PMC, *args], capture_output=True, text=True, timeout=120, env=env, input=stdin)
    if check and run.returncode != 0:
        raise AssertionError(f"pmc {' '.join(args)} failed ({run.returncode}): {run.stderr}")
    return run


class NoGpu(unittest.TestCase):
    def test_a_machine_without_gpu_hears_no_gpu_start_up(self):
        # CUDA_VISIBLE_DEVICES="" hides every GPU on any machine.
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
        record = json.loads(pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--json", env=env).stdout)
        self.assertIn("no GPU: ", record["solver_reason"])
        self.assertNotIn("to start", record["solver_reason"])
        self.assertEqual(record["timings"]["gpu_startup"], 0.0)


class CallersLanguage(unittest.TestCase):
    def test_command_line_messages_name_flags(self):
        run = pmc("check", "--model", CONSENSUS, "--property", 'Pmax=? [ F "finished" ]', check=False)
        self.assertIn("set it with --const K=...", run.stderr)
        run = pmc("check", "--model", CONSENSUS, "--const", "K=2", "--max-states", "10", "--property",
                  'Pmax=? [ F "finished" ]', check=False)
        self.assertIn("--max-states N", run.stderr)
        self.assertNotIn("ExploreOptions", run.stderr)
        self.assertNotIn("pmc_options", run.stderr)

    def test_the_shell_names_its_own_commands(self):
        run = pmc(stdin=f"load {CONSENSUS}\n", check=False)
        self.assertIn("load FILE --const K=...", run.stderr)


class UnsupportedSyntax(unittest.TestCase):
    def test_each_construct_is_named(self):
        for prop, words in [('multi(P>=0.5 [ F "six" ], P>=0.2 [ F "one" ])', "multi(...)"),
                            ('P=? [ F "six" ] {"init"}', 'Storm\'s {"init"}'),
                            ("R=? [ C ]", "C without a bound"),
                            ('P=? [ G F "six" ]', "LTL"),
                            ('P=? [ "six" W "one" ]', "weak until (W)")]:
            run = pmc("check", "--model", DIE, "--property", prop, check=False)
            self.assertEqual(run.returncode, 1, prop)
            self.assertIn(words, run.stderr, prop)
            self.assertIn("is not supported", run.stderr, prop)
            record = json.loads(pmc("check", "--model", DIE, "--property", prop, "--json", check=False).stdout)
            self.assertEqual(record["error_code"], "unsupported", prop)


class ForgottenFlags(unittest.TestCase):
    def test_a_property_without_property_flag_is_named(self):
        run = pmc("check", "--model", DIE, 'P=? [ F "six" ]', check=False)
        self.assertEqual(run.returncode, 2)
        self.assertIn("looks like a property; give it with --property", run.stderr)

    def test_a_properties_file_beside_the_model_needs_no_flag(self):
        # As PRISM's `prism model.pm model.pctl`: a positional *.props,
        # *.prop, *.pctl, *.prctl or *.csl file is read as --property-file.
        with tempfile.TemporaryDirectory() as tmp:
            props = os.path.join(tmp, "die.pctl")
            with open(props, "w") as f:
                f.write('"six": P=? [ F "six" ];\n"flips": R{"coin_flips"}=? [ F "done" ];\n')
            out = pmc("check", DIE, props).stdout
            self.assertIn('"six": P=? [ F "six" ]: 0.1666', out)
            self.assertIn('"flips": R{"coin_flips"}=? [ F "done" ]: 3.666', out)
            out = pmc("check", "--model", DIE, props, "--property", "flips").stdout
            self.assertNotIn('"six"', out)
            self.assertIn('"flips"', out)
            run = pmc("check", DIE, props, "--property-file", props, check=False)
            self.assertEqual(run.returncode, 2)
            self.assertIn("two properties files given", run.stderr)
            run = pmc("check", props, check=False)
            self.assertEqual(run.returncode, 2)
            self.assertIn(f"no model given (use --model FILE...); {props} is a properties file", run.stderr)
            run = pmc("check", DIE, os.path.join(tmp, "missing.props"), check=False)
            self.assertEqual(run.returncode, 1)
            self.assertIn("missing.props: cannot open the properties file", run.stderr)

    def test_named_property_on_the_command_line(self):
        run = pmc("check", "--model", DIE, "--property", '"six": P=? [ F "six" ]')
        self.assertIn('"six": P=? [ F "six" ]: 0.1666', run.stdout)
        record = json.loads(pmc("check", "--model", DIE, "--property", '"six": P=? [ F "six" ]', "--json").stdout)
        self.assertEqual(record["name"], "six")
        run = pmc("check", "--model", DIE, "--property", '"six":', check=False)
        self.assertEqual(run.returncode, 1)
        self.assertIn('--property: property "six" has no formula after', run.stderr)

    def test_unreachable_epsilon_and_empty_solver(self):
        run = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--epsilon", "1e-300", check=False)
        self.assertEqual(run.returncode, 2)
        self.assertIn("double precision", run.stderr)
        run = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--solver", "", check=False)
        self.assertEqual(run.returncode, 2)
        self.assertIn("solver name is empty", run.stderr)


class Progress(unittest.TestCase):
    def test_a_long_solve_reports_on_a_pipe_with_progress(self):
        with tempfile.TemporaryDirectory() as tmp:
            # Seconds of sweeps, cut by the iteration limit (exit 3, not converged).
            walk = write_walk(tmp, n=2001)
            run = pmc("check", "--model", walk, "--epsilon", "1e-15", "--max-iterations", "150000",
                      "--solver", "cpu.interval-vi", "--property", 'P=? [ F "goal" ]', "--progress", check=False)
            self.assertIn(run.returncode, (0, 3), run.stderr)
            lines = [l for l in run.stderr.splitlines() if l.startswith("pmc: cpu.interval-vi")]
            self.assertTrue(lines, run.stderr)
            # The sound solver reports the gap between its bounds, never "residual 1".
            self.assertTrue(any(", gap " in l or "no upper bound yet" in l for l in lines), lines)
            self.assertFalse(any("residual" in l for l in lines), lines)


class Results(unittest.TestCase):
    def test_a_bound_prints_the_value_it_rests_on(self):
        out = pmc("check", "--model", DIE, "--property", 'P>=0.2 [ F "six" ]').stdout
        self.assertIn('P>=0.2 [ F "six" ]: false (value 0.16666669 ± 6e-08)', out)
        record = json.loads(pmc("check", "--model", DIE, "--property", 'P>=0.2 [ F "six" ]', "--json").stdout)
        self.assertFalse(record["satisfied"])
        self.assertAlmostEqual(record["value"], 1 / 6, places=6)
        self.assertLessEqual(record["lower"], 1 / 6)
        self.assertGreaterEqual(record["upper"], 1 / 6)

    def test_digits_follow_the_bounds_and_counts_their_number(self):
        out = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]').stdout
        self.assertIn("P=? [ F \"six\" ]: 0.16666669 ± 6e-08", out)
        record = json.loads(pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--json").stdout)
        self.assertEqual(record["value"], 0.1666666865348816)  # every digit in JSON
        out = pmc("check", "--model", DIE, "--property", 'P=? [ X "one" ]', "--solver", "cpu.steps").stdout
        self.assertNotIn("1 iterations", out)
        info = pmc("info", "--model", DIE).stdout
        self.assertIn('"six" (1 state)', info)

    def test_schedulers_and_vectors_one_file_per_property_with_variables(self):
        with tempfile.TemporaryDirectory() as tmp:
            sched, vector, table = (os.path.join(tmp, n) for n in ("s.txt", "v.tsv", "r.tsv"))
            pmc("check", "--model", CONSENSUS, "--const", "K=2", "--property", '"max": Pmax=? [ F "finished" & !"agree" ]',
                'Pmin=? [ F "finished" & "all_coins_equal_1" ]', "--scheduler", sched, "--export-vector", vector,
                "--export-results", table)
            self.assertEqual(sorted(os.listdir(tmp)), ["r.tsv", "s.2.txt", "s.max.txt", "v.2.tsv", "v.max.tsv"])
            with open(os.path.join(tmp, "s.max.txt")) as f:
                lines = f.read().splitlines()
            self.assertIn("Pmax", lines[0])
            self.assertEqual(len(lines), 2 + 272)
            self.assertRegex(lines[2], r"^0 -?\d+ \S+ \(.*counter=.*\)$")
            with open(os.path.join(tmp, "v.max.tsv")) as f:
                rows = f.read().splitlines()
            self.assertEqual(rows[1].split("\t"), ["state", "value", "lower", "upper", "variables"])
            cells = [r.split("\t") for r in rows[2:]]
            self.assertEqual(len(cells), 272)
            for state, value, lower, upper, variables in cells:
                self.assertLessEqual(float(lower), float(value), state)
                self.assertLessEqual(float(value), float(upper), state)
                self.assertIn("counter=", variables)
            # The initial state's value is the manifest's 13/120.
            self.assertTrue(any(abs(float(c[1]) - 13 / 120) < 1e-6 for c in cells))
            with open(table) as f:
                results = [r.split("\t") for r in f.read().splitlines()]
            self.assertEqual(results[0][:3], ["property", "name", "value"])
            self.assertEqual(results[1][1], "max")
            self.assertAlmostEqual(float(results[1][2]), 13 / 120, places=6)
            self.assertEqual(len(results), 3)
            # A property without a scheduler among several writes none; alone it is an error.
            pmc("check", "--model", CONSENSUS, "--const", "K=2", "--property", 'Pmax=? [ F<=5 "finished" ]',
                'Pmax=? [ F "finished" ]', "--scheduler", os.path.join(tmp, "b.txt"))
            self.assertTrue(os.path.exists(os.path.join(tmp, "b.2.txt")))
            self.assertFalse(os.path.exists(os.path.join(tmp, "b.1.txt")))
            run = pmc("check", "--model", CONSENSUS, "--const", "K=2", "--property", 'Pmax=? [ F<=5 "finished" ]',
                      "--scheduler", os.path.join(tmp, "c.txt"), check=False)
            self.assertIn("has no scheduler to write", run.stderr)

    def test_a_file_that_cannot_be_written_loses_only_the_file(self):
        for flag in ("--export-vector", "--export-results"):
            run = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', flag, "/nonexistent/dir/out.tsv",
                      check=False)
            self.assertEqual(run.returncode, 1, flag)
            self.assertIn("/nonexistent/dir/out.tsv: cannot open for writing", run.stderr, flag)
        run = pmc("check", "--model", DIE, "--property", 'P=? [ F "six" ]', "--export-vector",
                  "/nonexistent/dir/out.tsv", "--json", check=False)
        self.assertEqual(len(run.stdout.splitlines()), 1)  # the result's one record
        self.assertAlmostEqual(json.loads(run.stdout)["value"], 1 / 6, places=6)

    def test_the_shell_shows_a_result_per_state(self):
        run = pmc("-k", stdin=f'show result\nload {DIE}\ncheck P=? [ F "six" ]\nshow result 0 7\nshow result 99\n'
                  'show result abc\n', check=False)
        self.assertIn("no result to show: run `check` first", run.stderr)
        self.assertIn("show result takes state numbers, not 'abc'", run.stderr)
        rows = [r for r in run.stdout.splitlines() if r[:1].isdigit()]
        self.assertEqual([r.split("\t")[0] for r in rows], ["0", "7"])
        self.assertAlmostEqual(float(rows[0].split("\t")[1]), 1 / 6, places=6)
        self.assertIn("s=", rows[0])  # the die's variables
        self.assertIn("state 99 does not exist", run.stderr)


if __name__ == "__main__":
    PMC = sys.argv.pop(1)
    exit_with_status(unittest.main(verbosity=2, exit=False).result)
