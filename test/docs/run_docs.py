#!/usr/bin/env python3
"""Runs the commands of a page of docs/ and compares what they print with the page, so the page cannot drift from the
program (ctest `tutorial_doc`, `docs_whatif`, `docs_outputs`, `docs_validation`; the slow blocks:
analysis/maintainers/docs_slow.sh).

The markup (docs/tutorial.md and docs/whatif.md show it; nothing of it shows in the rendered page):
- A fenced block whose info string is `console` runs: a line starting with `$ ` is a command (a line ending with a
  backslash continues on the next one); the lines after it, up to the next `$ ` line or the end of the block, are
  what it prints on standard output.
- A marker, an HTML comment on the line just before a fenced block, `<!-- doc-test: WORDS -->`, says more:
  - `run` on a block of commands (```sh): every line is a command (backslash continuations joined; empty lines and
    lines starting with `#` skipped), run in order; the block's output is what its commands print, in order;
  - `expect` on the block (or, when no fenced block follows, the lines up to the next empty line: a Markdown table)
    that shows the output of the `run` block before it; `stderr` (standard error instead of standard output) or
    `both` (standard output, then standard error); `numbers` compares only the numbers (below), `numbers unordered`
    only that each number of the block is printed (a table the page shows transposed);
  - `slow` on a `run` or `console` block: run only with --slow (a maintainers' script), with its `expect`;
  - `skip` on a block: never run (it needs what a test cannot have).
- Expected text is compared line by line, trailing spaces ignored: `[...]` in a line matches any text within it (a
  wall time, an absolute path, the version); a line holding only `...` matches any number of lines (an excerpt).
- `numbers`: each expected line holding numbers must match, in order, a line of the output holding the same numbers
  in the same order (standalone numbers only: `2.5`, `-33.6`, `1.29e+08`, not the 1 of `scratch1` or `2048/512GiB`),
  equal to the precision the page prints (|a - b| at most half a unit of its last digit); other text may differ (a
  Markdown table beside a printed one).
- Every command runs with `bash -o pipefail -c` and must exit 0; a failing command or a difference is printed with
  both outputs.

The commands run in order in one fresh directory holding links to the source tree's docs/, policies/, src/,
analysis/, deploy/, platforms/, test/ and traces/, with build/iosim and build/python linked to the binary and the
Python package of this build and ../shared/datasets to the data folder ($IOSIM_DATA_DIR, else the source's
../shared/datasets), so a page's commands run as written from the repository root; their outputs go under results/
there. PATH starts with a folder where `iosim` is the built binary, `python3` the configured interpreter and `cc` the
C compiler (with --sanitize, one that adds -fsanitize=address,undefined: the installed library is an ASan build);
PYTHONPATH is the build's Python package, IOSIM_DATA_DIR the data folder, and with --prefix PKG_CONFIG_PATH that
installation's lib/pkgconfig (the tutorial's step 4 builds against an installed iosim).

usage: run_docs.py --source SRC --iosim IOSIM_BIN [--python PYTHON] [--cc CC] --doc docs/PAGE.md [--slow | --only-slow]
                   [--prefix INSTALLED] [--sanitize]
       run_docs.py --list --source SRC --doc docs/PAGE.md   prints the commands found, runs nothing
Exit status: 0 every command ran and matched, 1 otherwise (each difference is printed), 2 no command found or a
marker the runner does not know.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

WILDCARD = "[...]"
ANY_LINES = "..."
MARKER = re.compile(r"^<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
WORDS = {"run", "expect", "stderr", "both", "numbers", "unordered", "slow", "skip"}
NUMBER = re.compile(r"(?<![\w./-])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w/])")


class PageError(Exception):
    """A page whose markup the runner cannot read (exit 2)."""


class Step:
    """One command (or a `run` block's commands) with what the page expects it to print."""

    def __init__(self, line, cmds, slow=False):
        self.line, self.cmds, self.slow = line, cmds, slow
        self.expected, self.stream, self.numbers, self.expect_line = None, "stdout", False, None
        self.unordered = False


def blocks(text):
    """The fenced blocks of a Markdown text: (first line number, info string, lines, marker words), and, for a marker
    not followed by a fenced block, the lines up to the next empty line as a block with info string None."""
    out, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        words = set(m.group(1).split()) if m else set()
        unknown = words - WORDS
        if unknown:
            raise PageError(f"line {i + 1}: unknown doc-test word(s) {', '.join(sorted(unknown))} (known: "
                             f"{', '.join(sorted(WORDS))})")
        j = i + 1 if m else i
        fence = re.match(r"^```(\S*)\s*$", lines[j]) if j < len(lines) else None
        if fence:
            k = j + 1
            while k < len(lines) and not re.match(r"^```\s*$", lines[k]):
                k += 1
            out.append((j + 2, fence.group(1), lines[j + 1:k], words))
            i = k + 1
        elif m:
            k = j
            while k < len(lines) and not lines[k].strip():
                k += 1
            start = k
            while k < len(lines) and lines[k].strip():
                k += 1
            out.append((start + 1, None, lines[start:k], words))
            i = k
        else:
            i += 1
    return out


def commands(lines, first_line):
    """The commands of a `run` block: (line number, command) with backslash continuations joined."""
    cmds, cur = [], None
    for n, line in enumerate(lines, first_line):
        if cur is not None:
            cur[1] += "\n" + line
            if not line.endswith("\\"):
                cmds.append(tuple(cur))
                cur = None
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.endswith("\\"):
            cur = [n, line]
        else:
            cmds.append((n, line))
    if cur is not None:
        cmds.append(tuple(cur))
    return cmds


def parse(text):
    """The steps of a page: [Step] in page order."""
    steps, last_run = [], None
    for first, info, lines, words in blocks(text):
        if "skip" in words:
            continue
        if info == "console":
            cur = None
            for no, line in enumerate(lines, first):
                if cur is not None and cur.cmds[-1][1].endswith("\\") and cur.expected == []:
                    cur.cmds[-1] = (cur.cmds[-1][0], cur.cmds[-1][1] + "\n" + line)
                elif line.startswith("$ "):
                    cur = Step(no, [(no, line[2:])], "slow" in words)
                    cur.expected, cur.expect_line = [], no
                    cur.stream = "stderr" if "stderr" in words else "both" if "both" in words else "stdout"
                    cur.numbers = "numbers" in words
                    steps.append(cur)
                elif cur is not None:
                    cur.expected.append(line)
                elif line.strip():
                    raise PageError(f"line {no}: output before any `$ ` command in a console block")
            last_run = None
        elif "run" in words:
            last_run = Step(first, commands(lines, first), "slow" in words)
            steps.append(last_run)
        elif "expect" in words:
            if last_run is None or last_run.expected is not None:
                raise PageError(f"line {first}: an `expect` block without a `run` block before it")
            last_run.expected, last_run.expect_line = list(lines), first
            last_run.stream = "stderr" if "stderr" in words else "both" if "both" in words else "stdout"
            last_run.numbers = "numbers" in words
            last_run.unordered = "unordered" in words
    return steps


def line_matches(expected, actual):
    expected, actual = expected.rstrip(), actual.rstrip()
    if WILDCARD not in expected:
        return expected == actual
    pattern = ".*?".join(re.escape(part) for part in expected.split(WILDCARD))
    return re.fullmatch(pattern, actual) is not None


def _trim(lines):
    lines = list(lines)
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    return lines


def compare_lines(expected, actual):
    """None when the actual lines match the expected ones (`...` lines match any run of lines), else the first
    difference in words."""
    expected, actual = _trim(expected), _trim(actual)
    memo = {}

    def match(i, j):  # expected[i:] against actual[j:]
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(expected):
            r = j == len(actual)
        elif expected[i].strip() == ANY_LINES:
            r = any(match(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and line_matches(expected[i], actual[j]) and match(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    if match(0, 0):
        return None
    # the first expected line (not `...`) found nowhere after the previous one: the likely difference
    j = 0
    for i, e in enumerate(expected):
        if e.strip() == ANY_LINES:
            continue
        k = next((k for k in range(j, len(actual)) if line_matches(e, actual[k])), None)
        if k is None:
            near = actual[j] if j < len(actual) else None
            return f"expected line {i + 1} not found in the output:\n  expected: {e!r}\n  actual:   {near!r}"
        j = k + 1
    return "the lines are all there, but the output has other lines between or after them (add a `...` line)"


def numbers_of(line):
    return NUMBER.findall(line)


def same_number(expected, actual):
    """Whether the printed `actual` equals `expected` to the precision the page prints it."""
    try:
        e, a = float(expected), float(actual)
    except ValueError:
        return False
    mant = expected.lower().split("e")[0]
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    exp = int(expected.lower().split("e")[1]) if "e" in expected.lower() else 0
    return abs(e - a) <= 0.5 * 10.0 ** (exp - decimals) * (1 + 1e-9)


def compare_numbers(expected, actual):
    """None when every expected line holding numbers has, in order, an output line with the same numbers."""
    j = 0
    for i, e in enumerate(expected):
        want = numbers_of(e)
        if not want:
            continue
        k = j
        while k < len(actual):
            got = numbers_of(actual[k])
            if len(got) == len(want) and all(same_number(w, g) for w, g in zip(want, got)):
                break
            k += 1
        if k == len(actual):
            return (f"the numbers of expected line {i + 1} are on no output line after line {j}:\n  expected: {e!r}\n"
                    f"  numbers:  {want}")
        j = k + 1
    return None


def compare_unordered(expected, actual):
    """None when every number of the expected lines is printed somewhere in the output (each printed number standing
    for one expected number), to the page's precision; else the first one missing."""
    pool = [n for line in actual for n in numbers_of(line)]
    for i, e in enumerate(expected):
        for w in numbers_of(e):
            k = next((k for k, g in enumerate(pool) if float(g) == float(w)), None)  # the same value first
            if k is None:
                k = next((k for k, g in enumerate(pool) if same_number(w, g)), None)
            if k is None:
                return f"{w} (expected line {i + 1}: {e!r}) is not among the numbers printed"
            del pool[k]
    return None


def environment(src, iosim, python, cc, work, prefix=None, sanitize=False):
    """Prepares the work directory and returns the environment of the commands."""
    tools = os.path.join(work, ".bin")
    os.mkdir(tools)
    for name, target in (("iosim", iosim), ("python3", python), ("cc", cc)):
        if name == "cc" and sanitize:
            with open(os.path.join(tools, "cc"), "w", encoding="utf-8") as f:
                f.write(f'#!/bin/sh\nexec "{cc}" -fsanitize=address,undefined -fno-omit-frame-pointer "$@"\n')
            os.chmod(os.path.join(tools, "cc"), 0o755)
            continue
        os.symlink(os.path.abspath(target) if os.sep in target else target, os.path.join(tools, name))
    for d in ("docs", "policies", "src", "analysis", "deploy", "platforms", "test", "traces"):
        os.symlink(os.path.join(src, d), os.path.join(work, d))
    pkg = os.environ.get("IOSIM_PYTHONPATH") or os.path.join(os.path.dirname(os.path.abspath(iosim)), "python")
    os.mkdir(os.path.join(work, "build"))
    os.symlink(os.path.abspath(iosim), os.path.join(work, "build", "iosim"))
    os.symlink(pkg, os.path.join(work, "build", "python"))
    data = os.path.abspath(os.environ.get("IOSIM_DATA_DIR") or os.path.join(src, "..", "shared", "datasets"))
    shared = os.path.join(os.path.dirname(work), "shared")
    os.mkdir(shared)
    os.symlink(data, os.path.join(shared, "datasets"))
    env = dict(os.environ, PATH=tools + os.pathsep + os.environ.get("PATH", ""), MPLBACKEND="Agg", LC_ALL="C",
               PYTHONPATH=pkg, IOSIM_DATA_DIR=data)
    if prefix:  # `make install PREFIX=...` done, as the tutorial's step 4 asks
        env["PKG_CONFIG_PATH"] = os.path.join(os.path.abspath(prefix), "lib", "pkgconfig")
        env["ASAN_OPTIONS"] = "detect_leaks=0"
    return env


def run_step(step, work, env):
    """(problem or None, stdout, stderr, seconds) of one step."""
    out, err, t0 = [], [], time.monotonic()
    for no, cmd in step.cmds:
        p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=work, env=env, capture_output=True, text=True)
        out.append(p.stdout)
        err.append(p.stderr)
        if p.returncode != 0:
            return f"line {no}: exit status {p.returncode}", "".join(out), "".join(err), time.monotonic() - t0
    so, se = "".join(out), "".join(err)
    if step.expected is None:
        return None, so, se, time.monotonic() - t0
    actual = {"stdout": so, "stderr": se, "both": so + se}[step.stream].splitlines()
    if step.unordered:
        problem = compare_unordered(step.expected, actual)
    elif step.numbers:
        problem = compare_numbers(step.expected, actual)
    else:
        problem = compare_lines(step.expected, actual)
    return (f"{step.stream} against lines {step.expect_line}..: {problem}" if problem else None), so, se, \
        time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--iosim")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--doc", default="docs/tutorial.md")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--slow", action="store_true", help="also run the blocks marked slow")
    ap.add_argument("--prefix", help="an installed iosim (make install PREFIX=...): PKG_CONFIG_PATH for the commands")
    ap.add_argument("--sanitize", action="store_true",
                    help="cc adds -fsanitize=address,undefined (the installed library is an ASan build)")
    ap.add_argument("--only-slow", action="store_true", help="run the slow blocks only (with the others' outputs "
                    "missing: for pages whose slow blocks stand alone)")
    args = ap.parse_args()
    src = os.path.abspath(args.source)
    doc = os.path.join(src, args.doc)
    try:
        with open(doc, encoding="utf-8") as f:
            steps = parse(f.read())
    except PageError as e:
        print(f"{doc}: {e}", file=sys.stderr)
        return 2
    if not steps:
        print(f"{doc}: no command (a ```console block or a doc-test `run` marker)", file=sys.stderr)
        return 2
    if args.list:
        for s in steps:
            print(f"{args.doc}:{s.line}: {'[slow] ' if s.slow else ''}$ {s.cmds[0][1].splitlines()[0]}"
                  f"{f' (+{len(s.cmds) - 1} more)' if len(s.cmds) > 1 else ''}  "
                  f"({'no' if s.expected is None else len(s.expected)} expected lines"
                  f"{', ' + s.stream if s.stream != 'stdout' else ''}{', numbers' if s.numbers else ''})")
        return 0
    if not args.iosim:
        ap.error("--iosim is needed to run the commands")
    chosen = [s for s in steps if (s.slow if args.only_slow else (args.slow or not s.slow))]
    failures = 0
    with tempfile.TemporaryDirectory(prefix="iosim-docs-") as top:
        work = os.path.join(top, "repo")
        os.mkdir(work)
        env = environment(src, args.iosim, args.python, args.cc, work, args.prefix, args.sanitize)
        for s in chosen:
            problem, so, se, secs = run_step(s, work, env)
            first = s.cmds[0][1].splitlines()[0]
            if problem:
                failures += 1
                print(f"FAIL {args.doc}:{s.line}: $ {first}  ({secs:.1f} s)\n{problem}\n--- stdout\n{so}--- stderr\n"
                      f"{se}", flush=True)
            else:
                print(f"ok   {args.doc}:{s.line}: $ {first}  ({secs:.1f} s)", flush=True)
    left = len(steps) - len(chosen)
    why = "the others: ctest" if args.only_slow else "slow: analysis/maintainers/docs_slow.sh runs them"
    print(f"{len(chosen) - failures}/{len(chosen)} blocks of {args.doc} ran and matched"
          + (f" ({left} block(s) not run, {why})" if left else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
