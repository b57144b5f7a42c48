"""The PRISM-language benchmarks of a QVBS copy (qcomp.org's Quantitative
Verification Benchmark Set), read from each benchmark's index.json: for every
model file its PRISM source and properties file ("original-file"), and for
every instance the constants ("file-parameter-values", fixed by the file,
and "open-parameter-values" [{"values", "states", "results"}]), the state
count and the reference results.

Used by tests/cli/test_qvbs_walk.py (every properties file through the
reader) and bench/qvbs_run.py (every small instance checked against the
references); jani_instances() lists the JANI model files instead, for
bench/jani_qvbs.py.
"""
import json
import math
import os
import sys
from dataclasses import dataclass, field
from fractions import Fraction

MODEL_EXTENSIONS = (".prism", ".pm", ".nm", ".sm")
PROPERTIES_EXTENSIONS = (".props", ".prctl", ".csl", ".pctl")
MODEL_TYPES = ("dtmc", "ctmc", "mdp")
JANI_EXTENSIONS = (".jani", ".jani.gz", ".jani.xz")

# Exact references are rationals with thousands of digits.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


def default_qvbs_dir(source_root):
    """The team's data folder beside the source tree; $PMC_QVBS overrides."""
    return os.environ.get("PMC_QVBS") or os.path.join(source_root, "..", "shared", "qvbs")


def constant_text(value):
    """A parameter's value as --const takes it: true/false, 3, 0.5."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def constants_argument(pairs):
    """[("N", 3), ("K", 2)] as "N=3,K=2"."""
    return ",".join(f"{name}={constant_text(value)}" for name, value in pairs)


@dataclass
class Reference:
    """A reference result: exact (a Fraction), an interval [lower, upper], a
    number without guarantee, a verdict (bool), or infinity."""
    kind: str  # "exact", "interval", "approx", "bool", "infinity"
    exact: Fraction = None
    lower: float = None
    upper: float = None
    approx: float = None
    verdict: bool = None
    note: str = ""

    def text(self):
        if self.kind == "exact":
            return f"{float(self.exact):.12g}"
        if self.kind == "interval":
            return f"[{self.lower:.10g}, {self.upper:.10g}]"
        if self.kind == "approx":
            return f"~{self.approx:.12g}"
        if self.kind == "bool":
            return "true" if self.verdict else "false"
        return "inf"


def parse_reference(value, note=""):
    if isinstance(value, bool):
        return Reference("bool", verdict=value, note=note)
    if isinstance(value, int):
        return Reference("exact", exact=Fraction(value), note=note)
    if isinstance(value, float):
        return Reference("approx", approx=value, note=note)
    if isinstance(value, str):
        if value.strip() in ("∞", "inf", "Infinity"):
            return Reference("infinity", note=note)
        raise ValueError(f"unknown reference value {value!r}")
    if "num" in value and "den" in value:
        return Reference("exact", exact=Fraction(int(value["num"]), int(value["den"])), note=note)
    if "lower" in value and "upper" in value:
        return Reference("interval", lower=float(value["lower"]), upper=float(value["upper"]), note=note)
    raise ValueError(f"unknown reference value {value!r}")


@dataclass
class Instance:
    benchmark: str              # "dtmc/brp"
    directory: str
    model_type: str             # "dtmc", "ctmc", "mdp"
    model: str                  # the PRISM source's path, None when the original is not PRISM
    properties: str             # the properties file's path, None when there is none
    file_constants: list        # [(name, value)] fixed by the model file
    open_constants: list        # [(name, value)] the instance gives
    states: int = None          # from index.json, None when unknown
    states_note: str = ""       # who counted them ("Storm")
    references: dict = field(default_factory=dict)  # property name -> Reference

    def label(self):
        """The parameter values joined by '-', as QVBS names instances."""
        values = [constant_text(v) for _, v in self.file_constants + self.open_constants]
        return "-".join(values) if values else "-"

    def constants(self):
        """--const for the model: the open parameters (the file fixes the rest)."""
        return constants_argument(self.open_constants)

    def all_constants(self):
        """Every parameter: what a properties file may declare without a value."""
        return constants_argument(self.file_constants + self.open_constants)


def _state_count(entry):
    """(count, note) of index.json's "states" [{"note", "number"}]: the
    largest count given, (None, "") when none is."""
    counts = [(s["number"], s.get("note", "")) for s in entry.get("states", []) if isinstance(s.get("number"), int)]
    return max(counts) if counts else (None, "")


def read_index(directory):
    with open(os.path.join(directory, "index.json"), encoding="utf-8-sig") as f:
        return json.load(f)


def _file_entries(qvbs_dir, model_types):
    """(model type, benchmark name, directory, "files" entry) of every
    benchmark of the given types, in benchmark order."""
    root = os.path.join(qvbs_dir, "benchmarks")
    for model_type in model_types:
        type_dir = os.path.join(root, model_type)
        if not os.path.isdir(type_dir):
            continue
        for name in sorted(os.listdir(type_dir)):
            directory = os.path.join(type_dir, name)
            if not os.path.isfile(os.path.join(directory, "index.json")):
                continue
            for entry in read_index(directory).get("files", []):
                yield model_type, name, directory, entry


def instances(qvbs_dir, model_types=MODEL_TYPES):
    """Every instance of every benchmark with a PRISM-syntax properties file
    (the model may be in another language: then `model` is None), in
    benchmark order. A model file without instances gives one with no open
    constants and no references, so that its properties file is still seen."""
    for model_type, name, directory, entry in _file_entries(qvbs_dir, model_types):
                originals = entry.get("original-file", [])
                if isinstance(originals, str):
                    originals = [originals]
                model = next((o for o in originals if o.endswith(MODEL_EXTENSIONS)), None)
                props = next((o for o in originals if o.endswith(PROPERTIES_EXTENSIONS)), None)
                if props is None:
                    continue
                file_constants = [(p["name"], p["value"]) for p in entry.get("file-parameter-values", []) or []]
                runs = entry.get("open-parameter-values", []) or [{}]
                for run in runs:
                    states, states_note = _state_count(run)
                    refs = {}
                    for r in run.get("results", []):
                        refs[r["property"]] = parse_reference(r["value"], r.get("note", ""))
                    yield Instance(
                        benchmark=f"{model_type}/{name}", directory=directory, model_type=model_type,
                        model=os.path.join(directory, model) if model else None,
                        properties=os.path.join(directory, props),
                        file_constants=file_constants,
                        open_constants=[(p["name"], p["value"]) for p in run.get("values", [])],
                        states=states, states_note=states_note, references=refs)


@dataclass
class JaniInstance(Instance):
    """An instance of a JANI model file: `jani` is its path; `model` and
    `properties` are the PRISM-language original's, None when the original
    is in another language (Modest, PDDL, pGCL, ...)."""
    jani: str = None
    originals: list = field(default_factory=list)     # index.json's "original-file", as paths
    state_counts: list = field(default_factory=list)  # [(number, note)]: every count index.json gives


def jani_instances(qvbs_dir, model_types=MODEL_TYPES):
    """Every instance of every JANI model file ("file" ending in .jani) of
    the given model types, in benchmark order. The JANI file fixes the
    "file-parameter-values"; the open ones are --const's. A file without
    instances gives one with no open constants and no references."""
    for model_type, name, directory, entry in _file_entries(qvbs_dir, model_types):
                jani = entry.get("file", "")
                if not jani.endswith(JANI_EXTENSIONS):
                    continue
                originals = entry.get("original-file", [])
                if isinstance(originals, str):
                    originals = [originals]
                model = next((o for o in originals if o.endswith(MODEL_EXTENSIONS)), None)
                props = next((o for o in originals if o.endswith(PROPERTIES_EXTENSIONS)), None)
                file_constants = [(p["name"], p["value"]) for p in entry.get("file-parameter-values", []) or []]
                runs = entry.get("open-parameter-values", []) or [{}]
                for run in runs:
                    states, states_note = _state_count(run)
                    counts = [(s["number"], s.get("note", "")) for s in run.get("states", [])
                              if isinstance(s.get("number"), int)]
                    refs = {}
                    for r in run.get("results", []):
                        refs[r["property"]] = parse_reference(r["value"], r.get("note", ""))
                    yield JaniInstance(
                        benchmark=f"{model_type}/{name}", directory=directory, model_type=model_type,
                        model=os.path.join(directory, model) if model else None,
                        properties=os.path.join(directory, props) if props else None,
                        file_constants=file_constants,
                        open_constants=[(p["name"], p["value"]) for p in run.get("values", [])],
                        states=states, states_note=states_note, references=refs,
                        jani=os.path.join(directory, jani),
                        originals=[os.path.join(directory, o) for o in originals], state_counts=counts)


def is_finite_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
