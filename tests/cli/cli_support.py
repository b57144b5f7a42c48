"""What the shell's end-to-end tests share: a long-solving model, and
meson's rule for tests that need the reference models ($PMC_MODELS)."""
import os
import select
import sys


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
