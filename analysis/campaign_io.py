"""What the campaign analysis scripts share (apex.py, jobqueue.py, rr9549.py, tappio.py): Debian's pandas and
matplotlib (Agg backend) imported once with a clear message when missing, the InputError of bad input (exit 2),
reading a campaign's runs.csv, Markdown tables and files, and the command-line wrapper."""

import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: F401  (re-exported)
    import numpy as np  # noqa: F401
    import pandas as pd
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.exit(f"{os.path.basename(sys.argv[0])}: {e} (interpreter {sys.executable}); fix: install Debian's "
             "python3-pandas and python3-matplotlib and run with /usr/bin/python3")

OK_STATUS = ("complete", "stopped_at_window_end")


class InputError(Exception):
    """Bad input: reported on stderr, exit 2."""


def read_runs(cdir, campaign, required=()):
    """The complete runs of DIR/runs.csv (status complete or stopped_at_window_end), with the metric columns (those
    after `error`) as floats. `campaign` names the campaign file in the fix of a missing runs.csv; `required`
    columns must exist. Raises InputError naming the file, the column and the fix."""
    path = os.path.join(cdir, "runs.csv")
    if not os.path.isfile(path):
        raise InputError(f"{path}: file not found; fix: pass the directory of `iosim sweep {campaign} --out DIR`")
    try:
        df = pd.read_csv(path, dtype={"run_id": str, "status": str, "error": str}, keep_default_na=False,
                         na_values=[""])
    except (pd.errors.EmptyDataError, pd.errors.ParserError) as e:
        raise InputError(f"{path}: not a readable CSV ({e}); fix: rerun the campaign") from None
    missing = [c for c in ("run_id", "status", *required) if c not in df.columns]
    if missing:
        raise InputError(f"{path}: column(s) {', '.join(missing)} missing; fix: sweep them in the campaign "
                         f"({campaign})")
    cols = list(df.columns)
    df = df[df["status"].isin(OK_STATUS)].copy()
    if df.empty:
        raise InputError(f"{path}: no complete run")
    for c in cols[cols.index("error") + 1:] if "error" in cols else []:
        df[c] = pd.to_numeric(df[c], errors="coerce")
    return df


def md_table(rows, header):
    """A Markdown table: the header, then one row per item of `rows` (cells printed with str)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def write_markdown(out_dir, name, lines):
    """Writes the lines to out_dir/name (one per line) and returns its path."""
    path = os.path.join(out_dir, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def cli(name, run):
    """Prints run()'s result (the report's path) and returns 0, or prints `name: error: ...` and returns 2."""
    try:
        print(run())
    except InputError as e:
        print(f"{name}: error: {e}", file=sys.stderr)
        return 2
    return 0
