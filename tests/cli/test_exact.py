#!/usr/bin/env python3
"""`pmc check --exact`: rationals from a source's own numbers, end to end.

Usage: test_exact.py PATH/TO/pmc   (meson passes it; PMC_SOURCE_ROOT locates
examples/, PMC_HAVE_GMP says whether the build has rational arithmetic)
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest
sys.set_int_max_str_digits(0)  # brp's probabilities have 11000 digits
from fractions import Fraction

PMC = None
ROOT = os.environ.get("PMC_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
HAVE_GMP = os.environ.get("PMC_HAVE_GMP", "1") == "1"
CONSENSUS = os.path.join(ROOT, "examples", "consensus", "consensus.nm")
MODELS = os.environ.get("PMC_MODELS") or os.environ.get("PMC_DEFAULT_MODELS_DIR", "")
# The manifest's models --exact is checked on: up to this many states (the
# consensus N=4 instances' 43136 take 12 s per property on 2 cores).
MAX_MANIFEST_STATES = 30000
BUDGET_MESSAGE = "passed its budget of 268435456 elimination steps"

# A walk on 0..2N started in the middle that value iteration cannot solve
# (the construction of Haddad and Monmege): from the middle it steps down
# with probability p, otherwise up; below the middle each step goes on down
# with probability 1/2 or back to the middle, above it on up or back. The
# bottom is reached with probability exactly p, whatever N.
WALK = """dtmc
const int N;
const double p;
module walk
  pos : [0..2*N] init N;
  [] pos=N -> p : (pos'=N-1) + (1-p) : (pos'=N+1);
  [] pos>0 & pos<N -> 1/2 : (pos'=pos-1) + 1/2 : (pos'=N);
  [] pos>N & pos<2*N -> 1/2 : (pos'=pos+1) + 1/2 : (pos'=N);
  [] pos=0 | pos=2*N -> true;
endmodule
label "bottom" = pos=0;
"""


def pmc(*args):
    return subprocess.run([PMC, *args], capture_output=True, text=True, timeout=300)


class Exact(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def source(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    @unittest.skipUnless(HAVE_GMP, "built without GMP")
    def test_the_walk_that_defeats_value_iteration_is_exactly_p(self):
        walk = self.source("walk.pm", WALK)
        for n, p in ((100, "0.7"), (100, "0.3"), (20, "1/3")):
            with self.subTest(n=n, p=p):
                run = pmc("check", "--model", walk, "--const", f"N={n},p={p}" if "/" not in p else f"N={n},p=0.25",
                          "--property", 'P=? [ F "bottom" ]', "--exact", "--json")
                self.assertEqual(run.returncode, 0, run.stderr)
                result = json.loads(run.stdout)
                expected = Fraction(p) if "/" not in p else Fraction(1, 4)
                self.assertEqual(Fraction(result["exact"]), expected)
                self.assertEqual(result["exact"], str(expected))
                self.assertEqual(result["solver"], "cpu.exact-pi")
                self.assertTrue(result["sound"])
                self.assertEqual(result["value"], float(expected))
                self.assertLessEqual(result["lower"], float(expected))
                self.assertGreaterEqual(result["upper"], float(expected))

    @unittest.skipUnless(HAVE_GMP, "built without GMP")
    def test_text_output_and_constants_as_fractions(self):
        # A constant defined as a fraction is exactly that fraction.
        walk = self.source("walk.pm", WALK.replace("const double p;", "const double p = 1/3;"))
        run = pmc("check", "--model", walk, "--const", "N=10", "--property", 'P=? [ F "bottom" ]', "--exact")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn('P=? [ F "bottom" ]: 1/3 (exact', run.stdout)
        self.assertIn("cpu.exact-pi", run.stdout)

    @unittest.skipUnless(HAVE_GMP, "built without GMP")
    def test_mdp_policies_and_rewards(self):
        for prop, expected in (('Pmax=? [ F "finished" & !"agree" ]', "13/120"),
                               ('Pmin=? [ F "finished" & "all_coins_equal_1" ]', "49/128"),
                               ('R{"steps"}max=? [ F "finished" ]', "75"),
                               ('R{"steps"}min=? [ F "finished" ]', "48")):
            with self.subTest(prop=prop):
                run = pmc("check", "--model", CONSENSUS, "--const", "K=2", "--property", prop, "--exact", "--json")
                self.assertEqual(run.returncode, 0, run.stderr)
                self.assertEqual(json.loads(run.stdout)["exact"], expected)

    @unittest.skipUnless(HAVE_GMP, "built without GMP")
    def test_bounds_are_decided_on_the_rationals(self):
        # The walk reaches the bottom with probability exactly p = 1/6. The
        # bound 0.16666666666666666 is below 1/6 and 0.16666666666666667
        # above it, though both are the double nearest 1/6: only the
        # rationals tell them apart.
        walk = self.source("walk.pm", WALK.replace("const double p;", "const double p = 1/6;"))
        cases = (
            ('P<=0.16666666666666666 [ F "bottom" ]', False),
            ('P<=0.16666666666666667 [ F "bottom" ]', True),
            ('P>0.16666666666666666 [ F "bottom" ]', True),
            ('P>=0.2 [ F "bottom" ]', False),
            ('T<=1e9 [ F "bottom" ]', False),  # the walk may end at the top: the time is infinite
        )
        for prop, satisfied in cases:
            with self.subTest(prop=prop):
                run = pmc("check", "--model", walk, "--const", "N=6", "--property", prop, "--exact", "--json")
                self.assertEqual(run.returncode, 0, run.stderr)
                record = json.loads(run.stdout.strip().splitlines()[-1])
                self.assertEqual(record["satisfied"], satisfied, record)
                self.assertTrue(record["sound"], record)
                if prop.startswith("P"):
                    self.assertEqual(record["exact"], "1/6", record)
        run = pmc("check", "--model", walk, "--const", "N=6", "--property", 'P<=0.16666666666666667 [ F "bottom" ]',
                  "--exact")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn(": true (value 1/6, exact)", run.stdout)
        # A bound from constants is evaluated in doubles: a note says how it was compared.
        run = pmc("check", "--model", walk, "--const", "N=6", "--property", 'P>=1/6 [ F "bottom" ]', "--exact", "--json")
        self.assertEqual(run.returncode, 0, run.stderr)
        record = json.loads(run.stdout.strip().splitlines()[-1])
        self.assertTrue(record["satisfied"], record)
        self.assertTrue(any("comes from constants" in note for note in record["notes"]), record["notes"])

    @unittest.skipUnless(HAVE_GMP, "built without GMP")
    def test_what_it_cannot_do_is_an_error(self):
        walk = self.source("walk.pm", WALK)
        cases = (
            # Not a property --exact computes.
            (walk, "N=5,p=0.5", 'P=? [ F<=10 "bottom" ]', "--exact computes P=? [ F ψ ]"),
            (walk, "N=5,p=0.5", 'P=? [ F P>0.5 [ F "bottom" ] ]', "--exact computes"),
            # A number without an exact value.
            (self.source("log.pm", WALK.replace("p : (pos'=N-1) + (1-p)", "log(p, 2)+1 : (pos'=N-1) + -log(p, 2)")),
             "N=5,p=0.5", 'P=? [ F "bottom" ]', "no exact rational value: a logarithm"),
            # Probabilities that sum to 1 only within rounding.
            (self.source("thirds.pm", WALK.replace("1/2 : (pos'=pos-1) + 1/2 : (pos'=N)",
                                                   "0.333 : (pos'=pos-1) + 0.667 : (pos'=N)")
                                          .replace("1/2 : (pos'=pos+1) + 1/2 : (pos'=N)",
                                                   "0.33333333333 : (pos'=pos+1) + 0.66666666666 : (pos'=N)")),
             "N=5,p=0.5", 'P=? [ F "bottom" ]', "not exactly 1"),
        )
        for model, constants, prop, message in cases:
            with self.subTest(prop=prop, model=os.path.basename(model)):
                run = pmc("check", "--model", model, "--const", constants, "--property", prop, "--exact")
                self.assertNotEqual(run.returncode, 0, run.stdout)
                self.assertIn(message, run.stderr)
                self.assertNotIn("Traceback", run.stderr)

    def test_a_solver_that_cannot_be_exact_and_a_parametric_ctmc_are_refused(self):
        walk = self.source("walk.pm", WALK)
        for solver in ("gpu", "cpu.jacobi", "gpu.interval-vi"):
            with self.subTest(solver=solver):
                run = pmc("check", "--model", walk, "--const", "N=5,p=0.5", "--property", 'P=? [ F "bottom" ]',
                          "--exact", "--solver", solver)
                self.assertEqual(run.returncode, 2, run.stdout)  # an invalid argument
                self.assertIn(f"--exact computes with cpu.exact-pi; the solver '{solver}' gives no exact results",
                              run.stderr)
        # --solver cpu.exact-pi is --exact.
        if HAVE_GMP:
            run = pmc("check", "--model", walk, "--const", "N=5,p=0.5", "--property", 'P=? [ F "bottom" ]',
                      "--solver", "cpu.exact-pi", "--json")
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertEqual(json.loads(run.stdout)["exact"], "1/2")
        sir = os.path.join(ROOT, "examples", "sir", "sir_20.drn")
        for extra in ((), ("--param", "ki=0.05,kr=0.04")):
            with self.subTest(extra=extra):
                run = pmc("check", "--model", sir, "--property", 'P=? [ F "extinct" ]', "--exact", *extra)
                self.assertEqual(run.returncode, 1, run.stdout)
                self.assertIn("--exact does not check parametric CTMCs", run.stderr)

    @unittest.skipIf(HAVE_GMP, "built with GMP")
    def test_without_gmp_it_says_so(self):
        run = pmc("check", "--model", CONSENSUS, "--const", "K=2", "--property", 'Pmax=? [ F "finished" ]', "--exact")
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("without GMP", run.stderr)

    @unittest.skipUnless(HAVE_GMP, "built without GMP")
    def test_manifest_properties_agree_with_prism(self):
        # Every manifest property --exact computes (unbounded P, R and T of
        # F/U), on its instance built from the PRISM-language source: the
        # rational rounds to PRISM's reference within 1e-6. An instance whose
        # exact solve outgrows the budget (herman N=13) must say so.
        path = os.path.join(MODELS, "manifest.tsv")
        if not MODELS or not os.path.exists(path):
            self.skipTest(f"no reference models ({path}); set PMC_MODELS to run this test")
        with open(path) as f:
            header = f.readline().rstrip("\n").split("\t")
            rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]
        checked = 0
        for row in rows:
            prop = row["property"]
            bounded = any(mark in prop for mark in ("<=", ">=", "F[", "U[", "C<", "I=", "[ S ]", "S=?", "LRA"))
            if bounded or int(row["states"]) > MAX_MANIFEST_STATES:
                continue
            folder = os.path.join(MODELS, row["model"], row["instance"])
            sources = sorted(n for n in os.listdir(folder) if n.startswith("model.")) if os.path.isdir(folder) else []
            if not sources:
                continue
            with self.subTest(instance=f"{row['model']}/{row['instance']}", prop=prop):
                args = ["check", "--model", os.path.join(folder, sources[0]), "--property", prop, "--exact", "--json"]
                if row["constants"]:
                    args += ["--const", row["constants"]]
                run = pmc(*args)
                if run.returncode != 0:
                    self.assertIn(BUDGET_MESSAGE, run.stderr)
                    continue
                result = json.loads(run.stdout.strip().splitlines()[-1])
                reference = row["reference_value"]
                if result["exact"] == "Infinity":
                    self.assertIn(reference, ("inf", "Infinity"))
                else:
                    ref = float(reference)
                    self.assertLessEqual(abs(float(Fraction(result["exact"])) - ref), 1e-6 * max(abs(ref), 1e-9))
                self.assertEqual(result["solver"], "cpu.exact-pi")
                checked += 1
        self.assertGreaterEqual(checked, 20)

    def test_help_lists_it(self):
        run = pmc("check", "--help")
        self.assertEqual(run.returncode, 0)
        self.assertIn("--exact", run.stdout)


if __name__ == "__main__":
    PMC = sys.argv.pop(1)
    unittest.main()
