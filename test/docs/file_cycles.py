#!/usr/bin/env python3
"""No cycle among the files of a layer (docs/architecture.md): within each layer's library, file A depends on file B
when A's object uses a symbol B's object defines (`nm`: A's undefined symbols, B's defined external ones). The build
already forbids a layer from calling up (one library per folder); this checks the files inside a folder, where the
compiler does not look: every strongly connected group of two or more files is a cycle, printed with the symbols
that close it, and fails the test (exit 1).

usage: file_cycles.py BUILD_DIR [--files GLOB] [LIBRARY...]   (default: every iosim_* layer library of the build)
  --files GLOB: only the cycles among the files matching GLOB (e.g. 'src/inputs/platform*'), their edges to the
  library's other files left out
"""
import fnmatch
import collections
import glob
import os
import subprocess
import sys

LAYERS = ["iosim_base", "iosim_model", "iosim_policies", "iosim_inputs", "iosim_sim", "iosim_output",
          "iosim_storalloc", "iosim_campaign", "iosim_lib", "iosim_cli"]


def symbols(obj):
    """(defined external symbols, undefined symbols) of an object file."""
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in "TDBRVWGS" and kind.isupper():
            defined.add(name)
    return defined, undefined


def sccs(nodes, edges):
    """Tarjan's strongly connected components (iterative enough for a folder's few dozen files)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def check(build, lib, files="*"):
    objs = sorted(glob.glob(os.path.join(build, "CMakeFiles", f"{lib}.dir", "**", "*.o"), recursive=True))
    if not objs:
        print(f"file_cycles.py: {lib}: no object file under {build}/CMakeFiles/{lib}.dir; fix: build it first "
              f"(cmake --build {build} --target {lib})", file=sys.stderr)
        return None
    name = {o: os.path.relpath(o, os.path.join(build, "CMakeFiles", f"{lib}.dir"))[:-2] for o in objs}
    objs = [o for o in objs if fnmatch.fnmatch(name[o], files)]
    if not objs:
        print(f"file_cycles.py: {lib}: no file matches {files}", file=sys.stderr)
        return None
    syms = {o: symbols(o) for o in objs}
    owner = {}
    for o, (defined, _) in syms.items():
        for s in defined:
            owner[s] = o
    edges, why = collections.defaultdict(set), {}
    for o, (_, undefined) in syms.items():
        for s in undefined:
            d = owner.get(s)
            if d is not None and d != o:
                edges[o].add(d)
                why.setdefault((o, d), s)
    cycles = [c for c in sccs(objs, edges) if len(c) > 1]
    for c in cycles:
        print(f"{lib}: cycle among {', '.join(name[o] for o in c)}:")
        for a in c:
            for b in c:
                if b in edges[a]:
                    print(f"  {name[a]} uses {why[(a, b)]} of {name[b]}")
    return len(cycles)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    args, files = sys.argv[2:], "*"
    if len(args) >= 2 and args[0] == "--files":
        files, args = args[1], args[2:]
    build, libs = sys.argv[1], args or LAYERS
    total = 0
    for lib in libs:
        n = check(build, lib, files)
        if n is None:
            return 2
        total += n
        if n == 0:
            print(f"{lib}: no cycle among its files" + ("" if files == "*" else f" matching {files}"))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
