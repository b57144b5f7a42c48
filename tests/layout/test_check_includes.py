#!/usr/bin/env python3
"""tools/check_includes.py catches what it is for: in a small tree built here,
cuda/ including lib/solver, and lib/check including formats/, are each
reported with the file and line; the same tree without them passes; listed
exceptions pass until they no longer occur; an unknown layer fails."""
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "check_includes.py")


def write(root, path, text=""):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def run(root):
    done = subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)
    return done.returncode, done.stdout


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as root:
        write(root, "lib/solver/problem.hpp")
        write(root, "lib/common/error.hpp")
        write(root, "lib/model/model.hpp", '#include "common/error.hpp"\n')
        write(root, "formats/reader.hpp", '#include "model/model.hpp"\n')
        write(root, "cuda/kernels.cu", '#include "common/error.hpp"\n#include "model/model.hpp"\n')
        write(root, "lib/check/checker.cpp", '#include "solver/problem.hpp"\n#include <vector>\n')
        code, out = run(root)
        if code != 0:
            print(f"FAIL: a clean tree is reported (exit {code}):\n{out}")
            failures += 1

        write(root, "cuda/kernels.cu", '#include "common/error.hpp"\n\n#include "solver/problem.hpp"\n')
        write(root, "lib/check/checker.cpp", '#include "formats/reader.hpp"\n')
        code, out = run(root)
        expected = ["cuda/kernels.cu:3: cuda may not include solver", "lib/check/checker.cpp:1: check may not include formats"]
        if code != 1 or not all(e in out for e in expected):
            print(f"FAIL: the violations are not reported (exit {code}):\n{out}")
            failures += 1

        write(root, "tools/include_exceptions.txt",
              "# being moved\ncuda/kernels.cu -> lib/solver/problem.hpp\nlib/check/checker.cpp -> formats/reader.hpp\n")
        code, out = run(root)
        if code != 0:
            print(f"FAIL: listed exceptions are reported (exit {code}):\n{out}")
            failures += 1
        write(root, "lib/check/checker.cpp", '#include "solver/problem.hpp"\n')
        code, out = run(root)
        if code != 1 or "lib/check/checker.cpp -> formats/reader.hpp no longer occurs" not in out:
            print(f"FAIL: a stale exception passes (exit {code}):\n{out}")
            failures += 1
        os.remove(os.path.join(root, "tools", "include_exceptions.txt"))

        write(root, "lib/newlayer/x.hpp")
        code, out = run(root)
        if code != 1 or "lib/newlayer/" not in out:
            print(f"FAIL: an unknown layer passes (exit {code}):\n{out}")
            failures += 1
    print("check_includes self-test:", "failed" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
