"""What the shell's end-to-end tests share: where the sources, the
reference models and the QVBS are, a long-solving model, and meson's rule
for tests that need the reference models ($PMC_MODELS)."""
import os
import select
import sys


def source_root():
    """The source tree ($PMC_SOURCE_ROOT, else two folders up)."""
    return os.environ.get("PMC_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))


def models_dir():
    """The reference models ($PMC_MODELS, else meson's default); "" for none."""
    return os.environ.get("PMC_MODELS") or os.environ.get("PMC_DEFAULT_MODELS_DIR", "")


def qvbs_dir():
    """The QVBS: $PMC_QVBS, else the `qvbs` folder beside the reference
    models, else the team's data folder beside the source tree."""
    if os.environ.get("PMC_QVBS"):
        return os.environ["PMC_QVBS"]
    models = models_dir()
    if models:
        sibling = os.path.join(os.path.dirname(os.path.normpath(models)), "qvbs")
        if os.path.isdir(sibling):
            return sibling
    return os.path.join(source_root(), "..", "shared", "qvbs")


def have_qvbs():
    return os.path.isdir(os.path.join(qvbs_dir(), "benchmarks"))


def write_walk(directory, n=20001):
    """A symmetric random walk absorbed at both ends, as walk.tra/.lab in
    `directory`: at epsilon 1e-15 an unbounded reachability takes millions of
    sweeps (a long check), while F<=10 takes ten. Returns the .tra's path."""
    tra = os.path.join(directory, "walk.tra")
    with open(tra, "w") as f:
        f.write(f"{n} {2 * n - 2}\n0 0 1\n")
        f.writelines(f"{i} {i - 1} 0.5\n{i} {i + 1} 0.5\n" for i in range(1, n - 1))
        f.write(f"{n - 1} {n - 1} 1\n")
    with open(os.path.join(directory, "walk.lab"), "w") as f:
        f.write(f'0="init" 1="goal"\n{n // 2}: 0\n{n - 1}: 1\n')
    return tra


def read_line_within(stream, seconds):
    """The next line of a pipe, or None when none comes in time."""
    ready, _, _ = select.select([stream], [], [], seconds)
    return stream.readline() if ready else None


def exit_with_status(result):
    """Ends a unittest run: 1 on a failure; 77 (meson's SKIP, never a pass)
    when tests were skipped for want of the reference models ($PMC_MODELS);
    else 0."""
    if not result.wasSuccessful():
        sys.exit(1)
    missing = [reason for _, reason in result.skipped if "models not found" in reason]
    if missing:
        print(f"SKIP: {len(missing)} test(s) need the reference models: {missing[0]}")
        sys.exit(77)
    sys.exit(0)
