"""Checking properties: manifest reference values for DTMCs, CTMCs and MDPs,
all values, results' attributes, MDP schedulers and options."""

import fractions
import math
import os
import threading
import unittest

import modelref
import pmc

_SOURCE_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")

# Every manifest instance up to this size: each loads and checks in well
# under 0.1 s (measured on 2 cores), so the whole table takes about a second.
_MAX_TRANSITIONS = 60000


class ReferenceValuesTest(unittest.TestCase):
    def test_manifest_properties_agree_with_prism(self):
        rows = [r for r in modelref.manifest() if r.transitions <= _MAX_TRANSITIONS]
        types = {r.type for r in rows}
        self.assertTrue({"dtmc", "ctmc", "mdp"} <= types, types)
        by_file = {}
        for row in rows:
            by_file.setdefault(row.transitions_file, []).append(row)
        for path, file_rows in by_file.items():
            with pmc.load(path) as model:
                self.assertEqual(model.type, file_rows[0].type)
                self.assertEqual(model.states, file_rows[0].states)
                self.assertEqual(model.transitions, file_rows[0].transitions)
                for row in file_rows:
                    with self.subTest(model=row.name, property=row.property):
                        with model.check(row.property, epsilon=modelref.EPSILON) as result:
                            self.assertTrue(row.agrees(result.value),
                                            f"{row.name} {row.property}: {result.value!r} vs {row.reference!r} "
                                            f"(solver {result.solver})")
                            self.assertTrue(result.converged)

    def test_one_of_each_type_with_a_named_solver(self):
        cases = [
            ("herman", "N7", 'R{"steps"}=? [ F "stable" ]', "cpu.jacobi"),
            ("cluster", "N2", 'P=? [ F<=10 !"minimum" ]', "cpu.steps"),
            ("tandem", "C15", 'R{"customers"}=? [ S ]', "cpu.gauss-seidel"),
            ("consensus", "N2_K2", 'Pmin=? [ F "finished" & "all_coins_equal_1" ]', "cpu.vi"),
        ]
        for model_name, instance, prop, solver in cases:
            row = next(r for r in modelref.rows(model_name, instance) if r.property == prop)
            with self.subTest(model=row.name, property=prop, solver=solver), pmc.load(row.transitions_file) as m:
                result = m.check(prop, solver=solver, epsilon=modelref.EPSILON)
                self.assertTrue(row.agrees(result.value), (result.value, row.reference))
                self.assertIn(solver, result.solver.split("+"))


class ResultTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.row = next(r for r in modelref.rows("herman", "N7") if r.property.startswith("R"))
        cls.model = pmc.load(cls.row.transitions_file)

    @classmethod
    def tearDownClass(cls):
        cls.model.close()

    def test_attributes(self):
        result = self.model.check(self.row.property, epsilon=modelref.EPSILON)
        self.assertIsInstance(result.value, float)
        self.assertIsInstance(result.iterations, int)
        self.assertGreater(result.iterations, 0)
        self.assertIsInstance(result.seconds, float)
        self.assertGreaterEqual(result.seconds, 0.0)
        self.assertTrue(result.solver)
        for name in result.solver.split("+"):
            self.assertIn(name, pmc.solvers() + ["none"])
        self.assertTrue(result.converged)
        self.assertFalse(result.is_boolean)
        initial = self.model.initial_states
        self.assertGreater(len(initial), 1)  # herman: every state is initial
        self.assertEqual(result.num_initial, len(initial))
        values = result.values
        self.assertEqual(result.value, values[initial[0]])
        self.assertEqual(result.initial_min, min(values[s] for s in initial))
        self.assertEqual(result.initial_max, max(values[s] for s in initial))
        self.assertIsInstance(result.sound, bool)
        self.assertEqual(result.bounds is not None, result.sound)
        self.assertEqual(result.property, self.row.property)
        self.assertEqual(float(result), result.value)
        self.assertIn("pmc.Result(", repr(result))
        result.close()

    def test_values_is_a_list_of_every_state(self):
        with self.model.check(self.row.property, epsilon=modelref.EPSILON) as result:
            values = result.values
            self.assertIsInstance(values, list)
            self.assertEqual(len(values), self.model.states)
            self.assertTrue(all(isinstance(v, float) for v in values))
            self.assertEqual(values[self.model.initial_states[0]], result.value)
            # Target states need no steps; every value is finite and >= 0.
            for state in self.model.label_states("stable"):
                self.assertEqual(values[state], 0.0)
            self.assertTrue(all(0.0 <= v < math.inf for v in values))
            values[0] = -1.0  # a copy: the result is unchanged
            self.assertNotEqual(result.values[0], -1.0)

    def test_boolean_property(self):
        with self.model.check('P>=0.5 [ F<=10 "stable" ]') as result:
            self.assertTrue(result.is_boolean)
            self.assertEqual(result.value, 1.0)  # the reference is 0.8757
            self.assertTrue(set(result.values) <= {0.0, 1.0})

    def test_no_scheduler_for_a_dtmc(self):
        with self.model.check(self.row.property) as result:
            self.assertFalse(result.has_scheduler)
            with self.assertRaises(pmc.UnsupportedError) as caught:
                result.scheduler  # noqa: B018
            self.assertIn("scheduler", str(caught.exception))

    def test_interval_iteration_gives_bounds(self):
        row = next(r for r in modelref.rows("consensus", "N2_K2") if r.property.startswith("Pmax"))
        with pmc.load(row.transitions_file) as model:
            result = model.check(row.property, solver="cpu.interval-vi", epsilon=1e-8)
            lower, upper = result.bounds
            slack = 1e-9 * max(abs(row.reference), 1e-9)
            self.assertLessEqual(lower, row.reference + slack)
            self.assertGreaterEqual(upper, row.reference - slack)


class SoundTest(unittest.TestCase):
    """Certified bounds, on Knuth's die of the source tree (P=? [ F "six" ] is 1/6)."""

    PROPERTY = 'P=? [ F "six" ]'

    @classmethod
    def setUpClass(cls):
        cls.model = pmc.load(os.path.join(_SOURCE_ROOT, "examples", "die", "die.tra"))

    @classmethod
    def tearDownClass(cls):
        cls.model.close()

    def test_default_results_are_sound_with_bounds_in_every_state(self):
        with self.model.check(self.PROPERTY) as result:
            self.assertIs(result.sound, True, result.solver)
            lower, upper = result.bounds
            self.assertLessEqual(lower, 1 / 6)
            self.assertGreaterEqual(upper, 1 / 6)
            self.assertLessEqual(lower, result.value)
            self.assertGreaterEqual(upper, result.value)
            lows, ups = result.bound_values()
            values = result.values
            self.assertIsInstance(lows, list)
            self.assertEqual(len(lows), self.model.states)
            self.assertEqual(len(ups), self.model.states)
            for state, value in enumerate(values):
                self.assertLessEqual(lows[state], value, state)
                self.assertGreaterEqual(ups[state], value, state)
            init = self.model.initial_states[0]
            self.assertEqual((lows[init], ups[init]), result.bounds)

    def test_unsound_options_and_solvers_give_no_bounds(self):
        # sound=False lets "auto" pick an unsound solver (cpu.gauss-seidel on
        # the CPU); a named unsound solver is unsound whatever the option.
        for settings in ({"sound": False}, {"solver": "cpu.gauss-seidel"}):
            with self.subTest(**settings), self.model.check(self.PROPERTY, **settings) as result:
                self.assertAlmostEqual(result.value, 1 / 6, delta=1e-5)
                self.assertIs(result.sound, False, result.solver)
                self.assertIsNone(result.bounds)
                with self.assertRaises(pmc.UnsupportedError):
                    result.bound_values()
        with self.model.check(self.PROPERTY, sound=True, solver="cpu.interval-vi") as result:
            self.assertTrue(result.sound)

    def test_sound_is_a_setting(self):
        with pmc.Options(sound=False) as options:
            self.assertEqual(options.settings, {"sound": False})
            self.assertIn("sound=False", repr(options))


class ExactTest(unittest.TestCase):
    """Options(exact=True): the value as a rational (pmc_result_exact)."""

    def test_exact_gives_the_rational(self):
        path = os.path.join(_SOURCE_ROOT, "examples", "die", "die.pm")
        with pmc.build_prism(path) as model:
            with model.check('P=? [ F "six" ]', exact=True) as result:
                self.assertEqual(result.exact, "1/6")
                self.assertEqual(fractions.Fraction(result.exact), fractions.Fraction(1, 6))
                self.assertEqual(result.solver, "cpu.exact-pi")
                self.assertTrue(result.sound)
                self.assertEqual(result.value, 1 / 6)
            with model.check('R{"coin_flips"}=? [ F "done" ]', exact=True) as result:
                self.assertEqual(result.exact, "11/3")
            with model.check('P=? [ F "six" ]') as result:
                self.assertIsNone(result.exact)
            with self.assertRaises(pmc.UnsupportedError) as caught:
                model.check('P=? [ F<=3 "six" ]', exact=True)
            self.assertIn("exact=True computes", str(caught.exception))
        with pmc.Options(exact=True) as options:
            self.assertEqual(options.settings, {"exact": True})
            self.assertIn("exact=True", repr(options))


class TimingsTest(unittest.TestCase):
    """Seconds by phase (pmc_result_phase_seconds) and releasing device copies."""

    @classmethod
    def setUpClass(cls):
        cls.model = pmc.load(os.path.join(_SOURCE_ROOT, "examples", "die", "die.tra"))

    @classmethod
    def tearDownClass(cls):
        cls.model.close()

    def test_timings_add_up_to_the_total(self):
        result = self.model.check('R{"coin_flips"}=? [ F "done" ]')
        result.close()  # read when the result is made: still there
        t = result.timings
        self.assertEqual(list(t), ["load", "gpu_startup", "precompute", "build", "transfer", "solve", "other",
                                   "total"])
        for name, seconds in t.items():
            self.assertIsInstance(seconds, float, name)
            self.assertGreaterEqual(seconds, 0.0, name)
        self.assertEqual(t["load"], 0.0)  # Model.check does not load the model
        self.assertLessEqual(abs(sum(t[p] for p in list(t)[:-1]) - t["total"]), 1e-9 * t["total"], t)
        self.assertLessEqual(abs(t["total"] - result.seconds), 1e-9 + 1e-9 * t["total"], t)

    def test_release_device(self):
        self.model.release_device()  # nothing to release: fine
        errors = []

        def work():
            try:
                for _ in range(10):
                    with self.model.check('P=? [ F "six" ]') as r:
                        self.assertAlmostEqual(r.value, 1 / 6, delta=1e-5)
            except Exception as e:  # reported below, on the test's thread
                errors.append(e)

        threads = [threading.Thread(target=work) for _ in range(2)]
        for t in threads:
            t.start()
        for _ in range(20):
            self.model.release_device()  # thread-safe beside checks
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        closed = pmc.load(os.path.join(_SOURCE_ROOT, "examples", "die", "die.tra"))
        closed.close()
        with self.assertRaises(pmc.ClosedError):
            closed.release_device()


def _read_mdp_tra(path):
    """{state: [[(target, probability), ...] per choice]} from a PRISM explicit MDP .tra."""
    choices = {}
    with open(path) as f:
        lines = (line for line in f if not line.startswith("#"))
        next(lines)  # header: states choices transitions
        for line in lines:
            fields = line.split()
            if not fields:
                continue
            state, choice, target, probability = int(fields[0]), int(fields[1]), int(fields[2]), float(fields[3])
            rows = choices.setdefault(state, [])
            while len(rows) <= choice:
                rows.append([])
            rows[choice].append((target, probability))
    return choices


class SchedulerTest(unittest.TestCase):
    """The scheduler pmc returns, applied to the MDP read here from its file,
    gives a DTMC whose reachability probability is the optimal value."""

    def check_scheduler(self, prefix):
        row = next(r for r in modelref.rows("consensus", "N2_K2") if r.property.startswith(prefix))
        choices = _read_mdp_tra(row.transitions_file)
        with pmc.load(row.transitions_file) as model:
            target = set(model.label_states("finished")) - set(model.label_states("agree"))
            result = model.check(row.property, epsilon=modelref.EPSILON)
            scheduler = result.scheduler
            self.assertTrue(result.has_scheduler)
            self.assertIsInstance(scheduler, list)
            self.assertEqual(len(scheduler), model.states)
            for state, choice in enumerate(scheduler):
                self.assertTrue(choice == -1 or 0 <= choice < len(choices[state]), (state, choice))
            # Value iteration on the induced DTMC (-1: every choice is optimal, take the first).
            x = [1.0 if s in target else 0.0 for s in range(model.states)]
            for _ in range(100000):
                new = [1.0 if s in target else
                       sum(p * x[t] for t, p in choices[s][max(scheduler[s], 0)]) for s in range(model.states)]
                change = max(abs(a - b) for a, b in zip(new, x))
                x = new
                if change < 1e-13:
                    break
            (initial,) = model.initial_states
            self.assertTrue(row.agrees(x[initial]), (x[initial], row.reference))
            self.assertAlmostEqual(x[initial], result.value, delta=1e-7)

    def test_pmax_scheduler_attains_the_maximum(self):
        self.check_scheduler('Pmax=? [ F "finished" & !"agree" ]')

    def test_a_reward_scheduler_is_a_full_list(self):
        row = next(r for r in modelref.rows("consensus", "N2_K2") if r.property.startswith('R{"steps"}min'))
        with pmc.load(row.transitions_file) as model, model.check(row.property) as result:
            self.assertEqual(len(result.scheduler), model.states)


class OptionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.row = next(r for r in modelref.rows("consensus", "N2_K2") if r.property.startswith("Pmax"))
        cls.model = pmc.load(cls.row.transitions_file)

    @classmethod
    def tearDownClass(cls):
        cls.model.close()

    def test_an_options_object_can_be_reused(self):
        with pmc.Options(solver="cpu.vi", epsilon=1e-10, relative=False, max_iterations=100000, threads=1) as opts:
            self.assertEqual(opts.settings["solver"], "cpu.vi")
            self.assertIn("cpu.vi", repr(opts))
            first = self.model.check(self.row.property, opts)
            second = self.model.check(self.row.property, options=opts)
            self.assertEqual(first.values, second.values)
            self.assertEqual(first.solver, "cpu.vi")
            self.assertTrue(self.row.agrees(first.value))

    def test_options_and_keywords_do_not_mix(self):
        with pmc.Options() as opts, self.assertRaises(TypeError):
            self.model.check(self.row.property, opts, epsilon=1e-8)

    def test_unknown_keyword_is_a_type_error(self):
        with self.assertRaises(TypeError):
            self.model.check(self.row.property, tolerance=1e-8)

    def test_iteration_limit_raises_with_the_unconverged_result(self):
        with self.assertRaises(pmc.NotConvergedError) as caught:
            self.model.check(self.row.property, solver="cpu.vi", max_iterations=3)
        error = caught.exception
        self.assertEqual(error.status, pmc.Status.NOT_CONVERGED)
        self.assertIn("3 iterations", str(error))
        self.assertIsNotNone(error.result)
        self.assertFalse(error.result.converged)
        self.assertEqual(len(error.result.values), self.model.states)
        error.result.close()

    def test_memory_limit_refuses_a_check_before_allocating(self):
        with self.assertRaises(pmc.OutOfMemoryError) as caught:
            self.model.check(self.row.property, memory_limit=1024)
        self.assertIsInstance(caught.exception, MemoryError)
        message = str(caught.exception)
        self.assertIn("memory limit of 1.0 KiB", message)
        self.assertIn("memory_limit", message.replace("memory-limit", "memory_limit"))
        # The default (the machine's memory) and a generous limit check it.
        self.assertTrue(self.row.agrees(self.model.check(self.row.property, memory_limit=1 << 30).value))
        self.assertTrue(self.row.agrees(self.model.check(self.row.property).value))

    def test_gpu_solver_without_a_gpu(self):
        if pmc.devices():
            self.skipTest("this machine has a GPU")
        with self.assertRaises(pmc.NoDeviceError) as caught:
            self.model.check(self.row.property, solver="gpu.vi")
        self.assertEqual(caught.exception.status, pmc.Status.NO_DEVICE)
        self.assertTrue(caught.exception.message)

    def test_gpu_solver_with_a_gpu(self):
        if not pmc.devices():
            self.skipTest(f"no GPU: {pmc.devices().reason}")
        result = self.model.check(self.row.property, solver="gpu.vi", epsilon=modelref.EPSILON)
        self.assertTrue(self.row.agrees(result.value))
        self.assertEqual(result.solver, "gpu.vi")


if __name__ == "__main__":
    unittest.main()


class ParameterPointTest(unittest.TestCase):
    """A parametric CTMC checked at a point, against PRISM's value."""

    def test_point_matches_prism(self):
        path = modelref.instance_file("pctmc", "", "am_10_4.drn")
        prop = 'P=? [ F[100,100] "correct" ]'
        with pmc.load(path) as model:
            with model.check(prop, parameters={"k1": 3, "k2": 30, "k3": 60}) as result:
                self.assertAlmostEqual(result.value, 0.8281606456376895, delta=1e-7)
            with self.assertRaises(pmc.InvalidArgumentError) as missing:
                model.check(prop, parameters={"k1": 3, "k2": 30})
            self.assertIn("no value for k3", str(missing.exception))
            with self.assertRaises(pmc.InvalidArgumentError) as outside:
                model.check(prop, parameters={"k1": -1, "k2": 30, "k3": 1})
            self.assertIn("outside its range", str(outside.exception))
            with self.assertRaises(pmc.InvalidArgumentError):
                model.check(prop)  # no point: use pmc synth or parameters
        with self.assertRaises(TypeError):
            pmc.Options(parameters=[("k1", 1)])


class PropertyConstantsTest(unittest.TestCase):
    """Constants a property names (F<=T, P>=p), given with the options (pmc_options_set_constants)."""

    def test_constants_become_bounds(self):
        with pmc.load(os.path.join(_SOURCE_ROOT, "examples", "die", "die.tra")) as model:
            prop = 'P=? [ F<=T "done" ]'
            with model.check(prop, constants={"T": 3}) as result:
                self.assertEqual(result.value, 0.75)  # two coin flips, then done in 3 of 4 cases
            with model.check(prop, constants="T=5") as result:
                self.assertEqual(result.value, 0.9375)
            with self.assertRaises(pmc.PropertyError) as missing:
                model.check(prop)
            self.assertIn("time bound T reads 'T', which is no constant", str(missing.exception))
            with self.assertRaises(pmc.PropertyError) as double:
                model.check(prop, constants={"T": 3.0})
            self.assertIn("is a double", str(double.exception))
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Options(constants="T=x+1")
        with self.assertRaises(TypeError):
            pmc.Options(constants=[("T", 1)])


class DeviceListOptionsTest(unittest.TestCase):
    """The device-list options of the C ABI (pmc_options_set_devices, _all_devices)."""

    def test_devices_are_checked_when_set(self):
        with pmc.Options(devices=[0, 1], all_devices=True) as options:
            self.assertEqual(options.settings["devices"], [0, 1])
        with pmc.Options(devices=[]):
            pass
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Options(devices=[0, 0])  # listed twice
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Options(devices=[5000])

    def test_cpu_check_ignores_them(self):
        with pmc.load(os.path.join(_SOURCE_ROOT, "examples", "die", "die.tra")) as model:
            with model.check('P=? [ F "six" ]', solver="cpu", devices=[0], all_devices=False) as result:
                self.assertAlmostEqual(result.value, 1 / 6, delta=1e-6)
