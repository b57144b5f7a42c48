"""Each failure raises the right pmc.Error subclass with pmc's own message."""

import os
import pickle
import tempfile
import threading
import unittest

import modelref
import pmc
from pmc import errors


class FileErrorsTest(unittest.TestCase):
    def test_missing_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "missing.tra")
            with self.assertRaises(pmc.FileError) as caught:
                pmc.load(path)
        e = caught.exception
        self.assertIsInstance(e, OSError)
        self.assertIsInstance(e, pmc.Error)
        self.assertEqual(e.status, pmc.Status.IO)
        self.assertIn(path, str(e))
        self.assertEqual(str(e), e.message)

    def test_malformed_file_names_the_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.tra")
            with open(path, "w") as f:
                f.write("3 2\n0 1 0.5\n0 two 0.5\n")
            with self.assertRaises(pmc.ParseError) as caught:
                pmc.load(path)
        e = caught.exception
        self.assertIsInstance(e, ValueError)
        self.assertEqual(e.status, pmc.Status.PARSE)
        self.assertIn("bad.tra:3", str(e))

    def test_row_sums_in_a_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "sums.tra")
            with open(path, "w") as f:
                f.write("2 2\n0 1 0.5\n1 1 1\n")  # row 0 sums to 0.5
            with self.assertRaises(pmc.ParseError) as caught:
                pmc.load(path)
        self.assertIn("sums.tra", str(caught.exception))
        self.assertIn("sum to 0.5", str(caught.exception))

    def test_invalid_model_data(self):
        with self.assertRaises(pmc.ModelError) as caught:
            pmc.Model.from_csr("dtmc", [0, 1, 2], [1, 1], [0.5, 1.0])
        self.assertIsInstance(caught.exception, ValueError)
        self.assertEqual(caught.exception.status, pmc.Status.MODEL)
        self.assertIn("state 0", str(caught.exception))

    def test_unknown_format_name(self):
        row = modelref.rows("herman", "N7")[0]
        with self.assertRaises(pmc.InvalidArgumentError) as caught:
            pmc.load(row.transitions_file, "xml")
        self.assertIn("unknown model format 'xml'", str(caught.exception))

    def test_not_a_pmcb_file(self):
        row = modelref.rows("herman", "N7")[0]
        with self.assertRaises(pmc.ParseError) as caught:
            pmc.load(row.transitions_file, "pmcb")
        self.assertIn("not a pmc model file", str(caught.exception))

    def test_saving_into_a_missing_directory(self):
        row = modelref.rows("herman", "N7")[0]
        with pmc.load(row.transitions_file) as model, tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(pmc.FileError):
                model.save(os.path.join(tmp, "no", "such", "dir", "m.pmcb"))


class PropertyErrorsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = pmc.load(modelref.rows("consensus", "N2_K2")[0].transitions_file)

    @classmethod
    def tearDownClass(cls):
        cls.model.close()

    def test_syntax_error_gives_the_column(self):
        with self.assertRaises(pmc.PropertyError) as caught:
            self.model.check('Pmax=? [ F ')
        e = caught.exception
        self.assertIsInstance(e, ValueError)
        self.assertEqual(e.status, pmc.Status.PROPERTY)
        self.assertIn("column", str(e))

    def test_unknown_label_is_named(self):
        with self.assertRaises(pmc.PropertyError) as caught:
            self.model.check('Pmax=? [ F "nolabel" ]')
        self.assertIn('"nolabel"', str(caught.exception))

    def test_unknown_reward_structure(self):
        with self.assertRaises(pmc.PropertyError) as caught:
            self.model.check('R{"nope"}max=? [ F "finished" ]')
        self.assertIn('"nope"', str(caught.exception))

    def test_unsupported_property(self):
        with self.assertRaises(pmc.UnsupportedError) as caught:
            self.model.check('multi(Pmax=? [ F "finished" ], Pmax=? [ F "finished" ])')
        self.assertEqual(caught.exception.status, pmc.Status.UNSUPPORTED)
        self.assertIn("multi-objective", str(caught.exception))

    def test_long_run_average_of_an_mdp_needs_min_or_max(self):
        with self.assertRaises(pmc.PropertyError) as caught:
            self.model.check('S=? [ "finished" ]')
        self.assertIn("LRAmin=? or LRAmax=?", str(caught.exception))
        self.assertAlmostEqual(self.model.check('LRAmax=? [ "finished" ]').value, 1.0, delta=1e-6)

    def test_property_must_be_text(self):
        with self.assertRaises(TypeError):
            self.model.check(b'Pmax=? [ F "finished" ]')

    def test_unknown_label_in_a_query(self):
        with self.assertRaises(pmc.InvalidArgumentError):
            self.model.label_states("nolabel")


class OptionErrorsTest(unittest.TestCase):
    def test_epsilon_out_of_range_carries_pmcs_message(self):
        with self.assertRaises(pmc.InvalidArgumentError) as caught:
            pmc.Options(epsilon=2.0)
        e = caught.exception
        self.assertIsInstance(e, ValueError)
        self.assertEqual(e.status, pmc.Status.INVALID_ARGUMENT)
        self.assertTrue(str(e).startswith("epsilon 2 is outside [1e-15, 1)"), str(e))

    def test_epsilon_too_small_to_reach_and_empty_solver_are_refused(self):
        with self.assertRaises(pmc.InvalidArgumentError) as caught:
            pmc.Options(epsilon=1e-300)
        self.assertIn("double precision", str(caught.exception))
        with self.assertRaises(pmc.InvalidArgumentError) as caught:
            pmc.Options(solver="")
        self.assertIn("solver name is empty", str(caught.exception))

    def test_unknown_solver_lists_the_known_ones(self):
        with self.assertRaises(pmc.InvalidArgumentError) as caught:
            pmc.Options(solver="cpu.magic")
        self.assertIn("cpu.magic", str(caught.exception))
        self.assertIn("cpu.jacobi", str(caught.exception))

    def test_bad_option_through_check_keywords(self):
        row = modelref.rows("herman", "N7")[0]
        with pmc.load(row.transitions_file) as model:
            with self.assertRaises(pmc.InvalidArgumentError) as caught:
                model.check(row.property, max_iterations=0)
            self.assertIn("max_iterations", str(caught.exception))
            with self.assertRaises(pmc.InvalidArgumentError):
                model.check(row.property, row_sum_tolerance=0.5)

    def test_negative_counts_are_refused_before_reaching_c(self):
        # ctypes would silently wrap -1 to 2^64 - 1.
        for keyword in ("max_iterations", "threads", "device", "gpu_memory_limit", "memory_limit"):
            with self.subTest(keyword=keyword), self.assertRaises(pmc.InvalidArgumentError) as caught:
                pmc.Options(**{keyword: -1})
            self.assertIn(keyword, str(caught.exception))

    def test_wrong_types_are_type_errors(self):
        for keywords in ({"threads": "4"}, {"threads": 2.5}, {"epsilon": "small"}, {"solver": 3},
                         {"progress": 42}, {"max_iterations": True}):
            with self.subTest(**{k: repr(v) for k, v in keywords.items()}), self.assertRaises(TypeError):
                pmc.Options(**keywords)


class ErrorObjectTest(unittest.TestCase):
    def test_every_status_has_its_class(self):
        expected = {
            pmc.Status.INVALID_ARGUMENT: (pmc.InvalidArgumentError, ValueError),
            pmc.Status.IO: (pmc.FileError, OSError),
            pmc.Status.PARSE: (pmc.ParseError, ValueError),
            pmc.Status.MODEL: (pmc.ModelError, ValueError),
            pmc.Status.PROPERTY: (pmc.PropertyError, ValueError),
            pmc.Status.UNSUPPORTED: (pmc.UnsupportedError, pmc.Error),
            pmc.Status.OUT_OF_MEMORY: (pmc.OutOfMemoryError, MemoryError),
            pmc.Status.NO_DEVICE: (pmc.NoDeviceError, pmc.Error),
            pmc.Status.DEVICE: (pmc.DeviceError, pmc.Error),
            pmc.Status.NOT_CONVERGED: (pmc.NotConvergedError, pmc.Error),
            pmc.Status.CANCELLED: (pmc.CancelledError, pmc.Error),
            pmc.Status.INTERNAL: (pmc.InternalError, pmc.Error),
        }
        for status, (cls, python_base) in expected.items():
            e = errors.error_for(status, "what went wrong")
            self.assertIs(type(e), cls)
            self.assertIsInstance(e, python_base)
            self.assertIsInstance(e, pmc.Error)
            self.assertEqual(e.status, status)
            self.assertEqual(str(e), "what went wrong")

    def test_errors_pickle_with_their_status(self):
        for e in (errors.error_for(pmc.Status.IO, "m.tra: no such file"),
                  errors.error_for(pmc.Status.PROPERTY, "column 3: oops"),
                  pmc.ClosedError("the model is closed"), pmc.LibraryError("not found")):
            again = pickle.loads(pickle.dumps(e))
            self.assertIs(type(again), type(e))
            self.assertEqual((str(again), again.message, again.status), (str(e), e.message, e.status))

    def test_an_empty_message_falls_back_to_the_status_name(self):
        self.assertEqual(str(errors.error_for(pmc.Status.CANCELLED, "")), "cancelled")

    def test_unknown_status(self):
        e = errors.error_for(99, "odd")
        self.assertIs(type(e), pmc.Error)
        self.assertIsNone(e.status)
        self.assertIn("99", str(e))

    def test_messages_are_per_thread(self):
        # pmc_last_error() is thread-local: failures on several threads at
        # once each report their own message.
        row = modelref.rows("consensus", "N2_K2")[0]
        model = pmc.load(row.transitions_file)
        failures = []

        def fail_repeatedly(label):
            for _ in range(50):
                try:
                    model.check(f'Pmax=? [ F "{label}" ]')
                except pmc.PropertyError as e:
                    if f'"{label}"' not in str(e):
                        failures.append((label, str(e)))
                else:
                    failures.append((label, "no error"))

        threads = [threading.Thread(target=fail_repeatedly, args=(f"missing{i}",)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        model.close()
        self.assertEqual(failures, [])


if __name__ == "__main__":
    unittest.main()
