#!/usr/bin/env python3
"""Fails when a source file includes a header of a layer it must not depend on.

The layers and the directions they may depend in are written down in
docs/architecture.md; the table LAYERS below is the same rule in code, and
this script is the check CI runs (`meson test include_directions`).

  python3 tools/check_includes.py [SOURCE_ROOT]    # exit 0 clean, 1 on a violation
  python3 tools/check_includes.py --graph [ROOT]   # print which layer includes which

There are no exceptions: an include against the direction fails, wherever
it is.

Quoted includes are resolved the way the build resolves them: beside the
including file first, then through the include roots include/, lib/ and the
source root. Angle-bracket includes are system headers, except <pmc/...>.
"""
import os
import re
import sys

INCLUDE_ROOTS = ["include", "lib", "."]
SOURCE_SUFFIXES = (".c", ".h", ".cpp", ".hpp", ".cu", ".cuh")

# layer: the layers it may include (itself always). Lower layers first.
LAYERS = {
    "abi": set(),                                   # include/pmc: the public C header
    "common": set(),                                # lib/common: errors, bit sets, text, memory limits
    "model": {"common"},                            # lib/model: the model store
    "expression": {"common", "model"},              # lib/expression: one expression language
    "graph": {"common", "model"},                   # lib/graph: SCC, end components, reachability
    "property": {"common", "expression", "model"},  # lib/property: the property language, properties files
    "cuda": {"common", "model", "expression"},      # cuda/: kernels and launchers over plain views (and flat code)
    "solver": {"common", "model", "graph", "cuda"}, # lib/solver: CPU and GPU solvers, auto
    "check": {"common", "expression", "model", "graph", "property", "solver"},
    "synth": {"common", "expression", "model", "graph", "property", "solver", "check"},
    "formats": {"common", "expression", "model", "property", "cuda"},  # readers, writers, the PRISM language
    "api": {"abi", "common", "expression", "model", "graph", "property", "solver", "check", "synth", "formats"},
    "shell": {"abi", "common", "expression", "model", "graph", "property", "solver", "check", "synth",
              "formats", "api"},
}

CHECKED_TOPS = ("include", "lib", "cuda", "formats", "shell")


def layer_of(relative_path):
    parts = relative_path.split(os.sep)
    top = parts[0]
    if top == "include":
        return "abi"
    if top == "lib":
        return parts[1] if len(parts) > 2 else None
    if top in ("cuda", "formats", "shell"):
        return top
    return None


def resolve(root, including_dir, name):
    for base in [including_dir] + [os.path.join(root, r) for r in INCLUDE_ROOTS]:
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(candidate):
            return os.path.relpath(candidate, root)
    return None


INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<(pmc/[^>]+)>)')


def source_files(root):
    """(path, path relative to root, layer) for every source file of a layer."""
    for top in CHECKED_TOPS:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for file in sorted(files):
                if file.endswith(SOURCE_SUFFIXES):
                    path = os.path.join(folder, file)
                    relative = os.path.relpath(path, root)
                    if layer_of(relative) is not None:
                        yield path, relative, layer_of(relative)


def edges(root):
    """(file, line number, included file, from layer, to layer) for every resolved include."""
    for path, relative, source in source_files(root):
        folder = os.path.dirname(path)
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                name = match.group(1) or match.group(2)
                target_path = resolve(root, folder, name)
                if target_path is None:
                    continue  # a generated or system header
                target = layer_of(target_path)
                if target is not None:
                    yield relative, number, target_path, source, target


def main(argv):
    graph = "--graph" in argv
    args = [a for a in argv if a != "--graph"]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    violations, pairs = [], {}
    unknown = {layer for _, _, layer in source_files(root) if layer not in LAYERS}
    for relative, number, target_path, source, target in edges(root):
        pairs[(source, target)] = pairs.get((source, target), 0) + 1
        if source in LAYERS and target != source and target not in LAYERS[source]:
            violations.append(f"{relative}:{number}: {source} may not include {target} ({target_path})")
    if graph:
        for (source, target), count in sorted(pairs.items()):
            if source != target:
                print(f"{source:>10} -> {target:<10} {count}")
        return 0
    for layer in sorted(unknown):
        violations.append(f"lib/{layer}/: a layer docs/architecture.md and this script do not know; add it to LAYERS")
    for v in violations:
        print(v)
    print(f"include directions: {len(violations)} violation(s)")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
