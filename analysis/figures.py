"""Plotting functions for iosim campaigns (Python 3, pandas, matplotlib with the Agg backend).

Campaign figures take the runs table (``DIR/runs.csv`` as a DataFrame: one row per run, a ``status`` column, the
swept parameters and the metrics) and plot only the complete runs (status ``complete`` or
``stopped_at_window_end``); the others are dropped and counted in the figure's title.

- metric_vs_param:    mean line per policy with a 10th-90th percentile band versus a swept parameter
                      (RR-9549 Fig. 5/8/9 style); data from param_summary().
- boxplot_per_policy: box plots per policy, optionally grouped by the values of another column
                      (RR-9502 Fig. 5 style).
- ratio_to_baseline:  per instance (same swept values and seed), metric / baseline policy's metric, as box plots
                      per policy with a line at 1 (RR-9502 Fig. 9); data from ratio_table().
- yield_by_position:  per-application yields of many runs (their apps.csv): each run's applications sorted by a
                      column (iteration_s, io_fraction), the yield at each position averaged over the runs of a
                      policy, one line per policy, one panel per x value (RR-9502 Figures 6 and 7); data from
                      position_means().
- gantt:              one run's events.csv: application timelines (work and I/O bars) above the occupancy of each
                      resource over time (sum of its transfer segments' rates / capacity); data from
                      occupancy_steps().

Every plotting function writes a PNG and returns the data it plotted.
"""

import math
import os
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

COMPLETE_STATUSES = ("complete", "stopped_at_window_end")
DPI = 120
HEATMAP_THRESHOLD = 12  # more resources than this: the occupancy panel is a heat map

plt.rcParams.update({
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "legend.fontsize": 9,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
})

# Known metrics: (label, unit shown on axes, factor from the column's unit to the shown unit).
_KNOWN = {
    "makespan_s": ("makespan", "s", 1.0),
    "min_yield": ("MinYield", "dimensionless", 1.0),
    "utilization": ("utilization", "dimensionless", 1.0),
    "efficiency": ("efficiency", "dimensionless", 1.0),
    "io_pressure": ("I/O pressure", "dimensionless", 1.0),
    "io_load": ("I/O-load", "dimensionless", 1.0),
    "mean_io_slowdown": ("Mean-I/O-SlowDown", "dimensionless", 1.0),
    "mean_rho_io": ("mean ρ_io", "dimensionless", 1.0),
    "mean_rho_con": ("mean ρ_con", "dimensionless", 1.0),
    "io_spread": ("I/O-spread", "dimensionless", 1.0),
    "machine_idle_time": ("Machine-Idletime", "dimensionless", 1.0),
    "aggregate_bandwidth_Bps": ("aggregate bandwidth", "GB/s", 1e-9),
    "events": ("controller events", "count", 1.0),
    "rate_changes": ("rate changes", "count", 1.0),
    "wall_time_s": ("wall time", "s", 1.0),
    "yield": ("yield", "dimensionless", 1.0),
    "iteration_s": ("iteration length ω", "s", 1.0),
    "io_fraction": ("I/O fraction φ", "dimensionless", 1.0),
}


def unit_of(name):
    """(label, unit, factor) for a metric or parameter column: known metrics first, then the name's suffix
    (``_s`` seconds, ``_Bps`` bytes/s shown as GB/s, ``_bytes`` shown as GB); unit is '' when unknown."""
    if name in _KNOWN:
        return _KNOWN[name]
    leaf = name.rsplit(".", 1)[-1]
    if leaf in _KNOWN:
        label, unit, factor = _KNOWN[leaf]
        return name, unit, factor
    if name.endswith("_Bps"):
        return name, "GB/s", 1e-9
    if name.endswith("_bytes"):
        return name, "GB", 1e-9
    if name.endswith("_s"):
        return name, "s", 1.0
    return name, "", 1.0


def axis_label(name):
    """Axis label with unit, e.g. 'aggregate bandwidth (GB/s)' or 'MinYield (dimensionless)'."""
    label, unit, _ = unit_of(name)
    return f"{label} ({unit})" if unit else label


def is_complete(df):
    """Boolean Series: the run is complete (status complete or stopped_at_window_end)."""
    return df["status"].isin(COMPLETE_STATUSES)


def complete_runs(df):
    """(complete rows, note) where note says how many runs were dropped and why, e.g. '1 failed, 2 missing'."""
    ok = is_complete(df)
    dropped = df.loc[~ok, "status"].fillna("unknown").value_counts()
    note = ", ".join(f"{n} {status}" for status, n in sorted(dropped.items()))
    return df[ok], note


def _runs_note(df, used):
    """Second title line: complete runs plotted, and the runs dropped (failed, missing) by status."""
    _, dropped = complete_runs(df)
    text = f"{used} complete runs plotted"
    if dropped:
        text += f"; dropped {dropped} run(s)"
    return text


def _policy_values(df, policy_col):
    """Policy values in a stable order (as strings); [None] when there is no policy column."""
    if policy_col is None:
        return [None]
    return sorted(df[policy_col].dropna().astype(str).unique(), key=_natural_key)


def _natural_key(v):
    try:
        return (0, float(v), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(v))


def _colors(n):
    cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
    return [cmap(i % cmap.N) for i in range(n)]


def _policy_series(df, policy_col):
    if policy_col is None:
        return pd.Series(["all runs"] * len(df), index=df.index)
    return df[policy_col].astype(str)


def _values_sorted(series):
    """Distinct values of a column, numeric order when numeric."""
    vals = series.dropna().unique()
    return sorted(vals, key=_natural_key)


def _save(fig, out_png):
    os.makedirs(os.path.dirname(os.path.abspath(out_png)), exist_ok=True)
    fig.savefig(out_png, dpi=DPI, bbox_inches="tight")
    plt.close(fig)


def _fmt_value(v):
    if isinstance(v, (float, np.floating)):
        return f"{v:g}"
    return str(v)


# ----------------------------------------------------------------------------------------------------------------
# (a) metric versus a swept parameter


def param_summary(df, x, metric, policy_col):
    """Per policy and x value over complete runs with a value of metric: n, mean, p10, p90 (linear interpolation
    between order statistics, numpy's default). Columns: policy, x, n, mean, p10, p90; policy is the string
    'all runs' when policy_col is None."""
    runs, _ = complete_runs(df)
    runs = runs[runs[metric].notna()]
    pol = _policy_series(runs, policy_col)
    rows = []
    for (p, xv), grp in runs.groupby([pol, runs[x]], sort=False):
        vals = grp[metric].astype(float).to_numpy()
        rows.append({"policy": p, "x": xv, "n": len(vals), "mean": float(np.mean(vals)),
                     "p10": float(np.percentile(vals, 10)), "p90": float(np.percentile(vals, 90))})
    out = pd.DataFrame(rows, columns=["policy", "x", "n", "mean", "p10", "p90"])
    if len(out):
        out = out.iloc[sorted(range(len(out)), key=lambda i: (_natural_key(out["policy"].iat[i]),
                                                              _natural_key(out["x"].iat[i])))]
    return out.reset_index(drop=True)


def metric_vs_param(df, x, metric, policy_col, out_png):
    """Mean of metric versus x, one line per policy, with a shaded 10th-90th percentile band; returns
    param_summary()."""
    summary = param_summary(df, x, metric, policy_col)
    _, _, factor = unit_of(metric)
    _, _, xfactor = unit_of(x)
    numeric_x = pd.api.types.is_numeric_dtype(df[x])
    xs_all = _values_sorted(df[x])
    fig, ax = plt.subplots(figsize=(7.5, 5))
    policies = _policy_values(df, policy_col) if policy_col else ["all runs"]
    colors = _colors(len(policies))
    markers = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "h"]
    for k, (color, p) in enumerate(zip(colors, policies)):
        s = summary[summary["policy"] == p]
        if s.empty:
            continue
        # later policies drawn thinner with smaller, different markers: coinciding lines stay distinguishable
        lw, ms = max(1.2, 3.0 - 0.5 * k), max(4.0, 9.0 - 1.5 * k)
        if numeric_x:
            xv = s["x"].astype(float).to_numpy() * xfactor
        else:
            xv = np.array([xs_all.index(v) for v in s["x"]], dtype=float)
        ax.plot(xv, s["mean"] * factor, marker=markers[k % len(markers)], ms=ms, color=color, lw=lw,
                label=f"{p} (mean)")
        ax.fill_between(xv, s["p10"] * factor, s["p90"] * factor, color=color, alpha=0.18, lw=0,
                        label=f"{p} (10th–90th pct.)")
    if not numeric_x:
        ax.set_xticks(range(len(xs_all)))
        ax.set_xticklabels([_fmt_value(v) for v in xs_all])
    ax.set_xlabel(axis_label(x))
    ax.set_ylabel(axis_label(metric))
    used = int(summary["n"].sum()) if len(summary) else 0
    label, _, _ = unit_of(metric)
    ax.set_title(f"{label} versus {x}" + (f", per {policy_col}" if policy_col else "")
                 + f"\n{_runs_note(df, used)}")
    ax.grid(True, alpha=0.3)
    if len(summary):
        ax.legend(title=policy_col, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    _save(fig, out_png)
    return summary


# ----------------------------------------------------------------------------------------------------------------
# (b) box plots per policy


def _grouped_boxes(ax, groups, group_labels, policies, colors, factor):
    """Draw boxes: groups is a list (per group) of lists (per policy) of arrays. Returns the legend handles."""
    npol = len(policies)
    flat = len(groups) == 1  # no grouping: one box per policy, named on the x axis
    width = 0.6 if flat else 0.8 / max(1, npol)
    for gi, per_policy in enumerate(groups):
        for pi, vals in enumerate(per_policy):
            if len(vals) == 0:
                continue
            pos = pi if flat else gi + (pi - (npol - 1) / 2) * width
            bp = ax.boxplot([np.asarray(vals) * factor], positions=[pos], widths=width * 0.85, patch_artist=True,
                            showmeans=True, manage_ticks=False,
                            meanprops={"marker": "^", "markerfacecolor": "white", "markeredgecolor": "black",
                                       "markersize": 6},
                            medianprops={"color": "black", "lw": 1.5},
                            flierprops={"marker": "o", "markersize": 4, "markerfacecolor": "none"})
            for patch in bp["boxes"]:
                patch.set_facecolor(colors[pi])
                patch.set_alpha(0.75)
    if flat:
        ax.set_xticks(range(npol))
        ax.set_xticklabels([str(p) for p in policies])
        ax.set_xlim(-0.6, max(1, npol) - 0.4)
    else:
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(group_labels)
        ax.set_xlim(-0.6, len(groups) - 0.4)
    handles = [Patch(facecolor=c, alpha=0.75, edgecolor="black", label=str(p)) for p, c in zip(policies, colors)]
    handles += [Line2D([], [], color="black", lw=1.5, label="median"),
                Line2D([], [], marker="^", ls="none", markerfacecolor="white", markeredgecolor="black",
                       label="mean")]
    return handles


def boxplot_per_policy(df, metric, policy_col, out_png, by=None):
    """Box plots of metric per policy (box = quartiles, whiskers = 1.5 IQR, circles = outliers), one group of
    boxes per value of `by` when given. Returns the complete runs used (rows with a value of metric)."""
    runs, _ = complete_runs(df)
    runs = runs[runs[metric].notna()]
    _, _, factor = unit_of(metric)
    policies = _policy_values(df, policy_col) if policy_col else ["all runs"]
    colors = _colors(len(policies))
    pol = _policy_series(runs, policy_col)
    if by is None:
        by_values = [None]
        group_labels = [""]
    else:
        by_values = _values_sorted(df[by])
        group_labels = [_fmt_value(v) for v in by_values]
    groups = []
    for bv in by_values:
        sel = runs if bv is None else runs[runs[by] == bv]
        psel = pol.loc[sel.index]
        groups.append([sel.loc[psel == p, metric].astype(float).to_numpy() for p in policies])
    width = max(6.5, min(14, 1.2 + len(by_values) * (0.5 + 0.45 * len(policies))))
    fig, ax = plt.subplots(figsize=(width, 5))
    handles = _grouped_boxes(ax, groups, group_labels, policies, colors, factor)
    if by is None:
        ax.set_xlabel(policy_col if policy_col else "all complete runs")
    else:
        ax.set_xlabel(axis_label(by))
    ax.set_ylabel(axis_label(metric))
    label, _, _ = unit_of(metric)
    ax.set_title(f"{label} per {policy_col if policy_col else 'run'}" + (f" and {by}" if by else "")
                 + f"\n{_runs_note(df, len(runs))}")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(handles=handles, title=policy_col, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0)
    _save(fig, out_png)
    return runs


# ----------------------------------------------------------------------------------------------------------------
# (c) ratio to a baseline policy


def ratio_table(df, metric, policy_col, baseline, instance_cols):
    """Per instance (same values of instance_cols) and non-baseline policy, metric / baseline's metric, over
    complete runs with a value of metric on both sides. Columns: instance_cols..., policy, value, baseline_value,
    ratio. Instances whose baseline is 0 or missing are left out. Several runs of one (instance, policy) are
    averaged first."""
    runs, _ = complete_runs(df)
    runs = runs[runs[metric].notna()].copy()
    runs["_policy"] = runs[policy_col].astype(str)
    keys = list(instance_cols)
    cols = keys + ["policy", "value", "baseline_value", "ratio"]
    if runs.empty:
        return pd.DataFrame(columns=cols)
    mean = runs.groupby(keys + ["_policy"], dropna=False)[metric].mean().reset_index()
    base = mean[mean["_policy"] == str(baseline)].drop(columns="_policy").rename(columns={metric: "baseline_value"})
    other = mean[mean["_policy"] != str(baseline)].rename(columns={metric: "value", "_policy": "policy"})
    merged = other.merge(base, on=keys, how="inner")
    merged = merged[merged["baseline_value"] != 0]
    merged["ratio"] = merged["value"] / merged["baseline_value"]
    merged = merged[np.isfinite(merged["ratio"])]
    order = sorted(range(len(merged)), key=lambda i: tuple(_natural_key(merged[c].iat[i]) for c in ["policy"] + keys))
    return merged.iloc[order][cols].reset_index(drop=True)


def ratio_to_baseline(df, metric, policy_col, baseline, instance_cols, out_png, x=None):
    """Box plots of metric / baseline's metric per instance, per policy (per x value when given), with a
    horizontal line at 1. Returns ratio_table()."""
    table = ratio_table(df, metric, policy_col, baseline, instance_cols)
    policies = [p for p in _policy_values(df, policy_col) if p != str(baseline)]
    all_policies = _policy_values(df, policy_col)
    palette = dict(zip(all_policies, _colors(len(all_policies))))
    colors = [palette[p] for p in policies]
    if x is None:
        x_values, group_labels = [None], [""]
    else:
        x_values = _values_sorted(df[x])
        group_labels = [_fmt_value(v) for v in x_values]
    groups = []
    for xv in x_values:
        sel = table if xv is None else table[table[x] == xv]
        groups.append([sel.loc[sel["policy"] == p, "ratio"].astype(float).to_numpy() for p in policies])
    width = max(6.5, min(14, 1.2 + len(x_values) * (0.5 + 0.45 * max(1, len(policies)))))
    fig, ax = plt.subplots(figsize=(width, 5))
    handles = _grouped_boxes(ax, groups, group_labels, policies, colors, 1.0) if policies else []
    ax.axhline(1.0, color="dimgray", ls="--", lw=1.2)
    handles.append(Line2D([], [], color="dimgray", ls="--", lw=1.2, label=f"{baseline} = 1"))
    if x is None:
        ax.set_xlabel(policy_col)
    else:
        ax.set_xlabel(axis_label(x))
    label, _, _ = unit_of(metric)
    ax.set_ylabel(f"{label}: ratio to {baseline} (dimensionless)" if len(label) <= 20
                  else f"ratio to {baseline} (dimensionless)")
    _, dropped = complete_runs(df)
    note = f"{len(table)} instance-policy pairs"
    if dropped:
        note += f"; dropped {dropped} run(s)"
    sub = textwrap.fill(f"per instance ({', '.join(instance_cols)}); {note}", 80, break_on_hyphens=False)
    ax.set_title(f"{label} relative to {baseline}\n{sub}", fontsize=11)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(handles=handles, title=policy_col, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0)
    _save(fig, out_png)
    return table


# ----------------------------------------------------------------------------------------------------------------
# (d) per-application yield by position (RR-9502 Figures 6 and 7)


def position_means(apps, sort_col, group_cols, value_col="yield"):
    """RR-9502 §6.2.2: ȳ_i = (1/K) Σ_k y_{π_k(i)}. `apps` has one row per application of a run: a `run_id` column,
    sort_col, value_col and group_cols (e.g. the policy and the x column, constant within a run). Each run's
    applications are sorted by increasing sort_col (stable: ties keep the apps.csv order; applications without a
    value, e.g. iteration_s of one without I/O, come last) and numbered 1..m (position); value_col is then averaged
    per group and position over the runs. Columns: group_cols..., position, n (runs with a value there), mean;
    sorted by group then position."""
    cols = list(group_cols) + ["position", "n", "mean"]
    if apps.empty:
        return pd.DataFrame(columns=cols)
    ranked = apps.assign(_row=apps.groupby("run_id", sort=False).cumcount())
    ranked = ranked.sort_values(["run_id", sort_col, "_row"], na_position="last")
    ranked = ranked.assign(position=ranked.groupby("run_id", sort=False).cumcount() + 1)
    ranked = ranked[ranked[value_col].notna()]
    keys = list(group_cols) + ["position"]
    out = ranked.groupby(keys, sort=False, dropna=False)[value_col].agg(["count", "mean"]).reset_index()
    out = out.rename(columns={"count": "n"})
    order = sorted(range(len(out)), key=lambda i: tuple(_natural_key(out[c].iat[i]) for c in keys))
    return out.iloc[order][cols].reset_index(drop=True)


def yield_by_position(apps, sort_col, policy_col, x, out_png, value_col="yield"):
    """Mean yield at each position of the applications sorted by increasing sort_col (position_means()), one line
    per policy, one panel per value of x (one panel when x is None). `apps` as for position_means(), with the
    policy_col and x columns. Returns position_means() over [policy_col, x]."""
    work = apps.copy()
    work["_policy"] = _policy_series(work, policy_col)
    groups = ["_policy"] + ([x] if x else [])
    table = position_means(work, sort_col, groups, value_col)
    policies = _policy_values(work, policy_col) if policy_col else ["all runs"]
    colors = _colors(len(policies))
    markers = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "h"]
    panels = _values_sorted(work[x]) if x else [None]
    ncols = min(3, len(panels))
    nrows = math.ceil(len(panels) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.2 * ncols + 2.2, 4.4 * nrows + 0.6), sharey=True,
                             squeeze=False, layout="constrained")
    sort_label, sort_unit, _ = unit_of(sort_col)
    for k, pv in enumerate(panels):
        ax = axes[k // ncols][k % ncols]
        sel = table if pv is None else table[table[x] == pv]
        runs = work if pv is None else work[work[x] == pv]
        for j, (color, p) in enumerate(zip(colors, policies)):
            s = sel[sel["_policy"] == p]
            if s.empty:
                continue
            lw, ms = max(1.0, 2.6 - 0.25 * j), max(2.5, 5.5 - 0.4 * j)
            ax.plot(s["position"], s["mean"], marker=markers[j % len(markers)], ms=ms, markevery=max(1, len(s) // 15),
                    color=color, lw=lw, label=str(p))
        nruns = runs.groupby("_policy")["run_id"].nunique()
        ntext = (f"{nruns.min()} runs per line" if len(nruns) and nruns.min() == nruns.max()
                 else f"{nruns.min() if len(nruns) else 0}–{nruns.max() if len(nruns) else 0} runs per line")
        ax.set_title((f"{x} = {_fmt_value(pv)}\n" if pv is not None else "") + ntext, fontsize=11)
        ax.set_xlabel(f"position i (1 = smallest {sort_label})")
        if k % ncols == 0:
            ax.set_ylabel(f"mean {value_col} at position i (dimensionless)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(True, alpha=0.3)
    for k in range(len(panels), nrows * ncols):
        axes[k // ncols][k % ncols].set_visible(False)
    handles, labels = axes[0][0].get_legend_handles_labels()
    for row in axes:
        for ax in row:
            for h, lab in zip(*ax.get_legend_handles_labels()):
                if lab not in labels:
                    handles.append(h)
                    labels.append(lab)
    if handles:
        axes[0][ncols - 1].legend(handles, labels, title=policy_col, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                                  borderaxespad=0)
    unit = f", {sort_unit}" if sort_unit else ""
    fig.suptitle(f"{value_col.capitalize()} of each application, sorted by increasing {sort_label} ({sort_col}{unit}),"
                 " mean per position", fontsize=12)
    _save(fig, out_png)
    return table.rename(columns={"_policy": "policy"})


# ----------------------------------------------------------------------------------------------------------------
# (e) Gantt chart of one run


def read_events(events_csv):
    """events.csv as a DataFrame with app/kind/resource as strings (resource '' when empty)."""
    ev = pd.read_csv(events_csv, dtype={"app": str, "kind": str, "resource": str})
    ev["resource"] = ev["resource"].fillna("")
    return ev


def read_resources(resources_csv):
    return pd.read_csv(resources_csv, dtype={"name": str, "kind": str})


def occupancy_steps(events_df, resources_df):
    """Occupancy of each resource over time from its `transfer` segments: on every interval between two
    consecutive segment boundaries, sum of the rates of the segments covering it / capacity_Bps. Returns a
    DataFrame with columns resource, start_s, end_s, occupancy (dimensionless), one row per maximal interval of
    constant occupancy from the resource's first segment start to its last segment end (gaps included with 0),
    resources in resources_df order. Segments on a resource absent from resources_df, or of capacity <= 0, are
    ignored."""
    cols = ["resource", "start_s", "end_s", "occupancy"]
    tr = events_df[events_df["kind"] == "transfer"]
    caps = dict(zip(resources_df["name"].astype(str), resources_df["capacity_Bps"].astype(float)))
    by_resource = dict(tuple(tr.groupby(tr["resource"].astype(str), sort=False)))
    rows = []
    for name in resources_df["name"].astype(str):
        seg = by_resource.get(name)
        cap = caps[name]
        if seg is None or not cap > 0:
            continue
        start = seg["start_s"].to_numpy(float)
        end = seg["end_s"].to_numpy(float)
        rate = seg["rate_Bps"].to_numpy(float)
        keep = end > start
        start, end, rate = start[keep], end[keep], rate[keep]
        if len(start) == 0:
            continue
        times = np.unique(np.concatenate([start, end]))
        delta = np.zeros(len(times))
        np.add.at(delta, np.searchsorted(times, start), rate)
        np.add.at(delta, np.searchsorted(times, end), -rate)
        level = np.cumsum(delta)[:-1] / cap
        level[np.abs(level) < 1e-9] = 0.0  # cancellation residue of the running sum
        cur_start, cur = times[0], level[0]
        for i in range(1, len(level)):
            if not math.isclose(level[i], cur, rel_tol=1e-9, abs_tol=1e-12):
                rows.append((name, cur_start, times[i], cur))
                cur_start, cur = times[i], level[i]
        rows.append((name, cur_start, times[-1], cur))
    return pd.DataFrame(rows, columns=cols)


def _binned_occupancy(steps, names, t0, t1, nbins):
    """Time-averaged occupancy per resource (rows, in names order) over nbins equal bins of [t0, t1]."""
    edges = np.linspace(t0, t1, nbins + 1)
    grid = np.zeros((len(names), nbins))
    per = dict(tuple(steps.groupby("resource", sort=False)))
    for r, name in enumerate(names):
        s = per.get(name)
        if s is None:
            continue
        # piecewise-linear integral F(t) = ∫ occupancy, sampled at the bin edges
        ts = np.concatenate([[s["start_s"].iat[0]], s["end_s"].to_numpy(float)])
        cum = np.concatenate([[0.0], np.cumsum(s["occupancy"].to_numpy(float) * np.diff(ts))])
        F = np.interp(edges, ts, cum, left=0.0, right=cum[-1])
        grid[r] = np.diff(F) / np.diff(edges)
    return edges, grid


def gantt(events_csv, resources_csv, out_png, title=None):
    """Two panels sharing the time axis: top, per application, work bars and I/O bars (from posting to
    completion); bottom, occupancy of each resource (step lines, or a heat map above HEATMAP_THRESHOLD
    resources). Returns occupancy_steps()."""
    ev = read_events(events_csv)
    res = read_resources(resources_csv)
    steps = occupancy_steps(ev, res)
    apps = list(dict.fromkeys(ev["app"].dropna().astype(str)))
    t0 = float(min(ev["start_s"].min(), 0.0)) if len(ev) else 0.0
    t1 = float(ev["end_s"].max()) if len(ev) else 1.0
    if not t1 > t0:
        t1 = t0 + 1.0
    names = list(res["name"].astype(str))
    heat = len(names) > HEATMAP_THRESHOLD
    top_h = min(9.0, max(2.2, 0.28 * len(apps) + 0.8))
    bot_h = min(6.0, max(2.6, 0.22 * len(names) + 1.0)) if heat else 3.2
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(11, top_h + bot_h + 1.2), sharex=True, layout="constrained",
                                   gridspec_kw={"height_ratios": [top_h, bot_h]})
    work_color, io_color = "#4C72B0", "#DD8452"
    bar_h = 0.7
    row_of = {app: i for i, app in enumerate(apps)}
    for kind, color in (("work", work_color), ("io", io_color)):
        bars = ev[ev["kind"] == kind]
        for app, k in bars.groupby(bars["app"].astype(str), sort=False):
            spans = list(zip(k["start_s"].astype(float), (k["end_s"] - k["start_s"]).astype(float)))
            ax1.broken_barh(spans, (row_of[app] - bar_h / 2, bar_h), facecolors=color, edgecolor="none")
    ax1.set_ylim(len(apps) - 0.5, -0.5)
    step = max(1, math.ceil(len(apps) / 40))
    ax1.set_yticks(range(0, len(apps), step))
    ax1.set_yticklabels(apps[::step], fontsize=9 if len(apps) <= 20 else 7)
    ax1.set_ylabel("application")
    ax1.grid(True, axis="x", alpha=0.3)
    ax1.legend(handles=[Patch(facecolor=work_color, label="work phase"),
                        Patch(facecolor=io_color, label="I/O operation (posting to completion)")],
               loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2, frameon=False, borderaxespad=0.2)
    fig.suptitle(title or f"Gantt chart of {os.path.basename(os.path.dirname(os.path.abspath(events_csv)))}",
                 fontsize=12)

    if steps.empty:
        ax2.text(0.5, 0.5, "no transfer segments in events.csv", ha="center", va="center",
                 transform=ax2.transAxes)
        ax2.set_yticks([])
    elif heat:
        edges, grid = _binned_occupancy(steps, names, t0, t1, 400)
        vmax = max(1.0, float(grid.max()))
        mesh = ax2.pcolormesh(edges, np.arange(len(names) + 1) - 0.5, grid, cmap="viridis", vmin=0, vmax=vmax,
                              shading="flat")
        ax2.set_ylim(len(names) - 0.5, -0.5)
        rstep = max(1, math.ceil(len(names) / 30))
        ax2.set_yticks(range(0, len(names), rstep))
        ax2.set_yticklabels(names[::rstep], fontsize=8)
        ax2.set_ylabel("resource")
        cax = ax2.inset_axes([1.01, 0.0, 0.02, 1.0])  # outside ax2, so both panels keep the same width
        cbar = fig.colorbar(mesh, cax=cax)
        cbar.set_label("occupancy (Σ rate / capacity,\ndimensionless; mean per time bin)", fontsize=9)
        mesh.set_label("occupancy")
    else:
        colors = _colors(len(names))
        for color, name in zip(colors, names):
            s = steps[steps["resource"] == name]
            if s.empty:
                xs, ys = [t0, t1], [0.0, 0.0]
            else:
                xs = [t0] + list(s["start_s"]) + [s["end_s"].iat[-1], t1]
                ys = [0.0] + list(s["occupancy"]) + [0.0, 0.0]
            ax2.step(xs, ys, where="post", color=color, lw=1.6, label=name)
        ax2.set_ylim(bottom=-0.02, top=max(1.05, float(steps["occupancy"].max()) * 1.08))
        ax2.axhline(1.0, color="gray", ls=":", lw=1)
        ax2.set_ylabel("occupancy\n(Σ rate / capacity, dimensionless)")
        ax2.grid(True, alpha=0.3)
        ax2.legend(title="resource", loc="upper left", bbox_to_anchor=(1.005, 1.0), borderaxespad=0,
                   ncol=1 if len(names) <= 8 else 2)
    ax2.set_xlabel("simulated time (s)")
    ax2.set_xlim(t0, t1)
    ax2.set_title("Resource occupancy over time", fontsize=11)
    _save(fig, out_png)
    return steps


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 4:
        sys.exit("usage: figures.py EVENTS_CSV RESOURCES_CSV OUT_PNG   (Gantt chart of one run)")
    gantt(sys.argv[1], sys.argv[2], sys.argv[3])
    print(sys.argv[3])
