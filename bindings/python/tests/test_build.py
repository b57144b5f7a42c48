"""Models built from CSR arrays (Model.from_csr), with labels and rewards,
and checked against values worked out by hand."""

import array
import math
import unittest

import modelref  # noqa: F401  (puts this package first on sys.path)
import pmc


def chain():
    """DTMC: 0 -> 1 or 2 (1/2 each), 1 -> 3, 2 and 3 absorbing; goal = {3}."""
    return pmc.Model.from_csr(
        "dtmc",
        row_offsets=[0, 2, 3, 4, 5],
        columns=[1, 2, 3, 2, 3],
        values=[0.5, 0.5, 1.0, 1.0, 1.0],
        labels={"init": [0], "goal": [3]})


class DtmcTest(unittest.TestCase):
    def test_memory_limit_refuses_the_copy(self):
        with self.assertRaises(pmc.OutOfMemoryError) as caught:
            pmc.Model.from_csr("dtmc", [0, 1, 2], [1, 0], [1.0, 1.0], memory_limit=64)
        self.assertIn("pmc_model_build_csr", str(caught.exception))
        with pmc.Model.from_csr("dtmc", [0, 1, 2], [1, 0], [1.0, 1.0], memory_limit=1 << 20) as model:
            self.assertEqual(model.states, 2)

    def test_reachability_and_counts(self):
        with chain() as model:
            self.assertEqual(model.type, pmc.ModelType.DTMC)
            self.assertEqual((model.states, model.choices, model.transitions), (4, 4, 5))
            self.assertEqual(model.labels, ["init", "goal"])
            self.assertEqual(model.label_states("goal"), [3])
            result = model.check('P=? [ F "goal" ]')
            self.assertEqual(result.value, 0.5)
            self.assertEqual(result.values, [0.5, 1.0, 0.0, 1.0])

    def test_rewards_and_an_infinite_value(self):
        with chain() as model:
            model.add_rewards("steps", state_rewards=[1.0, 1.0, 1.0, 0.0])
            model.add_rewards("", choice_rewards=[2.0, 0.0, 0.0, 0.0])
            self.assertEqual(model.rewards, ["steps", ""])
            # From 0 the goal is missed with probability 1/2: the expected reward is infinite.
            result = model.check('R{"steps"}=? [ F "goal" ]')
            self.assertEqual(result.value, math.inf)
            self.assertEqual(result.values[1], 1.0)
            self.assertEqual(model.check('R{"steps"}=? [ C<=2 ]').value, 2.0)

    def test_labels_can_be_added_later(self):
        with chain() as model:
            model.add_label("stuck", array.array("Q", [2]))
            self.assertEqual(model.label_states("stuck"), [2])
            self.assertEqual(model.check('P=? [ F "stuck" ]').value, 0.5)

    def test_deadlocks_are_fixed_with_a_warning_or_rejected_strictly(self):
        args = dict(type="dtmc", row_offsets=[0, 1, 1], columns=[1], values=[1.0])
        with pmc.Model.from_csr(**args) as model:
            self.assertEqual(model.transitions, 2)  # the self-loop added to state 1
            self.assertEqual(len(model.warnings), 1)
        with self.assertRaises(pmc.ModelError):
            pmc.Model.from_csr(**args, strict=True)


class CtmcTest(unittest.TestCase):
    def test_exponential_delay(self):
        # 0 -> 1 at rate 2; 1 is absorbing.
        with pmc.Model.from_csr("ctmc", [0, 1, 1], [1], [2.0], labels={"init": [0], "done": [1]}) as model:
            self.assertEqual(model.type, "ctmc")
            self.assertAlmostEqual(model.check('P=? [ F<=1 "done" ]').value, 1 - math.exp(-2.0), delta=1e-9)
            model.add_rewards("time", state_rewards=[1.0, 0.0])
            self.assertAlmostEqual(model.check('R{"time"}=? [ F "done" ]').value, 0.5, delta=1e-9)
            self.assertAlmostEqual(model.check('S=? [ "done" ]').value, 1.0, delta=1e-9)


class MdpTest(unittest.TestCase):
    def make(self):
        # State 0 has two choices: reach 1 ("goal") with 0.3 or with 0.6, else
        # 2; states 1 and 2 are absorbing.
        return pmc.Model.from_csr(
            pmc.ModelType.MDP,
            row_offsets=[0, 2, 4, 5, 6],
            columns=[1, 2, 1, 2, 1, 2],
            values=[0.3, 0.7, 0.6, 0.4, 1.0, 1.0],
            row_groups=[0, 2, 3, 4],
            labels={"init": [0], "goal": [1]})

    def test_optimal_values_and_schedulers(self):
        with self.make() as model:
            self.assertEqual((model.states, model.choices, model.transitions), (3, 4, 6))
            high = model.check('Pmax=? [ F "goal" ]')
            low = model.check('Pmin=? [ F "goal" ]')
            self.assertAlmostEqual(high.value, 0.6, delta=1e-12)
            self.assertAlmostEqual(low.value, 0.3, delta=1e-12)
            self.assertEqual(high.scheduler[0], 1)
            self.assertEqual(low.scheduler[0], 0)
            self.assertEqual(len(high.scheduler), 3)

    def test_choice_rewards(self):
        with self.make() as model:
            model.add_rewards("cost", choice_rewards=[1.0, 5.0, 0.0, 0.0])
            self.assertEqual(model.check('R{"cost"}min=? [ C<=1 ]').value, 1.0)
            self.assertEqual(model.check('R{"cost"}max=? [ C<=1 ]').value, 5.0)

    def test_row_groups_are_required_and_checked(self):
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Model.from_csr("mdp", [0, 1], [0], [1.0])
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Model.from_csr("dtmc", [0, 1], [0], [1.0], row_groups=[0, 1])
        with self.assertRaises(pmc.ModelError):
            pmc.Model.from_csr("mdp", [0, 1, 2], [0, 0], [1.0, 1.0], row_groups=[0, 3])


class InputChecksTest(unittest.TestCase):
    """Array sizes are checked in Python: pmc would read past a short array."""

    def test_columns_and_values_must_match_row_offsets(self):
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Model.from_csr("dtmc", [0, 1, 2], [1], [1.0, 1.0])
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Model.from_csr("dtmc", [0, 1, 3], [1, 1], [1.0, 1.0])
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Model.from_csr("dtmc", [], [], [])

    def test_reward_arrays_must_fit_the_model(self):
        with chain() as model:
            for keyword, size in (("state_rewards", 3), ("choice_rewards", 5), ("transition_rewards", 4)):
                with self.subTest(keyword=keyword), self.assertRaises(pmc.InvalidArgumentError) as caught:
                    model.add_rewards("r", **{keyword: [1.0] * size})
                self.assertIn(keyword, str(caught.exception))
            self.assertEqual(model.rewards, [])

    def test_bad_values_and_types(self):
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Model.from_csr("dtmc", [0, 1], [-1], [1.0])  # a negative index cannot be a uint64
        with self.assertRaises(TypeError):
            pmc.Model.from_csr("dtmc", [0, 1], [0.5], [1.0])
        with self.assertRaises(TypeError):
            pmc.Model.from_csr("dtmc", [0, 1], [0], ["one"])
        with self.assertRaises(TypeError):
            pmc.Model.from_csr("dtmc", b"\x00\x01", [0], [1.0])
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Model.from_csr("pta", [0, 1], [0], [1.0])
        with self.assertRaises(TypeError):
            pmc.Model()

    def test_array_inputs(self):
        with pmc.Model.from_csr("dtmc", array.array("Q", [0, 1, 2]), array.array("Q", [1, 1]),
                                array.array("d", [1.0, 1.0]), labels={"init": [0], "b": [1]}) as model:
            self.assertEqual(model.check('P=? [ X "b" ]').value, 1.0)


class ParametricTest(unittest.TestCase):
    def test_parametric_ctmc(self):
        # 0 -> 1 at rate 1 + 2*a, 0 -> 2 at rate b.
        with pmc.Model.from_parametric_csr(
                row_offsets=[0, 2, 2, 2], columns=[1, 2], constants=[1.0, 0.0], parameters=["a", "b"],
                coefficients=[2.0, 0.0, 0.0, 1.0], lower=[0.0, 0.5], upper=[1.0, 2.0],
                labels={"init": [0]}) as model:
            self.assertEqual(model.type, pmc.ModelType.PCTMC)
            self.assertEqual(model.parameters, ["a", "b"])
            self.assertEqual((model.states, model.transitions), (3, 2))

    def test_coefficients_must_have_one_per_entry_and_parameter(self):
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Model.from_parametric_csr([0, 1, 1], [1], [1.0], ["a", "b"], [1.0])
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Model.from_parametric_csr([0, 1, 1], [1], [1.0], ["a"], [1.0], lower=[0.0, 1.0])

    def test_negative_rates_over_the_range_are_rejected(self):
        with self.assertRaises(pmc.ModelError):
            pmc.Model.from_parametric_csr([0, 1, 1], [1], [0.0], ["a"], [1.0], lower=[-1.0], upper=[1.0])


if __name__ == "__main__":
    unittest.main()
