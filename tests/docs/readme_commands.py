#!/usr/bin/env python3
"""Runs every command that README.md and bindings/*/README.md show.

usage: readme_commands.py BUILD_DIR [SOURCE_ROOT]

As a new user would after the README's set-up command: in a copy of the
source tree (the files git tracks or would track, as a fresh clone has them)
whose `build` is a link to BUILD_DIR, with `shared/` beside it when the
source tree has one (as CI's clone does), and without the variables that
would find libpmc for them (LD_LIBRARY_PATH, PKG_CONFIG_PATH, PYTHONPATH,
PMC_LIB_DIR, PMC_LIBRARY, ...).

Which fenced blocks are commands (README.md, "Tests", says the same):

- ```sh: every line is a command (a trailing backslash continues it, `#`
  starts a comment line); the block runs in one shell, from the source root,
  so a `cd` or `export` holds for the block's later lines.
- ```console: a session; lines starting with `$ ` are commands, the others
  their output (not compared: it holds "..." and times).
- ```text, ```rust, ```java, ```python, ```c: not commands.
- A block without a language fails the test: say what it is.

An HTML comment on the line before a block changes how it runs:

- `<!-- not run: REASON -->`: skipped, with the reason in the log (the
  set-up command, which CI runs itself; the test command, which runs this).
- `<!-- exit N -->`: each command must exit with status N (default 0).
- `<!-- requires: COMMAND -->`: COMMAND (shell) is run first; when it fails,
  the block is skipped and the test exits 77 (skipped) naming it, never
  passing silently: for cargo, a JDK, Debian's python3-venv.
- `<!-- private /usr/local -->`: the block runs as root in a mount namespace
  of its own, with an empty /usr/local and its own ld.so.cache, so that
  `meson install` leaves the machine as it was; skipped (77) without root
  or unshare.

A command that exits 77 (skipped, as meson's tests do) skips its block.
A command that fails is reported as README:LINE, the command, its status and
the block's output; the test then exits 1.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

RUN_LANGUAGES = {"sh", "console"}
OUTPUT_LINES = 25  # of each passing block's output, in the log
BLOCK_TIMEOUT = 1200  # seconds; cargo builds the Rust crates from nothing in about two minutes on 2 cores

# What would find libpmc or the models without the README saying so.
SCRUBBED = ["LD_LIBRARY_PATH", "LD_PRELOAD", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PYTHONPATH",
            "PMC_LIB_DIR", "PMC_LIBRARY", "PMC_HEADER", "PMC_INCLUDE_DIR", "PMC_DEFAULT_MODELS_DIR",
            "PMC_SOURCE_ROOT", "CARGO_TARGET_DIR", "RUSTFLAGS", "VIRTUAL_ENV"]


@dataclass
class Command:
    line: int  # 1-based, in the README
    text: str


@dataclass
class Block:
    readme: str
    line: int  # of the opening fence
    language: str
    directive: str
    commands: list = field(default_factory=list)


def parse_directive(text):
    match = re.fullmatch(r"\s*<!--\s*(.*?)\s*-->\s*", text)
    return match.group(1) if match else ""


def read_blocks(readme, relative):
    """The fenced blocks of one README, with the comment line before each."""
    lines = readme.read_text(encoding="utf-8").splitlines()
    blocks = []
    k = 0
    while k < len(lines):
        opening = re.fullmatch(r"(\s*)```(\S*)\s*", lines[k])
        if not opening:
            k += 1
            continue
        indent = len(opening.group(1))
        previous = next((lines[j] for j in range(k - 1, -1, -1) if lines[j].strip()), "")
        block = Block(relative, k + 1, opening.group(2), parse_directive(previous))
        body = []
        k += 1
        while k < len(lines) and not re.fullmatch(r"\s*```\s*", lines[k]):
            body.append((k + 1, lines[k][indent:] if lines[k][:indent].isspace() else lines[k].lstrip()))
            k += 1
        k += 1  # the closing fence
        block.commands = commands_of(block.language, body)
        blocks.append(block)
    return blocks


def commands_of(language, body):
    commands = []
    if language == "sh":
        pending = None
        for number, text in body:
            if pending is None and (not text.strip() or text.lstrip().startswith("#")):
                continue
            if pending is None:
                pending = Command(number, text)
            else:
                pending.text += "\n" + text
            if not text.endswith("\\"):
                commands.append(pending)
                pending = None
        if pending is not None:
            commands.append(pending)
    elif language == "console":
        for number, text in body:
            if text.startswith("$ "):
                commands.append(Command(number, text[2:]))
    return commands


def copy_tree(source, target):
    """The files of a fresh clone (plus new ones not yet committed), mtimes kept."""
    try:
        listing = subprocess.run(["git", "-C", str(source), "ls-files", "-z", "--cached", "--others",
                                  "--exclude-standard"], check=True, capture_output=True).stdout
        files = [f for f in listing.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = [str(p.relative_to(source)) for p in source.rglob("*")
                 if p.is_file() and not p.relative_to(source).parts[0].startswith(("build", "."))]
    for name in files:
        path = source / name
        if path.is_symlink() or path.is_file():
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination, follow_symlinks=False)


def prepare_clone(source, build, work):
    """WORK/pmc: the copy, its `build` a link to BUILD_DIR; WORK/shared beside it."""
    clone = work / "pmc"
    # Cargo's output is kept between runs (the copy keeps the sources'
    # mtimes, so cargo rebuilds only what changed); everything else is new.
    target = clone / "bindings" / "rust" / "target"
    kept = work / "rust-target"
    work.mkdir(parents=True, exist_ok=True)
    if target.is_dir():
        shutil.rmtree(kept, ignore_errors=True)
        target.rename(kept)
    for path in work.iterdir():
        if path == kept:
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    clone.mkdir(parents=True)
    copy_tree(source, clone)
    if kept.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        kept.rename(target)
    (clone / "build").symlink_to(build.resolve(), target_is_directory=True)
    shared = source.parent / "shared"
    if shared.is_dir():
        (work / "shared").symlink_to(shared.resolve(), target_is_directory=True)
    return clone


def script_for(block, expected):
    """A bash script running the block's commands in order; each checks its status."""
    parts = ["exec 3>&2"]
    for k, command in enumerate(block.commands):
        parts.append(f"echo '+ {block.readme}:{command.line}' >&2")
        parts.append(command.text)
        parts.append(f'__rc=$?; if [ "$__rc" != {expected} ]; then echo "__PMC_DOC_FAILED__ {k} $__rc" >&3; exit 99; fi')
    return "\n".join(parts) + "\n"


def requirement_met(directive, cwd, env):
    match = re.fullmatch(r"requires:\s*(.+)", directive)
    if not match:
        return True, ""
    check = subprocess.run(["bash", "-c", match.group(1)], cwd=cwd, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return check.returncode == 0, match.group(1)


def run_block(block, clone, env):
    """Returns ("ok"|"skip"|"fail", message)."""
    directive = block.directive
    ok, requirement = requirement_met(directive, clone, env)
    if not ok:
        return "skip", f"needs `{requirement}`, which failed here"
    expected = 0
    match = re.fullmatch(r"exit\s+(\d+)", directive)
    if match:
        expected = int(match.group(1))
    script = script_for(block, expected)
    argv = ["bash", "-c", script]
    if directive == "private /usr/local":
        if os.geteuid() != 0 or subprocess.run(["unshare", "--mount", "true"], stderr=subprocess.DEVNULL).returncode != 0:
            return "skip", "needs root and a mount namespace (unshare --mount) for a private /usr/local"
        # ldconfig replaces /etc/ld.so.cache by a rename, so the namespace
        # gets a copy of the whole of /etc (a bind mount of the file alone
        # cannot be renamed over).
        etc = tempfile.mkdtemp(prefix="pmc-readme-etc.")
        private = ('cp -a /etc/. "$2" && mount -t tmpfs tmpfs /usr/local && mount --bind "$2" /etc && '
                   'exec bash -c "$1"')
        argv = ["unshare", "--mount", "--propagation", "private", "bash", "-c", private, "bash", script, etc]
    try:
        run = subprocess.run(argv, cwd=clone, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=BLOCK_TIMEOUT, text=True, errors="replace")
    except subprocess.TimeoutExpired as e:
        output = e.output.decode(errors="replace") if isinstance(e.output, bytes) else (e.output or "")
        return "fail", f"timed out after {BLOCK_TIMEOUT} s\n{output}"
    finally:
        if directive == "private /usr/local":
            shutil.rmtree(etc, ignore_errors=True)
    output = run.stdout
    failed = re.search(r"__PMC_DOC_FAILED__ (\d+) (\d+)", output)
    if failed:
        command = block.commands[int(failed.group(1))]
        output = output.replace(failed.group(0), "").rstrip()
        if failed.group(2) == "77" and expected == 0:
            # The automake/meson convention, as the Java test program uses it
            # without reference models: skipped, said, never passed.
            return "skip", f"{block.readme}:{command.line}: `{command.text}` exited 77 (skipped)\n{output}"
        return "fail", (f"{block.readme}:{command.line}: `{command.text}` exited {failed.group(2)}"
                        f" (expected {expected})\n{output}")
    if run.returncode != 0:
        return "fail", f"{block.readme}:{block.line}: the block's shell exited {run.returncode}\n{output}"
    return "ok", output


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    build = Path(sys.argv[1]).resolve()
    source = Path(sys.argv[2]).resolve() if len(sys.argv) == 3 else Path(__file__).resolve().parents[2]
    readmes = [source / "README.md"] + sorted(source.glob("bindings/*/README.md"))
    blocks = []
    for readme in readmes:
        blocks += read_blocks(readme, str(readme.relative_to(source)))

    failures, skips, passed = [], [], 0
    for block in blocks:
        where = f"{block.readme}:{block.line}"
        if block.language == "":
            failures.append(f"{where}: a fenced block without a language: tag it sh or console (commands, "
                            f"with <!-- not run: why --> before it if they must not run), text, or "
                            f"the code's language")
    work = build / "readme-clone"
    clone = prepare_clone(source, build, work)
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED and not k.startswith("MESON_")}
    env["PWD"] = str(clone)
    for block in blocks:
        where = f"{block.readme}:{block.line}"
        if block.language not in RUN_LANGUAGES or not block.commands:
            continue
        if block.directive.startswith("not run"):
            print(f"-- {where}: not run ({block.directive[len('not run'):].lstrip(': ')})")
            continue
        print(f"-- {where}: {len(block.commands)} command(s)", flush=True)
        status, message = run_block(block, clone, env)
        if status == "ok":
            passed += 1
            for command in block.commands:
                print(f"   ok  {command.text.splitlines()[0][:120]}")
            tail = message.rstrip().splitlines()[-OUTPUT_LINES:]
            print("\n".join("   | " + line for line in tail))
        elif status == "skip":
            skips.append(f"{where}: SKIPPED: {message}")
            print(f"   SKIPPED: {message}")
        else:
            failures.append(message)
            print(f"   FAILED", flush=True)
    print()
    for failure in failures:
        print("FAILED: " + failure + "\n")
    for skip in skips:
        print(skip)
    print(f"{passed} blocks passed, {len(failures)} failed, {len(skips)} skipped")
    if failures:
        return 1
    return 77 if skips else 0


if __name__ == "__main__":
    sys.exit(main())
