#!/usr/bin/env python3
"""make checkdeps: the library's include graph follows its layers.

lib/ has one folder per layer.  A file may include headers of its own
layer and of the layers its layer is declared to sit on (LAYERS below,
which lib/README.md describes); anything else is an upward or sideways
include and fails.  synth/ (the scenario generator) and tools/ sit on top
of the library: lib/ never includes them.  Within a layer, the modules (a
.c and its .h) must not include each other in a cycle.

A module split over several files shares an internal header m_int.h
(lib/span/spanb_int.h): it belongs to module m, and only m.c and m_*.c
(or .h) of its own folder may include it, nothing else in the tree.

Prints one line per violation and exits 1, or "checkdeps: ok".
"""
import os
import re
import sys

# layer -> the layers it may include (besides itself)
LAYERS = {
    "base": [],
    "io": ["base"],
    "stream": ["base", "io"],
    "config": ["base", "io", "stream"],
    "source": ["base", "io", "stream"],
    "span": ["base", "io", "stream", "config"],
    "sink": ["base", "io", "stream"],
    "sqlite": ["base", "io", "stream"],
}
# folders outside lib/ that build on it: which lib layers and own folders
ABOVE = {
    "synth": list(LAYERS) + ["synth"],
    "tools/common": list(LAYERS) + ["tools/common"],
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
INTERNAL = "_int"   # m_int.h: the internal header of module m
# other folders whose files must not include an internal header (ABOVE's
# are checked with lib/)
OUTSIDE = ["tools", "tests"]


def module_of(name):
    """The module a file or header belongs to: spanb_int.h -> spanb."""
    base = os.path.splitext(os.path.basename(name))[0]
    return base[:-len(INTERNAL)] if base.endswith(INTERNAL) else base


def may_include_internal(path, inc):
    """Only the files of module m (m.c, m_*.c/h) in m_int.h's folder."""
    owner = module_of(inc)
    base = os.path.splitext(os.path.basename(path))[0]
    # lib/ headers are included as "layer/m_int.h", synth/'s as "synth/..."
    home = (os.path.dirname(path) == os.path.join("lib", os.path.dirname(inc))
            or os.path.dirname(path) == os.path.dirname(inc))
    return home and (base == owner or base.startswith(owner + "_"))


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for m in INCLUDE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        yield line, m.group(1)


def folder_of(inc):
    """The folder an include names: "base/err.h" -> base."""
    if inc.startswith("tools/common/"):
        return "tools/common"
    return inc.split("/", 1)[0] if "/" in inc else None


def main(top):
    os.chdir(top)
    bad = []
    edges = {}  # module -> set of modules (same layer only)
    files = []
    for layer in LAYERS:
        d = os.path.join("lib", layer)
        if not os.path.isdir(d):
            bad.append(f"lib/{layer}: layer folder missing")
            continue
        files += [(layer, os.path.join(d, f)) for f in sorted(os.listdir(d))
                  if f.endswith((".c", ".h"))]
    for top_dir in ABOVE:
        if os.path.isdir(top_dir):
            files += [(top_dir, os.path.join(top_dir, f))
                      for f in sorted(os.listdir(top_dir))
                      if f.endswith((".c", ".h"))]
    for f in os.listdir("lib"):
        if f.endswith((".c", ".h")):
            bad.append(f"lib/{f}: source file outside a layer folder")
    for layer, path in files:
        allowed = LAYERS[layer] if layer in LAYERS else ABOVE[layer]
        mod = (layer, module_of(path))
        for line, inc in includes(path):
            if module_of(inc) != os.path.splitext(os.path.basename(inc))[0] \
                    and not may_include_internal(path, inc):
                bad.append(f"{path}:{line}: \"{inc}\" is internal to "
                           f"{os.path.dirname(inc)}/{module_of(inc)}*.c")
            dst = folder_of(inc)
            if dst is None:
                bad.append(f"{path}:{line}: \"{inc}\" does not name its layer")
                continue
            if dst == layer:
                m = (layer, module_of(inc))
                if m != mod:
                    edges.setdefault(mod, set()).add(m)
                continue
            if dst not in allowed:
                if dst in LAYERS and layer in LAYERS:
                    kind = "upward" if layer in reachable(dst) else "sideways"
                else:
                    kind = "forbidden"
                bad.append(f"{path}:{line}: {kind} include of \"{inc}\" "
                           f"({layer} may include {', '.join(allowed) or 'only itself'})")
    for top_dir in OUTSIDE:
        for root, _, names in os.walk(top_dir):
            for f in sorted(names):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, f)
                if os.path.dirname(path) in ABOVE:
                    continue
                for line, inc in includes(path):
                    if os.path.splitext(inc)[0].endswith(INTERNAL):
                        bad.append(f"{path}:{line}: \"{inc}\" is internal "
                                   f"to lib/{os.path.dirname(inc)}")
    for cyc in cycles(edges):
        bad.append("include cycle: " +
                   " -> ".join(f"{l}/{m}" for l, m in cyc))
    for b in bad:
        print("checkdeps: " + b)
    if bad:
        return 1
    print(f"checkdeps: ok ({len(files)} files, {len(LAYERS)} layers)")
    return 0


def reachable(layer):
    """Layers that (transitively) sit on layer's side of the graph."""
    seen, todo = set(), [layer]
    while todo:
        l = todo.pop()
        for k in LAYERS.get(l, []):
            if k not in seen:
                seen.add(k)
                todo.append(k)
    return seen


def cycles(edges):
    """One cycle per strongly connected part of more than one module."""
    out, state, stack = [], {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                out.append(stack[stack.index(m):] + [m])
            elif m not in state:
                visit(m)
        stack.pop()
        state[n] = 2

    for n in sorted(edges):
        if n not in state:
            visit(n)
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
