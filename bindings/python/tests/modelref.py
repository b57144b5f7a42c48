"""The reference models (PMC_MODELS) and their manifest, manifest.tsv.

The directory is PMC_MODELS, else PMC_DEFAULT_MODELS_DIR (set by meson from
its models_dir), else the team's models folder, ../shared/models beside
the source tree. Tests that
need it call require_models(), which skips them with a message when absent.
"""

import csv
import functools
import math
import os
import sys
import unittest

_PACKAGE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
_SOURCE_ROOT = os.path.abspath(os.path.join(_PACKAGE_ROOT, "..", ".."))

# Test this source tree's package, whatever the current directory or an
# installed pmc (test modules import modelref before pmc).
if _PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, _PACKAGE_ROOT)

# The reference values were computed with epsilon 1e-12; 1e-10 keeps the
# solvers' own error far below the tolerance asserted (as the C++ tests do).
EPSILON = 1e-10


def models_dir():
    for variable in ("PMC_MODELS", "PMC_DEFAULT_MODELS_DIR"):
        value = os.environ.get(variable)
        if value:
            return value
    return os.path.join(_SOURCE_ROOT, "..", "shared", "models")


def require_models():
    """The models directory, or unittest.SkipTest when there is none."""
    root = models_dir()
    if not os.path.isfile(os.path.join(root, "manifest.tsv")):
        raise unittest.SkipTest(f"reference models not found (no manifest.tsv in {root}); "
                                "set PMC_MODELS to run these tests")
    return root


class Row:
    def __init__(self, root, fields):
        self.model = fields["model"]
        self.instance = fields["instance"]
        self.type = fields["type"]
        self.states = int(fields["states"])
        self.transitions = int(fields["transitions"])
        self.choices = int(fields["choices"]) if fields.get("choices") else self.states
        self.files = fields["files"].split(",")
        self.property = fields["property"]
        self.reference = float(fields["reference_value"])  # float() reads "Infinity"
        self.directory = os.path.join(root, self.model, self.instance)

    @property
    def name(self):
        return f"{self.model}/{self.instance}"

    @property
    def transitions_file(self):
        return os.path.join(self.directory, next(f for f in self.files if f.endswith((".tra", ".tra.gz"))))

    def tolerance(self):
        """The reference tolerance: 1e-6 relative, 1e-5 for CTMC time-bounded properties."""
        p = self.property
        time_bounded = any(s in p for s in ("<=", "F[", "U[", ">=", "I="))
        return 1e-5 if self.type == "ctmc" and time_bounded else 1e-6

    def agrees(self, value):
        if math.isinf(self.reference):
            return value == self.reference
        return abs(value - self.reference) <= self.tolerance() * max(abs(self.reference), 1e-9)


@functools.lru_cache(maxsize=None)
def manifest():
    root = require_models()
    with open(os.path.join(root, "manifest.tsv"), newline="", encoding="utf-8") as f:
        return tuple(Row(root, fields) for fields in csv.DictReader(f, delimiter="\t"))


def rows(model, instance):
    found = [r for r in manifest() if r.model == model and r.instance == instance]
    if not found:
        raise unittest.SkipTest(f"{model}/{instance} is not in the manifest")
    return found


def instance_file(model, instance, name):
    path = os.path.join(require_models(), model, instance, name)
    if not os.path.exists(path):
        raise unittest.SkipTest(f"{path} not found")
    return path
