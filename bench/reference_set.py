"""The reference set's layout, shared by the benchmark scripts: manifest.tsv
(tab-separated, a header line) and <model>/<instance>/model.{nm,pm,sm,prism}."""
import os


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
