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
                      occupancy_steps(); defined in gantt.py.

Every plotting function writes a PNG and returns the data it plotted.
"""

import math
import os
import sys
import textwrap


from . import campaign_io  # noqa: E402  (exits 2 naming the Debian package when a module is missing; Agg backend)
from .campaign_io import np, pd, plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

COMPLETE_STATUSES = campaign_io.OK_STATUS
DPI = 120

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
    "utilization": ("Utilization", "dimensionless", 1.0),
    "efficiency": ("Efficiency", "dimensionless", 1.0),
    "io_pressure": ("I/O pressure", "dimensionless", 1.0),
    "io_load": ("I/O-load", "dimensionless", 1.0),
    "mean_io_slowdown": ("Mean-I/O-SlowDown", "dimensionless", 1.0),
    "mean_rho_io": ("mean ρ_io", "dimensionless", 1.0),
    "mean_rho_con": ("mean ρ_con", "dimensionless", 1.0),
    "io_spread": ("I/O-spread", "dimensionless", 1.0),
    "machine_idle_time": ("Machine-Idletime", "dimensionless", 1.0),
    "aggregate_bandwidth_Bps": ("aggregate bandwidth", "GB/s", 1e-9),
    "total_io_time_s": ("total I/O time", "s", 1.0),
    "mean_io_stretch": ("mean I/O stretch", "dimensionless", 1.0),
    "io_stretch": ("I/O stretch", "dimensionless", 1.0),
    "events": ("controller events", "count", 1.0),
    "rate_changes": ("rate changes", "count", 1.0),
    "wall_time_s": ("wall time", "s", 1.0),
    "yield": ("yield", "dimensionless", 1.0),
    "iteration_s": ("iteration length ω", "s", 1.0),
    "io_fraction": ("I/O fraction φ", "dimensionless", 1.0),
}


# Swept scenario keys of the example campaigns (deploy/campaigns/): (label, unit, factor), as for _KNOWN.
_PARAMETERS = {
    "platform.ionodes": ("I/O nodes", "", 1.0),
    "platform.layout": ("storage layout", "", 1.0),
    "platform": ("platform", "", 1.0),
    "sharing.policy": ("sharing policy", "", 1.0),
    "allocation.policy": ("allocation policy", "", 1.0),
    "allocation": ("allocation policy", "", 1.0),
    "allocation.n": ("I/O resources per application", "", 1.0),
    "placement.policy": ("placement policy", "", 1.0),
    "striping.policy": ("striping policy", "", 1.0),
    "striping.layout": ("file layout", "", 1.0),
    "workload.generator.pressure": ("I/O pressure W", "dimensionless", 1.0),
    "workload.generator.io_load": ("target I/O-load Θ", "dimensionless", 1.0),
    "workload.generator.nodes": ("writers (compute nodes)", "", 1.0),
    "workload.generator.resources": ("I/O resources", "", 1.0),
    "workload.generator.machine": ("APEX machine M", "", 1.0),
    "workload.generator.window": ("steady-state window", "", 1.0),
    "workload.generator.workload": ("APEX workload", "", 1.0),
    "storage.allocation.policy": ("storage allocation policy", "", 1.0),
    "storage.allocation.split": ("requests split", "", 1.0),
    "storage.allocation.requeue": ("requests requeued", "", 1.0),
    "storage.platform.capacity": ("storage capacity", "", 1.0),
    "storage.platform.preset": ("storage layout", "", 1.0),
    "seed": ("seed", "", 1.0),
}

# unit suffixes of column names: (suffix, unit shown, factor from the column's unit); decimal GB/s and GB. A
# platform or generator parameter named *_bw (pfs_bw, ionode_bw, nic_bw, ...) is a bandwidth in bytes/s, and one
# named capacity is in bytes (platforms/README.md).
_SUFFIXES = (("_Bps", "GB/s", 1e-9), ("_bytes", "GB", 1e-9), ("_bw", "GB/s", 1e-9), ("capacity", "GB", 1e-9),
             ("_s", "s", 1.0))
# what a parameter named *_bw stands for, when the name alone says
_BW_WORDS = {"pfs": "PFS bandwidth", "ionode": "I/O node bandwidth", "nic": "NIC bandwidth",
             "ost": "OST bandwidth", "server": "server bandwidth", "router": "router bandwidth"}


def _words(name):
    """A column name without its dotted prefix and unit suffix, as words: 'x.sim_bw_mean_Bps' -> 'sim bw mean',
    'platform.pfs_bw' -> 'PFS bandwidth'."""
    leaf = str(name).rsplit(".", 1)[-1]
    if leaf.endswith("_bw"):
        return _BW_WORDS.get(leaf[:-3], leaf[:-3].replace("_", " ") + " bandwidth")
    for suffix, _, _ in _SUFFIXES:
        if leaf.endswith(suffix) and len(leaf) > len(suffix):
            leaf = leaf[:-len(suffix)]
            break
    return leaf.replace("_", " ")


def unit_of(name):
    """(label, unit, factor) for a metric or parameter column: known metrics and scenario keys first, then the
    name's suffix (``_s`` seconds, ``_Bps`` bytes/s shown as decimal GB/s = 1e9 B/s, ``_bytes`` shown as GB =
    1e9 B) with the name turned into words; unit is '' when unknown (or a count)."""
    if name in _KNOWN:
        return _KNOWN[name]
    if name in _PARAMETERS:
        return _PARAMETERS[name]
    leaf = str(name).rsplit(".", 1)[-1]
    if leaf in _KNOWN:
        return _KNOWN[leaf]
    for suffix, unit, factor in _SUFFIXES:
        if str(name).endswith(suffix):
            return _words(name), unit, factor
    return _words(name), "", 1.0


def shown_unit(name, values=None):
    """(label, unit, factor) as unit_of(), except that a column whose values are not numbers (bandwidths given as
    "250MBps", sizes as "32TB") keeps them as written: no unit and factor 1, the values carrying their own."""
    label, unit, factor = unit_of(name)
    if values is not None and not pd.api.types.is_numeric_dtype(values):
        return label, "", 1.0
    return label, unit, factor


def value_with_unit(name, values, v):
    """One value of a column as shown to a person: scaled to the shown unit, which follows ('1 GB/s')."""
    _, unit, factor = shown_unit(name, values)
    shown = _fmt_value(v * factor) if factor != 1.0 else _fmt_value(v)
    return f"{shown} {unit}" if unit and unit not in ("dimensionless", "count") else shown


def axis_label_of(name, values):
    """axis_label() for a column with these values (shown_unit())."""
    label, unit, _ = shown_unit(name, values)
    return f"{label} ({unit})" if unit else label


def label_of(name):
    """The human name of a column without its unit: 'platform.ionodes' -> 'I/O nodes'."""
    return unit_of(name)[0]


def axis_label(name):
    """Axis label with unit, e.g. 'aggregate bandwidth (GB/s)', 'MinYield (dimensionless)', 'I/O nodes'."""
    label, unit, _ = unit_of(name)
    return f"{label} ({unit})" if unit else label


def column_header(name, values=None):
    """A Markdown table header for a column: its human label, its unit unless dimensionless, and the runs.csv
    column it comes from, e.g. 'aggregate bandwidth (GB/s) [aggregate_bandwidth_Bps]', 'MinYield [min_yield]';
    the bare name when it has no other label. With `values`, as shown_unit()."""
    label, unit, _ = shown_unit(name, values)
    text = f"{label} ({unit})" if unit and unit != "dimensionless" else label
    return name if text == name else f"{text} [{name}]"


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


# Per policy (k-th of the sorted values): a colour, a line style and a marker, so series stay distinguishable when
# they coincide (fairshare and fcfs often do) and in greyscale print.
_LINESTYLES = ["-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 1)), (0, (8, 2, 2, 2)),
               (0, (4, 2, 1, 2)), (0, (2, 3))]
_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "h"]
_HATCHES = ["", "//", "\\\\", "xx", "..", "--", "++", "oo", "||", "**"]


def series_style(k):
    """Line style, marker and hatch of the k-th series (k from 0)."""
    return {"ls": _LINESTYLES[k % len(_LINESTYLES)], "marker": _MARKERS[k % len(_MARKERS)],
            "hatch": _HATCHES[k % len(_HATCHES)]}


def _policy_title(policy_col):
    return label_of(policy_col) if policy_col else None


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
    _, _, xfactor = shown_unit(x, df[x])
    numeric_x = pd.api.types.is_numeric_dtype(df[x])
    xs_all = _values_sorted(df[x])
    fig, ax = plt.subplots(figsize=(7.5, 5))
    policies = _policy_values(df, policy_col) if policy_col else ["all runs"]
    colors = _colors(len(policies))
    handles = []
    for k, (color, p) in enumerate(zip(colors, policies)):
        s = summary[summary["policy"] == p]
        if s.empty:
            continue
        st = series_style(k)
        # later policies drawn thinner with smaller markers, each with its own line style and marker: coinciding
        # lines stay distinguishable
        lw, ms = max(1.2, 2.6 - 0.3 * k), max(4.0, 9.0 - 1.2 * k)
        if numeric_x:
            xv = s["x"].astype(float).to_numpy() * xfactor
        else:
            xv = np.array([xs_all.index(v) for v in s["x"]], dtype=float)
        line, = ax.plot(xv, s["mean"] * factor, marker=st["marker"], ms=ms, color=color, lw=lw, ls=st["ls"],
                        markerfacecolor=color if k % 2 == 0 else "white", markeredgewidth=1.3, label=str(p),
                        zorder=3 + k)  # thinner later lines on top of thicker earlier ones
        # the band: light fill plus its edges in the policy's colour and line style, so overlapping bands of
        # different policies do not merge into a colour of neither
        ax.fill_between(xv, s["p10"] * factor, s["p90"] * factor, color=color, alpha=0.10, lw=0)
        for edge in ("p10", "p90"):
            ax.plot(xv, s[edge] * factor, color=color, lw=0.8, ls=st["ls"], alpha=0.7, zorder=2)
        handles.append(line)
    if handles:
        handles.append(Patch(facecolor="gray", alpha=0.25, edgecolor="gray", label="10th–90th percentile"))
    if not numeric_x:
        ax.set_xticks(range(len(xs_all)))
        ax.set_xticklabels([_fmt_value(v) for v in xs_all])
    elif len(xs_all) <= 12:
        ax.set_xticks([float(v) * xfactor for v in xs_all])
        ax.set_xticklabels([_fmt_value(float(v) * xfactor) for v in xs_all])
    ax.set_xlabel(axis_label_of(x, df[x]))
    ax.set_ylabel(axis_label(metric))
    used = int(summary["n"].sum()) if len(summary) else 0
    label, _, _ = unit_of(metric)
    ax.set_title(f"{label} versus {label_of(x)}" + (f", per {label_of(policy_col)}" if policy_col else "")
                 + f"\n{_runs_note(df, used)}")
    ax.grid(True, alpha=0.3)
    if len(summary):
        ax.legend(handles=handles, title=_policy_title(policy_col), loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  borderaxespad=0)
    _save(fig, out_png)
    return summary


# ----------------------------------------------------------------------------------------------------------------
# (b) box plots per policy


def _grouped_boxes(ax, groups, group_labels, policies, colors, factor, hatches=None):
    """Draw boxes: groups is a list (per group) of lists (per policy) of arrays. Returns the legend handles."""
    npol = len(policies)
    hatches = hatches or [series_style(k)["hatch"] for k in range(npol)]
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
                patch.set_hatch(hatches[pi])
            q1, q3 = np.percentile(np.asarray(vals, dtype=float) * factor, [25, 75])
            if math.isclose(q1, q3, rel_tol=1e-9, abs_tol=1e-300):
                # a box of zero height (one run, or equal values) draws as a line: a band of the policy's colour
                # under its median line keeps it visible and tells the policies apart
                half = width * 0.85 / 2
                ax.hlines(q1, pos - half, pos + half, colors=[colors[pi]], lw=7, alpha=0.9, zorder=1.5)
    if flat:
        ax.set_xticks(range(npol))
        ax.set_xticklabels([str(p) for p in policies])
        ax.set_xlim(-0.6, max(1, npol) - 0.4)
    else:
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(group_labels)
        ax.set_xlim(-0.6, len(groups) - 0.4)
    handles = [Patch(facecolor=c, alpha=0.75, edgecolor="black", hatch=h, label=str(p))
               for p, c, h in zip(policies, colors, hatches)]
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
        _, _, byfactor = shown_unit(by, df[by])
        group_labels = [_fmt_value(v * byfactor if byfactor != 1.0 else v) for v in by_values]
    groups = []
    for bv in by_values:
        sel = runs if bv is None else runs[runs[by] == bv]
        psel = pol.loc[sel.index]
        groups.append([sel.loc[psel == p, metric].astype(float).to_numpy() for p in policies])
    width = max(6.5, min(14, 1.2 + len(by_values) * (0.5 + 0.45 * len(policies))))
    fig, ax = plt.subplots(figsize=(width, 5))
    handles = _grouped_boxes(ax, groups, group_labels, policies, colors, factor)
    if by is None:
        ax.set_xlabel(label_of(policy_col) if policy_col else "all complete runs")
    else:
        ax.set_xlabel(axis_label_of(by, df[by]))
    ax.set_ylabel(axis_label(metric))
    label, _, _ = unit_of(metric)
    ax.set_title(f"{label} per {label_of(policy_col) if policy_col else 'run'}"
                 + (f" and {label_of(by)}" if by else "")
                 + f"\n{_runs_note(df, len(runs))}")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(handles=handles, title=_policy_title(policy_col), loc="upper left", bbox_to_anchor=(1.01, 1.0),
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
    hatches = [series_style(all_policies.index(p))["hatch"] for p in policies]
    if x is None:
        x_values, group_labels = [None], [""]
    else:
        x_values = _values_sorted(df[x])
        _, _, xfactor = shown_unit(x, df[x])
        group_labels = [_fmt_value(v * xfactor if xfactor != 1.0 else v) for v in x_values]
    groups = []
    for xv in x_values:
        sel = table if xv is None else table[table[x] == xv]
        groups.append([sel.loc[sel["policy"] == p, "ratio"].astype(float).to_numpy() for p in policies])
    width = max(6.5, min(14, 1.2 + len(x_values) * (0.5 + 0.45 * max(1, len(policies)))))
    fig, ax = plt.subplots(figsize=(width, 5))
    handles = _grouped_boxes(ax, groups, group_labels, policies, colors, 1.0, hatches) if policies else []
    ax.axhline(1.0, color="dimgray", ls="--", lw=1.2)
    handles.append(Line2D([], [], color="dimgray", ls="--", lw=1.2, label=f"{baseline} = 1"))
    if x is None:
        ax.set_xlabel(label_of(policy_col))
    else:
        ax.set_xlabel(axis_label_of(x, df[x]))
    label, _, _ = unit_of(metric)
    ax.set_ylabel(f"{label}: ratio to {baseline} (dimensionless)" if len(label) <= 20
                  else f"ratio to {baseline} (dimensionless)")
    _, dropped = complete_runs(df)
    note = f"{len(table)} instance-policy pairs"
    if dropped:
        note += f"; dropped {dropped} run(s)"
    sub = textwrap.fill(f"per instance (same {', '.join(label_of(c) for c in instance_cols)}); {note}", 80,
                        break_on_hyphens=False)
    ax.set_title(f"{label} relative to {baseline}\n{sub}", fontsize=11)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(handles=handles, title=_policy_title(policy_col), loc="upper left", bbox_to_anchor=(1.01, 1.0),
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
            lw, ms = max(1.0, 2.2 - 0.2 * j), max(3.0, 6.0 - 0.4 * j)
            st = series_style(j)
            ax.plot(s["position"], s["mean"], marker=st["marker"], ms=ms, markevery=max(1, len(s) // 15),
                    color=color, lw=lw, ls=st["ls"], markerfacecolor=color if j % 2 == 0 else "white", label=str(p))
        nruns = runs.groupby("_policy")["run_id"].nunique()
        ntext = (f"{nruns.min()} runs per line" if len(nruns) and nruns.min() == nruns.max()
                 else f"{nruns.min() if len(nruns) else 0}–{nruns.max() if len(nruns) else 0} runs per line")
        ax.set_title((f"{label_of(x)} = {value_with_unit(x, work[x], pv)}\n" if pv is not None else "") + ntext,
                     fontsize=11)
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
        axes[0][ncols - 1].legend(handles, labels, title=_policy_title(policy_col), loc="upper left", bbox_to_anchor=(1.02, 1.0),
                                  borderaxespad=0)
    unit = f" ({sort_unit})" if sort_unit else ""
    fig.suptitle(f"{value_col.capitalize()} of each application, sorted by increasing {sort_label}{unit}, mean per "
                 "position", fontsize=12)
    _save(fig, out_png)
    return table.rename(columns={"_policy": "policy"})


# ----------------------------------------------------------------------------------------------------------------
# (e) Gantt chart of one run: python/iosim/gantt.py (re-exported here, so figures.gantt and `figures.py EVENTS_CSV
# RESOURCES_CSV OUT_PNG` keep working)

from . import gantt as _gantt  # noqa: E402
from .gantt import default_gantt_title, occupancy_steps, read_events, read_resources, read_window  # noqa: E402,F401


def gantt(events_csv, resources_csv, out_png, title=None, window=None):
    """gantt.gantt(), the figure written by this module's _save."""
    return _gantt.gantt(events_csv, resources_csv, out_png, title, window, save=_save)


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 4:
        sys.exit("usage: python3 -m iosim.figures EVENTS_CSV RESOURCES_CSV OUT_PNG   (Gantt chart of one run)")
    gantt(sys.argv[1], sys.argv[2], sys.argv[3])
    print(sys.argv[3])
