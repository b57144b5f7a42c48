#!/usr/bin/env python3
"""tools/check_includes.py catches what it is for: in a small tree built here,
cuda/ including lib/solver (from a .cu, a .cuh or a .hpp, by a path through
the include roots or relative to the file), and lib/check including
formats/, are each reported with the file and line; the same tree without
them passes; nothing can list an include as an exception; an unknown layer
fails."""
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

        # The list of exceptions that once let cuda/ include lib/solver is
        # gone: such a file no longer silences anything.
        write(root, "tools/include_exceptions.txt", "cuda/kernels.cu -> lib/solver/problem.hpp\n")
        code, out = run(root)
        if code != 1 or "cuda/kernels.cu:3: cuda may not include solver" not in out:
            print(f"FAIL: an exceptions file silences a violation (exit {code}):\n{out}")
            failures += 1
        os.remove(os.path.join(root, "tools", "include_exceptions.txt"))
        write(root, "cuda/kernels.cu", '#include "common/error.hpp"\n')
        write(root, "lib/check/checker.cpp", '#include "solver/problem.hpp"\n')

        # Every way a cuda/ file may reach lib/solver: a device header, a
        # plain header for host code, a path relative to the file.
        write(root, "lib/solver/gpu/loop.hpp")
        write(root, "cuda/part.cuh", '#pragma once\n#include "solver/gpu/loop.hpp"\n')
        write(root, "cuda/part.hpp", '#pragma once\n\n#include "../lib/solver/problem.hpp"\n')
        code, out = run(root)
        expected = ["cuda/part.cuh:2: cuda may not include solver (lib/solver/gpu/loop.hpp)",
                    "cuda/part.hpp:3: cuda may not include solver (lib/solver/problem.hpp)"]
        if code != 1 or not all(e in out for e in expected):
            print(f"FAIL: cuda/ headers including lib/solver are not reported (exit {code}):\n{out}")
            failures += 1
        os.remove(os.path.join(root, "cuda", "part.cuh"))
        os.remove(os.path.join(root, "cuda", "part.hpp"))
        code, out = run(root)
        if code != 0:
            print(f"FAIL: the tree is reported once clean again (exit {code}):\n{out}")
            failures += 1

        write(root, "lib/newlayer/x.hpp")
        code, out = run(root)
        if code != 1 or "lib/newlayer/" not in out:
            print(f"FAIL: an unknown layer passes (exit {code}):\n{out}")
            failures += 1
    print("check_includes self-test:", "failed" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
