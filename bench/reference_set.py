"""The reference set's layout, shared by the benchmark scripts: manifest.tsv
(tab-separated, a header line) and <model>/<instance>/model.{nm,pm,sm,prism}."""
import os
import subprocess
import time


def manifest_rows(folder):
    """The rows of folder/manifest.tsv as dicts by column name ([] without one)."""
    path = os.path.join(folder, "manifest.tsv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]


def source_file(folder):
    """The instance's PRISM-language source, or None."""
    for ext in ("nm", "pm", "sm", "prism"):
        path = os.path.join(folder, "model." + ext)
        if os.path.exists(path):
            return path
    return None


def build_pmcb(pmc, source, constants, out):
    """`pmc convert SOURCE OUT [--const ...]`; returns its seconds, raises with pmc's message."""
    cmd = [pmc, "convert", source, out] + (["--const", constants] if constants else [])
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {done.stderr.strip()[-300:]}")
    return time.perf_counter() - start
