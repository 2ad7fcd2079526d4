#!/usr/bin/env python3
"""Per-link, per-application I/O rates of an iosim Paje trace (docs/trace.md), as a PNG.

Reads the trace with pajeng's pj_dump (Debian package pajeng), keeps the link variables that iosim writes, one per
application ("b" + the application's name, in bytes/s), and draws one panel per link: the applications' rates stacked
over time, in GB/s, and the link's bandwidth (SimGrid's `bandwidth` variable) as a dashed line when it is within
four times the highest total. Prints the PNG's path.

usage: paje_plot.py TRACE OUT_PNG [--link NAME]... [--max-links N]
  --link NAME      a link to draw (repeatable; default: every link an application used, by name, at most N)
  --max-links N    at most N panels when --link is not given (default 6)
Exit status: 0, or 2 on bad input (no such trace, pj_dump missing or failing, a link without application traffic).
"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim import campaign_io  # noqa: E402  (exits 2 naming the Debian package when a module is missing; Agg backend)
from iosim.campaign_io import InputError, np, pd, plt  # noqa: E402

# the variables SimGrid's tracer itself gives links and hosts; every other link variable is an application's
SIMGRID_VARIABLES = {"bandwidth", "latency", "bandwidth_used", "speed", "core_count", "speed_used"}


def read_dump(trace):
    """pj_dump's Variable rows of `trace` as a DataFrame: container, type, start, end, value (floats)."""
    if not os.path.isfile(trace):
        raise InputError(f"{trace}: no such trace file (run iosim with --set output.trace=true)")
    if shutil.which("pj_dump") is None:
        raise InputError("pj_dump not found: install the Debian package pajeng (make deps)")
    done = subprocess.run(["pj_dump", trace], capture_output=True, text=True)
    if done.returncode != 0:
        raise InputError(f"{trace}: pj_dump failed: {done.stderr.strip()[:500]}")
    rows = [line.split(", ") for line in done.stdout.splitlines() if line.startswith("Variable, ")]
    df = pd.DataFrame([r[1:3] + r[3:5] + r[6:7] for r in rows if len(r) == 7],
                      columns=["container", "type", "start", "end", "value"])
    for c in ("start", "end", "value"):
        df[c] = df[c].astype(float)
    return df


def app_rates(df):
    """The rows of the applications' link variables, with an `app` column (the type without its leading "b")."""
    apps = df[~df["type"].isin(SIMGRID_VARIABLES) & df["type"].str.startswith("b")].copy()
    apps["app"] = apps["type"].str[1:]
    return apps


def steps(rows, times):
    """The piecewise-constant value of `rows` (start, end, value) on each interval [times[i], times[i+1])."""
    out = np.zeros(len(times))
    for r in rows.itertuples():
        out[(times >= r.start) & (times < r.end)] = r.value
    return out


def draw_link(ax, link, apps, df, colors):
    """One panel: the applications' rates on `link`, stacked, and its bandwidth."""
    mine = apps[apps["container"] == link]
    times = np.unique(np.concatenate([mine["start"].values, mine["end"].values]))
    lower = np.zeros(len(times))
    for app in sorted(mine["app"].unique()):
        upper = lower + steps(mine[mine["app"] == app], times) / 1e9
        ax.fill_between(times, lower, upper, step="post", color=colors[app], linewidth=0, label=app)
        lower = upper
    cap = df[(df["container"] == link) & (df["type"] == "bandwidth")]["value"]
    note = ""
    if len(cap) and cap.iloc[0] / 1e9 <= 4 * max(lower.max(), 1e-12):
        ax.axhline(cap.iloc[0] / 1e9, color="black", linestyle="--", linewidth=1)
    elif len(cap):
        note = f" (bandwidth {cap.iloc[0] / 1e9:.4g} GB/s, off the scale)"
    ax.set_title(f"link {link}{note}", fontsize=9, loc="left")
    ax.set_ylabel("GB/s")
    ax.set_ylim(bottom=0)


def plot(trace, out_png, links=None, max_links=6):
    df = read_dump(trace)
    apps = app_rates(df)
    if apps.empty:
        raise InputError(f"{trace}: no application link variable (b<APP>): was it written by iosim?")
    used = sorted(apps["container"].unique())
    for link in links or []:
        if link not in used:
            raise InputError(f"{trace}: link {link} carries no application traffic; links that do: {', '.join(used)}")
    links = links or used[:max_links]
    names = sorted(apps["app"].unique())
    cmap = plt.get_cmap("tab20" if len(names) > 10 else "tab10")
    colors = {a: cmap(i % cmap.N) for i, a in enumerate(names)}
    fig, axes = plt.subplots(len(links), 1, figsize=(9, 1.9 * len(links) + 1.2), sharex=True, squeeze=False)
    for ax, link in zip(axes[:, 0], links):
        draw_link(ax, link, apps, df, colors)
    axes[-1, 0].set_xlabel("simulated time (s)")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colors[a]) for a in names]
    fig.legend(handles, names, loc="upper center", ncol=min(len(names), 6), fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.045 * ((len(names) + 5) // 6) * 3 / (1.9 * len(links) + 1.2)))
    fig.savefig(out_png, dpi=110)
    plt.close(fig)
    return out_png


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("out_png")
    ap.add_argument("--link", action="append", help="a link to draw (repeatable)")
    ap.add_argument("--max-links", type=int, default=6)
    a = ap.parse_args(argv)
    return campaign_io.cli("paje_plot.py", lambda: plot(a.trace, a.out_png, a.link, a.max_links))


if __name__ == "__main__":
    sys.exit(main())
