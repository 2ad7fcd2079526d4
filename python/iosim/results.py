"""iosim.results: the one reader of a run's outputs that checks what it reads (results.json, apps.csv, resources.csv;
docs/outputs.md), used by iosim compare, iosim view and iosim report.

Each function returns typed data: results.json as a dict, apps.csv and resources.csv as pandas DataFrames whose
columns have the types and units of docs/outputs.md (names as str, counts as int64, the rest float64 in seconds,
bytes, bytes/s or dimensionless, NaN for an empty cell). Every value is checked as it is read, and a file that holds
a value no run can write is refused with ResultError (an InputError: the commands exit 2) naming the file, its line,
the column (or the JSON field), the value, what is wrong and the fix:
- a number that is not finite (nan, inf, a value beyond the doubles such as 1e400) or not a number;
- a negative time, volume, count or bandwidth;
- an impossible value: a share or a yield above 1, an end before its start, and a job's io_bandwidth_Bps above the
  platform's capacity (results.json `platform.capacity_Bps`: the pool's capacities plus a separate PFS), beyond the
  rounding of the job's dates (4 ulp of each, 2**-50 relative: 1.5e-8 s at 1.3e8 s) and 1e-9 relative.
A column that a file lacks is not checked (runs of older versions lack some); `required` columns must be there.

Functions: read_results(path), read_apps(path, capacity_Bps=None, required=...), read_resources(path, required=...),
read_run(run_dir, need=...) -> Run(results, apps, resources, capacity_Bps), platform_capacity(results).

The same tables come from a campaign database (campaign.db, docs/campaigns.md "The campaign database"), with the same
types and the same checks, the messages naming the database, the table, the run_id, the row's name and the column:
open_db(path) -> Db (its meta checked: format iosim-campaign/1), parse_run("DIR/campaign.db#RUN_ID") -> RunRef,
read_run(RunRef) (read_run_db), and whole tables for a campaign's reader: Db.runs(), read_apps_table(db),
read_events_db(db, run_id).
"""

import atexit
import collections
import csv
import json
import math
import os
import sqlite3
import urllib.parse

from .campaign_io import InputError, np, pd  # noqa: E402  (also checks the Debian modules)

FIX = "fix: rerun the scenario (iosim run SCENARIO -o DIR) and read the directory it writes; this file is not as " \
      "iosim wrote it"
TOL = 1e-9  # relative slack of the upper bounds (yield, shares, the platform's capacity): rounding of the writer
DATE_ULPS = 4 * 2.0 ** -52  # the rounding of a date, relative to it (docs/outputs.md, "Invariants")


class ResultError(InputError):
    """A run's output that breaks a rule of docs/outputs.md: file, line, column, value, what is wrong, the fix."""


# Column kinds: (type, rule, empty allowed). Rules: "nonneg" >= 0; "positive" > 0; "share" in [0, 1]; "yield" in
# [0, 1]; "finite" any finite number; "text" a string (unchecked but for "name": non-empty, unique).
Column = collections.namedtuple("Column", "type rule empty unit")

APPS_COLUMNS = {
    "name": Column("str", "name", False, ""),
    "nodes": Column("int", "positive", False, "count"),
    "io_volume_bytes": Column("float", "nonneg", False, "bytes"),
    "io_time_s": Column("float", "nonneg", False, "s"),
    "work_time_s": Column("float", "nonneg", False, "s"),
    "yield": Column("float", "yield", True, ""),
    "io_slowdown": Column("float", "nonneg", True, ""),
    "n_resources": Column("int", "nonneg", False, "count"),
    "resources": Column("str", "text", True, ""),
    "bandwidth_Bps": Column("float", "nonneg", True, "bytes/s"),
    "start_s": Column("float", "finite", True, "s"),  # negative for an RR-9502 sample file's history
    "end_s": Column("float", "finite", True, "s"),
    "iteration_s": Column("float", "nonneg", True, "s"),
    "io_fraction": Column("float", "share", True, ""),
    "rho_io": Column("float", "nonneg", True, ""),
    "rho_con": Column("float", "nonneg", True, ""),
    "ref_bandwidth_Bps": Column("float", "nonneg", True, "bytes/s"),
    "io_stretch": Column("float", "nonneg", True, ""),
    "io_bandwidth_Bps": Column("float", "nonneg", True, "bytes/s"),
    "bound_by": Column("str", "text", True, ""),
    "bound_share": Column("float", "share", True, ""),
}
RESOURCES_COLUMNS = {
    "name": Column("str", "name", False, ""),
    "kind": Column("str", "text", False, ""),
    "capacity_Bps": Column("float", "positive", False, "bytes/s"),
    "busy_time_s": Column("float", "nonneg", True, "s"),
    "occupancy": Column("float", "share", True, ""),
    "bytes": Column("float", "nonneg", True, "bytes"),
}
# results.json metrics with a rule (others: finite or null); a metric whose name ends in _s, _bytes or _Bps is >= 0.
METRIC_RULES = {"min_yield": "yield", "utilization": "share", "efficiency": "share", "io_spread": "share",
                "platform_limited_share": "share", "mean_rho_con": "nonneg"}
NONNEG_SUFFIXES = ("_s", "_bytes", "_Bps")

Run = collections.namedtuple("Run", "dir results apps resources capacity_Bps")


def _where(path, line, col, who=None):
    job = f" ({who})" if who else ""
    return f"{path}: line {line}{job}, column {col}"


def _rule_problem(v, rule):
    """None when the number v (finite) obeys the rule, else what is wrong in words."""
    if rule == "nonneg" and v < 0:
        return "is negative: this column is a time, volume, count or bandwidth, never below 0"
    if rule == "positive" and not v > 0:
        return "is not positive: this column is at least 1 (a count) or above 0 (a capacity)"
    if rule in ("share", "yield") and (v < 0 or v > 1 + TOL):
        return f"is outside [0, 1]: a {'yield' if rule == 'yield' else 'share'} is a fraction"
    return None


def _number(text, where, col_type):
    """The number a cell holds (int or float), or ResultError when it is not a finite number."""
    try:
        v = float(text)
    except ValueError:
        raise ResultError(f"{where}: '{text}' is not a number; {FIX}") from None
    if not math.isfinite(v):
        raise ResultError(f"{where}: '{text}' is not a finite number (nan, inf or beyond the doubles: every value iosim "
                          f"writes is finite, an empty cell where none applies); {FIX}")
    if col_type == "int":
        if v != int(v):
            raise ResultError(f"{where}: '{text}' is not a whole number (a count); {FIX}")
        return int(v)
    return v


def read_table(path, columns, required=(), key="name"):
    """A CSV file of a run as a DataFrame typed and checked after `columns` (APPS_COLUMNS, RESOURCES_COLUMNS): each
    cell of a known column converted and checked; unknown columns kept as text. ResultError when the file is missing,
    is not CSV, lacks a `required` column, or holds a value that breaks its column's rule."""
    if not os.path.isfile(path):
        raise ResultError(f"{path}: file not found; fix: give the output directory of a complete `iosim run` (it "
                          "writes results.json last)")
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                raise ResultError(f"{path}: empty file (no header line); {FIX}")
            missing = [c for c in required if c not in header]
            if missing:
                raise ResultError(f"{path}: column(s) {', '.join(missing)} missing; fix: rerun the scenario with this "
                                  "iosim (iosim run SCENARIO -o DIR)")
            dups = [c for c in header if header.count(c) > 1]
            if dups:
                raise ResultError(f"{path}: column {dups[0]} appears twice in the header; {FIX}")
            cols = {c: [] for c in header}
            seen, lines = set(), []
            for row in reader:
                line = reader.line_num
                lines.append(line)
                if len(row) != len(header):
                    raise ResultError(f"{path}: line {line}: {len(row)} cells for {len(header)} columns; {FIX}")
                who = f"{key} {row[header.index(key)]!r}" if key in header else None
                for c, text in zip(header, row):
                    spec = columns.get(c)
                    if spec is None or spec.type == "str":
                        if spec is not None and spec.rule == "name":
                            if text == "":
                                raise ResultError(f"{_where(path, line, c)}: empty: every row names its {key}; {FIX}")
                            if text in seen:
                                raise ResultError(f"{_where(path, line, c)}: '{text}' appears twice: names are unique "
                                                  f"in a run; {FIX}")
                            seen.add(text)
                        cols[c].append(text)
                        continue
                    where = _where(path, line, c, who)
                    if text == "":
                        if not spec.empty:
                            raise ResultError(f"{where}: empty, but every row has a value here ({spec.unit}); {FIX}")
                        cols[c].append(float("nan"))
                        continue
                    v = _number(text, where, spec.type)
                    problem = _rule_problem(v, spec.rule)
                    if problem:
                        raise ResultError(f"{where}: {text} {problem}; {FIX}")
                    cols[c].append(v)
    except (UnicodeDecodeError, csv.Error) as e:
        raise ResultError(f"{path}: not a readable CSV ({e}); {FIX}") from None
    df = pd.DataFrame(cols, columns=header)
    for c in header:
        spec = columns.get(c)
        if spec is not None and spec.type == "int" and not df[c].isna().any():
            df[c] = df[c].astype("int64")
        elif spec is not None and spec.type == "float":
            df[c] = df[c].astype("float64")
        else:
            df[c] = df[c].astype(object)
    df.attrs["path"], df.attrs["lines"] = path, lines  # each row's line in the file, for the messages
    return df


def _reject_constant(token):
    raise ValueError(f"{token} is not a finite number (JSON has none)")


def _check_number(path, field, v, rule=None, fix=FIX):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ResultError(f"{path}: {field} = {v!r} is not a number; {fix}")
    if not math.isfinite(v):
        raise ResultError(f"{path}: {field} = {v!r} is not a finite number; {fix}")
    problem = _rule_problem(v, rule) if rule else None
    if problem:
        raise ResultError(f"{path}: {field} = {v!r} {problem}; {fix}")


def read_results(path):
    """results.json of a run (a directory or the file) as a dict, checked: a JSON object with a string `status`, its
    window, platform and metrics numbers finite (or null where a metric does not apply), none negative where it is a
    time, a volume or a bandwidth, shares and yields within [0, 1]."""
    if os.path.isdir(path):
        path = os.path.join(path, "results.json")
    if not os.path.isfile(path):
        raise ResultError(f"{path}: file not found; fix: give the output directory of a complete `iosim run` (it "
                          "writes results.json last)")
    try:
        with open(path, encoding="utf-8") as f:
            res = json.load(f, parse_constant=_reject_constant)
    except (OSError, ValueError) as e:
        raise ResultError(f"{path}: not readable JSON ({e}); {FIX}") from None
    return check_results(res, path)


def check_results(res, path, fix=FIX):
    """read_results()'s checks on a parsed results.json (`path` names where it comes from in the messages: a file,
    or a campaign database's table and run); returns `res`."""
    FIX = fix  # noqa: N806  (the messages below name the fix of where the text comes from)
    if not isinstance(res, dict):
        raise ResultError(f"{path}: not a JSON object; {FIX}")
    if not isinstance(res.get("status"), str):
        raise ResultError(f"{path}: status = {res.get('status')!r}: missing or not a string; {FIX}")
    for field, rule in (("seed", "nonneg"), ("wall_time_s", "nonneg")):
        if field in res:
            _check_number(path, field, res[field], rule, FIX)
    win = res.get("window")
    if isinstance(win, dict):
        for k in ("begin_s", "end_s", "period_s", "busy_s", "busy_periods"):
            if win.get(k) is not None:
                _check_number(path, f"window.{k}", win[k], None if k in ("begin_s", "end_s") else "nonneg", FIX)
        if isinstance(win.get("begin_s"), (int, float)) and isinstance(win.get("end_s"), (int, float)) and \
                win["end_s"] < win["begin_s"]:
            raise ResultError(f"{path}: window.end_s = {win['end_s']!r} is before window.begin_s = "
                              f"{win['begin_s']!r}; {FIX}")
    plat = res.get("platform")
    if isinstance(plat, dict):
        for k in ("compute_nodes", "nic_bw_Bps", "resources", "capacity_Bps"):
            if plat.get(k) is not None:
                _check_number(path, f"platform.{k}", plat[k], "nonneg", FIX)
    metrics = res.get("metrics")
    if metrics is not None and not isinstance(metrics, dict):
        raise ResultError(f"{path}: metrics is not an object; {FIX}")
    for k, v in (metrics or {}).items():
        if v is None or isinstance(v, (dict, list)):
            continue
        rule = METRIC_RULES.get(k) or ("nonneg" if k.endswith(NONNEG_SUFFIXES) else None)
        _check_number(path, f"metrics.{k}", v, rule, FIX)
    sk = res.get("skipped")
    if sk is not None and (not isinstance(sk, list) or not all(isinstance(x, dict) and isinstance(x.get("name"), str)
                                                               for x in sk)):
        raise ResultError(f"{path}: skipped is not a list of {{name, reason}} objects; {FIX}")
    return res


def platform_capacity(results):
    """The platform's capacity in bytes/s (results.json `platform.capacity_Bps`: every I/O resource of the pool plus a
    separate PFS), or None when the file does not say (runs of older versions)."""
    plat = results.get("platform") if isinstance(results, dict) else None
    cap = plat.get("capacity_Bps") if isinstance(plat, dict) else None
    return float(cap) if isinstance(cap, (int, float)) and not isinstance(cap, bool) and cap > 0 else None


def read_apps(path, capacity_Bps=None, required=("name", "io_volume_bytes", "io_time_s")):
    """apps.csv as a DataFrame (read_table with APPS_COLUMNS), also checked across columns: end_s not before start_s,
    and io_bandwidth_Bps not above `capacity_Bps` (bytes/s, the platform's; None: not checked) beyond the rounding
    of the job's dates."""
    df = read_table(path, APPS_COLUMNS, required)
    names = df["name"] if "name" in df.columns else pd.Series([""] * len(df))
    lines = df.attrs["lines"]
    if "start_s" in df.columns and "end_s" in df.columns:
        bad = df.index[(df["end_s"] < df["start_s"]).fillna(False)]
        if len(bad):
            i = bad[0]
            raise ResultError(f"{_where(path, lines[i], 'end_s', 'name ' + repr(names[i]))}: {df.at[i, 'end_s']!r} is "
                              f"before its start_s {df.at[i, 'start_s']!r}; {FIX}")
    if capacity_Bps is not None and "io_bandwidth_Bps" in df.columns:
        for i, bw in df["io_bandwidth_Bps"].items():
            if not bw > capacity_Bps * (1 + TOL):
                continue
            t = df.at[i, "io_time_s"] if "io_time_s" in df.columns else float("nan")
            dates = [abs(df.at[i, c]) for c in ("start_s", "end_s") if c in df.columns and df.at[i, c] == df.at[i, c]]
            slack = 2 * DATE_ULPS * max(dates, default=0.0)  # an I/O time between two rounded dates
            if t == t and t > slack and bw * (t - slack) <= capacity_Bps * t * (1 + TOL):
                continue
            raise ResultError(f"{_where(path, lines[i], 'io_bandwidth_Bps', 'name ' + repr(names[i]))}: {bw!r} B/s is "
                              f"above the platform's capacity {capacity_Bps!r} B/s (results.json platform.capacity_Bps: "
                              f"every I/O resource and the PFS together): no job moves faster than the platform; {FIX}")
    return df


def read_resources(path, required=("name", "capacity_Bps")):
    """resources.csv as a DataFrame (read_table with RESOURCES_COLUMNS)."""
    return read_table(path, RESOURCES_COLUMNS, required)


def read_run(run_dir, need=("results", "apps", "resources")):
    """The outputs of one run directory, checked: Run(dir, results dict, apps DataFrame or None, resources DataFrame
    or None, capacity_Bps or None). `need` names the files that must be there (results.json always is). `run_dir`
    may also be a run inside a campaign database (a RunRef, or its text DB#RUN_ID: parse_run()): read_run_db()."""
    ref = parse_run(run_dir) if isinstance(run_dir, str) else run_dir
    if isinstance(ref, RunRef):
        return read_run_db(ref, need)
    if os.path.exists(run_dir) and not os.path.isdir(run_dir):
        raise ResultError(f"{run_dir}: not a directory; fix: give the output directory of `iosim run` (its --out)")
    res = read_results(os.path.join(run_dir, "results.json"))
    cap = platform_capacity(res)
    apath, rpath = os.path.join(run_dir, "apps.csv"), os.path.join(run_dir, "resources.csv")
    apps = read_apps(apath, cap) if "apps" in need or os.path.isfile(apath) else None
    resources = read_resources(rpath) if "resources" in need or os.path.isfile(rpath) else None
    return Run(run_dir, res, apps, resources, cap)


# ----------------------------------------------------------------------------------------------------------------
# The campaign database (docs/campaigns.md, "The campaign database"): the same tables, read with sqlite3 and
# pandas.read_sql, checked as the files are.

DB_FORMAT = "iosim-campaign/1"
DB_NAME = "campaign.db"
DB_FIX = "fix: rerun the campaign (iosim sweep) or the run (iosim run --db); this database is not as iosim wrote it"
SQLITE_MAGIC = b"SQLite format 3\x00"
RunRef = collections.namedtuple("RunRef", "db run_id")
RunRef.__doc__ = "A run inside a campaign database: db (the file's path), run_id (None: the database's only run)."


def is_db_file(path):
    """True when `path` is a file that starts as an SQLite database does."""
    try:
        with open(path, "rb") as f:
            return f.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def db_of(cdir):
    """The campaign database of a campaign directory (DIR/campaign.db), or None when it has none."""
    path = os.path.join(cdir, DB_NAME)
    return path if os.path.isfile(path) else None


def parse_run(arg):
    """A run as compare and view name it: a directory (returned as it is), DB#RUN_ID or DIR#RUN_ID (DIR holding
    campaign.db) -> RunRef(db, run_id), or a database file alone -> RunRef(db, None) (its only run)."""
    if not isinstance(arg, str):
        return arg
    if "#" in arg and not os.path.exists(arg):
        path, run_id = arg.rsplit("#", 1)
        if os.path.isdir(path):
            path = os.path.join(path, DB_NAME)
        return RunRef(path, run_id)
    if os.path.isfile(arg) and is_db_file(arg):
        return RunRef(arg, None)
    return arg


def run_label(arg):
    """A short name of a run argument: its directory's name, or the run id of a run in a database."""
    ref = parse_run(arg)
    if isinstance(ref, RunRef):
        return ref.run_id or os.path.basename(ref.db)
    return os.path.basename(os.path.normpath(arg)) or arg


class Db:
    """An open campaign database (open_db()): path, meta (dict), tables (set of names), query(sql, params) ->
    DataFrame (pandas.read_sql; an SQLite error is a ResultError naming the file and the table)."""

    def __init__(self, path, con, meta, tables):
        self.path, self.con, self.meta, self.tables = path, con, meta, tables

    def query(self, sql, params=(), table="?"):
        try:
            return pd.read_sql(sql, self.con, params=params)
        except (sqlite3.DatabaseError, pd.errors.DatabaseError) as e:
            raise ResultError(f"{self.path}: table {table}: cannot be read (SQLite: {e}); {DB_FIX}") from None

    def columns(self, table):
        return [r[1] for r in self.con.execute(f'pragma table_info("{table}")')]

    def require(self, table, why):
        if table not in self.tables:
            raise ResultError(f"{self.path}: no table {table} ({why}); tables: {', '.join(sorted(self.tables))}; "
                              f"{DB_FIX}")

    def only_run(self):
        ids = self.query("select run_id from results limit 2", table="results")["run_id"].tolist()
        if len(ids) != 1:
            raise ResultError(f"{self.path}: holds {'no run' if not ids else 'several runs'}; fix: name one, "
                              f"{self.path}#RUN_ID (run ids: select run_id from runs)")
        return str(ids[0])


_OPEN = {}


@atexit.register
def close_dbs():
    """Closes the databases open_db() opened (SQLite then checkpoints and removes the -wal and -shm files)."""
    while _OPEN:
        _OPEN.popitem()[1].con.close()


def open_db(path):
    """The campaign database at `path` (a file, or a directory holding campaign.db), opened to be read and checked: an
    SQLite file whose meta table says format iosim-campaign/1 and that has the tables runs and results. ResultError
    (exit 2) naming the file, what it is instead and the fix."""
    if os.path.isdir(path):
        path = os.path.join(path, DB_NAME)
    key = os.path.abspath(path)
    if key in _OPEN:
        return _OPEN[key]
    if not os.path.isfile(path):
        raise ResultError(f"{path}: file not found; fix: give a campaign database (the campaign.db that `iosim sweep` "
                          "writes in its --out directory), or DIR#RUN_ID with DIR holding one")
    if not is_db_file(path):
        raise ResultError(f"{path}: not an SQLite database (it does not start with the SQLite header); fix: give the "
                          "campaign.db that `iosim sweep` or `iosim merge` wrote")
    try:
        try:  # read-write (it only reads), so that closing it removes the WAL files a read-only reader would leave
            con = sqlite3.connect(f"file:{urllib.parse.quote(key)}?mode=rw", uri=True)
        except sqlite3.OperationalError:  # a file or folder this user cannot write
            con = sqlite3.connect(f"file:{urllib.parse.quote(key)}?mode=ro", uri=True)
        tables = {r[0] for r in con.execute("select name from sqlite_master where type in ('table', 'view')")}
        if "meta" not in tables:
            raise ResultError(f"{path}: an SQLite database but not an iosim campaign database (no table meta; tables: "
                              f"{', '.join(sorted(tables)) or 'none'}); fix: give the campaign.db that `iosim sweep` "
                              "or `iosim merge` wrote")
        meta = {str(k): v for k, v in con.execute("select key, value from meta")}
    except sqlite3.DatabaseError as e:
        raise ResultError(f"{path}: not a readable SQLite database (SQLite: {e}); {DB_FIX}") from None
    if meta.get("format") != DB_FORMAT:
        raise ResultError(f"{path}: meta format = {meta.get('format')!r}, not {DB_FORMAT!r}: not a campaign database "
                          "this iosim reads; fix: give the campaign.db that `iosim sweep` or `iosim merge` wrote (or "
                          "rerun the campaign with this iosim)")
    db = Db(path, con, meta, tables)
    for t in ("runs", "results"):
        db.require(t, "every campaign database has it")
    _OPEN[key] = db
    return db


def _first(mask):
    return mask[mask].index[0]


def check_frame(df, columns, origin, required=(), key="name", fix=DB_FIX):
    """read_table()'s checks on a table read from a database (a DataFrame, one row per entity, with run_id when it
    holds several runs): each known column converted and checked by its rule, names present and unique in a run.
    `origin` ('FILE: table T') starts the messages, which name the row's run_id and name and the column. Returns df
    with the types read_table() gives (text '' for NULL)."""
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise ResultError(f"{origin}: column(s) {', '.join(missing)} missing (columns: {', '.join(df.columns)}); fix: "
                          "rerun the campaign with this iosim")
    df = df.reset_index(drop=True)

    def where(i, c):
        who = [f"run_id {df.at[i, 'run_id']!r}"] if "run_id" in df.columns else []
        if key in df.columns and c != key and key != "run_id":
            who.append(f"{key} {df.at[i, key]!r}")
        return f"{origin}, " + ", ".join(who + [f"column {c}"])

    for c in list(df.columns):
        spec = columns.get(c)
        if spec is None:
            continue
        col = df[c]
        null = col.isna()
        if spec.type == "str":
            text = col.where(~null, "").astype(str)
            if spec.rule == "name":
                if (text == "").any():
                    raise ResultError(f"{where(_first(text == ''), c)}: empty: every row names its {key}; {fix}")
                dup = df.assign(**{c: text}).duplicated([k for k in ("run_id",) if k in df.columns] + [c])
                if dup.any():
                    i = _first(dup)
                    raise ResultError(f"{where(i, c)}: '{text[i]}' appears twice: names are unique in a run; {fix}")
            df[c] = text.astype(object)
            continue
        if not spec.empty and null.any():
            raise ResultError(f"{where(_first(null), c)}: empty, but every row has a value here ({spec.unit}); {fix}")
        num = pd.to_numeric(col, errors="coerce")
        bad = num.isna() & ~null
        if bad.any():
            i = _first(bad)
            raise ResultError(f"{where(i, c)}: {col[i]!r} is not a number; {fix}")
        num = num.astype("float64")
        bad = ~np.isfinite(num) & ~null
        if bad.any():
            i = _first(bad)
            raise ResultError(f"{where(i, c)}: {num[i]!r} is not a finite number (every value iosim writes is finite, "
                              f"NULL where none applies); {fix}")
        if spec.type == "int":
            bad = (num != np.floor(num)) & ~null
            if bad.any():
                i = _first(bad)
                raise ResultError(f"{where(i, c)}: {num[i]!r} is not a whole number (a count); {fix}")
        rule = spec.rule
        bad = {"nonneg": num < 0, "positive": ~(num > 0) & ~null,
               "share": (num < 0) | (num > 1 + TOL), "yield": (num < 0) | (num > 1 + TOL)}.get(rule)
        if bad is not None and bad.any():
            i = _first(bad)
            raise ResultError(f"{where(i, c)}: {num[i]!r} {_rule_problem(num[i], rule)}; {fix}")
        df[c] = num.astype("int64") if spec.type == "int" and not null.any() else num
    return df


def check_apps_frame(df, caps, origin, fix=DB_FIX):
    """read_apps()'s checks across columns on an apps table read from a database: end_s not before start_s, and
    io_bandwidth_Bps not above the run's platform capacity (`caps`: one value per row, NaN when unknown) beyond the
    rounding of the job's dates."""
    def where(i, c):
        return f"{origin}, run_id {df.at[i, 'run_id']!r}, name {df.at[i, 'name']!r}, column {c}" \
            if "run_id" in df.columns else f"{origin}, name {df.at[i, 'name']!r}, column {c}"
    if "start_s" in df.columns and "end_s" in df.columns:
        bad = (df["end_s"] < df["start_s"]).fillna(False)
        if bad.any():
            i = _first(bad)
            raise ResultError(f"{where(i, 'end_s')}: {df.at[i, 'end_s']!r} is before its start_s "
                              f"{df.at[i, 'start_s']!r}; {fix}")
    if "io_bandwidth_Bps" in df.columns:
        caps = pd.Series(np.asarray(caps, dtype="float64"), index=df.index)
        over = (df["io_bandwidth_Bps"] > caps * (1 + TOL)).fillna(False)
        for i in over[over].index:
            bw, cap = df.at[i, "io_bandwidth_Bps"], caps[i]
            t = df.at[i, "io_time_s"] if "io_time_s" in df.columns else float("nan")
            dates = [abs(df.at[i, c]) for c in ("start_s", "end_s") if c in df.columns and df.at[i, c] == df.at[i, c]]
            slack = 2 * DATE_ULPS * max(dates, default=0.0)
            if t == t and t > slack and bw * (t - slack) <= cap * t * (1 + TOL):
                continue
            raise ResultError(f"{where(i, 'io_bandwidth_Bps')}: {bw!r} B/s is above the platform's capacity {cap!r} B/s "
                              "(results platform.capacity_Bps: every I/O resource and the PFS together): no job moves "
                              f"faster than the platform; {fix}")
    return df


def _run_rows(db, table, run_id):
    df = db.query(f'select * from "{table}" where run_id = ?', (run_id,), table)
    return df


def _results_db(db, run_id):
    origin = f"{db.path}: table results, run_id {run_id!r}"
    df = db.query("select json from results where run_id = ?", (run_id,), "results")
    if df.empty:
        st = db.query("select status, error from runs where run_id = ?", (run_id,), "runs")
        if st.empty:
            some = db.query("select run_id from results limit 5", table="results")["run_id"].tolist()
            raise ResultError(f"{db.path}: no run {run_id!r} (runs: {', '.join(map(str, some))}"
                              f"{', ...' if len(some) == 5 else ''}); fix: name a run_id of its runs table")
        raise ResultError(f"{db.path}: run {run_id!r} has status {st['status'].iat[0]} and no results"
                          f"{': ' + str(st['error'].iat[0]) if st['error'].iat[0] else ''}; fix: pick a complete run, "
                          "or rerun the campaign with --retry-failed")
    try:
        res = json.loads(df["json"].iat[0], parse_constant=_reject_constant)
    except (TypeError, ValueError) as e:
        raise ResultError(f"{origin}: column json is not readable JSON ({e}); {DB_FIX}") from None
    return check_results(res, origin, DB_FIX)


def read_run_db(ref, need=("results", "apps", "resources")):
    """read_run() of a run inside a campaign database: Run(dir = 'DB#RUN_ID', results, apps, resources,
    capacity_Bps), the tables without their run_id column, checked as the files are."""
    db = open_db(ref.db)
    run_id = ref.run_id or db.only_run()
    res = _results_db(db, run_id)
    cap = platform_capacity(res)
    frames = {}
    for table, columns, req in (("apps", APPS_COLUMNS, ("name", "io_volume_bytes", "io_time_s")),
                                ("resources", RESOURCES_COLUMNS, ("name", "capacity_Bps"))):
        if table not in db.tables:
            if table in need:
                db.require(table, f"run {run_id} needs its {table}")
            frames[table] = None
            continue
        df = _run_rows(db, table, run_id)
        if df.empty and table not in need:
            frames[table] = None
            continue
        origin = f"{db.path}: table {table}, run_id {run_id!r}"
        df = check_frame(df.drop(columns=["run_id"]), columns, origin, req)
        if table == "apps":
            df = check_apps_frame(df, [cap if cap is not None else float("nan")] * len(df), origin)
        df.attrs["path"] = f"{db.path}: table {table}"
        frames[table] = df
    return Run(f"{db.path}#{run_id}", res, frames["apps"], frames["resources"], cap)


def read_apps_table(db, run_ids=None, required=("name",)):
    """The apps table of a campaign database (every run's applications, with run_id), checked as apps.csv is, each
    run's io_bandwidth_Bps against its own platform capacity; only the runs of `run_ids` when given."""
    if "apps" not in db.tables:
        return None
    df = db.query("select * from apps", table="apps")
    if run_ids is not None:
        df = df[df["run_id"].astype(str).isin(set(map(str, run_ids)))]
    if df.empty:
        return None
    df = check_frame(df, APPS_COLUMNS, f"{db.path}: table apps", required)
    caps = db.query("select run_id, json_extract(json, '$.platform.capacity_Bps') as cap from results",
                    table="results")
    cap = pd.to_numeric(df["run_id"].map(dict(zip(caps["run_id"], caps["cap"]))), errors="coerce")
    return check_apps_frame(df, cap.where(cap > 0), f"{db.path}: table apps")


def read_events_db(db, run_id):
    """A run's events (the events table: events.csv's columns) as a DataFrame, or None when the database has no
    events of that run (a campaign writes them only with output.events)."""
    if "events" not in db.tables:
        return None
    df = _run_rows(db, "events", run_id)
    return None if df.empty else df.drop(columns=["run_id"])
