"""Finding libpmc, and the library-wide functions."""

import os
import subprocess
import sys
import unittest

import modelref  # noqa: F401  (puts this package first on sys.path)
import pmc
from pmc import _native

_PACKAGE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def _run_python(code, **env_changes):
    """Runs `code` in a fresh interpreter with the package importable and
    the environment changed as given (None removes a variable)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = _PACKAGE_ROOT + os.pathsep + env.get("PYTHONPATH", "")
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)


class LibraryTest(unittest.TestCase):
    def test_version_matches_the_bindings(self):
        major, minor, patch = (int(x) for x in pmc.version().split("."))
        self.assertEqual(pmc.version_number(), major * 10000 + minor * 100 + patch)
        self.assertEqual(major, _native.ABI_MAJOR)
        self.assertGreaterEqual(pmc.version_number(), _native.ABI_VERSION_NUMBER)

    def test_solvers_lists_the_registry(self):
        names = pmc.solvers()
        self.assertIsInstance(names, list)
        for expected in ("cpu.jacobi", "cpu.gauss-seidel", "cpu.vi", "cpu.topo-vi", "cpu.interval-vi", "cpu.steps"):
            self.assertIn(expected, names)
        self.assertTrue(all(isinstance(n, str) for n in names))

    def test_devices_is_a_list_with_a_reason_when_empty(self):
        devices = pmc.devices()
        self.assertIsInstance(devices, list)
        if devices:
            for d in devices:
                self.assertIsInstance(d, pmc.Device)
                self.assertTrue(d.name)
                self.assertGreater(d.total_memory, 0)
                self.assertGreaterEqual(d.compute_capability, (1, 0))
        else:
            self.assertTrue(devices.reason, "an empty device list must say why")

    def test_library_path_is_reported(self):
        self.assertTrue(pmc.library_path())

    def test_every_prototype_is_declared(self):
        lib = _native.lib()
        for name, (restype, argtypes) in _native._PROTOTYPES.items():
            function = getattr(lib, name)
            self.assertEqual(function.argtypes, argtypes, name)
            self.assertIs(function.restype, restype, name)

    def test_pmc_library_pointing_nowhere_is_a_clear_error(self):
        done = _run_python(
            "import pmc\n"
            "try:\n"
            "    pmc.version()\n"
            "except pmc.LibraryError as e:\n"
            "    assert isinstance(e, ImportError) and isinstance(e, pmc.Error)\n"
            "    print('LibraryError:', e)\n",
            PMC_LIBRARY="/nonexistent/libpmc.so", PMC_LIB_DIR=None)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("LibraryError:", done.stdout)
        self.assertIn("/nonexistent/libpmc.so", done.stdout)

    def test_pmc_lib_dir_finds_the_library(self):
        directory = os.path.dirname(os.path.realpath(pmc.library_path()))
        if not os.path.isabs(pmc.library_path()):
            self.skipTest("libpmc was found by the loader, not by path")
        done = _run_python("import pmc; print(pmc.library_path()); print(pmc.version())",
                           PMC_LIBRARY=None, PMC_LIB_DIR=directory)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(done.stdout.startswith(directory), done.stdout)
        self.assertIn(pmc.version(), done.stdout)

    def test_pmc_lib_dir_without_the_library_is_a_clear_error(self):
        done = _run_python("import pmc\ntry:\n    pmc.solvers()\nexcept pmc.LibraryError as e:\n    print(e)\n",
                           PMC_LIBRARY=None, PMC_LIB_DIR="/")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("PMC_LIB_DIR", done.stdout)

    def test_import_does_not_load_the_library(self):
        done = _run_python("import pmc, pmc._native as n; print(n._lib is None)",
                           PMC_LIBRARY="/nonexistent/libpmc.so")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.strip(), "True")


if __name__ == "__main__":
    unittest.main()
