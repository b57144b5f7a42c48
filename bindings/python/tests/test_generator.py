"""Models described by Python callables (pmc.Generator), explored by pmc:
the same models, file for file, as their PRISM-language sources; errors of
the callable; state bytes; several threads."""

import contextlib
import io
import os
import re
import tempfile
import threading
import traceback
import unittest

import modelref  # noqa: F401  (puts this package first on sys.path)
import pmc

_SOURCE_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
_GENERATOR_DATA = os.path.join(_SOURCE_ROOT, "tests", "data", "generator")

# --- The three models. A state has one byte per variable of the source, its
# value minus the lower bound, in declaration order: the default order
# ("bytes") then numbers the states as PRISM does.

FACES = ["one", "two", "three", "four", "five", "six"]


def expand_die(state, e):
    """examples/die/die.pm: state [s, d]."""
    s, d = state
    if s < 3:
        e.transition(1 / 2, [2 * s + 1, d])
        e.transition(1 / 2, [2 * s + 2, d])
    elif s == 3:
        e.transition(1 / 2, [1, d])
        e.transition(1 / 2, [7, 1])
    elif s == 6:
        e.transition(1 / 2, [2, d])
        e.transition(1 / 2, [7, 6])
    elif s in (4, 5):
        e.transition(1 / 2, [7, 2 * s - 6])
        e.transition(1 / 2, [7, 2 * s - 5])
    else:
        e.transition(1, state)
    if s == 7:
        e.label("done")
        if d >= 1:
            e.label(FACES[d - 1])
    if s < 7:
        e.state_reward("coin_flips", 1)


def die(**settings):
    return pmc.Generator("dtmc", 2, expand_die, fixed_size=True, initial_states=[[0, 0]],
                         labels=["done"] + FACES, rewards=["coin_flips"], **settings)


N = 10


def gambler(**settings):
    """tests/data/generator/gambler.pm: state [x]; the indices add_label and
    add_rewards return (rather than the names)."""
    ids = {}

    def expand(state, e):
        x = state[0]
        if 0 < x < N:
            e.choice("bet")
            e.transition(2 / 5, [x + 1])
            e.transition(3 / 5, [x - 1])
            e.state_reward(ids["rounds"], 1)
        else:
            e.transition(1, state)
        if x == N:
            e.label(ids["win"])
        if x in (0, N):
            e.label(ids["done"])

    generator = pmc.Generator("dtmc", 1, expand, **settings)
    generator.add_initial_state(b"\x05")
    ids["win"] = generator.add_label("win")
    ids["done"] = generator.add_label("done")
    ids["rounds"] = generator.add_rewards("rounds")
    return generator


def expand_walk(state, e):
    """tests/data/generator/walk.nm: state [c]; choices east, jump, stay."""
    c = state[0]
    if c < 4:
        e.choice("east")
        e.transition(9 / 10, [c + 1])
        e.transition(1 / 10, [c])
        e.choice_reward("moves", 1)
    if c < 3:
        e.choice("jump")
        e.transition(1 / 2, [c + 2])
        e.transition(1 / 2, [0])
        e.choice_reward("moves", 1)
    if c == 4:
        e.choice("stay")
        e.transition(1, state)
        e.label("goal")


def walk(**settings):
    return pmc.Generator("mdp", 1, expand_walk, fixed_size=True, initial_states=[b"\x00"], labels=["goal"],
                         rewards=["moves"], **settings)


def saved_files(model, directory, stem):
    """{extension: bytes} of the model saved as PRISM explicit files."""
    model.save(os.path.join(directory, stem + ".tra"))
    out = {}
    for name in os.listdir(directory):
        if name.startswith(stem + "."):
            with open(os.path.join(directory, name), "rb") as f:
                out[name[len(stem):]] = f.read()
    return out


def raised_by(function):
    """The exception function() raises, with its traceback (assertRaises drops it)."""
    try:
        function()
    except BaseException as e:  # noqa: B036
        return e
    raise AssertionError(f"{function} raised nothing")


class SameAsSourceTest(unittest.TestCase):
    """Each generator gives its source's model bit for bit, and its values."""

    def compare(self, generator, source_path, properties):
        with generator, generator.explore() as generated, pmc.build_prism(source_path) as source:
            self.assertEqual(generated.type, source.type)
            self.assertEqual((generated.states, generated.choices, generated.transitions),
                             (source.states, source.choices, source.transitions))
            self.assertEqual(generated.labels, source.labels)
            self.assertEqual(generated.rewards, source.rewards)
            self.assertEqual(generated.initial_states, source.initial_states)
            self.assertEqual(generated.warnings, source.warnings)
            with tempfile.TemporaryDirectory() as tmp:
                ours = saved_files(generated, tmp, "generated")
                theirs = saved_files(source, tmp, "source")
            # The source's model has state valuations (a .sta); state bytes are not saved.
            self.assertNotIn(".sta", ours)
            self.assertIn(".sta", theirs)
            del theirs[".sta"]
            self.assertEqual(sorted(ours), sorted(theirs))
            self.assertIn(".tra", ours)
            for extension in sorted(ours):
                self.assertTrue(ours[extension], extension)
                self.assertEqual(ours[extension], theirs[extension], f"the {extension} files differ")
            values = {}
            for prop in properties:
                ours_value = generated.check(prop, epsilon=1e-12).value
                theirs_value = source.check(prop, epsilon=1e-12).value
                self.assertAlmostEqual(ours_value, theirs_value, delta=1e-9, msg=prop)
                values[prop] = ours_value
            return values

    def test_die(self):
        values = self.compare(die(), os.path.join(_SOURCE_ROOT, "examples", "die", "die.pm"),
                              ['P=? [ F "six" ]', 'R{"coin_flips"}=? [ F "done" ]'])
        self.assertAlmostEqual(values['P=? [ F "six" ]'], 1 / 6, delta=1e-9)
        self.assertAlmostEqual(values['R{"coin_flips"}=? [ F "done" ]'], 11 / 3, delta=1e-9)

    def test_gambler(self):
        values = self.compare(gambler(), os.path.join(_GENERATOR_DATA, "gambler.pm"),
                              ['P=? [ F "win" ]', 'R{"rounds"}=? [ F "done" ]'])
        self.assertAlmostEqual(values['P=? [ F "win" ]'], (1 - 1.5 ** 5) / (1 - 1.5 ** 10), delta=1e-9)

    def test_walk(self):
        values = self.compare(walk(), os.path.join(_GENERATOR_DATA, "walk.nm"),
                              ['Pmax=? [ F "goal" ]', 'Rmin=? [ F "goal" ]', 'R{"moves"}min=? [ F "goal" ]'])
        self.assertAlmostEqual(values['Pmax=? [ F "goal" ]'], 1.0, delta=1e-9)

    def test_walk_scheduler_maps_back_to_states(self):
        with walk() as generator, generator.explore() as model:
            result = model.check('Rmin=? [ F "goal" ]')
            choice = result.scheduler[model.find_state([4])]
            self.assertIn(choice, (0, -1))  # "stay", the only choice
            self.assertEqual(result.value_of(model, [4]), 0.0)


class CtmcTest(unittest.TestCase):
    def test_rates(self):
        # 0 -> 1 at rate 2, 1 absorbing; several choices of a CTMC state add their rates.
        def expand(state, e):
            if state == b"\x00":
                e.transition(1.5, b"\x01")
                e.choice()
                e.transition(0.5, b"\x01")
            else:
                e.transition(1, state)
                e.label("done")
                e.state_reward("", 0)

        with pmc.Generator(pmc.ModelType.CTMC, 1, expand, initial_states=[b"\x00"], labels=["done"],
                           rewards=[""]) as generator, generator.explore() as model:
            self.assertEqual(model.type, "ctmc")
            self.assertEqual(model.rewards, [""])
            self.assertAlmostEqual(model.check('P=? [ F<=1 "done" ]').value, 1 - 2.718281828459045 ** -2,
                                   delta=1e-9)


class StateBytesTest(unittest.TestCase):
    def test_round_trip(self):
        for make in (die, gambler, walk):
            for order in ("bytes", "bfs"):
                with self.subTest(make=make.__name__, order=order), make(order=order) as generator, \
                        generator.explore() as model:
                    seen = set()
                    for i in range(model.states):
                        state = model.state_bytes(i)
                        self.assertIsInstance(state, bytes)
                        self.assertEqual(model.find_state(state), i)
                        seen.add(state)
                    self.assertEqual(len(seen), model.states)

    def test_orders(self):
        with gambler() as generator, generator.explore() as model:
            # By bytes: state i is [i], and the initial state [5] is state 5, as PRISM numbers them.
            self.assertEqual([model.state_bytes(i) for i in range(model.states)], [bytes([x]) for x in range(N + 1)])
            self.assertEqual(model.initial_states, [5])
        with gambler(order=pmc.StateOrder.BFS) as generator, generator.explore() as model:
            self.assertEqual(model.initial_states, [0])
            self.assertEqual(model.state_bytes(0), b"\x05")
            self.assertEqual([model.state_bytes(i) for i in range(3)], [b"\x05", b"\x06", b"\x04"])
            with gambler() as by_bytes, by_bytes.explore() as other:
                # The same values, state by state, whatever the numbering.
                ours = model.check('P=? [ F "win" ]')
                theirs = other.check('P=? [ F "win" ]')
                for x in range(N + 1):
                    self.assertAlmostEqual(ours.value_of(model, [x]), theirs.value_of(other, bytes([x])), delta=1e-12)

    def test_state_arguments(self):
        with die() as generator, generator.explore() as model:
            six = model.find_state(b"\x07\x06")
            self.assertEqual(model.find_state([7, 6]), six)
            self.assertEqual(model.find_state((7, 6)), six)
            self.assertEqual(model.find_state(bytearray(b"\x07\x06")), six)
            self.assertEqual(model.find_state(memoryview(b"\x07\x06")), six)
            self.assertEqual(model.label_states("six"), [six])
            with self.assertRaises(pmc.InvalidArgumentError) as caught:
                model.find_state([7, 0])  # unreachable
            self.assertIn("0x0700", str(caught.exception))
            with self.assertRaises(pmc.InvalidArgumentError):
                model.state_bytes(model.states)
            with self.assertRaises(pmc.InvalidArgumentError):
                model.state_bytes(-1)
            with self.assertRaises(TypeError):
                model.find_state("\x07\x06")
            with self.assertRaises(TypeError):
                model.find_state(2)
            with self.assertRaises(pmc.InvalidArgumentError):
                model.find_state([7, 256])

    def test_long_states(self):
        # States longer than the first buffer Model.state_bytes reads into.
        def expand(state, e):
            if len(state) < 200:
                e.transition(1, state + bytes([len(state)]))
            else:
                e.transition(1, state)

        with pmc.Generator("dtmc", 200, expand, initial_states=[b""]) as generator, \
                generator.explore() as model:
            self.assertEqual(model.states, 201)
            for i in (0, 63, 64, 65, 200):
                self.assertEqual(model.state_bytes(i), bytes(range(i)))
                self.assertEqual(model.find_state(bytes(range(i))), i)

    def test_models_without_state_bytes(self):
        with pmc.build_prism(os.path.join(_SOURCE_ROOT, "examples", "die", "die.pm")) as model:
            with self.assertRaises(pmc.UnsupportedError):
                model.state_bytes(0)
            with self.assertRaises(pmc.UnsupportedError):
                model.find_state([0, 0])


class ErrorsTest(unittest.TestCase):
    def test_fail_reaches_the_message(self):
        def expand(state, e):
            if state[0] == 3:
                e.fail("the coin rolled away")
                return
            e.transition(1, [state[0] + 1])

        with pmc.Generator("dtmc", 1, expand, initial_states=[[0]]) as generator:
            with self.assertRaises(pmc.ModelError) as caught:
                generator.explore()
        self.assertEqual(caught.exception.status, pmc.Status.MODEL)
        self.assertIn("the coin rolled away", str(caught.exception))
        self.assertIn("0x03", str(caught.exception))

    def test_probabilities_must_sum_to_one(self):
        def expand(state, e):
            e.transition(0.5, state)
            e.transition(0.45, [1])

        with pmc.Generator("dtmc", 1, expand, initial_states=[[0]]) as generator:
            with self.assertRaises(pmc.ModelError) as caught:
                generator.explore()
            self.assertIn("sum", str(caught.exception))
            # A wider tolerance accepts it (with a warning or not: the row is kept as given).
            with generator.explore(row_sum_tolerance=0.1) as model:
                self.assertEqual(model.states, 2)

    def test_target_longer_than_max_state_size(self):
        def expand(state, e):
            e.transition(1, b"abc")

        with pmc.Generator("dtmc", 2, expand, initial_states=[b"ab"]) as generator:
            caught = raised_by(generator.explore)
        self.assertIsInstance(caught, pmc.InvalidArgumentError)
        self.assertIn("3 bytes", str(caught))
        # Raised where the callable added the transition.
        frames = [frame.name for frame in traceback.extract_tb(caught.__traceback__)]
        self.assertIn("expand", frames)
        self.assertLess(frames.index("expand"), frames.index("transition"))

    def test_target_of_the_wrong_fixed_size(self):
        def expand(state, e):
            e.transition(1, state[:1])

        with pmc.Generator("dtmc", 2, expand, fixed_size=True, initial_states=[b"ab"]) as generator:
            with self.assertRaises(pmc.InvalidArgumentError) as caught:
                generator.explore()
        self.assertIn("exactly 2", str(caught.exception))
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Generator("dtmc", 2, expand, fixed_size=True, initial_states=[b"a"])

    def test_the_callables_exception_is_raised(self):
        class Boom(Exception):
            pass

        raised = []

        def expand(state, e):
            if state[0] == 2:
                error = Boom("no third state")
                raised.append(error)
                raise error
            e.transition(1, [state[0] + 1])

        with pmc.Generator("dtmc", 1, expand, initial_states=[[0]]) as generator:
            caught = raised_by(generator.explore)
            self.assertIs(caught, raised[0])
            # The callable's own traceback, ending where it raised.
            frames = [frame.name for frame in traceback.extract_tb(caught.__traceback__)]
            self.assertEqual(frames[0], "raised_by")
            self.assertEqual(frames[-1], "expand")
            if hasattr(caught, "__notes__"):  # Python 3.11+: pmc's message, naming the state
                self.assertEqual(len(caught.__notes__), 1)
                self.assertIn("0x02", caught.__notes__[0])
                self.assertIn("Boom: no third state", caught.__notes__[0])
            # The generator stays usable: the next exploration fails afresh.
            with self.assertRaises(Boom):
                generator.explore()
        self.assertEqual(len(raised), 2)

    def test_keyboard_interrupt_stops_the_exploration(self):
        def expand(state, e):
            raise KeyboardInterrupt

        with pmc.Generator("dtmc", 1, expand, initial_states=[[0]]) as generator:
            with self.assertRaises(KeyboardInterrupt):
                generator.explore()

    def test_no_initial_state(self):
        with pmc.Generator("dtmc", 1, expand_walk) as generator:
            with self.assertRaises(pmc.InvalidArgumentError) as caught:
                generator.explore()
        self.assertIn("initial state", str(caught.exception))

    def test_bad_values_in_the_callable(self):
        cases = {
            "negative probability": lambda state, e: e.transition(-0.5, state),
            "NaN": lambda state, e: e.transition(float("nan"), state),
            "unknown label name": lambda state, e: (e.transition(1, state), e.label("nope")),
            "unknown label index": lambda state, e: (e.transition(1, state), e.label(7)),
            "reward before any transition": lambda state, e: e.transition_reward("r", 1),
            "negative reward": lambda state, e: (e.transition(1, state), e.state_reward("r", -1)),
        }
        for what, expand in cases.items():
            with self.subTest(what), pmc.Generator("dtmc", 1, expand, initial_states=[[0]], labels=["l"],
                                                   rewards=["r"]) as generator:
                with self.assertRaises(pmc.InvalidArgumentError):
                    generator.explore()
        with pmc.Generator("dtmc", 1, lambda state, e: e.transition("one", state),
                           initial_states=[[0]]) as generator:
            with self.assertRaises(TypeError):
                generator.explore()

    def test_an_ignored_error_still_fails_the_exploration(self):
        def expand(state, e):
            e.transition(1, state)
            try:
                e.label(3)
            except pmc.InvalidArgumentError:
                pass  # pmc remembers it

        with pmc.Generator("dtmc", 1, expand, initial_states=[[0]]) as generator:
            with self.assertRaises(pmc.ModelError) as caught:
                generator.explore()
        self.assertIn("0x00", str(caught.exception))
        self.assertIn("label 3", str(caught.exception))

    def test_a_deadlock(self):
        def expand(state, e):
            if state == b"\x00":
                e.transition(1, [1])

        with pmc.Generator("dtmc", 1, expand, initial_states=[[0]]) as generator:
            with generator.explore() as model:
                self.assertEqual(model.label_states("deadlock"), [1])
                self.assertEqual(len(model.warnings), 1)
            with self.assertRaises(pmc.ModelError):
                generator.explore(strict=True)

    def test_options(self):
        with gambler() as generator:
            with self.assertRaises(pmc.ModelError) as caught:
                generator.explore(max_states=3)
            self.assertIn("3", str(caught.exception))
            with pmc.Options(max_states=100) as options, generator.explore(options) as model:
                self.assertEqual(model.states, N + 1)
            with pmc.Options() as options:
                options.cancel()
                with self.assertRaises(pmc.CancelledError):
                    generator.explore(options)
                options.reset_cancel()
                with generator.explore(options) as model:
                    self.assertEqual(model.states, N + 1)
            with self.assertRaises(TypeError):
                generator.explore(pmc.Options(), threads=1)
            with self.assertRaises(TypeError):
                generator.explore("threads=1")

    def test_the_expansion_is_only_valid_during_the_call(self):
        kept = []

        def expand(state, e):
            kept.append(e)
            e.transition(1, state)

        with pmc.Generator("dtmc", 1, expand, initial_states=[[0]]) as generator, generator.explore():
            pass
        with self.assertRaises(pmc.ClosedError):
            kept[0].transition(1, b"\x00")

    def test_explore_from_the_callable_is_refused(self):
        inner = pmc.Generator("dtmc", 1, lambda state, e: e.transition(1, state), initial_states=[[0]])

        def expand(state, e):
            inner.explore()

        with inner, pmc.Generator("dtmc", 1, expand, initial_states=[[0]]) as generator:
            with self.assertRaises(pmc.InvalidArgumentError) as caught:
                generator.explore()
        self.assertIn("expand", str(caught.exception))


class GeneratorSettingsTest(unittest.TestCase):
    def test_declarations(self):
        with die() as generator:
            self.assertEqual(generator.labels, ["done"] + FACES)
            self.assertEqual(generator.rewards, ["coin_flips"])
            self.assertEqual(generator.add_label("extra"), 7)
            self.assertEqual(generator.add_rewards(), 1)
            for name in ("done", "init", "deadlock", "", 'a"b'):
                with self.subTest(name=name), self.assertRaises(pmc.InvalidArgumentError):
                    generator.add_label(name)
            with self.assertRaises(pmc.InvalidArgumentError):
                generator.add_rewards("coin_flips")
            with self.assertRaises(TypeError):
                generator.add_label(3)
            self.assertIn("max_state_size=2", repr(generator))
        self.assertTrue(generator.closed)
        self.assertEqual(repr(generator), "pmc.Generator(closed)")
        with self.assertRaises(pmc.ClosedError):
            generator.explore()
        with self.assertRaises(pmc.ClosedError):
            generator.add_initial_state([0, 0])

    def test_bad_settings(self):
        def expand(state, e):
            e.transition(1, state)

        with self.assertRaises(pmc.UnsupportedError):
            pmc.Generator("pctmc", 1, expand)
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Generator("markov", 1, expand)
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Generator("dtmc", 0, expand)
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Generator("dtmc", 4097, expand)
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Generator("dtmc", 1, expand, order="dfs")
        with self.assertRaises(TypeError):
            pmc.Generator("dtmc", 1, "expand")
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Generator("dtmc", 1, expand, initial_states=[b"ab"])
        with self.assertRaises(TypeError):
            pmc.Generator("dtmc", 1, expand, initial_states=["a"])

    def test_duplicate_initial_states_are_one(self):
        with gambler() as generator:
            generator.add_initial_state([5])
            generator.add_initial_state([3])
            with generator.explore() as model:
                self.assertEqual(model.initial_states, [3, 5])


def grid_generator(size, thread_safe=True, order="bytes"):
    """A random walk on a size x size grid (state [x, y]), from the corner
    [0, 0]; a move off the grid stays put (targets of one choice add up)."""
    def expand(state, e):
        x, y = state
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            e.transition(1 / 4, [min(max(x + dx, 0), size - 1), min(max(y + dy, 0), size - 1)])
        if x == y == size - 1:
            e.label("corner")
        if x == 0:
            e.label("west")
        e.state_reward("steps", 1)

    return pmc.Generator("dtmc", 2, expand, fixed_size=True, thread_safe=thread_safe, order=order,
                         initial_states=[[0, 0]], labels=["corner", "west"], rewards=["steps"])


class ThreadsTest(unittest.TestCase):
    """A thread-safe generator explored on 4 threads: the callables take turns
    on the GIL, pmc's hashing and storing run in parallel; the model is the
    one-threaded one."""

    def test_four_threads_give_the_one_threaded_model(self):
        size = 60
        for order in ("bytes", "bfs"):
            with self.subTest(order=order), grid_generator(size, order=order) as generator, \
                    tempfile.TemporaryDirectory() as tmp:
                with generator.explore(threads=1) as one:
                    files_one = saved_files(one, tmp, "one")
                    bytes_one = [one.state_bytes(i) for i in range(one.states)]
                with generator.explore(threads=4) as four:
                    self.assertEqual(four.states, size * size)
                    files_four = saved_files(four, tmp, "four")
                    self.assertEqual([four.state_bytes(i) for i in range(four.states)], bytes_one)
                self.assertLessEqual({".tra", ".lab", ".srew"}, set(files_one))
                self.assertEqual(files_one, files_four)

    def test_an_exception_on_one_of_four_threads(self):
        class Stop(Exception):
            pass

        def expand(state, e):
            x, y = state
            if x == 30 and y == 30:
                raise Stop("the middle")
            for dx, dy in ((1, 0), (0, 1)):
                e.transition(1 / 2, [min(x + dx, 59), min(y + dy, 59)])

        with pmc.Generator("dtmc", 2, expand, thread_safe=True, initial_states=[[0, 0]]) as generator:
            for _ in range(3):
                with self.assertRaises(Stop):
                    generator.explore(threads=4)

    def test_explorations_of_one_generator_from_two_threads(self):
        errors = []
        states = []

        def explore(generator):
            try:
                for _ in range(3):
                    with generator.explore(threads=2) as model:
                        states.append(model.states)
            except BaseException as e:  # noqa: B036
                errors.append(e)

        with grid_generator(20) as generator:
            threads = [threading.Thread(target=explore, args=(generator,)) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        self.assertEqual(errors, [])
        self.assertEqual(states, [400] * 6)


class ReadmeExampleTest(unittest.TestCase):
    """The README's generator example runs and prints what its comments say."""

    def test_readme_example(self):
        readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")
        with open(readme, encoding="utf-8") as f:
            blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
        examples = [b for b in blocks if "pmc.Generator(" in b]
        self.assertEqual(len(examples), 1)
        out = io.StringIO()
        with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(out):
            previous = os.getcwd()
            os.chdir(tmp)
            try:
                exec(compile(examples[0], "README.md", "exec"), {"__name__": "readme_example"})
            finally:
                os.chdir(previous)
        lines = out.getvalue().splitlines()
        self.assertAlmostEqual(float(lines[0].split()[0]), 1 / 6, delta=1e-9)
        self.assertEqual(lines[0].split()[1], "13")
        self.assertAlmostEqual(float(lines[1]), 1 / 3, delta=1e-9)
        self.assertEqual(lines[2], r"b'\x00\x00' 12")


if __name__ == "__main__":
    unittest.main()
