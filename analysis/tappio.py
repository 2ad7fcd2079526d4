#!/usr/bin/env python3
"""TAPP-IO §IV comparison for a striping campaign (deploy/campaigns/tappio-striping.json).

usage: analysis/tappio.py DIR [--job NAME] [--baseline POLICY]

For every complete run, the measured job's bandwidth is its bytes over its I/O time (runs/<run_id>/apps.csv, row
NAME, default `ior`). Per (layout, node count, background jobs when the campaign sweeps
workload.generator.background, striping policy): mean and standard deviation over the repetitions
(seeds), and the performance improvement of TAPP-IO Eq. 2, 100·(bw / bw_baseline − 1), of each policy's mean over
the baseline's (default lustre-default). Writes DIR/report/tappio.md and tappio_bandwidth.png, prints the path.
Exit 2 on bad input.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, run_files, cli, md_table, pd, plt, read_runs, write_markdown  # noqa: E402

NODES = "workload.generator.nodes"
LAYOUT = "striping.layout"
POLICY = "striping.policy"
BACKGROUND = "workload.generator.background"

def load(cdir, job):
    """One row per complete run: layout, nodes, policy, seed, bandwidth of `job` (bytes/s)."""
    runs = read_runs(cdir, "deploy/campaigns/tappio-striping.json", (NODES, LAYOUT, POLICY))
    path = os.path.join(cdir, "runs.csv")
    rows = []
    for _, r in runs.iterrows():
        apath = os.path.join(run_files(cdir, r["run_id"]), "apps.csv")
        apps = pd.read_csv(apath)
        a = apps[apps["name"] == job]
        if a.empty:
            raise InputError(f"{apath}: no application named '{job}'; fix: give --job with the measured job's name")
        a = a.iloc[0]
        bw = a["io_volume_bytes"] / a["io_time_s"] if a["io_time_s"] > 0 else float("nan")
        bg = int(r[BACKGROUND]) if BACKGROUND in r.index and r[BACKGROUND] == r[BACKGROUND] else -1
        rows.append({"layout": r[LAYOUT], "nodes": int(r[NODES]), "background": bg, "policy": r[POLICY],
                     "seed": r["seed"], "bw": bw})
    if not rows:
        raise InputError(f"{path}: no complete run")
    return pd.DataFrame(rows)


def summary(df, baseline):
    """Per (layout, nodes, background, policy): runs, mean and std of the bandwidth (GB/s), Eq. 2 improvement over
    `baseline`."""
    g = df.groupby(["layout", "nodes", "background", "policy"])["bw"]
    t = pd.DataFrame({"runs": g.size(), "mean": g.mean() / 1e9, "std": g.std(ddof=1) / 1e9}).reset_index()
    base = t[t["policy"] == baseline].set_index(["layout", "nodes", "background"])["mean"].rename("base")
    t = t.join(base, on=["layout", "nodes", "background"])
    t["improvement_pct"] = 100.0 * (t["mean"] / t["base"] - 1.0)
    return t.drop(columns="base")


def draw(t, out_png):
    layouts = sorted(set(t["layout"]))
    fig, axes = plt.subplots(1, len(layouts), figsize=(5.5 * len(layouts), 4), squeeze=False)
    for ax, lay in zip(axes[0], layouts):
        for pol in sorted(set(t["policy"])):
            for bg in sorted(set(t["background"])):
                q = t[(t["layout"] == lay) & (t["policy"] == pol) & (t["background"] == bg)].sort_values("nodes")
                label = pol if bg < 0 else f"{pol}, {bg} background jobs"
                ax.errorbar(q["nodes"], q["mean"], yerr=q["std"].fillna(0.0), marker="o", capsize=3, label=label,
                            linestyle="-" if bg <= 0 else "--")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("writers (nodes)")
        ax.set_ylabel("measured job's bandwidth (GB/s)")
        ax.set_title(f"{'file per process' if lay == 'fpp' else 'single shared file'}")
        ax.grid(alpha=0.3)
    axes[0][-1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def report(cdir, job, baseline):
    df = load(cdir, job)
    if baseline not in set(df["policy"]):
        raise InputError(f"--baseline {baseline}: not a policy of the campaign ({', '.join(sorted(set(df['policy'])))})")
    t = summary(df, baseline)
    out = os.path.join(cdir, "report")
    os.makedirs(out, exist_ok=True)
    draw(t, os.path.join(out, "tappio_bandwidth.png"))
    md = ["# Striping: the measured job's bandwidth", "", "![bandwidth](tappio_bandwidth.png)", "",
          f"Mean ± standard deviation over the repetitions; improvement = TAPP-IO Eq. 2 over {baseline}.", ""]
    swept = bool((t["background"] >= 0).any())  # a "background jobs" column only when the campaign sweeps it
    md.append(md_table([(r.layout, r.nodes) + ((r.background,) if swept else ()) +
                        (r.policy, r.runs, f"{r.mean:.3f}", f"{r.std:.3f}", f"{r.improvement_pct:+.1f}")
                        for r in t.itertuples(index=False)],
                       ["layout", "writers"] + (["background jobs"] if swept else []) +
                       ["policy", "runs", "bandwidth (GB/s)", "std (GB/s)", "improvement %"]))
    return write_markdown(out, "tappio.md", md)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--job", default="ior")
    ap.add_argument("--baseline", default="lustre-default")
    a = ap.parse_args(argv)
    return cli("tappio.py", lambda: report(a.dir, a.job, a.baseline))

if __name__ == "__main__":
    sys.exit(main())
