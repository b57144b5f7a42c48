#!/usr/bin/env python3
"""End-to-end tests of the pmc shell (REPL): driven through a pseudo-terminal
for line editing, completion, history and Ctrl-C, and through pipes and files
for script mode.

Usage: test_repl.py PATH/TO/pmc   (meson passes it; PMC_SOURCE_ROOT locates examples/)
"""
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
import unittest

from cli_support import exit_with_status, write_walk

PMC = None
ROOT = os.environ.get("PMC_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
DIE = os.path.join(ROOT, "examples", "die", "die.tra")
MODELS = os.environ.get("PMC_MODELS") or os.environ.get("PMC_DEFAULT_MODELS_DIR", "")
AM = os.path.join(MODELS, "pctmc", "am_10_4.drn")
BAD = os.path.join(ROOT, "tests", "data", "bad")
CONSENSUS = os.path.join(ROOT, "examples", "consensus", "consensus.nm")
CONSENSUS_PROPS = os.path.join(ROOT, "examples", "consensus", "consensus.props")
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]|\r|\x07|\x08")


class Terminal:
    """pmc on a pseudo-terminal, with expect-style reading."""

    def __init__(self, history, *args, cwd=None):
        env = dict(os.environ, TERM="xterm", PMC_HISTORY=history, HOME=os.path.dirname(history))
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            if cwd:
                os.chdir(cwd)
            os.execve(PMC, [PMC, *args], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
        self.seen = b""   # everything read so far
        self.mark = 0     # expect() searches text() from here

    def send(self, text):
        os.write(self.fd, text.encode())

    def read_some(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return None
        if not data:
            return None
        self.seen += data
        return True

    def text(self):
        return ANSI.sub(b"", self.seen).decode(errors="replace")

    def expect(self, pattern, timeout=20):
        deadline = time.time() + timeout
        regex = re.compile(pattern)
        while True:
            match = regex.search(self.text(), self.mark)
            if match:
                self.mark = match.end()
                return match
            left = deadline - time.time()
            if left <= 0 or self.read_some(left) is None:
                raise AssertionError(f"did not see {pattern!r}; the terminal showed:\n{self.text()[-3000:]}")

    def prompt(self, timeout=20):
        """Waits for the next prompt ("pmc> ", "pmc die> ") and for libedit
        to have put the terminal in its editing mode: the prompt is written
        before that switch, and keys that arrive in between are cooked
        (Ctrl-D there is an EOF the editor never sees)."""
        self.expect(r"pmc(?: [\w.-]+)?> ", timeout)
        deadline = time.time() + timeout
        while termios.tcgetattr(self.fd)[3] & termios.ICANON:
            if time.time() > deadline:
                raise AssertionError("the terminal never left canonical mode at the prompt")
            time.sleep(0.005)

    def line(self, keys):
        """Types `keys` and Return at the next prompt."""
        self.prompt()
        self.send(keys + "\r")

    def wait_exit(self, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            self.read_some(0.1)
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError(f"pmc did not exit; the terminal showed:\n{self.text()[-2000:]}")


class Interactive(unittest.TestCase):
    """Every line is typed at a fresh prompt: keys typed while a command
    runs reach the terminal in cooked mode, where Ctrl-D and Ctrl-C mean
    something else (a race on a loaded machine, not a user's intent)."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.history = os.path.join(self.dir.name, "history")
        # Started in examples/ so that file names complete from there.
        self.term = Terminal(self.history, cwd=os.path.join(ROOT, "examples"))

    def tearDown(self):
        if self.term.fd is not None:
            try:
                os.kill(self.term.pid, signal.SIGKILL)
                os.waitpid(self.term.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        self.dir.cleanup()

    def leave(self):
        self.term.prompt()
        self.term.send("\x04")  # Ctrl-D at an empty prompt
        self.assertEqual(self.term.wait_exit(), 0)
        self.term.fd = None

    def test_tab_completes_commands_files_labels_and_settings(self):
        t = self.term
        # "lo<Tab>" -> "load "; "di<Tab>" -> "die/" (a directory: no space); then the file.
        t.line("lo\tdi\tdie.t\t")
        t.expect(r"loaded die: dtmc, 13 states")
        t.line('check P=? [ F "si\t ]')  # a label name inside quotes
        t.expect(r'P=\? \[ F "six" \]: 0\.1666')
        t.line('check R{"coin\t=? [ F "done" ]')  # a reward structure name
        t.expect(r'R\{"coin_flips"\}=\? \[ F "done" \]: 3\.666')
        t.line("set sol\tcpu.gauss-s\t")  # a setting and a solver name
        t.expect(r"solver = cpu\.gauss-seidel")
        t.line("help\t\t")  # "help" is unique; then the list of command names
        t.expect(r"Commands \(help COMMAND")
        t.prompt()
        t.send("set\t\t")  # several candidates: listed under the line
        t.expect(r"epsilon\s+exact\s+gpu-layout\s+gpu-memory-limit")
        t.send("\x15quit\r")  # Ctrl-U clears the line
        self.assertEqual(t.wait_exit(), 0)
        t.fd = None

    def test_tab_completes_a_sources_constants_and_variables(self):
        t = self.term
        t.line("load consensus/consensus.nm --const \t2")  # the only undefined constant: "K="
        t.expect(r"loaded consensus: mdp, 272 states, 492 transitions")
        t.line("check Pmax=? [ F phase1=3 & phase2=3 & cou\t>=-4 ]")  # a state variable: "counter"
        t.expect(r"Pmax=\? \[ F phase1=3 & phase2=3 & counter>=-4 \]: 1")
        t.line("check Pmax=? [ F counter>=barr\t ]")  # a constant of the source: "barrier"
        t.expect(r"Pmax=\? \[ F counter>=barrier \]: \d")
        self.leave()

    def test_history_survives_the_session(self):
        t = self.term
        t.line(f"load {DIE}")
        t.expect(r"loaded die")
        t.line("rewards")
        t.expect(r'"coin_flips" state')
        self.leave()
        with open(self.history) as f:
            self.assertIn("rewards", f.read())
        # A new shell: Up recalls the last line, Up again the one before.
        self.term = t = Terminal(self.history)
        t.line("\x1b[A\x1b[A")
        t.expect(r"loaded die")
        t.line("\x1b[A\x1b[A")
        t.expect(r'"coin_flips" state')
        self.leave()

    def test_an_error_does_not_end_the_shell(self):
        t = self.term
        t.line("frobnicate")
        t.expect(r"error: unknown command 'frobnicate'")
        t.line("labels")
        t.expect(r"error: no model loaded")
        t.line(f"load {os.path.join(BAD, 'bad_row_sum.tra')}")
        t.expect(r"error: .*bad_row_sum\.tra.*probabilities sum to")
        t.line(f"load {DIE}")
        t.expect(r"loaded die")
        t.line('check P=? [ F "nope" ]')
        t.expect(r'error: .*unknown label "nope"')
        t.line('check P=? [ F "six" ')
        t.expect(r"error: ")
        t.line('check P=? [ F "six" ]')
        t.expect(r"0\.1666")
        self.leave()

    def test_ctrl_c_cancels_a_long_solve_and_the_shell_goes_on(self):
        t = self.term
        walk = write_walk(self.dir.name, n=2001)
        for line in [f"load {walk}", "set solver cpu.power", "set epsilon 1e-15", "set max-iterations 1000000000000"]:
            t.line(line)
        t.expect(r"max-iterations = 1000000000000")
        t.line('check P=? [ F "goal" ]')
        t.expect(r"cpu\.power: iteration \d+, residual [0-9.e+-]+")  # the progress line
        t.send("\x03")
        t.expect(r"error: cancelled \(Ctrl-C\)")
        # The shell, its models and settings are intact; the next check runs
        # (cpu.power solves no bounded steps: named, it would be an error).
        t.line("set solver auto")
        t.line('check P=? [ F<=1000 "goal" ]')
        t.expect(r'F<=1000 "goal" \]: 9\.33\d*e-302')
        t.line("models")
        t.expect(r"\* walk")
        self.leave()

    def test_ctrl_c_cancels_a_sources_exploration_and_keeps_the_models(self):
        # A counter of 2^30 states: exploring it all would take minutes and
        # gigabytes; Ctrl-C must stop it within a second and leave the
        # models loaded before it as they were.
        t = self.term
        source = os.path.join(self.dir.name, "counter.pm")
        with open(source, "w") as f:
            f.write("dtmc\nmodule counter\n  x : [0..1073741823] init 0;\n"
                    "  [] x<1073741823 -> 0.5:(x'=x+1) + 0.5:(x'=min(x+2,1073741823));\n"
                    "endmodule\nlabel \"top\" = x=1073741823;\n")
        t.line(f"load {DIE}")
        t.expect(r"loaded die")
        t.line(f"load {source}")
        time.sleep(1.0)
        began = time.time()
        t.send("\x03")
        t.expect(r"error: cancelled \(Ctrl-C\)", timeout=10)
        self.assertLess(time.time() - began, 5, "the exploration went on after Ctrl-C")
        t.line("models")
        t.expect(r"\* die ")
        t.line('check P=? [ F "six" ]')
        t.expect(r"0\.1666")
        self.leave()

    def test_ctrl_c_at_the_prompt_abandons_the_line(self):
        t = self.term
        t.prompt()
        # Typed, then Ctrl-C once the editor has shown the word: sent in one
        # write, the terminal may flush the unread word when ^C raises
        # SIGINT (a loaded machine lost both the echo and the ^C).
        t.send("frobnicate")
        t.expect(r"frobnicate")
        t.send("\x03")
        t.expect(r"\^C")
        t.line("help quit")
        t.expect(r"leave the shell")
        self.assertNotIn("unknown command", t.text())
        self.leave()


def script(text, *args, check_status=None):
    run = subprocess.run([PMC, *args], input=text, capture_output=True, text=True, timeout=120)
    if check_status is not None and run.returncode != check_status:
        raise AssertionError(f"exit {run.returncode}, wanted {check_status}\nstdout:\n{run.stdout}\nstderr:\n{run.stderr}")
    return run


class Scripts(unittest.TestCase):
    def test_a_good_script_runs_quietly(self):
        run = script(f'# a comment\n\nload {DIE}\ncheck P=? [ F "six" ]; P=? [ F "one" ]\nquit\nlabels\n', check_status=0)
        self.assertNotIn("pmc>", run.stdout)
        self.assertNotIn("shell", run.stdout)  # no banner
        self.assertEqual(run.stdout.count("0.1666"), 2)
        self.assertNotIn('"init"', run.stdout)  # quit stopped it
        self.assertEqual(run.stderr, "")

    def test_a_script_stops_at_the_first_error(self):
        run = script(f"load {DIE}\nuse nothing\nlabels\n", check_status=1)
        self.assertIn("loaded die", run.stdout)
        self.assertNotIn('"init"', run.stdout)
        self.assertIn("no model named 'nothing'", run.stderr)
        self.assertIn("stopped at line 2 of standard input", run.stderr)

    def test_continue_runs_every_line_and_still_fails(self):
        run = script(f"load {DIE}\nuse nothing\nlabels\n", "--continue", check_status=1)
        self.assertIn('"init" (1 state)', run.stdout)
        self.assertNotIn("stopped", run.stderr)

    def test_check_gives_a_property_files_open_constants(self):
        with tempfile.TemporaryDirectory() as d:
            props = os.path.join(d, "die.props")
            with open(props, "w") as f:
                f.write('const int T;\nconst int T2 = 2*T;\n"reach": P=? [ F<=T2 "done" ]\n')
            run = script(f"load {DIE}\ncheck --file {props} --const T=2\ncheck --json --const T=1 --file {props}\n",
                         check_status=0)
            self.assertIn('"reach": P=? [ F<=T2 "done" ]: 0.75', run.stdout)  # within 4 steps
            self.assertIn("  constants: T=2, T2=4\n", run.stdout)
            record = json.loads(run.stdout.splitlines()[-1])
            self.assertEqual(record["constants"], {"T": 1, "T2": 2})
            self.assertEqual(record["value"], 0.0)
            for line, message in [
                (f"check --file {props} --const Q=1", "the properties file's open constants are T (int)"),
                ("check --const T=1 P=? [ F<=T \"done\" ]", "check --const gives the open constants of --file"),
                (f"check --file {props} --const T=0.5", "T is an int constant"),
                (f"check --file {props} --const", "--const needs NAME=VALUE"),
                (f"check --file {props}", "constant 'T2' (int, "),
            ]:
                run = script(f"load {DIE}\n{line}\n", check_status=1)
                self.assertIn(message, run.stderr, line)

    def test_a_script_file_and_property_file(self):
        with tempfile.TemporaryDirectory() as d:
            props = os.path.join(d, "die.props")
            with open(props, "w") as f:
                f.write('// the die\nP=? [ F "six" ]\n\nR{"coin_flips"}=? [ F "done" ]\n')
            saved = os.path.join(d, "die.pmcb")
            path = os.path.join(d, "session.pmc")
            with open(path, "w") as f:
                f.write(f"load {DIE}\ncheck --file {props}\nsave {saved}\nload {saved}\nmodels\nuse die\ninfo\n")
            run = subprocess.run([PMC, "-f", path], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("0.1666", run.stdout)
            self.assertIn("3.666", run.stdout)
            self.assertIn("loaded die-2: dtmc, 13 states", run.stdout)  # same stem, other file
            self.assertIn("model:       die\n", run.stdout)

    @unittest.skipUnless(os.path.exists(AM), f"models not found ({AM}); set PMC_MODELS")
    def test_check_at_a_parameter_point(self):
        # `set param` makes the current pCTMC a CTMC at that point.
        lines = [f"load {AM}",
                 'check P=? [ F[100,100] "correct" ]',
                 "set param k1=3,k2=30",
                 "set param k3=60",
                 "show settings",
                 'check P=? [ F[100,100] "correct" ]',
                 "set param none",
                 "show settings"]
        run = script("\n".join(lines) + "\n", "-k", check_status=1)
        self.assertIn("pmc synth", run.stderr)  # the first check: no point yet
        self.assertIn("param = k1=3,k2=30\n", run.stdout)
        self.assertIn("param = k1=3,k2=30,k3=60\n", run.stdout)
        self.assertIn('P=? [ F[100,100] "correct" ]: 0.828160645638 ± 1.5e-12', run.stdout)
        self.assertRegex(run.stdout, r"param\s+none")

    @unittest.skipUnless(os.path.exists(AM), f"models not found ({AM}); set PMC_MODELS")
    def test_synth_on_the_current_model(self):
        with tempfile.TemporaryDirectory() as d:
            plot = os.path.join(d, "regions.svg")
            lines = [f"load {AM}",
                     f"synth --param k1=1:5 --param k2=1:5 --param k3=1 --threshold '>=0.9' --epsilon 0.2 "
                     f"--plot {plot} P=? [ F[10,10] \"correct\" ]",
                     'synth --param k1=1:5 --param k2=1:5 --param k3=1 --max --epsilon 0.05 --json '
                     'P=? [ F[10,10] "correct" ]']
            run = script("\n".join(lines) + "\n", check_status=0)
            self.assertIn("threshold synthesis of", run.stdout)
            self.assertRegex(run.stdout, r"threshold >= 0.9: \d+ regions \(\d+ true, \d+ false")
            self.assertTrue(open(plot).read().startswith("<svg") or "<svg" in open(plot).read())
            result = json.loads(run.stdout.strip().splitlines()[-1])
            self.assertEqual(result["mode"], "max")
            self.assertLessEqual(result["optimum"][1] - result["optimum"][0], 0.05 + 1e-12)
        # Errors name the problem and the shell goes on.
        run = script(f"load {AM}\nsynth --param k1=1:5 --frob P=? [ F[10,10] \"correct\" ]\n"
                     f"synth --param k1=1:5 --max\nsynth --max P=? [ F[10,10] \"correct\" ]\nmodels\n",
                     "-k", check_status=1)
        self.assertIn("--frob", run.stderr)
        self.assertIn("synth needs a property", run.stderr)
        self.assertIn("no range for parameter k1", run.stderr)
        self.assertIn("am_10_4", run.stdout)
        self.assertEqual(len(run.stderr.strip().splitlines()), 3)

    def test_time_on_prints_the_phases_and_release_frees_device_copies(self):
        run = script(f'load {DIE}\ncheck P=? [ F "six" ]\ntime on\ncheck P=? [ F "six" ]; P=? [ F "one" ]\n'
                     "time off\nrelease\nrelease --json\n", check_status=0)
        lines = run.stdout.splitlines()
        phases = [i for i, line in enumerate(lines) if line.startswith("  timings: ")]
        self.assertEqual(len(phases), 2, run.stdout)  # one per result, only with time on
        for i in phases:
            self.assertRegex(lines[i], r"^  timings: load 0 s, GPU start-up \S+ s, precompute \S+ s, build \S+ s, "
                                       r"transfer \S+ s, solve \S+ s, other \S+ s \(total \S+ s\)$")
            self.assertTrue(lines[i - 2].startswith("P=? [ F "), run.stdout)  # right after its result
        # The die is checked on the CPU (auto, far below the GPU crossover),
        # so there is no device copy to free, with or without CUDA.
        self.assertIn("released 0 device copies of die\n", run.stdout)
        self.assertEqual(json.loads(lines[-1]), {"released": 0, "model": "die"})
        run = script("release\n", check_status=1)
        self.assertIn("no model loaded", run.stderr)
        run = script(f"load {DIE}\nrelease die\n", check_status=1)
        self.assertIn("release takes no argument 'die'", run.stderr)
        self.assertIn("release", script("help\n", check_status=0).stdout)

    def test_json_mode_prints_json_for_every_command(self):
        lines = [f"load {DIE}", "models", "info", "labels", "rewards", 'check P=? [ F "six" ]', "set epsilon 1e-8",
                 "show settings", "solvers", "help", "help check", "time on", "frobnicate", "check P=? [ F \"x\" ]"]
        run = script("\n".join(lines) + "\n", "--json", "-k", check_status=1)
        objects = [json.loads(line) for line in run.stdout.splitlines()]
        self.assertEqual(run.stderr, "")
        self.assertEqual(objects[0]["loaded"], "die")
        result = next(o for o in objects if isinstance(o, dict) and o.get("property") == 'P=? [ F "six" ]')
        self.assertAlmostEqual(result["value"], 1 / 6, delta=1e-6)
        for key in ("solver", "iterations", "seconds", "states", "transitions", "timings"):
            self.assertIn(key, result)
        self.assertIn({"command": "frobnicate", "error": "unknown command 'frobnicate' (try `help`)"}, objects)
        self.assertTrue(any(isinstance(o, dict) and "unknown label" in o.get("error", "") for o in objects))
        self.assertTrue(any(isinstance(o, dict) and "seconds" in o and o.get("command") == "check" for o in objects))

    def test_load_a_prism_language_source(self):
        run = script(f"load {CONSENSUS} --const K=2 --max-states 1000\ncheck --file {CONSENSUS_PROPS}\n"
                     f"load {CONSENSUS} --const K=4 --name k4\nmodels\n", check_status=0)
        self.assertIn("loaded consensus: mdp, 272 states, 492 transitions", run.stdout)
        self.assertIn('"disagree": Pmax=? [ F "finished" & !"agree" ]: 0.1083', run.stdout)
        self.assertIn('Pmax=? [ F<=T "finished" ]: 0.25', run.stdout)
        self.assertIn("  constants: T=20\n", run.stdout)
        self.assertIn("loaded k4: mdp, 528 states", run.stdout)  # N=2 in the example
        for line, message in [
            (f"load {CONSENSUS}", "undefined constant K"),
            (f"load {CONSENSUS} --const K=2 --max-states 10", "more than 10 reachable states"),
            (f"load {DIE} --const K=2", "(load FILE --const NAME=VALUE,...) are for PRISM-language sources"),
            (f"load {CONSENSUS} --const K=2,Z=1", "Z"),
        ]:
            run = script(line + "\nmodels\n", check_status=1)
            self.assertIn(message, run.stderr, line)
            self.assertEqual(len(run.stderr.splitlines()), 2, run.stderr)  # the error, then "stopped at line 1"

    def test_garbage_lines_give_one_line_errors(self):
        garbage = [
            "load", "load /nonexistent/model.tra", "load --format xml " + DIE, "use", "unload nope", "info",
            "check", "check --bogus", "check --file /nonexistent.props", f"load {DIE}", "check P=? [",
            "check 'unterminated", 'check P=? [ F "six" ] ; ; P>=2 [ F "six" ]', "set", "set epsilon",
            "set epsilon abc", "set epsilon 2", "set nope 1", "set relative 1", "set solver warp.drive",
            "set max-iterations -5", "set threads 1.5", "set gpu-memory-limit 12Q", "set json maybe", "show",
            "show everything", "time maybe", "help nope", "save", "save /nonexistent/dir/x.pmcb", "models extra",
            "labels extra", "use 'unterminated", "\x01\x02\x7f\xff", "check P=? [ F \"six\" ] --json",
        ]
        run = script("\n".join(garbage) + "\n", "-k", check_status=1)
        errors = [line for line in run.stderr.splitlines() if line.startswith("error: ")]
        self.assertEqual(len(errors), len(garbage) - 1, run.stderr)  # all but the good load
        self.assertNotIn("internal error", run.stderr)
        for line in run.stderr.splitlines():
            self.assertTrue(line.startswith("error: "), line)

    def test_shell_options(self):
        self.assertEqual(script("", "--bogus").returncode, 2)
        self.assertEqual(script("", "-f").returncode, 2)
        run = script("", "-f", "/nonexistent/script")
        self.assertEqual(run.returncode, 2)
        self.assertIn("/nonexistent/script: cannot open script", run.stderr)
        self.assertIn("usage: pmc", script("", "--help", check_status=0).stdout)
        self.assertEqual(script("", check_status=0).stdout, "")  # an empty script


class Issue21(unittest.TestCase):
    def test_help_flag_on_a_command(self):
        run = script("check --help\nload -h\nset -h\n", check_status=0)
        self.assertIn("check PROPERTY", run.stdout)
        self.assertIn("Example:\n  check P=?", run.stdout)
        self.assertIn("--scheduler", run.stdout)
        self.assertIn("load FILE...", run.stdout)
        self.assertIn("param", run.stdout)  # set's settings list the parameter point

    def test_gz_stem_drops_both_extensions(self):
        with tempfile.TemporaryDirectory() as d:
            import gzip
            for ext in (".tra", ".lab"):
                with open(DIE[:-4] + ext, "rb") as src, gzip.open(os.path.join(d, "consensus" + ext + ".gz"), "wb") as dst:
                    dst.write(src.read())
            run = script(f"load {os.path.join(d, 'consensus.tra.gz')}\nmodels\n", check_status=0)
            self.assertIn("loaded consensus: dtmc", run.stdout)


if __name__ == "__main__":
    PMC = os.path.abspath(sys.argv.pop(1))
    exit_with_status(unittest.main(verbosity=2, exit=False).result)
