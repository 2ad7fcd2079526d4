#!/usr/bin/env python3
"""Each job's I/O-node count over time in a job-queue campaign (IPDPS'21 §5.3; deploy/campaigns/ipdps21-queue.json).

usage: analysis/jobqueue.py DIR [--policy COL]

DIR is the output of `iosim sweep` (runs.csv, runs/<run_id>/allocations.csv and apps.csv). For every complete run,
one panel: a row per job (queue order), its allocation intervals as bars coloured by I/O-node count. Writes
DIR/report/queue_allocations.png and DIR/report/queue.md (per policy: makespan, aggregated bandwidth, and per job the
share of its run time spent with each I/O-node count; with static-ceil and mckp runs, each job's bandwidth beside
IPDPS'21 §5.3's live run), prints the Markdown path. Exit 2 on bad input.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, run_files, cli, md_table, pd, plt, read_runs, write_markdown  # noqa: E402


def load(cdir, policy_col):
    """runs.csv's complete runs, each with its allocations (DataFrame) and apps (DataFrame)."""
    path = os.path.join(cdir, "runs.csv")
    runs = read_runs(cdir, "deploy/campaigns/ipdps21-queue.json")
    if policy_col not in runs.columns:
        raise InputError(f"{path}: no column '{policy_col}'; fix: give --policy with a swept column "
                         f"({', '.join(c for c in runs.columns if c.endswith('.policy')) or 'none swept'})")
    out = []
    for _, r in runs.iterrows():
        rdir = run_files(cdir, r["run_id"])
        apath = os.path.join(rdir, "allocations.csv")
        if not os.path.isfile(apath):
            raise InputError(f"{apath}: file not found; fix: rerun the campaign with an iosim that writes "
                             "allocations.csv")
        alloc = pd.read_csv(apath, keep_default_na=False, na_values=[""])
        apps = pd.read_csv(os.path.join(rdir, "apps.csv"), keep_default_na=False, na_values=[""])
        out.append((str(r[policy_col]), r, alloc, apps))
    return out


def time_per_count(alloc):
    """Per application: {n_resources: seconds}, and its total allocated time."""
    alloc = alloc.assign(duration=alloc["end_s"] - alloc["start_s"])
    share = alloc.groupby(["app", "n_resources"])["duration"].sum().unstack(fill_value=0.0)
    return share


def draw(runs, out_png):
    counts = sorted({int(n) for _, _, a, _ in runs for n in a["n_resources"]})
    cmap = plt.get_cmap("viridis", max(len(counts), 2))
    color = {n: cmap(i) for i, n in enumerate(counts)}
    nj = max(len(apps) for _, _, _, apps in runs)
    fig, axes = plt.subplots(len(runs), 1, figsize=(10, 0.28 * nj * len(runs) + 1.2), squeeze=False, sharex=True)
    for ax, (policy, _, alloc, apps) in zip(axes[:, 0], runs):
        order = {name: i for i, name in enumerate(apps["name"])}
        for _, row in alloc.iterrows():
            y = order.get(row["app"], -1)
            w = row["end_s"] - row["start_s"]
            ax.barh(y, w, left=row["start_s"], color=color[int(row["n_resources"])], height=0.8)
            if w > 0:
                ax.text(row["start_s"] + w / 2, y, str(int(row["n_resources"])), ha="center", va="center",
                        fontsize=6, color="white")
        ax.set_yticks(range(len(apps)))
        ax.set_yticklabels(apps["name"], fontsize=6)
        ax.invert_yaxis()
        ax.set_title(f"{policy}: I/O nodes per job over time", fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel("time (s)")
    handles = [plt.Rectangle((0, 0), 1, 1, color=color[n]) for n in counts]
    fig.legend(handles, [str(n) for n in counts], title="I/O nodes", loc="upper right", fontsize=7)
    fig.tight_layout(rect=(0, 0, 0.93, 1))
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


# IPDPS'21 §5.3 (live GekkoFWD run of the same queue): global bandwidth (Eq. 2) under STATIC and MCKP, and the two
# jobs whose bandwidths the text gives (MB/s; HACC: its first job, 1 I/O node under STATIC, 8 then 4 under MCKP;
# POSIX-L: 8 under STATIC, 2 for 90.3 % of the time under MCKP).
PAPER_TOTAL = {"static": 8.41e9, "mckp": 16.02e9}
PAPER_JOB = {"HACC": (987.3e6, 3850.7e6), "POSIX-L": (1963.9e6, 391.7e6)}


def beside_paper(runs):
    """Markdown: iosim's per-job bandwidth (V/I/O time) under STATIC (static-ceil) and MCKP beside the paper's, the
    totals beside 8.41 and 16.02 GB/s, and the totals once HACC's jobs run at the paper's live bandwidths."""
    need = {"name", "n_resources", "io_volume_bytes", "io_time_s"}
    by = {policy: apps.assign(bw=apps["io_volume_bytes"] / apps["io_time_s"])
          for policy, _, _, apps in runs if need <= set(apps.columns)}
    if "static-ceil" not in by or "mckp" not in by:
        return []
    st, mk = by["static-ceil"], by["mckp"]
    rows = []
    for (_, a), (_, b) in zip(st.iterrows(), mk.iterrows()):
        kind = a["name"].rsplit("-", 1)[0]
        paper = PAPER_JOB.get(kind)
        rows.append([a["name"], f"{a['bw'] / 1e6:.0f} ({int(a['n_resources'])})",
                     f"{b['bw'] / 1e6:.0f} ({int(b['n_resources'])})",
                     f"{paper[0] / 1e6:.1f}" if paper else "", f"{paper[1] / 1e6:.1f}" if paper else ""])
    tot = {"static": st["bw"].sum(), "mckp": mk["bw"].sum()}
    rows.append(["**total (Eq. 2)**", f"{tot['static'] / 1e9:.2f} GB/s", f"{tot['mckp'] / 1e9:.2f} GB/s",
                 f"{PAPER_TOTAL['static'] / 1e9:.2f} GB/s", f"{PAPER_TOTAL['mckp'] / 1e9:.2f} GB/s"])
    hacc = st["name"].str.startswith("HACC-")
    live = {"static": tot["static"] + (PAPER_JOB["HACC"][0] - st.loc[hacc, "bw"]).sum(),
            "mckp": tot["mckp"] + (PAPER_JOB["HACC"][1] - mk.loc[hacc, "bw"]).sum()}
    return ["", "## Beside IPDPS'21 §5.3 (live run: STATIC 8.41 GB/s, MCKP 16.02 GB/s, 1.9x)", "",
            md_table(rows, ["job", "iosim STATIC MB/s (last I/O nodes)", "iosim MCKP MB/s (last I/O nodes)",
                            "paper STATIC MB/s", "paper MCKP MB/s"]), "",
            "The paper gives HACC's figures for its first job; they are repeated on the other two.", "",
            f"iosim: MCKP / STATIC = {tot['mckp'] / tot['static']:.2f}x (paper 1.90x). With the {int(hacc.sum())} "
            f"HACC jobs at the paper's live bandwidths (987.3 MB/s on 1 I/O node, 3850.7 MB/s under MCKP): STATIC "
            f"{live['static'] / 1e9:.2f} GB/s, MCKP {live['mckp'] / 1e9:.2f} GB/s, "
            f"{live['mckp'] / live['static']:.2f}x."]


def report(cdir, policy_col):
    runs = load(cdir, policy_col)
    out = os.path.join(cdir, "report")
    os.makedirs(out, exist_ok=True)
    draw(runs, os.path.join(out, "queue_allocations.png"))
    md = ["# Job queue: I/O nodes per job over time", "",
          "![I/O-node count of each job over time](queue_allocations.png)", ""]
    md.append(md_table([(policy, f"{r['makespan_s']:.1f}", f"{r['aggregate_bandwidth_Bps'] / 1e9:.2f}",
                         f"{r['mean_io_slowdown']:.3f}") for policy, r, _, _ in runs],
                       ["policy", "makespan (s)", "aggregated bandwidth (GB/s)", "Mean-I/O-SlowDown"]))
    for policy, _, alloc, apps in runs:
        share = time_per_count(alloc)
        md += ["", f"## {policy}: share of each job's time with each I/O-node count", ""]
        rows = []
        for name in apps["name"]:
            if name not in share.index:
                continue
            row = share.loc[name]
            total = row.sum()
            rows.append([name] + [f"{v / total:.0%}" if total > 0 else "" for v in row])
        md.append(md_table(rows, ["job"] + [f"{int(n)} I/O nodes" for n in share.columns]))
    md += beside_paper(runs)
    return write_markdown(out, "queue.md", md)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--policy", default="allocation.policy", help="the swept column naming each run's policy")
    a = ap.parse_args(argv)
    return cli("jobqueue.py", lambda: report(a.dir, a.policy))

if __name__ == "__main__":
    sys.exit(main())
