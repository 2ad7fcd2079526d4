#!/usr/bin/env python3
"""RR-9502 §6.3 figures (8-13) for a campaign over APEX windows (deploy/campaigns/rr9502-apex.json).

usage: analysis/apex.py DIR [--bin WIDTH]

DIR is the output of `iosim sweep` (runs.csv). An instance is one window: (workload, machine, window, seed); its
x value is the I/O pressure iosim measured on it (metric io_pressure, RR-9502 Eq. 11), the same for every strategy.
Writes DIR/report/apex_*.png and DIR/report/apex.md, prints the Markdown path. Exit 2 on bad input.

Figures (one panel per workload, nersc and trilab):
  apex_fig8_fairshare.png    MinYield of FairShare per window vs I/O pressure, coloured by machine (Fig. 8)
  apex_fig9_10_ratio.png     MinYield / MinYield of FairShare on the same window, one panel per strategy (Fig. 9-10)
  apex_fig11_efficiency.png  Efficiency, mean +- std per pressure bin and strategy (Fig. 11)
  apex_fig12_utilization.png Utilization, idem (Fig. 12)
  apex_fig13_time.png        engine wall time per window (sim_wall_s: simulation + decisions), log scale (Fig. 13)
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import cli, md_table, np, pd, plt, read_runs, write_markdown  # noqa: E402

WORKLOAD = "workload.generator.workload"
MACHINE = "workload.generator.machine"
WINDOW = "workload.generator.window"
POLICY = "sharing.policy"
BASELINE = "fairshare"
STRATEGIES = ["fairshare", "fcfs", "set10", "greedy-yield", "greedy-com", "lookahead-greedy-yield",
              "periodic-greedy-yield", "best-next-event"]
INSTANCE = [WORKLOAD, MACHINE, WINDOW, "seed"]

def load(cdir):
    """The complete runs of DIR/runs.csv with the columns this script needs (numbers as floats)."""
    need = INSTANCE + [POLICY, "min_yield", "efficiency", "utilization", "io_pressure"]
    return read_runs(cdir, "deploy/campaigns/rr9502-apex.json", need)  # sim_wall_s, wall_time_s when present


def with_ratio(df):
    """Adds `ratio` = min_yield / min_yield of the baseline on the same instance (NaN without a baseline run)."""
    base = df[df[POLICY] == BASELINE].set_index(INSTANCE)["min_yield"].rename("base_min_yield")
    out = df.join(base, on=INSTANCE)
    out["ratio"] = out["min_yield"] / out["base_min_yield"]
    return out


def pressure_bin(p, width):
    """Left edge of the bin of width `width` holding pressure p."""
    return np.floor(p / width) * width


def ratio_table(df, width):
    """Per workload, strategy and pressure bin: windows, mean ratio, share of windows below 0.99 and above 1.01."""
    d = with_ratio(df).dropna(subset=["ratio"])
    d = d[d[POLICY] != BASELINE].copy()
    d["bin"] = pressure_bin(d["io_pressure"], width)
    g = d.groupby([WORKLOAD, POLICY, "bin"])["ratio"]
    t = pd.DataFrame({"windows": g.size(), "mean_ratio": g.mean(),
                      "worse": g.apply(lambda r: float((r < 0.99).mean())),
                      "better": g.apply(lambda r: float((r > 1.01).mean()))}).reset_index()
    return t


# The pressure ranges of the summary table (docs/rr9502.md): low, around saturation, high (left edges of the bins).
SUMMARY_RANGES = [("W < 0.6", 0.0, 0.6), ("0.8-1.2", 0.8, 1.2), ("W >= 1.4", 1.4, float("inf"))]
SUMMARY_MIN_WINDOWS = 20  # bins with fewer windows (the last ones) are left out of the summary


def summary_table(t):
    """Per strategy and workload, over the bins of each range of SUMMARY_RANGES: the range of the bins' mean ratios and
    (in parentheses) of their shares of windows more than 1 % worse than FairShare."""
    rows = []
    for s in sorted(set(t[POLICY]), key=lambda x: STRATEGIES.index(x) if x in STRATEGIES else len(STRATEGIES)):
        row = [s]
        for wl in sorted(set(t[WORKLOAD])):
            for _, lo, hi in SUMMARY_RANGES:
                b = t[(t[POLICY] == s) & (t[WORKLOAD] == wl) & (t["bin"] >= lo - 1e-9) & (t["bin"] < hi - 1e-9) &
                      (t["windows"] >= SUMMARY_MIN_WINDOWS)]
                if b.empty:
                    row.append("")
                    continue
                m, w = b["mean_ratio"], b["worse"]
                rng = f"{m.min():.2f}" if round(m.min(), 2) == round(m.max(), 2) else f"{m.min():.2f}-{m.max():.2f}"
                wr = f"{w.min():.0%}" if round(w.min(), 2) == round(w.max(), 2) else f"{w.min():.0%}-{w.max():.0%}"
                row.append(f"{rng} ({wr})")
        rows.append(row)
    head = ["strategy"] + [f"{wl} {name}" for wl in sorted(set(t[WORKLOAD])) for name, _, _ in SUMMARY_RANGES]
    return md_table(rows, head)


def quoted_figures(df):
    """Markdown: the numbers docs/rr9502.md quotes beside the tables, each computed here from the campaign: the
    median I/O pressure per machine, FairShare's MinYield (lowest; highest above W = 1), the mean Efficiency per
    strategy at W >= 1.4, the engine's wall time per window (median, 99th percentile, max) and the runs' mean wall
    time (whole process, as runs.csv's wall_time_s)."""
    md = ["## Figures quoted in docs/rr9502.md", ""]
    fs = df[df[POLICY] == BASELINE]
    rows = [(wl, m, f"{g['io_pressure'].median():.2f}", f"{g['io_pressure'].max():.2f}")
            for (wl, m), g in fs.groupby([WORKLOAD, MACHINE])]
    md += [md_table(rows, ["workload", "machine", "median W", "max W"]), ""]
    rows = [(wl, f"{g['min_yield'].min():.2f}", f"{g[g['io_pressure'] > 1]['min_yield'].max():.2f}")
            for wl, g in fs.groupby(WORKLOAD)]
    md += [md_table(rows, ["workload", "FairShare MinYield, lowest", "highest where W > 1"]), ""]
    hi = df[df["io_pressure"] >= 1.4]
    rows = [(wl, s, f"{g['efficiency'].mean():.2f}", f"{g['utilization'].mean():.2f}")
            for (wl, s), g in hi.groupby([WORKLOAD, POLICY])]
    md += [md_table(rows, ["workload", "strategy", "mean Efficiency, W >= 1.4", "mean Utilization, W >= 1.4"]), ""]
    if "sim_wall_s" in df.columns:
        rows = [(s, f"{g.median() * 1e3:.1f}", f"{g.quantile(0.99) * 1e3:.0f}", f"{g.max():.2f}")
                for s, g in df.groupby(POLICY)["sim_wall_s"]]
        md += [md_table(rows, ["strategy", "sim_wall_s median (ms)", "99th percentile (ms)", "max (s)"]), ""]
    if "wall_time_s" in df.columns:
        md += [f"Runs: {len(df)}, mean wall time per run {df['wall_time_s'].mean() * 1e3:.0f} ms "
               f"(whole process: schedule, simulation, outputs).", ""]
    return md


def binned(df, metric, width):
    """Per workload, strategy and pressure bin: mean and std of `metric` and the window count."""
    d = df.dropna(subset=[metric, "io_pressure"]).copy()
    d["bin"] = pressure_bin(d["io_pressure"], width)
    g = d.groupby([WORKLOAD, POLICY, "bin"])[metric]
    return pd.DataFrame({"n": g.size(), "mean": g.mean(), "std": g.std(ddof=0)}).reset_index()


def _strategies(df):
    present = set(df[POLICY])
    return [s for s in STRATEGIES if s in present] + sorted(present - set(STRATEGIES))


def _workloads(df):
    return sorted(set(df[WORKLOAD]))


def _colors(n):
    cmap = plt.get_cmap("tab10")
    return [cmap(i % 10) for i in range(n)]


def fig_fairshare(df, out_png):
    """Fig. 8: MinYield of FairShare per window vs I/O pressure, one colour per machine."""
    wls = _workloads(df)
    fig, axes = plt.subplots(1, len(wls), figsize=(5.5 * len(wls), 4.2), squeeze=False)
    d = df[df[POLICY] == BASELINE]
    machines = sorted(set(d[MACHINE]))
    colors = _colors(len(machines))
    for ax, wl in zip(axes[0], wls):
        for m, c in zip(machines, colors):
            s = d[(d[WORKLOAD] == wl) & (d[MACHINE] == m)]
            ax.scatter(s["io_pressure"], s["min_yield"], s=10, color=c, label=f"M_{m:g}" if m else "Cielo")
        ax.set_title(f"{wl}: FairShare ({(d[WORKLOAD] == wl).sum()} windows)")
        ax.set_xlabel("I/O pressure W (Eq. 11)")
        ax.set_ylabel("MinYield")
        ax.grid(alpha=0.3)
    axes[0][-1].legend(title="machine", bbox_to_anchor=(1.02, 1), loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def fig_ratio(df, out_png):
    """Fig. 9-10: per strategy, MinYield / MinYield(FairShare) per window vs I/O pressure."""
    d = with_ratio(df).dropna(subset=["ratio"])
    strategies = [s for s in _strategies(d) if s != BASELINE]
    wls = _workloads(d)
    fig, axes = plt.subplots(len(wls), len(strategies), figsize=(2.6 * len(strategies), 2.6 * len(wls)),
                             squeeze=False, sharey=True)
    for i, wl in enumerate(wls):
        for j, s in enumerate(strategies):
            ax = axes[i][j]
            q = d[(d[WORKLOAD] == wl) & (d[POLICY] == s)]
            ax.scatter(q["io_pressure"], q["ratio"], s=5, color="tab:blue")
            ax.axhline(1.0, color="grey", lw=0.8)
            ax.set_title(f"{wl}: {s}", fontsize=8)
            ax.set_xlabel("I/O pressure W", fontsize=7)
            if j == 0:
                ax.set_ylabel("MinYield / FairShare's", fontsize=7)
            ax.tick_params(labelsize=7)
            ax.grid(alpha=0.3)
    fig.suptitle("MinYield relative to FairShare on the same window (RR-9502 Fig. 9-10)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def fig_binned(df, metric, label, out_png, width, log=False):
    """Fig. 11-13: `metric` mean +- std per pressure bin, one line per strategy."""
    t = binned(df, metric, width)
    wls = _workloads(t)
    strategies = _strategies(t)
    colors = _colors(len(strategies))
    fig, axes = plt.subplots(1, len(wls), figsize=(5.5 * len(wls), 4.2), squeeze=False)
    for ax, wl in zip(axes[0], wls):
        for s, c in zip(strategies, colors):
            q = t[(t[WORKLOAD] == wl) & (t[POLICY] == s)].sort_values("bin")
            x = q["bin"] + width / 2
            ax.errorbar(x, q["mean"], yerr=q["std"], color=c, marker="o", ms=3, lw=1, capsize=2, label=s)
        if log:
            ax.set_yscale("log")
        ax.set_title(f"{wl}")
        ax.set_xlabel(f"I/O pressure W (bins of {width:g})")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    axes[0][-1].legend(bbox_to_anchor=(1.02, 1), loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def report(cdir, width):
    df = load(cdir)
    out = os.path.join(cdir, "report")
    os.makedirs(out, exist_ok=True)
    figs = [("apex_fig8_fairshare.png", "MinYield of FairShare per window (Fig. 8)")]
    fig_fairshare(df, os.path.join(out, figs[-1][0]))
    figs.append(("apex_fig9_10_ratio.png", "MinYield relative to FairShare per window (Fig. 9-10)"))
    fig_ratio(df, os.path.join(out, figs[-1][0]))
    for metric, label, name, log in [("efficiency", "Efficiency (Eq. 10)", "apex_fig11_efficiency.png", False),
                                     ("utilization", "Utilization (Eq. 9)", "apex_fig12_utilization.png", False),
                                     ("sim_wall_s", "engine wall time per window (s)", "apex_fig13_time.png", True)]:
        if metric in df.columns and df[metric].notna().any():
            fig_binned(df, metric, label, os.path.join(out, name), width, log)
            figs.append((name, f"{label}, mean ± std per pressure bin"))
    md = ["# RR-9502 §6.3: strategies on APEX windows", "",
          f"{len(df)} complete runs, {df.groupby(INSTANCE).ngroups} windows "
          f"({', '.join(f'{wl}: {(df[df[POLICY] == BASELINE][WORKLOAD] == wl).sum()}' for wl in _workloads(df))} "
          "with a FairShare run). x = the I/O pressure iosim measured on the window (Eq. 11).", ""]
    for name, caption in figs:
        md += [f"![{caption}]({name})", "", f"*{caption}*", ""]
    t = ratio_table(df, width)
    md += ["## MinYield relative to FairShare", "",
           "Per pressure bin: windows, mean of MinYield / FairShare's, share of windows where the strategy is "
           "more than 1% worse / better than FairShare.", ""]
    rows = [(wl, s, f"[{b:g}, {b + width:g})", int(n), f"{m:.3f}", f"{w:.0%}", f"{bt:.0%}")
            for wl, s, b, n, m, w, bt in t[[WORKLOAD, POLICY, "bin", "windows", "mean_ratio", "worse",
                                              "better"]].itertuples(index=False)]
    md.append(md_table(rows, ["workload", "strategy", "W", "windows", "mean ratio", "worse", "better"]))
    md += ["", "## Summary: MinYield relative to FairShare by pressure range", "",
           "Range of the per-bin mean ratios over the bins of each range and, in parentheses, of the bins' shares of "
           "windows more than 1 % worse than FairShare; bins of fewer than 20 windows left out (docs/rr9502.md).", "", summary_table(t), ""]
    md += quoted_figures(df)
    for metric in ["efficiency", "utilization", "sim_wall_s"]:
        if metric not in df.columns:
            continue
        b = binned(df, metric, width)
        md += [f"## {metric}", ""]
        rows = [(wl, s, f"[{x:g}, {x + width:g})", int(n), f"{m:.4g}", f"{sd:.2g}")
                for wl, s, x, n, m, sd in b[[WORKLOAD, POLICY, "bin", "n", "mean", "std"]].itertuples(index=False)]
        md.append(md_table(rows, ["workload", "strategy", "W", "windows", "mean", "std"]))
        md.append("")
    return write_markdown(out, "apex.md", md)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--bin", type=float, default=0.2, help="width of the I/O-pressure bins (default 0.2)")
    a = ap.parse_args(argv)
    if not a.bin > 0:
        print(f"apex.py: error: --bin {a.bin}: give a positive width such as 0.2", file=sys.stderr)
        return 2
    return cli("apex.py", lambda: report(a.dir, a.bin))

if __name__ == "__main__":
    sys.exit(main())
