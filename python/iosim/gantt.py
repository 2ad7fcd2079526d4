"""The Gantt chart of one iosim run (Python 3, pandas, matplotlib with the Agg backend): its events.csv as
application timelines (work and I/O bars) above the occupancy of each resource over time (sum of its transfer
segments' rates / capacity), with the metrics window of the results.json beside it. figures.py re-exports these
functions; `figures.py EVENTS_CSV RESOURCES_CSV OUT_PNG` draws one chart."""

import json
import math
import os
import sys


from . import campaign_io  # noqa: E402,F401  (exits 2 naming the Debian package when a module is missing; Agg backend)
from .campaign_io import np, pd, plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

DPI = 120


def _save(fig, out_png):
    os.makedirs(os.path.dirname(os.path.abspath(out_png)), exist_ok=True)
    fig.savefig(out_png, dpi=DPI, bbox_inches="tight")
    plt.close(fig)


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


def read_window(results_json):
    """(begin_s, end_s, kind) of the metrics window in a run's results.json (docs/outputs.md), or None when the file
    or its window is absent or unreadable."""
    try:
        with open(results_json, encoding="utf-8") as f:
            w = json.load(f).get("window") or {}
        return float(w["begin_s"]), float(w["end_s"]), str(w.get("kind", "window"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def default_gantt_title(events_csv):
    """'Run <dir>: sharing fairshare, allocation static, placement gc' from the results.json beside events_csv,
    else 'Applications and resource occupancy: <path of events.csv>'."""
    d = os.path.dirname(os.path.abspath(events_csv))
    try:
        with open(os.path.join(d, "results.json"), encoding="utf-8") as f:
            sc = json.load(f).get("scenario") or {}
        parts = []
        for fam in ("allocation", "placement", "sharing"):
            v = sc.get(fam)
            name = v.get("policy") if isinstance(v, dict) else v
            if name:
                parts.append(f"{fam} {name}")
        if parts:
            return f"Run {os.path.basename(d)}: " + ", ".join(parts)
    except (OSError, ValueError, AttributeError):
        pass
    return f"Applications and resource occupancy: {events_csv}"


def gantt(events_csv, resources_csv, out_png, title=None, window=None, save=_save):
    """Two panels sharing the time axis: top, per application, work bars and I/O bars (from posting to
    completion); bottom, occupancy of each resource as a heat map (one row per resource, mean occupancy per time
    bin; one resource: its occupancy as a step line). `window` = (begin_s, end_s, kind) is marked on both panels
    (default: the window of the results.json beside events_csv, when there is one); `save(fig, out_png)` writes the
    figure. events_csv and resources_csv may also be the tables as DataFrames (a run of a campaign database). Returns
    occupancy_steps()."""
    ev = events_csv if isinstance(events_csv, pd.DataFrame) else read_events(events_csv)
    res = resources_csv if isinstance(resources_csv, pd.DataFrame) else read_resources(resources_csv)
    if isinstance(events_csv, pd.DataFrame):  # a run of a campaign database (iosim.results.read_events_db)
        ev = ev.assign(resource=ev["resource"].fillna("").astype(str), app=ev["app"].astype(str),
                       kind=ev["kind"].astype(str))
    steps = occupancy_steps(ev, res)
    if window is None and not isinstance(events_csv, pd.DataFrame):
        window = read_window(os.path.join(os.path.dirname(os.path.abspath(events_csv)), "results.json"))
    apps = list(dict.fromkeys(ev["app"].dropna().astype(str)))
    t0 = float(min(ev["start_s"].min(), 0.0)) if len(ev) else 0.0
    t1 = float(ev["end_s"].max()) if len(ev) else 1.0
    if not t1 > t0:
        t1 = t0 + 1.0
    names = list(res["name"].astype(str))
    heat = len(names) > 1
    top_h = min(9.0, max(2.2, 0.28 * len(apps) + 0.8))
    bot_h = min(6.0, max(1.6, 0.25 * len(names) + 0.9)) if heat else 2.6
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
    legend = [Patch(facecolor=work_color, label="work phase"),
              Patch(facecolor=io_color, label="I/O operation (posting to completion)")]
    if window is not None:
        wb, we, wkind = window
        for ax in (ax1, ax2):
            for edge in (wb, we):
                ax.axvline(edge, color="crimson", ls="--", lw=1.4, zorder=5)
        # outside the window: greyed out on the application panel
        for lo, hi in ((t0, wb), (we, t1)):
            if hi > lo:
                ax1.axvspan(lo, hi, color="gray", alpha=0.25, lw=0, zorder=4)
        legend.append(Line2D([], [], color="crimson", ls="--", lw=1.4,
                             label=f"metrics window ({wkind}): [{wb:.4g}, {we:.4g}] s"))
    ax1.legend(handles=legend, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3, frameon=False, borderaxespad=0.2,
               fontsize=9)
    fig.suptitle(title or default_gantt_title(events_csv), fontsize=12)

    if steps.empty:
        ax2.text(0.5, 0.5, "no transfer segments in events.csv", ha="center", va="center",
                 transform=ax2.transAxes)
        ax2.set_yticks([])
    elif heat:
        edges, grid = _binned_occupancy(steps, names, t0, t1, 400)
        vmax = max(1.0, float(grid.max()))
        mesh = ax2.pcolormesh(edges, np.arange(len(names) + 1) - 0.5, grid, cmap="viridis", vmin=0, vmax=vmax,
                              shading="flat", rasterized=True)
        ax2.set_ylim(len(names) - 0.5, -0.5)
        rstep = max(1, math.ceil(len(names) / 30))
        ax2.set_yticks(range(0, len(names), rstep))
        ax2.set_yticklabels(names[::rstep], fontsize=8)
        ax2.set_ylabel("resource")
        cax = ax2.inset_axes([1.01, 0.0, 0.02, 1.0])  # outside ax2, so both panels keep the same width
        cbar = fig.colorbar(mesh, cax=cax)
        cbar.set_label("occupancy = Σ rate / capacity\n(dimensionless; mean per time bin)", fontsize=9)
        mesh.set_label("occupancy")
    else:
        name = names[0]
        s = steps[steps["resource"] == name]
        xs = [t0] + list(s["start_s"]) + [s["end_s"].iat[-1], t1]
        ys = [0.0] + list(s["occupancy"]) + [0.0, 0.0]
        if len(s) > 400:  # thousands of steps draw as a solid block: the mean per time bin instead
            edges, grid = _binned_occupancy(steps, names, t0, t1, 400)
            xs, ys = list(edges), list(grid[0]) + [grid[0][-1]]
            ax2.set_ylabel(f"{name} occupancy\n(dimensionless;\nmean per time bin)")
        else:
            ax2.set_ylabel(f"{name} occupancy\n(Σ rate / capacity,\ndimensionless)")
        ax2.fill_between(xs, ys, step="post", color="#55A868", alpha=0.35, lw=0)
        ax2.step(xs, ys, where="post", color="#2E7D46", lw=1.2)
        ax2.set_ylim(bottom=0.0, top=max(1.05, float(max(ys)) * 1.08))
        ax2.axhline(1.0, color="gray", ls=":", lw=1)
        ax2.grid(True, alpha=0.3)
    ax2.set_xlabel("simulated time (s)")
    ax2.set_xlim(t0, t1)
    ax2.set_title("Resource occupancy over time", fontsize=11)
    save(fig, out_png)
    return steps
