#!/usr/bin/env python3
"""Runs the commands of docs/tutorial.md and compares their output with the text (tesh-style), so the tutorial
cannot drift from the program.

Markup (also described at the top of docs/tutorial.md):
- Only fenced blocks whose info string is `console` are run; other blocks (json, sh, text, c) are not.
- In such a block, a line starting with `$ ` is a command; a command line ending with a backslash continues on the
  next line. The lines after it, up to the next `$ ` line or the end of the block, are its expected standard output.
- `[...]` in an expected line matches any text within that line (wall times, absolute paths, the version).
- Each command runs with `bash -o pipefail -c` and must exit 0; standard error is not compared (it is shown when
  the command fails or its output differs). Trailing spaces of lines are ignored.

The commands run in order, in one fresh temporary directory holding links to the source tree's docs/, policies/, src/,
analysis/, deploy/, platforms/ and test/ (so `docs/tutorial/three-apps.json` works as in the tutorial, and the
outputs land in the temporary directory's results/), with PATH starting with a folder where `iosim` is the built
binary, PYTHONPATH the build's Python package (build/python), `python3` the configured interpreter (the one with pandas and matplotlib) and `cc` the C compiler, and with --prefix PKG_CONFIG_PATH that installation's
lib/pkgconfig (step 4 builds against an installed iosim).

usage: run_tutorial.py --source SRC_DIR --iosim IOSIM_BIN --python PYTHON --cc CC [--doc docs/tutorial.md]
       run_tutorial.py --list ...   prints the commands found, runs nothing
Exit status: 0 every command ran and matched, 1 otherwise (each difference is printed), 2 no command found.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

WILDCARD = "[...]"


def parse(text):
    """[(line_number, command, [expected lines])] of the console blocks of a Markdown text."""
    steps = []
    in_block = False
    runnable = False
    cur = None
    continuing = False
    for no, line in enumerate(text.splitlines(), 1):
        fence = re.match(r"^```(\S*)\s*$", line)
        if fence:
            if not in_block:
                in_block, runnable = True, fence.group(1) == "console"
            else:
                in_block, runnable, cur, continuing = False, False, None, False
            continue
        if not (in_block and runnable):
            continue
        if continuing:
            cur[1] += "\n" + line
            continuing = line.endswith("\\")
        elif line.startswith("$ "):
            cur = [no, line[2:], []]
            steps.append(cur)
            continuing = line.endswith("\\")
        elif cur is not None:
            cur[2].append(line)
        elif line.strip():
            raise SystemExit(f"docs line {no}: output before any `$ ` command in a console block")
    return [(no, cmd, exp) for no, cmd, exp in steps]


def line_matches(expected, actual):
    expected, actual = expected.rstrip(), actual.rstrip()
    if WILDCARD not in expected:
        return expected == actual
    pattern = ".*?".join(re.escape(part) for part in expected.split(WILDCARD))
    return re.fullmatch(pattern, actual) is not None


def compare(expected, actual):
    """None when the lines match, else a description of the first difference."""
    while expected and not expected[-1].strip():
        expected = expected[:-1]
    while actual and not actual[-1].strip():
        actual = actual[:-1]
    for i in range(max(len(expected), len(actual))):
        e = expected[i] if i < len(expected) else None
        a = actual[i] if i < len(actual) else None
        if e is None or a is None or not line_matches(e, a):
            return f"output line {i + 1}:\n  expected: {e!r}\n  actual:   {a!r}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--iosim", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--doc", default="docs/tutorial.md")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--prefix", help="an installed iosim (make install PREFIX=...): PKG_CONFIG_PATH for step 4")
    ap.add_argument("--sanitize", action="store_true",
                    help="cc adds -fsanitize=address,undefined (the installed library is an ASan build)")
    args = ap.parse_args()
    src = os.path.abspath(args.source)
    doc = os.path.join(src, args.doc)
    with open(doc, encoding="utf-8") as f:
        steps = parse(f.read())
    if not steps:
        print(f"{doc}: no `$ ` command in a ```console block", file=sys.stderr)
        return 2
    if args.list:
        for no, cmd, exp in steps:
            print(f"{args.doc}:{no}: $ {cmd}  ({len(exp)} expected lines)")
        return 0
    failures = 0
    with tempfile.TemporaryDirectory(prefix="iosim-tutorial-") as work:
        tools = os.path.join(work, ".bin")
        os.mkdir(tools)
        for name, target in (("iosim", args.iosim), ("python3", args.python), ("cc", args.cc)):
            if name == "cc" and args.sanitize:
                with open(os.path.join(tools, "cc"), "w", encoding="utf-8") as f:
                    f.write(f'#!/bin/sh\nexec "{args.cc}" -fsanitize=address,undefined -fno-omit-frame-pointer "$@"\n')
                os.chmod(os.path.join(tools, "cc"), 0o755)
                continue
            os.symlink(os.path.abspath(target) if os.sep in target else target, os.path.join(tools, name))
        for d in ("docs", "policies", "src", "analysis", "deploy", "platforms", "test"):
            os.symlink(os.path.join(src, d), os.path.join(work, d))
        # iosim's Python package of this build on PYTHONPATH, as the tutorial asks (`python3 -m iosim.figures`)
        pkg = os.environ.get("IOSIM_PYTHONPATH") or os.path.join(os.path.dirname(os.path.abspath(args.iosim)), "python")
        env = dict(os.environ, PATH=tools + os.pathsep + os.environ.get("PATH", ""), MPLBACKEND="Agg", LC_ALL="C",
                   PYTHONPATH=pkg)
        if args.prefix:  # `make install PREFIX=...` done, as step 4 asks
            env["PKG_CONFIG_PATH"] = os.path.join(os.path.abspath(args.prefix), "lib", "pkgconfig")
            env["ASAN_OPTIONS"] = "detect_leaks=0"
        for no, cmd, expected in steps:
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=work, env=env, capture_output=True,
                                  text=True)
            problem = None
            if proc.returncode != 0:
                problem = f"exit status {proc.returncode}"
            else:
                problem = compare(expected, proc.stdout.splitlines())
            if problem:
                failures += 1
                print(f"FAIL {args.doc}:{no}: $ {cmd}\n{problem}\n--- stdout\n{proc.stdout}--- stderr\n{proc.stderr}")
            else:
                print(f"ok   {args.doc}:{no}: $ {cmd.splitlines()[0]}")
    print(f"{len(steps) - failures}/{len(steps)} commands of {args.doc} ran and matched")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
