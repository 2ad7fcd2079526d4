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
"""

import collections
import csv
import json
import math
import os

from .campaign_io import InputError, pd  # noqa: E402  (also checks the Debian modules)

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


def _check_number(path, field, v, rule=None):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ResultError(f"{path}: {field} = {v!r} is not a number; {FIX}")
    if not math.isfinite(v):
        raise ResultError(f"{path}: {field} = {v!r} is not a finite number; {FIX}")
    problem = _rule_problem(v, rule) if rule else None
    if problem:
        raise ResultError(f"{path}: {field} = {v!r} {problem}; {FIX}")


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
    if not isinstance(res, dict):
        raise ResultError(f"{path}: not a JSON object; {FIX}")
    if not isinstance(res.get("status"), str):
        raise ResultError(f"{path}: status = {res.get('status')!r}: missing or not a string; {FIX}")
    for field, rule in (("seed", "nonneg"), ("wall_time_s", "nonneg")):
        if field in res:
            _check_number(path, field, res[field], rule)
    win = res.get("window")
    if isinstance(win, dict):
        for k in ("begin_s", "end_s", "period_s", "busy_s", "busy_periods"):
            if win.get(k) is not None:
                _check_number(path, f"window.{k}", win[k], None if k in ("begin_s", "end_s") else "nonneg")
        if isinstance(win.get("begin_s"), (int, float)) and isinstance(win.get("end_s"), (int, float)) and \
                win["end_s"] < win["begin_s"]:
            raise ResultError(f"{path}: window.end_s = {win['end_s']!r} is before window.begin_s = "
                              f"{win['begin_s']!r}; {FIX}")
    plat = res.get("platform")
    if isinstance(plat, dict):
        for k in ("compute_nodes", "nic_bw_Bps", "resources", "capacity_Bps"):
            if plat.get(k) is not None:
                _check_number(path, f"platform.{k}", plat[k], "nonneg")
    metrics = res.get("metrics")
    if metrics is not None and not isinstance(metrics, dict):
        raise ResultError(f"{path}: metrics is not an object; {FIX}")
    for k, v in (metrics or {}).items():
        if v is None or isinstance(v, (dict, list)):
            continue
        rule = METRIC_RULES.get(k) or ("nonneg" if k.endswith(NONNEG_SUFFIXES) else None)
        _check_number(path, f"metrics.{k}", v, rule)
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
    or None, capacity_Bps or None). `need` names the files that must be there (results.json always is)."""
    if os.path.exists(run_dir) and not os.path.isdir(run_dir):
        raise ResultError(f"{run_dir}: not a directory; fix: give the output directory of `iosim run` (its --out)")
    res = read_results(os.path.join(run_dir, "results.json"))
    cap = platform_capacity(res)
    apath, rpath = os.path.join(run_dir, "apps.csv"), os.path.join(run_dir, "resources.csv")
    apps = read_apps(apath, cap) if "apps" in need or os.path.isfile(apath) else None
    resources = read_resources(rpath) if "resources" in need or os.path.isfile(rpath) else None
    return Run(run_dir, res, apps, resources, cap)
