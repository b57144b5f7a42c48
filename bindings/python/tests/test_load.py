"""Loading every format: PRISM explicit (with siblings, .gz, forced type,
explicit file lists), Storm DRN, pmc's .pmcb and UMB, and saving round trips."""

import gzip
import os
import pathlib
import shutil
import tempfile
import unittest

import modelref
import pmc

PROPERTY = 'R{"steps"}max=? [ F "finished" ]'


class PrismExplicitTest(unittest.TestCase):
    def test_tra_finds_its_siblings(self):
        row = modelref.rows("consensus", "N2_K2")[0]
        with pmc.load(row.transitions_file) as model:
            self.assertEqual(model.type, pmc.ModelType.MDP)
            self.assertEqual(model.type, "mdp")
            self.assertEqual((model.states, model.transitions, model.choices),
                             (row.states, row.transitions, row.choices))
            self.assertIn("init", model.labels)
            self.assertIn("finished", model.labels)
            self.assertEqual(model.rewards, ["steps"])
            self.assertEqual(model.parameters, [])
            self.assertEqual(len(model.initial_states), 1)

    def test_path_like_objects_are_accepted(self):
        row = modelref.rows("herman", "N7")[0]
        with pmc.load(pathlib.Path(row.transitions_file)) as model:
            self.assertEqual(model.type, pmc.ModelType.DTMC)
            self.assertEqual(model.states, row.states)

    def test_numbered_reward_files_give_named_structures(self):
        row = modelref.rows("kanban", "T1")[0]
        with pmc.load(row.transitions_file) as model:
            self.assertEqual(model.type, "ctmc")
            self.assertIn("throughput", model.rewards)
            self.assertEqual(len(model.rewards), 5)

    def test_an_explicit_file_list_reads_only_those_files(self):
        row = modelref.rows("consensus", "N2_K2")[0]
        stem = os.path.join(row.directory, "consensus")
        with pmc.load([stem + ".tra", stem + ".lab"]) as model:
            self.assertEqual(model.rewards, [])
            self.assertIn("finished", model.labels)
            self.assertEqual(model.states, row.states)

    def test_format_can_force_the_type(self):
        with tempfile.TemporaryDirectory() as tmp:
            tra = os.path.join(tmp, "chain.tra")  # no "# Transitions (X)" comment: the type is not in the file
            with open(tra, "w") as f:
                f.write("2 2\n0 1 1\n1 1 1\n")
            for fmt, expected in (("prism-dtmc", "dtmc"), ("prism-ctmc", "ctmc"), ("prism", "dtmc"), (None, "dtmc")):
                with self.subTest(format=fmt), pmc.load(tra, fmt) as model:
                    self.assertEqual(model.type, expected)

    def test_a_forced_type_contradicting_the_file_is_a_parse_error(self):
        row = modelref.rows("herman", "N7")[0]
        with self.assertRaises(pmc.ParseError) as caught:
            pmc.load(row.transitions_file, "prism-ctmc")
        self.assertIn("herman.tra", str(caught.exception))
        self.assertIn("ctmc", str(caught.exception))

    def test_gzipped_files(self):
        row = modelref.rows("leader_sync", "3_2")[0]
        with tempfile.TemporaryDirectory() as tmp:
            for name in row.files:
                source = os.path.join(row.directory, name)
                if name.endswith(".tra"):
                    with open(source, "rb") as f, gzip.open(os.path.join(tmp, name + ".gz"), "wb") as g:
                        shutil.copyfileobj(f, g)
                else:
                    shutil.copy(source, tmp)
            with pmc.load(os.path.join(tmp, "leader_sync.tra.gz")) as model:
                self.assertEqual(model.states, row.states)
                self.assertEqual(model.transitions, row.transitions)
                prop = next(r for r in modelref.rows("leader_sync", "3_2") if r.property.startswith("R"))
                self.assertTrue(prop.agrees(model.check(prop.property, epsilon=modelref.EPSILON).value))

    def test_deadlocks_get_a_warning_or_strictly_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            tra = os.path.join(tmp, "dead.tra")
            with open(tra, "w") as f:
                f.write("3 2\n0 1 0.5\n0 2 0.5\n")
            with pmc.load(tra) as model:
                self.assertEqual(model.type, "dtmc")
                self.assertEqual(len(model.warnings), 1)
                self.assertIn("self-loop", model.warnings[0])
            with self.assertRaises(pmc.ModelError) as caught:
                pmc.load(tra, strict=True)
            self.assertIn("strict", str(caught.exception))


class DrnTest(unittest.TestCase):
    def test_parametric_ctmc(self):
        path = modelref.instance_file("pctmc", "", "am_10_4.drn")
        with pmc.load(path) as model:
            self.assertEqual(model.type, pmc.ModelType.PCTMC)
            self.assertEqual((model.states, model.transitions), (120, 273))
            self.assertEqual(model.parameters, ["k1", "k2", "k3"])
            self.assertIn("correct", model.labels)

    def test_explicit_format(self):
        path = modelref.instance_file("pctmc", "", "am_10_4.drn")
        with tempfile.TemporaryDirectory() as tmp:
            renamed = os.path.join(tmp, "model.txt")
            shutil.copy(path, renamed)
            with self.assertRaises(pmc.InvalidArgumentError):
                pmc.load(renamed)  # no format, no known extension
            with pmc.load(renamed, "drn") as model:
                self.assertEqual(model.states, 120)


class SaveAndReloadTest(unittest.TestCase):
    """pmc_model_save writes .pmcb, UMB, DRN and PRISM explicit; reloading gives the same model and values."""

    @classmethod
    def setUpClass(cls):
        cls.row = next(r for r in modelref.rows("consensus", "N2_K2") if r.property == PROPERTY)
        cls.model = pmc.load(cls.row.transitions_file)
        cls.expected = cls.model.check(PROPERTY, epsilon=modelref.EPSILON, solver="cpu.vi").values
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.model.close()
        cls.tmp.cleanup()

    def round_trip(self, name, format=None, load_format=None):
        path = os.path.join(self.tmp.name, name)
        self.model.save(path, format)
        self.assertTrue(os.path.exists(path))
        with pmc.load(path, load_format) as again:
            self.assertEqual(again.type, self.model.type)
            self.assertEqual((again.states, again.choices, again.transitions),
                             (self.model.states, self.model.choices, self.model.transitions))
            self.assertEqual(again.rewards, self.model.rewards)
            result = again.check(PROPERTY, epsilon=modelref.EPSILON, solver="cpu.vi")
            self.assertTrue(self.row.agrees(result.value), result.value)
            self.assertEqual(result.values, self.expected)
        return path

    def test_pmcb(self):
        self.round_trip("model.pmcb")

    def test_umb(self):
        path = self.round_trip("model.umb")
        with open(path, "rb") as f:
            self.assertEqual(f.read(2), b"\x1f\x8b")  # a gzip'd tar, as PRISM writes UMB

    def test_pmcb_under_another_name(self):
        self.round_trip("model.bin", format="pmcb", load_format="pmcb")

    def test_prism_explicit_writes_the_siblings(self):
        self.round_trip("explicit.tra")
        for ext in (".lab", ".srew", ".trew"):
            self.assertTrue(os.path.exists(os.path.join(self.tmp.name, "explicit" + ext)), ext)

    def test_prism_explicit_gzipped(self):
        self.round_trip("packed.tra.gz")

    def test_drn(self):
        self.round_trip("model.drn")


EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples")
CONSENSUS = os.path.join(EXAMPLES, "consensus", "consensus.nm")


class PrismLanguageTest(unittest.TestCase):
    """PRISM-language sources through pmc_model_build_prism."""

    def test_build_with_constants(self):
        row = modelref.rows("consensus", "N2_K2")[0]
        for constants in ("K=2", {"K": 2}):
            with pmc.build_prism(CONSENSUS, constants) as model:
                self.assertEqual(model.type, "mdp")
                self.assertEqual((model.states, model.transitions, model.choices),
                                 (row.states, row.transitions, row.choices))
                self.assertIn("finished", model.labels)
                self.assertEqual(model.rewards, ["steps"])
        with pmc.build_prism(pathlib.Path(CONSENSUS), "K=2", threads=1, max_states=272) as model:
            self.assertAlmostEqual(model.check('Pmax=? [ F "finished" & !"agree" ]').value, 0.1083333333, delta=1e-6)

    def test_build_picks_the_explorer(self):
        with pmc.build_prism(CONSENSUS, "K=2", build="cpu") as on_cpu, pmc.build_prism(CONSENSUS, "K=2") as default:
            self.assertEqual((on_cpu.states, on_cpu.transitions, on_cpu.choices),
                             (default.states, default.transitions, default.choices))
        with self.assertRaises(pmc.InvalidArgumentError) as caught:
            pmc.build_prism(CONSENSUS, "K=2", build="tpu")
        self.assertIn("'tpu'", str(caught.exception))
        with self.assertRaises(TypeError):
            pmc.build_prism(CONSENSUS, "K=2", build=1)
        try:
            with pmc.build_prism(CONSENSUS, "K=2", build="gpu") as on_gpu:
                self.assertEqual(on_gpu.states, 272)
        except pmc.NoDeviceError as error:  # no GPU here: named as Python callers set it
            self.assertIn('build="gpu" needs a GPU', str(error))

    def test_load_by_extension(self):
        die = os.path.join(EXAMPLES, "die", "die.pm")
        with pmc.load(die) as model, pmc.build_prism(die) as built:
            self.assertEqual((model.states, model.transitions), (13, 20))
            self.assertEqual(built.states, 13)

    def test_errors_carry_the_parsers_message(self):
        with self.assertRaises(pmc.ParseError) as caught:
            pmc.build_prism(CONSENSUS)
        self.assertIn("constants=\"K=...\"", str(caught.exception))
        self.assertNotIn("--const", str(caught.exception))
        # Settings are named as Python callers give them.
        with self.assertRaises(pmc.ModelError) as caught:
            pmc.build_prism(CONSENSUS, "K=2", max_states=10)
        self.assertIn("max_states=N", str(caught.exception))
        self.assertNotIn("--max-states", str(caught.exception))
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.build_prism(CONSENSUS, "K=2,Q=1")
        with self.assertRaises(pmc.ModelError) as caught:
            pmc.build_prism(CONSENSUS, {"K": 2}, max_states=100)
        self.assertIn("100", str(caught.exception))
        with self.assertRaises(pmc.OutOfMemoryError) as caught:
            pmc.build_prism(CONSENSUS, {"K": 2}, memory_limit=4096)
        self.assertIn("more than the memory limit of 4.0 KiB", str(caught.exception))
        with self.assertRaises(pmc.FileError):
            pmc.build_prism("/nonexistent/model.nm")
        with self.assertRaises(TypeError):
            pmc.build_prism(CONSENSUS, 2)
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.pm")
            with open(bad, "w") as f:
                f.write("dtmc\nmodule m\n  x : [0..1] init 0;\n  [] x=0 -> (x'=1) (x'=0);\nendmodule\n")
            with self.assertRaises(pmc.ParseError) as caught:
                pmc.build_prism(bad)
            self.assertIn("bad.pm:4:", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
