#!/usr/bin/env python3
"""Figures and a Markdown report for an iosim campaign directory (the output of `iosim sweep`).

usage: python3 -m iosim.report DIR [--x COL] [--policy COL] [--metrics m1,m2] [--baseline NAME] [--gantt RUN_ID]
                          [--by-position c1,c2]

Reads DIR/runs.csv and DIR/campaign.json (and DIR/runs/<run_id>/events.csv, resources.csv for the Gantt chart,
DIR/runs/<run_id>/apps.csv for the yield-by-position figures), writes DIR/report/*.png and DIR/report/report.md, and
prints the report's path.

Yield by position (RR-9502 Figures 6 and 7): for each apps.csv column c of --by-position (else campaign.json
report.by_position, else those of iteration_s and io_fraction that every complete run's apps.csv has; 'none' or
[] for no such figure), each run's applications are sorted by increasing c, the yield at each position is averaged
over the runs of a policy, one line per policy and one panel per x value. So any campaign whose runs wrote these
columns (iosim >= the version documenting them in docs/outputs.md) gets the two figures. Exit 2 on bad input (missing
runs.csv, unknown column, no complete run) with the file, the column and the fix; see analysis/README.md.
"""

import argparse
import glob
import json
import os
import sys


from . import campaign_io  # noqa: E402  (exits 2 naming the Debian package when a module is missing)
from . import figures  # noqa: E402
from .campaign_io import FIXED_COLUMNS, InputError, md_table, np, pd  # noqa: E402,F401
from . import results  # noqa: E402  (the checked reader of run outputs)

# Default metrics, in this order, when the campaign does not name them (those with at least one value).
IMPORTANT_METRICS = ["min_yield", "efficiency", "utilization", "mean_io_slowdown", "io_spread",
                     "aggregate_bandwidth_Bps"]
FIGURE_PREFIXES = ("line_", "box_", "ratio_", "gantt_", "position_")
POSITION_COLUMNS = ["iteration_s", "io_fraction"]  # default sort columns of the yield-by-position figures
MAX_BOX_GROUPS = 10  # box plots are grouped by x only when x has at most this many values


# ----------------------------------------------------------------------------------------------------------------
# inputs


def load_runs(cdir):
    """runs.csv as a DataFrame plus (swept columns, metric columns): campaign_io.load_runs()."""
    return campaign_io.load_runs(cdir)


def load_campaign(cdir):
    """campaign.json (or the campaign database's meta 'campaign') as a dict ({} with a warning when absent)."""
    path, text = campaign_io.campaign_text(cdir)
    if text is None:
        print(f"report.py: warning: {path} not found; using the directory name as title and default choices",
              file=sys.stderr)
        return {}
    try:
        campaign = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}; fix: correct the "
                         "file or rerun the campaign") from None
    if not isinstance(campaign, dict):
        raise InputError(f"{path}: top level is not a JSON object; fix: rerun the campaign")
    report = campaign.get("report")
    if report is not None and not isinstance(report, dict):
        raise InputError(f"{path}: field 'report' is not an object; fix: write it as "
                         '{"x": ..., "policy": ..., "metrics": [...], "baseline": ..., "gantt_run": ...}')
    return campaign


def _check_column(df, col, origin, runs_path):
    if col not in df.columns:
        raise InputError(f"column '{col}' (from {origin}) not in {runs_path}; columns are: "
                         f"{', '.join(df.columns)}; fix: name one of them, e.g. --x {_suggest(df)}")


def _suggest(df):
    for c in df.columns:
        if c not in FIXED_COLUMNS:
            return c
    return "COL"


def _distinct(df, col):
    return df[col].dropna().nunique()


def resolve_choices(args, df, swept, metrics, campaign, cdir):
    """Pick x, policy, metrics, baseline and the Gantt run from the command line, then campaign.report, then
    the defaults documented in analysis/README.md."""
    report = campaign.get("report") or {}
    runs_path = campaign_io.runs_where(cdir)
    camp_path = campaign_io.campaign_text(cdir)[0]

    def pick(cli_value, key):
        if cli_value is not None:
            return cli_value, f"--{key if key != 'gantt_run' else 'gantt'}"
        if report.get(key) is not None:
            return report[key], f"{camp_path} report.{key}"
        return None, None

    # policy
    policy, origin = pick(args.policy, "policy")
    if policy is not None and str(policy).lower() == "none":
        policy = None
    elif policy is not None:
        _check_column(df, policy, origin, runs_path)
    elif origin is None:
        policy = next((c for c in swept if c.endswith(".policy") and _distinct(df, c) > 1), None)

    # x
    x, origin = pick(args.x, "x")
    if x is not None and str(x).lower() == "none":
        x = None
    elif x is not None:
        _check_column(df, x, origin, runs_path)
        if x == policy:
            raise InputError(f"column '{x}' (from {origin}) is also the policy column; fix: choose another x "
                             "or another --policy")
    elif origin is None:
        x = next((c for c in swept if c not in (policy, "seed") and pd.api.types.is_numeric_dtype(df[c])
                  and _distinct(df, c) > 1), None)

    # metrics
    chosen, origin = pick(args.metrics, "metrics")
    if chosen is not None:
        names = [m.strip() for m in chosen.split(",")] if isinstance(chosen, str) else [str(m) for m in chosen]
        names = [m for m in names if m]
        for m in names:
            _check_column(df, m, origin, runs_path)
            if m not in metrics:
                raise InputError(f"column '{m}' (from {origin}) in {runs_path} is not a metric column (metrics: "
                                 f"{', '.join(metrics)}); fix: name numeric columns after 'error'")
        chosen = names
    else:
        present = [m for m in metrics if df[m].notna().any()]
        chosen = [m for m in IMPORTANT_METRICS if m in present] or present[:len(IMPORTANT_METRICS)]

    # baseline
    baseline, origin = pick(args.baseline, "baseline")
    policy_values = sorted(df[policy].dropna().astype(str).unique()) if policy else []
    if baseline is not None:
        if policy is None:
            raise InputError(f"a baseline ('{baseline}', from {origin}) needs a policy column; fix: pass "
                             "--policy COL")
        if str(baseline) not in policy_values:
            raise InputError(f"baseline '{baseline}' (from {origin}) is not a value of column '{policy}' in "
                             f"{runs_path} (values: {', '.join(policy_values)}); fix: pick one of them")
        baseline = str(baseline)
    elif "fairshare" in policy_values:
        baseline = "fairshare"

    gantt_run, origin = pick(args.gantt, "gantt_run")
    by_position, bp_origin = pick(args.by_position, "by_position")
    if by_position is not None:
        if isinstance(by_position, str):
            by_position = [] if by_position.strip().lower() == "none" else \
                [c.strip() for c in by_position.split(",") if c.strip()]
        elif isinstance(by_position, list) and all(isinstance(c, str) for c in by_position):
            by_position = list(by_position)
        else:
            raise InputError(f"{bp_origin}: must be a list of apps.csv column names such as "
                             '["iteration_s", "io_fraction"] (or [] for none); fix: correct it')
    return {"x": x, "policy": policy, "metrics": chosen, "baseline": baseline,
            "gantt": None if gantt_run is None else str(gantt_run), "gantt_origin": origin,
            "by_position": by_position, "by_position_origin": bp_origin}


def choose_gantt_run(df, cdir, wanted, origin, notes):
    """(run_id, events, resources) or None (with a note): events and resources the run's events.csv and resources.csv,
    or for a campaign database its events and resources as DataFrames (None when it has none). An explicit --gantt
    that cannot be drawn is an error; a campaign gantt_run that cannot be drawn falls back to the first complete run
    with events."""
    dbp = campaign_io.campaign_db(cdir)
    if dbp:
        db = results.open_db(dbp)
        with_events = set(db.query("select distinct run_id from events", table="events")["run_id"].astype(str)) \
            if "events" in db.tables else set()

        def files(run_id):
            if run_id not in with_events:
                return f"{dbp} (table events): no row of run {run_id}", None
            run = results.read_run_db(results.RunRef(dbp, run_id), need=("results", "resources"))
            ev = results.read_events_db(db, run_id)
            ev.attrs["window"] = gantt_window(run.results)
            return ev, run.resources
    else:
        def files(run_id):
            d = os.path.join(cdir, "runs", run_id)
            return os.path.join(d, "events.csv"), os.path.join(d, "resources.csv")

    def there(x):
        return isinstance(x, pd.DataFrame) or (x is not None and os.path.isfile(x))

    if wanted is not None:
        ev, rs = files(wanted)
        problem = None
        fix = "fix: enable output.events in the campaign's base scenario, or pick a run that has an events.csv"
        if wanted not in set(df["run_id"]):
            problem = f"run '{wanted}' is not in {campaign_io.runs_where(cdir)}"
            fix = "fix: pick a run_id from runs.csv (16 hex characters)"
        elif not there(ev):
            problem = ev if dbp else f"{ev}: file not found"
        elif not there(rs):
            problem = f"{rs}: file not found"
            fix = "fix: rerun that run, or pick another one"
        if problem is None:
            return wanted, ev, rs
        if origin == "--gantt":
            raise InputError(f"--gantt: {problem}; {fix}")
        notes.append(f"Gantt run from {origin}: {problem}; using the first complete run with an events.csv.")
    for run_id in df.loc[figures.is_complete(df), "run_id"]:
        if dbp and run_id not in with_events:
            continue
        ev, rs = files(run_id)
        if there(ev) and there(rs):
            return run_id, ev, rs
    return None


def gantt_window(res):
    """(begin_s, end_s, kind) of a run's metrics window (results.json `window`), or None."""
    w = res.get("window") if isinstance(res, dict) else None
    try:
        return float(w["begin_s"]), float(w["end_s"]), str(w.get("kind", "window"))
    except (TypeError, KeyError, ValueError):
        return None


def load_apps(cdir, runs, keep_cols):
    """The apps.csv of every run in `runs` (complete runs) as one DataFrame: its columns plus run_id and keep_cols
    (copied from the run's row of runs.csv). Returns (DataFrame or None when no run has one, the columns every
    loaded apps.csv has, the number of runs without apps.csv)."""
    dbp = campaign_io.campaign_db(cdir)
    if dbp:  # one query for every run, checked as apps.csv is (iosim.results)
        apps = results.read_apps_table(results.open_db(dbp), runs["run_id"])
        if apps is None:
            return None, set(), len(runs)
        have = set(apps["run_id"])
        common = set(apps.columns) - {"run_id"}  # one table: every run has its columns
        row_of = runs.drop_duplicates("run_id").set_index("run_id")
        for c in keep_cols:
            apps[c] = apps["run_id"].map(row_of[c])
        order = {r: k for k, r in enumerate(runs["run_id"])}
        apps = apps.assign(_o=apps["run_id"].map(order)).sort_values("_o", kind="stable").drop(columns="_o")
        apps = apps[[c for c in apps.columns if c != "run_id"] + ["run_id"]]
        apps = apps[[c for c in apps.columns if c not in keep_cols] + list(keep_cols)]
        return apps.reset_index(drop=True), common, int((~runs["run_id"].isin(have)).sum())
    frames, common, missing = [], None, 0
    for _, row in runs.iterrows():
        path = os.path.join(cdir, "runs", str(row["run_id"]), "apps.csv")
        if not os.path.isfile(path):
            missing += 1
            continue
        rpath = os.path.join(os.path.dirname(path), "results.json")  # every value checked (iosim.results)
        cap = results.platform_capacity(results.read_results(rpath)) if os.path.isfile(rpath) else None
        apps = results.read_apps(path, cap, required=("name",))
        common = set(apps.columns) if common is None else common & set(apps.columns)
        apps["run_id"] = str(row["run_id"])
        for c in keep_cols:
            apps[c] = row[c]
        frames.append(apps)
    if not frames:
        return None, set(), missing
    return pd.concat(frames, ignore_index=True), common, missing


def choose_position_figures(cdir, runs, ch, notes):
    """(apps DataFrame, sort columns, panel column) for the yield-by-position figures, or None. An explicitly asked
    column that no run's apps.csv has is an error (before anything is written)."""
    wanted, origin = ch["by_position"], ch["by_position_origin"]
    if wanted is not None and not wanted:
        return None
    panel = ch["x"] if ch["x"] and _distinct(runs, ch["x"]) <= MAX_BOX_GROUPS else None
    keep = [c for c in (ch["policy"], ch["x"]) if c]
    apps, common, missing = load_apps(cdir, runs, keep)
    if apps is None or "yield" not in common:
        if wanted:
            raise InputError(f"{origin} asks for yield-by-position figures but no complete run of {cdir} has an "
                             "apps.csv with a yield column; fix: rerun the campaign with the current iosim, or pass "
                             "--by-position none")
        return None
    if wanted:
        for c in wanted:
            if c not in common:
                raise InputError(f"column '{c}' (from {origin}) is not in every run's apps.csv (columns: "
                                 f"{', '.join(sorted(common))}); fix: name one of them, e.g. iteration_s, or rerun "
                                 "the campaign with the current iosim (docs/outputs.md)")
        cols = wanted
    else:
        cols = [c for c in POSITION_COLUMNS if c in common]
    if not cols:
        return None
    if missing:
        notes.append(f"{missing} complete run(s) have no apps.csv: left out of the yield-by-position figures.")
    sizes = apps.groupby("run_id").size()
    if sizes.min() != sizes.max():
        notes.append(f"the runs have {sizes.min()} to {sizes.max()} applications: position i of the "
                     "yield-by-position figures does not mean the same rank in every run.")
    if ch["x"] and panel is None:
        notes.append(f"`{ch['x']}` has more than {MAX_BOX_GROUPS} values: the yield-by-position figures pool them "
                     "in one panel.")
    return apps, cols, panel


# ----------------------------------------------------------------------------------------------------------------
# Markdown helpers


def md_cell(v):
    return campaign_io.md_cell(v)


def fmt_num(v):
    if v is None or pd.isna(v):
        return "—"
    return f"{v:.4g}"


def fmt_value(v):
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return f"{v:g}"
    return figures._fmt_value(v)


def metric_header(m, values=None):
    """Table header of a column: human label, unit (decimal GB/s for bandwidths), runs.csv name; with `values`, a
    column whose values are not numbers keeps them as written, without a unit (figures.shown_unit)."""
    return figures.column_header(m, values)


def means_table(runs, group_cols, metrics):
    """Markdown table: one row per group, n and 'mean ± std' (sample std, n-1) of each metric."""
    header = [metric_header(c, runs[c]) for c in group_cols] + ["n"] + [metric_header(m) for m in metrics]
    key_factor = [figures.shown_unit(c, runs[c])[2] for c in group_cols]
    rows = []
    if not group_cols:
        groups = [((), runs)]
    else:
        groups = runs.groupby(group_cols[0] if len(group_cols) == 1 else group_cols, sort=False)
    keyed = []
    for key, grp in groups:
        key = key if isinstance(key, tuple) else (key,)
        keyed.append((tuple(figures._natural_key(k) for k in key), key, grp))
    for _, key, grp in sorted(keyed, key=lambda t: t[0]):
        row = [fmt_value(k * f if f != 1.0 else k) for k, f in zip(key, key_factor)] + [len(grp)]
        for m in metrics:
            _, _, factor = figures.unit_of(m)
            vals = grp[m].dropna() * factor
            if vals.empty:
                row.append("—")
            elif len(vals) == 1:
                row.append(fmt_num(vals.iloc[0]))
            else:
                mean, std = vals.mean(), vals.std(ddof=1)
                if std <= 1e-9 * abs(mean):  # rounding noise of identical values
                    std = 0.0
                row.append(f"{fmt_num(mean)} ± {fmt_num(std)}")
        rows.append(row)
    return md_table(rows, header)


def position_summary(table, panel):
    """Markdown table of yield_by_position()'s data: per policy (and panel value) the runs, the mean yield at the
    first and the last position, and the lowest and highest position mean."""
    keys = ["policy"] + ([panel] if panel else [])
    header = ["policy"] + [metric_header(c) for c in keys[1:]] + ["runs", "positions", "ȳ first", "ȳ last",
                                                                   "min ȳ_i", "max ȳ_i"]
    rows = []
    for key, grp in table.groupby(keys if len(keys) > 1 else keys[0], sort=False):
        key = key if isinstance(key, tuple) else (key,)
        grp = grp.sort_values("position")
        rows.append(([fmt_value(k) for k in key], [int(grp["n"].max()), len(grp), fmt_num(grp["mean"].iat[0]),
                                                  fmt_num(grp["mean"].iat[-1]), fmt_num(grp["mean"].min()),
                                                  fmt_num(grp["mean"].max())]))
    rows.sort(key=lambda r: tuple(figures._natural_key(k) for k in r[0][::-1]))
    return md_table([k + v for k, v in rows], header)


# Columns of runs.csv that describe how a run went rather than its result: left out when results are compared.
NOT_RESULTS = {"wall_time_s", "sim_wall_s", "events", "rate_changes", "platform_limited_share"}


def identical_policies(runs, policy, instance_cols, metrics):
    """Groups (lists of two or more policy values, sorted) whose complete runs give the same value of every result
    metric (all metric columns but NOT_RESULTS; equal within 1e-9 relative, or both empty) on every instance
    (same instance_cols values) that they share, with the number of shared instances and of metrics compared:
    [(group, instances, metrics)]. Two policies without a shared instance are not compared."""
    cols = [m for m in metrics if m not in NOT_RESULTS]
    if not policy or not cols:
        return []
    work = runs.copy()
    work["_policy"] = work[policy].astype(str)
    keys = list(instance_cols)
    per = {p: g.drop_duplicates(keys).set_index(keys)[cols] if keys else g[cols].head(1)
           for p, g in work.groupby("_policy", sort=False)}
    names = sorted(per, key=figures._natural_key)
    parent = {p: p for p in names}

    def root(p):
        while parent[p] != p:
            p = parent[p]
        return p
    shared = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            A, B = per[a].align(per[b], join="inner", axis=0)
            if A.empty:
                continue
            x, y = A.to_numpy(dtype=float), B.to_numpy(dtype=float)
            both_nan = np.isnan(x) & np.isnan(y)
            close = np.isclose(x, y, rtol=1e-9, atol=1e-12)
            if (both_nan | close).all():
                ra, rb = root(a), root(b)
                if ra != rb:
                    parent[rb] = ra
                shared[(a, b)] = len(A)
    groups = {}
    for p in names:
        groups.setdefault(root(p), []).append(p)
    out = []
    for g in groups.values():
        if len(g) < 2:
            continue
        n = min((shared.get((a, b), shared.get((b, a), 0)) for i, a in enumerate(g) for b in g[i + 1:]), default=0)
        out.append((g, n, len(cols)))
    return out


def _and_list(items):
    items = [f"`{i}`" for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def safe_name(text):
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in text)


# ----------------------------------------------------------------------------------------------------------------
# the report


def build_report(cdir, args):
    df, swept, metrics = load_runs(cdir)
    campaign = load_campaign(cdir)
    ch = resolve_choices(args, df, swept, metrics, campaign, cdir)
    x, policy, chosen, baseline = ch["x"], ch["policy"], ch["metrics"], ch["baseline"]
    runs_path = campaign_io.runs_where(cdir)

    runs, dropped_note = figures.complete_runs(df)
    if runs.empty:
        counts = ", ".join(f"{n} {s}" for s, n in df["status"].value_counts().items()) or "no rows"
        raise InputError(f"{runs_path}: no complete run ({counts}); fix: look at the 'error' column of the failed "
                         "runs, correct the campaign and rerun it")
    if not chosen:
        raise InputError(f"{runs_path}: no metric column has a value; fix: pass --metrics with columns after "
                         "'error'")

    notes = []
    chosen_run = choose_gantt_run(df, cdir, ch["gantt"], ch["gantt_origin"], notes)  # may raise: before writing
    positions = choose_position_figures(cdir, runs, ch, notes)  # may raise: before writing

    out_dir = os.path.join(campaign_io.campaign_dir(cdir), "report")
    os.makedirs(out_dir, exist_ok=True)
    for old in glob.glob(os.path.join(out_dir, "*.png")):
        if os.path.basename(old).startswith(FIGURE_PREFIXES):
            os.remove(old)

    md = []
    title = campaign.get("name") or os.path.basename(os.path.normpath(cdir))
    md.append(f"# Campaign report: {title}\n")
    if campaign.get("description"):
        md.append(f"{campaign['description']}\n")
    md.append(f"Campaign directory `{campaign_io.campaign_dir(cdir)}`; generated by `iosim report` from "
              + ("`campaign.db`.\n" if campaign_io.campaign_db(cdir) else "`runs.csv` and `campaign.json`.\n"))

    # --- counts
    status = df["status"]
    n_complete = int(status.eq("complete").sum())
    n_stopped = int(status.eq("stopped_at_window_end").sum())
    n_failed = int(status.eq("failed").sum())
    n_missing = int(status.eq("missing").sum())
    n_other = len(df) - n_complete - n_stopped - n_failed - n_missing
    md.append("## Runs\n")
    md.append(f"- runs: {len(df)}")
    md.append(f"- complete: {n_complete + n_stopped} ({n_complete} complete, {n_stopped} stopped at the window "
              "end); only these are in the tables and figures")
    md.append(f"- failed: {n_failed}")
    md.append(f"- missing: {n_missing}" + (f"; other status: {n_other}" if n_other else ""))
    for c in swept:
        vals = figures._values_sorted(df[c])
        shown = ", ".join(figures.value_with_unit(c, df[c], v) for v in vals[:12]) + (", …" if len(vals) > 12 else "")
        md.append(f"- swept `{c}`: {len(vals)} value(s): {shown}")
    if "seed" in df.columns:
        seeds = figures._values_sorted(df["seed"])
        md.append(f"- seeds: {len(seeds)} ({fmt_value(seeds[0])} to {fmt_value(seeds[-1])})" if seeds else
                  "- seeds: none")
    md.append(f"- report choices: x = `{x or 'none'}`, policy = `{policy or 'none'}`, baseline = "
              f"`{baseline or 'none'}`, metrics = "
              + ", ".join(f"`{m}`" for m in chosen))
    others = [c for c in swept if c not in (x, policy) and _distinct(df, c) > 1]
    pooled = f" (pooled over {', '.join(others)})" if others else ""
    if others:
        md.append("- the tables and figures pool the runs over the other swept columns: "
                  + ", ".join(f"`{c}`" for c in others))
    md.append("")

    instance_cols = [c for c in swept if c != policy] + (["seed"] if "seed" in df.columns else [])
    same = identical_policies(runs, policy, instance_cols, metrics)
    if same:
        md.append("## Identical results\n")
        for group, n, ncols in same:
            text = (f"**{_and_list(group)} give identical results on every point**: each of the {ncols} result "
                    f"metrics is the same for them on each of the {n} instances they share (same "
                    + ", ".join(f"`{c}`" for c in instance_cols) + "). Their lines and boxes coincide in the "
                    "figures: this campaign does not tell these policies apart. They decide differently only when "
                    "transfers compete for an I/O resource, so here none ever did (for example, every resource's "
                    "capacity exceeds what the applications on it can draw); a regime where they differ has "
                    "scarcer or slower resources or a higher load (docs/campaigns.md).")
            md.append(text + "\n")
            notes.append(f"{', '.join(group)} give identical results on every point ({n} instances, {ncols} "
                         "metrics): the campaign does not tell them apart.")

    bad = df[~figures.is_complete(df)]
    if len(bad):
        md.append("### Runs not complete\n")
        header = ["run_id"] + (["index"] if "index" in df.columns else []) + swept + \
            (["seed"] if "seed" in df.columns else []) + ["status", "error"]
        rows = [[r[c] if c in ("run_id", "status", "error") else fmt_value(r[c]) for c in header]
                for _, r in bad.iterrows()]
        md.append(md_table(rows, header) + "\n")

    # --- means
    md.append("## Means\n")
    md.append("Mean ± sample standard deviation (n − 1) over the complete runs; n = number of complete runs; "
              "bandwidths in decimal GB/s (1 GB/s = 10⁹ bytes/s), times in s, other metrics dimensionless; "
              "each header names its runs.csv column in brackets." + pooled + "\n")
    if policy:
        md.append(f"### Per {figures.label_of(policy)}\n")
        md.append(means_table(runs, [policy], chosen) + "\n")
    if x:
        md.append(f"### Per {figures.label_of(policy) + ' and ' if policy else ''}{figures.label_of(x)}\n")
        md.append(means_table(runs, ([policy] if policy else []) + [x], chosen) + "\n")
    if not policy and not x:
        md.append(means_table(runs, [], chosen) + "\n")

    # --- figures
    md.append("## Figures\n")
    box_by = x if x and _distinct(df, x) <= MAX_BOX_GROUPS else None
    per = f"one line per `{policy}`" if policy else "all runs as one line"
    for m in chosen:
        md.append(f"### {figures.axis_label(m)}: `{m}`\n")
        if runs[m].notna().sum() == 0:
            md.append(f"No complete run has a value of `{m}` (not applicable to these scenarios); no figure.\n")
            continue
        stem = safe_name(m)
        if x:
            png = f"line_{stem}.png"
            figures.metric_vs_param(df, x, m, policy, os.path.join(out_dir, png))
            md.append(f"![{m} versus {x}]({png})\n")
            md.append(f"*Mean `{m}` (line) and its 10th–90th percentile band (shaded) over the complete runs, "
                      f"versus `{x}`, {per}{pooled}.*\n")
        png = f"box_{stem}.png"
        figures.boxplot_per_policy(df, m, policy, os.path.join(out_dir, png), by=box_by)
        md.append(f"![{m} per policy]({png})\n")
        md.append(f"*Distribution of `{m}` over the complete runs per `{policy or 'run'}`"
                  + (f" and value of `{box_by}`" if box_by else "")
                  + f"{pooled}: box = quartiles, whiskers = 1.5 × IQR, bar = median, triangle = mean.*\n")
        if policy and baseline:
            png = f"ratio_{stem}.png"
            table = figures.ratio_table(df, m, policy, baseline, instance_cols)
            if table.empty:
                md.append(f"No instance has a complete `{baseline}` run and a complete run of another policy "
                          f"with a nonzero `{m}`; no ratio figure.\n")
            else:
                figures.ratio_to_baseline(df, m, policy, baseline, instance_cols, os.path.join(out_dir, png),
                                          x=box_by)
                md.append(f"![{m} relative to {baseline}]({png})\n")
                md.append(f"*`{m}` of each policy divided by that of `{baseline}` on the same instance (same "
                          + ", ".join(f"`{c}`" for c in instance_cols)
                          + ")" + (f", per value of `{box_by}`" if box_by else "")
                          + f"; above the dashed line at 1 the policy has a higher `{m}` than `{baseline}`.*\n")

    # --- yield by position (RR-9502 Figures 6 and 7)
    if positions is not None:
        apps, cols, panel = positions
        md.append("## Yield by position\n")
        md.append("Each run's applications sorted by increasing value of a column of its `apps.csv`; the yield at "
                  "each position i = 1..m averaged over the runs (RR-9502 §6.2.2, Figures 6 and 7: ȳ_i = (1/K) "
                  "Σ_k y_{π_k(i)})" + (f", one panel per `{panel}`" if panel else "") + pooled + ".\n")
        for c in cols:
            png = f"position_yield_by_{safe_name(c)}.png"
            table = figures.yield_by_position(apps, c, policy, panel, os.path.join(out_dir, png))
            label, unit, _ = figures.unit_of(c)
            md.append(f"### Sorted by {c}\n")
            md.append(f"![yield by position of {c}]({png})\n")
            md.append(f"*Mean yield of the application at position i when each run's applications are sorted by "
                      f"increasing `{c}` ({label}, {unit}), {per}" + (f", per `{panel}`" if panel else "")
                      + ".*\n")
            md.append(position_summary(table, panel) + "\n")

    # --- Gantt
    md.append("## Gantt chart\n")
    if chosen_run is None:
        md.append("No complete run has an `events.csv` (enable `output.events` in the campaign's base scenario "
                  "to get one); no Gantt chart.\n")
    else:
        run_id, ev, rs = chosen_run
        row = df[df["run_id"] == run_id].iloc[0]
        params = ", ".join(f"{figures.label_of(c)} = {figures.value_with_unit(c, df[c], row[c])}"
                           for c in swept + (["seed"] if "seed" in df.columns else []))
        png = f"gantt_{safe_name(run_id)}.png"
        figures.gantt(ev, rs, os.path.join(out_dir, png), title=f"Run {run_id}: {params}",
                      window=ev.attrs.get("window") if isinstance(ev, pd.DataFrame) else None)
        md.append(f"![Gantt chart of run {run_id}]({png})\n")
        md.append(f"*Run `{run_id}` ({params}): work phases and I/O operations of each application (top) and the "
                  "occupancy of each resource, sum of its transfer rates / capacity, mean per time bin (bottom); "
                  "the dashed lines bound the window the metrics are computed on (results.json `window`).*\n")
    if notes:
        md.append("## Notes\n")
        md.extend(f"- {n}" for n in notes)
        md.append("")

    report_path = os.path.join(out_dir, "report.md")
    tmp = report_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(md).rstrip() + "\n")
    os.replace(tmp, report_path)
    for n in notes:
        print(f"report.py: note: {n}", file=sys.stderr)
    return report_path


def main(argv=None):
    p = argparse.ArgumentParser(description="Figures and a Markdown report (DIR/report/report.md) for an iosim "
                                "campaign directory.")
    p.add_argument("dir", metavar="DIR", help="campaign directory (holds campaign.db, or runs.csv, campaign.json and "
                   "runs/), or its campaign.db")
    p.add_argument("--x", help="swept column on the x axis ('none' for no x)")
    p.add_argument("--policy", help="column whose values are compared ('none' for one group)")
    p.add_argument("--metrics", help="comma-separated metric columns")
    p.add_argument("--baseline", help="policy value the ratios are relative to")
    p.add_argument("--gantt", metavar="RUN_ID", help="run whose events.csv is drawn as a Gantt chart")
    p.add_argument("--by-position", metavar="COLS", help="apps.csv columns the yield-by-position figures sort the "
                   "applications by (default: iteration_s,io_fraction when the runs' apps.csv have them; 'none')")
    args = p.parse_args(argv)
    try:
        path = build_report(args.dir, args)
    except InputError as e:
        print(f"report.py: error: {e}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
