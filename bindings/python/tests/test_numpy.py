"""Lists always; NumPy arrays only when NumPy is importable."""

import sys
import unittest
from unittest import mock

import modelref
import pmc

try:
    import numpy
except ImportError:
    numpy = None


def _consensus():
    row = next(r for r in modelref.rows("consensus", "N2_K2") if r.property.startswith("Pmax"))
    return row, pmc.load(row.transitions_file)


class WithoutNumpyTest(unittest.TestCase):
    """Runs whether or not NumPy is installed: it is hidden from the import system."""

    def test_lists_work_and_arrays_raise_a_clear_import_error(self):
        row, model = _consensus()
        with model, mock.patch.dict(sys.modules, {"numpy": None}):
            result = model.check(row.property)
            self.assertIsInstance(result.values, list)
            self.assertIsInstance(result.scheduler, list)
            self.assertIsInstance(result.bound_values()[0], list)
            for method in (result.values_array, result.scheduler_array, result.bound_values_array):
                with self.assertRaises(ImportError) as caught:
                    method()
                self.assertIn("NumPy", str(caught.exception))
                self.assertIn("result.values", str(caught.exception))
            # Building from plain sequences needs no NumPy either.
            with pmc.Model.from_csr("dtmc", [0, 1], [0], [1.0], labels={"init": [0]}) as tiny:
                self.assertEqual(tiny.check('P=? [ G "init" ]').values, [1.0])


@unittest.skipIf(numpy is None, "NumPy is not installed: the array forms are not tested")
class WithNumpyTest(unittest.TestCase):
    def test_arrays_equal_the_lists(self):
        row, model = _consensus()
        with model, model.check(row.property) as result:
            values = result.values_array()
            self.assertIsInstance(values, numpy.ndarray)
            self.assertEqual(values.dtype, numpy.float64)
            self.assertEqual(values.tolist(), result.values)
            scheduler = result.scheduler_array()
            self.assertEqual(scheduler.dtype, numpy.int64)
            self.assertEqual(scheduler.tolist(), result.scheduler)
            lower, upper = result.bound_values_array()
            self.assertEqual(lower.dtype, numpy.float64)
            self.assertEqual((lower.tolist(), upper.tolist()), result.bound_values())

    def test_numpy_inputs(self):
        offsets = numpy.array([0, 2, 3, 4], dtype=numpy.uint64)
        columns = numpy.array([1, 2, 1, 2], dtype=numpy.int64)  # converted, not reinterpreted
        values = numpy.array([0.25, 0.75, 1.0, 1.0])
        with pmc.Model.from_csr("dtmc", offsets, columns, values, labels={"init": [0], "b": numpy.array([1])}) as m:
            self.assertEqual(m.check('P=? [ F "b" ]').value, 0.25)
            m.add_rewards("r", state_rewards=numpy.ones(3))
            self.assertEqual(m.rewards, ["r"])


if __name__ == "__main__":
    unittest.main()
