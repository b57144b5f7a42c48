"""Freeing, use after close, threads, cancellation and progress."""

import gc
import os
import signal
import threading
import time
import unittest

import modelref
import pmc

# About 7M uniformisation steps on tandem C15 (20 s on one core), starting
# at once: only ever run to be cancelled. (A larger bound spends seconds in
# Fox-Glynn before the first iteration.)
_LONG_PROPERTY = 'P=? [ F<=100000 "full_all" ]'


def _long_model():
    return pmc.load(modelref.rows("tandem", "C15")[0].transitions_file)


def _when_running(action):
    """A progress callback that calls `action` (on a new thread) once the
    check has been solving for 0.2 s, and the Event set at that moment."""
    started = threading.Event()

    def progress(_report):
        if not started.is_set():
            started.set()
            threading.Thread(target=action).start()

    return progress, started


class CloseTest(unittest.TestCase):
    def setUp(self):
        self.row = next(r for r in modelref.rows("consensus", "N2_K2") if r.property.startswith("Pmax"))

    def test_close_twice_and_use_after_close(self):
        model = pmc.load(self.row.transitions_file)
        self.assertFalse(model.closed)
        model.close()
        model.close()
        self.assertTrue(model.closed)
        self.assertEqual(repr(model), "pmc.Model(closed)")
        uses = [lambda: model.states, lambda: model.transitions, lambda: model.type, lambda: model.labels,
                lambda: model.check(self.row.property), lambda: model.save("/tmp/never-written.pmcb"),
                lambda: model.add_label("x", [0]), lambda: model.label_states("init")]
        for use in uses:
            with self.assertRaises(pmc.ClosedError) as caught:
                use()
            self.assertIsInstance(caught.exception, ValueError)
            self.assertIn("model is closed", str(caught.exception))
        self.assertFalse(os.path.exists("/tmp/never-written.pmcb"))

    def test_context_manager_closes(self):
        with pmc.load(self.row.transitions_file) as model:
            pass
        self.assertTrue(model.closed)
        with self.assertRaises(pmc.ClosedError):
            model.states  # noqa: B018

    def test_results_outlive_their_model(self):
        with pmc.load(self.row.transitions_file) as model:
            result = model.check(self.row.property)
            initial = model.initial_states[0]
        values = result.values
        self.assertEqual(len(values), self.row.states)
        self.assertEqual(len(result.scheduler), self.row.states)
        result.close()
        result.close()
        self.assertTrue(result.closed)
        # Scalars stay; per-state data needed the C result.
        self.assertEqual(result.value, values[initial])
        with self.assertRaises(pmc.ClosedError) as caught:
            result.values  # noqa: B018
        self.assertIn("result is closed", str(caught.exception))
        with self.assertRaises(pmc.ClosedError):
            result.scheduler  # noqa: B018

    def test_closed_options(self):
        options = pmc.Options(epsilon=1e-8)
        options.close()
        options.close()
        with pmc.load(self.row.transitions_file) as model, self.assertRaises(pmc.ClosedError):
            model.check(self.row.property, options)
        with self.assertRaises(pmc.ClosedError):
            options.cancel()

    def test_garbage_collection_frees(self):
        # Dropped models, results and options are freed by __del__.
        freed = []
        for _ in range(50):
            model = pmc.load(self.row.transitions_file)
            result = model.check(self.row.property, pmc.Options(threads=1))
            handle = model._handle
            del model, result
            gc.collect()
            freed.append(handle.closed and handle._ptr is None)
        self.assertTrue(all(freed))


class ThreadsTest(unittest.TestCase):
    def test_one_model_checked_by_many_threads(self):
        rows = [r for r in modelref.rows("consensus", "N2_K2")]
        model = pmc.load(rows[0].transitions_file)
        expected = {r.property: model.check(r.property, epsilon=modelref.EPSILON).values for r in rows}
        failures = []

        def work(offset):
            for i in range(20):
                row = rows[(i + offset) % len(rows)]
                try:
                    if model.check(row.property, epsilon=modelref.EPSILON).values != expected[row.property]:
                        failures.append(row.property)
                except pmc.Error as e:
                    failures.append(f"{row.property}: {e}")

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        model.close()
        self.assertEqual(failures, [])

    def test_close_while_another_thread_checks(self):
        model = _long_model()
        started = threading.Event()
        options = pmc.Options(threads=1, progress=lambda _: started.set())
        outcome = []

        def work():
            try:
                model.check(_LONG_PROPERTY, options)
                outcome.append("finished")
            except BaseException as e:  # noqa: B036
                outcome.append(e)

        worker = threading.Thread(target=work)
        worker.start()
        self.assertTrue(started.wait(30))
        model.close()  # deferred: the running check keeps the C model alive
        self.assertTrue(model.closed)
        with self.assertRaises(pmc.ClosedError):
            model.states  # noqa: B018
        with self.assertRaises(pmc.Error) as caught:
            model.add_label("x", [0])
        self.assertIsInstance(caught.exception, pmc.ClosedError)
        self.assertIsNotNone(model._handle._ptr, "freed under a running check")
        options.cancel()
        worker.join(30)
        self.assertFalse(worker.is_alive())
        self.assertEqual(len(outcome), 1)
        self.assertIsInstance(outcome[0], pmc.CancelledError)
        self.assertIsNone(model._handle._ptr, "not freed by the last user")
        options.close()

    def test_changing_a_model_in_use_is_refused(self):
        model = _long_model()
        started = threading.Event()
        options = pmc.Options(threads=1, progress=lambda _: started.set())
        worker = threading.Thread(target=lambda: self.assertRaises(pmc.CancelledError, model.check,
                                                                   _LONG_PROPERTY, options))
        worker.start()
        self.assertTrue(started.wait(30))
        try:
            with self.assertRaises(pmc.Error) as caught:
                model.add_label("late", [0])
            self.assertIn("in use", str(caught.exception))
        finally:
            options.cancel()
            worker.join(30)
        model.add_label("late", [0])  # free again
        self.assertIn("late", model.labels)
        model.close()


class CancellationTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = _long_model()

    @classmethod
    def tearDownClass(cls):
        cls.model.close()

    def test_cancel_from_another_thread(self):
        with pmc.Options(threads=1) as options:
            timer = threading.Timer(0.3, options.cancel)
            timer.start()
            start = time.monotonic()
            with self.assertRaises(pmc.CancelledError) as caught:
                self.model.check(_LONG_PROPERTY, options)
            self.assertLess(time.monotonic() - start, 20)
            self.assertEqual(caught.exception.status, pmc.Status.CANCELLED)
            # The flag stays set until reset, as in C.
            with self.assertRaises(pmc.CancelledError):
                self.model.check('P=? [ F<=1 "full_all" ]', options)
            options.reset_cancel()
            self.assertGreaterEqual(self.model.check('P=? [ F<=1 "full_all" ]', options).value, 0.0)

    def test_ctrl_c_cancels_the_check(self):
        def interrupt():
            # A process-directed SIGINT, as a terminal sends: any thread may receive it.
            os.kill(os.getpid(), signal.SIGINT)

        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            progress, started = _when_running(interrupt)
            start = time.monotonic()
            with self.assertRaises(KeyboardInterrupt):
                self.model.check(_LONG_PROPERTY, threads=1, progress=progress)
            self.assertTrue(started.is_set())
            self.assertLess(time.monotonic() - start, 20)
            # Shared options are cancelled too, then cleared again.
            progress, started = _when_running(interrupt)
            with pmc.Options(threads=1, progress=progress) as options:
                with self.assertRaises(KeyboardInterrupt):
                    self.model.check(_LONG_PROPERTY, options)
                self.assertTrue(started.is_set())
                self.assertGreaterEqual(self.model.check('P=? [ F<=1 "full_all" ]', options).value, 0.0)
        finally:
            signal.signal(signal.SIGINT, previous)
        self.assertGreaterEqual(self.model.check('P=? [ F<=1 "full_all" ]').value, 0.0)

    def test_any_signal_handler_exception_cancels_the_check(self):
        class Alarm(Exception):
            pass

        def on_alarm(signum, frame):
            raise Alarm("time is up")

        previous = signal.signal(signal.SIGALRM, on_alarm)
        try:
            progress, started = _when_running(lambda: os.kill(os.getpid(), signal.SIGALRM))
            start = time.monotonic()
            with self.assertRaises(Alarm):
                self.model.check(_LONG_PROPERTY, threads=1, progress=progress)
            self.assertTrue(started.is_set())
            self.assertLess(time.monotonic() - start, 20)
        finally:
            signal.signal(signal.SIGALRM, previous)

    def test_progress_reports_and_an_exception_stops_the_check(self):
        reports = []

        class Enough(Exception):
            pass

        def progress(p):
            reports.append(p)
            if len(reports) == 2:
                raise Enough("two reports are enough")

        with pmc.Options(threads=1, progress=progress) as options:
            start = time.monotonic()
            with self.assertRaises(Enough):
                self.model.check(_LONG_PROPERTY, options)
            self.assertLess(time.monotonic() - start, 20)
            self.assertEqual(len(reports), 2)
            first = reports[0]
            self.assertIsInstance(first, pmc.Progress)
            self.assertEqual(first.solver, "cpu.steps")
            self.assertGreater(first.iteration, 0)
            self.assertGreater(first.seconds, 0.0)
            self.assertGreater(reports[1].iteration, first.iteration)
            # The binding's own cancel flag was cleared: the options still work.
            self.assertGreaterEqual(self.model.check('P=? [ F<=1 "full_all" ]', options).value, 0.0)


if __name__ == "__main__":
    unittest.main()
