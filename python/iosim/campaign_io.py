"""What every analysis script shares (report.py, figures.py, apex.py, jobqueue.py, rr9549.py, tappio.py):

- the Python modules they need (Debian's python3-pandas, python3-numpy, python3-matplotlib, python3-tabulate),
  checked once on import: a missing one ends the script with exit 2 and the Debian package to install, not a
  traceback (require());
- the InputError of bad input (exit 2);
- the one reader of a campaign's runs.csv (load_runs(), read_runs());
- Markdown tables through pandas' DataFrame.to_markdown (md_table()) and files;
- the command-line wrapper (cli()).
"""

import importlib
import os
import sys

# module -> the Debian package that provides it (make deps installs them all)
DEBIAN_PACKAGES = {
    "numpy": "python3-numpy",
    "pandas": "python3-pandas",
    "matplotlib": "python3-matplotlib",
    "tabulate": "python3-tabulate",
}
OK_STATUS = ("complete", "stopped_at_window_end")
FIXED_COLUMNS = ["run_id", "index", "seed", "status", "wall_time_s", "error"]


def missing_modules(modules=tuple(DEBIAN_PACKAGES)):
    """The modules of `modules` that this interpreter cannot import, in order."""
    missing = []
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def missing_message(prog, missing):
    """The one-line error for missing modules: which ones, which interpreter, the Debian packages to install."""
    pkgs = " ".join(DEBIAN_PACKAGES.get(m, "python3-" + m) for m in missing)
    return (f"{prog}: error: Python module(s) {', '.join(missing)} not found by {sys.executable}; fix: "
            f"apt-get install {pkgs} (or `make deps`), then run the script with Debian's /usr/bin/python3 "
            "(for `iosim report`: set IOSIM_PYTHON to an interpreter that has them)")


def require(modules=tuple(DEBIAN_PACKAGES)):
    """Exits with status 2 and missing_message() when one of `modules` cannot be imported."""
    missing = missing_modules(modules)
    if missing:
        prog = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "iosim analysis"
        print(missing_message(prog, missing), file=sys.stderr)
        sys.exit(2)


require()

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402,F401  (re-exported)
import numpy as np  # noqa: E402,F401
import pandas as pd  # noqa: E402


class InputError(Exception):
    """Bad input: reported on stderr, exit 2."""


# ----------------------------------------------------------------------------------------------------------------
# runs.csv


DB_NAME = "campaign.db"


def campaign_db(cdir):
    """The campaign database a campaign argument names, or None for a directory of per-run files: `cdir` itself when it
    is a file (DIR/campaign.db), else DIR/campaign.db when there is one (the sweep's store: it also writes runs.csv,
    and with --run-dirs the runs' directories, which are then not read); a directory without campaign.db (an older
    iosim's) is read from runs.csv and runs/ (docs/campaigns.md)."""
    if os.path.isfile(cdir):
        return cdir
    path = os.path.join(cdir, DB_NAME)
    return path if os.path.isfile(path) else None


def campaign_dir(cdir):
    """The directory of a campaign argument (a directory, or its campaign.db): where report/ is written."""
    return os.path.dirname(os.path.abspath(cdir)) if os.path.isfile(cdir) else cdir


def runs_where(cdir):
    """What the runs of a campaign argument are read from, for messages: DIR/runs.csv or DB (table runs)."""
    db = campaign_db(cdir)
    return f"{db} (table runs)" if db else os.path.join(cdir, "runs.csv")


def campaign_text(cdir):
    """(where, text) of the campaign file as the sweep wrote it: DIR/campaign.json, or the database's meta
    'campaign'; text None when absent."""
    db = campaign_db(cdir)
    if db:
        from . import results
        return f"{db} (meta campaign)", results.open_db(db).meta.get("campaign")
    path = os.path.join(cdir, "campaign.json")
    if not os.path.isfile(path):
        return path, None
    with open(path, encoding="utf-8") as f:
        return path, f.read()


def _load_runs_db(db_path):
    """The runs table of a campaign database as load_runs() gives runs.csv: `point` named `index`, metric values
    checked as results.json's are (finite; never negative for a time, volume or bandwidth; shares within [0, 1])."""
    from . import results
    db = results.open_db(db_path)
    df = db.query('select * from runs order by point', table="runs").rename(columns={"point": "index"})
    missing = [c for c in ("run_id", "index", "status") if c not in df.columns]
    if missing:
        raise results.ResultError(f"{db_path}: table runs: column(s) {', '.join(missing)} missing (columns: "
                                  f"{', '.join(df.columns)}); {results.DB_FIX}")
    cols = list(df.columns)
    after = cols.index("error") + 1 if "error" in cols else cols.index("status") + 1
    specs = {}
    for c in cols[after:]:
        if c in FIXED_COLUMNS or not (pd.api.types.is_numeric_dtype(df[c]) or df[c].isna().all()):
            continue
        rule = results.METRIC_RULES.get(c) or ("nonneg" if c.endswith(results.NONNEG_SUFFIXES) else "finite")
        specs[c] = results.Column("float", rule, True, "")
    df = results.check_frame(df, specs, f"{db_path}: table runs", key="run_id")
    df["run_id"] = df["run_id"].astype(str)
    return df


def load_runs(cdir, campaign="CAMPAIGN", required=()):
    """Every row of DIR/runs.csv, as (DataFrame, swept columns, metric columns); or of the runs table of the campaign
    database (campaign_db(): DIR/campaign.db, or the database file itself), the same columns.

    The swept columns are those between `index` and `seed` (docs/campaigns.md); the metric columns are the columns
    after `error` whose every non-empty cell is a number, converted to floats (an empty cell is NaN). `status` is
    stripped (empty = missing) and `error` is a string ('' when empty). `campaign` names the campaign file in the
    fix of a missing runs.csv; the `required` columns must exist. Raises InputError naming the file, the column and
    the fix."""
    path = os.path.join(cdir, "runs.csv")
    db = campaign_db(cdir)
    if db:
        df, path = _load_runs_db(db), f"{db} (table runs)"
    elif not os.path.isfile(path):
        raise InputError(f"{path}: file not found; fix: pass the directory written by `iosim sweep {campaign} "
                         "--out DIR` (it holds campaign.db, or runs.csv with --run-dirs)")
    else:
        try:
            df = pd.read_csv(path, dtype={"run_id": str, "status": str, "error": str}, keep_default_na=False,
                             na_values=[""], float_precision="round_trip")  # the doubles iosim wrote, exactly
        except (pd.errors.EmptyDataError, pd.errors.ParserError, UnicodeDecodeError) as e:
            raise InputError(f"{path}: not a readable CSV ({e}); fix: rerun the campaign to rewrite it") from None
    missing = [c for c in ("run_id", "status", *required) if c not in df.columns]
    if missing:
        raise InputError(f"{path}: column(s) {', '.join(missing)} missing (columns: {', '.join(df.columns)}); fix: "
                         f"sweep them in the campaign ({campaign}), with the current iosim so runs.csv has the "
                         "documented columns")
    df["status"] = df["status"].fillna("missing").astype(str).str.strip()
    df["error"] = df["error"].fillna("").astype(str) if "error" in df.columns else ""
    cols = list(df.columns)
    end = cols.index("seed") if "seed" in cols else cols.index("status")
    begin = cols.index("index") + 1 if "index" in cols and cols.index("index") < end else 0
    swept = [c for c in cols[begin:end] if c not in FIXED_COLUMNS]
    after = cols.index("error") + 1 if "error" in cols else cols.index("status") + 1
    metrics = []
    for c in cols[after:]:
        if c in FIXED_COLUMNS:
            continue
        conv = pd.to_numeric(df[c], errors="coerce")
        if conv.notna().sum() == df[c].notna().sum():  # every non-empty cell is a number
            df[c] = conv.astype(float)
            metrics.append(c)
    return df, swept, metrics


def is_complete(df):
    """Boolean Series: the run is complete (status complete or stopped_at_window_end)."""
    return df["status"].isin(OK_STATUS)


def complete_only(df, path):
    """The complete rows of load_runs()'s DataFrame; InputError (with the statuses found) when there is none."""
    runs = df[is_complete(df)].copy()
    if runs.empty:
        counts = ", ".join(f"{n} {s}" for s, n in df["status"].value_counts().items()) or "no rows"
        raise InputError(f"{path}: no complete run ({counts}); fix: look at the 'error' column of the failed runs, "
                         "correct the campaign and rerun it")
    return runs


def run_files(cdir, run_id):
    """The directory of one run's files, DIR/runs/RUN_ID, for the studies of analysis/ that read a run's CSV files.
    InputError when the sweep kept its runs in DIR/campaign.db only (the default): the fix is --run-dirs."""
    d = os.path.join(cdir, "runs", str(run_id))
    if not os.path.isdir(d) and os.path.exists(os.path.join(cdir, "campaign.db")):
        raise InputError(f"{cdir}: run {run_id}'s files are in {cdir}/campaign.db only, and this study reads each "
                         "run's files; fix: run the sweep again with --run-dirs (iosim sweep ... --run-dirs, "
                         "docs/campaigns.md), which keeps DIR/runs/<run_id>/")
    return d


def read_runs(cdir, campaign, required=()):
    """The complete runs of DIR/runs.csv (load_runs(), then complete_only())."""
    df, _, _ = load_runs(cdir, campaign, required)
    return complete_only(df, runs_where(cdir))


# ----------------------------------------------------------------------------------------------------------------
# Markdown


def md_cell(v):
    """A table cell as text: '' for None/NaN, '|' and '\\' escaped, on one line."""
    text = "" if v is None or (isinstance(v, float) and v != v) else str(v)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ").strip()


def md_frame(df):
    """A DataFrame as a Markdown (pipe) table through DataFrame.to_markdown, without its index. Cells are printed
    as they are (str), not reformatted as numbers: format them first."""
    text = df.apply(lambda col: col.map(md_cell)) if len(df) else df
    text = text.rename(columns=md_cell)
    return text.to_markdown(index=False, tablefmt="pipe", disable_numparse=True, stralign="left")


def md_table(rows, header):
    """A Markdown table: the header, then one row per item of `rows` (cells printed with str)."""
    return md_frame(pd.DataFrame([list(r) for r in rows], columns=list(header), dtype=object))


def write_markdown(out_dir, name, lines):
    """Writes the lines to out_dir/name (one per line) and returns its path."""
    path = os.path.join(out_dir, name)
    with open(path, "w", encoding="utf-8") as f:
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
