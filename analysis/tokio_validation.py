#!/usr/bin/env python3
"""Contention validated on TOKIO-ABC (docs/validation.md): a year of daily IOR, HACC-IO, VPIC-IO and BD-CATS runs on
Cori and Edison (Lustre) and Mira (GPFS), each with the traffic its file system served during its run.

    analysis/tokio_validation.py [--out DIR] [--systems cori,edison,mira]

For each file system: the models of tokio_model.py are calibrated on the jobs of the first six months, then predict
the bandwidth of every later job; the contention model's predictions are simulated by iosim (tokio_iosim.py; $IOSIM_BIN
or build/iosim) and checked against its closed form. Writes to DIR (default results/tokio-validation): validation.md
(the tables), scores.csv (per system, per application, per system and application), calibration.csv, jobs.csv (every
held-out job with its three predictions), excluded.csv, scatter.png and error_over_year.png. Reads
$IOSIM_DATA_DIR/tokio-abc (else ../shared/datasets/tokio-abc). Exit 2 with the fix on bad input.
"""

import argparse
import os
import sys
import time

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, cli, md_table, np, pd, plt, write_markdown
import tokio_data
import tokio_iosim
import tokio_model

LABELS = {"peak": "no contention (peak)", "share": "load-proportional share", "contention": "iosim contention"}


def run_fs(train, test, out_dir):
    """Calibrates the three models on `train` (one file system) and predicts `test` with their closed forms:
    (predictions DataFrame on test.index, calibration rows, the prepared iosim run of the contention model or None)."""
    preds, cal = pd.DataFrame(index=test.index), []
    osts = float(test["osts"].iloc[0]) if len(test) else float(train["osts"].iloc[0])
    sim = None
    for m in tokio_model.MODELS:
        c = tokio_model.calibrate(train, m)
        p, level = tokio_model.peaks(train, test, c["q"])
        preds[m] = tokio_model.predict(m, test, p, c["capacity"])
        if m == "contention" and len(test):
            sim = tokio_iosim.prepare(test, p, tokio_model.background(test), osts, c["capacity"],
                                      os.path.join(out_dir, "iosim", str(test["fs"].iloc[0])))
        cal.append({"system": train["system"].iloc[0], "fs": train["fs"].iloc[0], "model": m, "osts": int(osts),
                    "q": c["q"], "capacity_GBps": c["capacity"] / 1e9 if c["capacity"] else float("nan"),
                    "ost_GBps": c["capacity"] / osts / 1e9 if c["capacity"] else float("nan"),
                    "train_jobs": len(train), "train_median_ape": c["train_median_ape"], "test_jobs": len(test),
                    "test_coarser_peak": int((level > 0).sum())})
    return preds, cal, sim


def score_table(held, keys):
    """scores() of every model for each group of `keys` (and for all jobs when keys is empty)."""
    rows = []
    groups = held.groupby(keys if len(keys) > 1 else keys[0]) if keys else [((), held)]
    for g, d in groups:
        g = g if isinstance(g, tuple) else (g,)
        for m in tokio_model.MODELS:
            rows.append({**dict(zip(keys, g)), "model": m, **tokio_model.scores(d[m], d["bw"])})
    return pd.DataFrame(rows)


def md_scores(t, keys):
    """A Markdown table of score_table() rows."""
    header = [*keys, "model", "jobs", "median APE", "mean APE", "I/O time median APE", "Pearson", "Spearman",
              "within 10 %", "within 25 %", "within 50 %"]
    corr = lambda v: "n/a" if v != v else f"{v:.3f}"  # noqa: E731  (NaN: the predictions are one constant)
    rows = [[*[r[k] for k in keys], LABELS[r["model"]], r["jobs"], f"{100 * r['median_ape']:.1f} %",
             f"{100 * r['mean_ape']:.1f} %", f"{100 * r['time_median_ape']:.1f} %", corr(r["pearson"]),
             corr(r["spearman"]), f"{100 * r['within_10']:.0f} %", f"{100 * r['within_25']:.0f} %",
             f"{100 * r['within_50']:.0f} %"] for _, r in t.iterrows()]
    return md_table(rows, header)


FACTORS = [
    ("the servers saw less than the job moved (volume > server bytes)", lambda d: d["volume"] > d["fs_bytes"]),
    ("rank imbalance (slowest record > 2 x the mean)", lambda d: d["imbalance"] > 2),
    ("metadata time > 10 % of the I/O time", lambda d: d["meta_frac"] > 0.1),
    ("file system over 80 % full", lambda d: d["full_pct"] >= 80),
    ("OSTs on their failover server", lambda d: d["failover_osts"] > 0),
    ("background rate in the top 10 % of its file system", lambda d: d["background"] >= d.groupby("fs")[
        "background"].transform(lambda x: x.quantile(0.9))),
]


def factor_rows(held):
    """For each factor: the contention model's median APE and bias on the held-out jobs with and without it."""
    rows = []
    for name, test in FACTORS:
        mask = test(held).fillna(False).astype(bool)
        cells = [name]
        for part in (held[mask], held[~mask]):
            e = tokio_model.ape(part["contention"], part["bw"])
            bias = (part["contention"] / part["bw"] - 1).median()
            cells += [len(part), f"{100 * e.median():.1f} %" if len(part) else "",
                      f"{100 * bias:+.1f} %" if len(part) else ""]
        rows.append(cells)
    return rows


def figures(held, allj, out_dir):
    """scatter.png (predicted vs measured, per system) and error_over_year.png (monthly median APE per model)."""
    systems = list(dict.fromkeys(held["system"]))
    fig, axes = plt.subplots(1, len(systems), figsize=(5 * len(systems), 4.6), squeeze=False)
    for ax, s in zip(axes[0], systems):
        d = held[held["system"] == s]
        for m, color, size in (("peak", "#bbbbbb", 4), ("contention", "#1f77b4", 5)):
            ax.scatter(d["bw"] / 1e9, d[m] / 1e9, s=size, alpha=0.5, color=color, label=LABELS[m], linewidths=0)
        lo, hi = (d[["bw", "peak", "contention"]].min().min() / 1e9 * 0.8,
                  d[["bw", "peak", "contention"]].max().max() / 1e9 * 1.25)
        ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
        ax.fill_between([lo, hi], [lo * 0.75, hi * 0.75], [lo * 1.25, hi * 1.25], color="k", alpha=0.07, lw=0)
        ax.set(xscale="log", yscale="log", xlim=(lo, hi), ylim=(lo, hi), xlabel="measured bandwidth (GB/s)",
               ylabel="predicted bandwidth (GB/s)", title=f"{s}: {len(d)} held-out jobs")
        ax.legend(loc="upper left", fontsize=8, markerscale=3)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "scatter.png"), dpi=110)
    plt.close(fig)
    fig, axes = plt.subplots(1, len(systems), figsize=(5 * len(systems), 3.8), squeeze=False, sharey=True)
    for ax, s in zip(axes[0], systems):
        d = allj[allj["system"] == s]
        for m in tokio_model.MODELS:
            monthly = (d[m] - d["bw"]).abs().div(d["bw"]).groupby(d["month"]).median()
            ax.plot(pd.to_datetime(monthly.index), 100 * monthly.values, marker="o", ms=3, label=LABELS[m])
        ax.axvline(pd.Timestamp(tokio_model.SPLIT), color="k", lw=0.8, ls="--")
        ax.set(title=f"{s} (calibration | held out)", ylabel="median APE of the bandwidth (%)")
        ax.tick_params(axis="x", labelrotation=45)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "error_over_year.png"), dpi=110)
    plt.close(fig)


def run(args):
    t0 = time.time()
    systems = [s for s in args.systems.split(",") if s]
    bad = [s for s in systems if s not in tokio_data.FILES]
    if bad or not systems:
        raise InputError(f"--systems {args.systems}: unknown system(s) {', '.join(bad)}; fix: give some of "
                         f"{', '.join(tokio_data.FILES)}")
    os.makedirs(args.out, exist_ok=True)
    jobs, excluded = tokio_data.jobs(systems)
    held_parts, all_parts, cal, sims = [], [], [], []
    for (s, f), d in jobs.groupby(["system", "fs"], sort=False):
        train, test = tokio_model.split(d)
        if len(train) == 0:
            raise InputError(f"{s} {f}: no job before {tokio_model.SPLIT} to calibrate on; fix: check the data")
        preds, c, sim = run_fs(train, test, args.out)
        sims += [sim] if sim is not None else []
        held_parts.append(test.join(preds))
        cal += c
        # the error over the whole year uses the closed forms with the held-out calibration (training months too)
        yr = d.copy()
        for m in tokio_model.MODELS:
            row = next(r for r in c if r["model"] == m)
            p, _ = tokio_model.peaks(train, yr, row["q"])
            yr[m] = tokio_model.predict(m, yr, p, row["capacity_GBps"] * 1e9 if m == "contention" else None)
        all_parts.append(yr)
    held, allj = pd.concat(held_parts), pd.concat(all_parts)
    # the contention model's held-out predictions: iosim's, checked against the closed form
    tokio_iosim.run_all(sims)
    simulated = pd.concat([tokio_iosim.collect(r) for r in sims])
    gap = float(((simulated - held.loc[simulated.index, "contention"]).abs() / simulated).max())
    if not gap < 1e-6:
        raise InputError(f"iosim and the closed form of the contention model differ by {gap:.3g} (relative): the "
                         "model of tokio_model.py is not what the engine simulates; fix the model or the engine")
    held.loc[simulated.index, "contention"] = simulated
    held["background"] = tokio_model.background(held)
    binds = held[held["contention"] < held["peak"] * (1 - 1e-9)]  # iosim slows the job down
    heavy = held[held["background"] >= held.groupby("fs")["background"].transform(lambda x: x.quantile(0.9))]
    per_system = score_table(held, ["system"])
    per_app = score_table(held, ["app"])
    per_both = score_table(held, ["system", "app"])
    pd.concat([per_system.assign(group="system"), per_app.assign(group="application"),
               per_both.assign(group="system+application")]).to_csv(os.path.join(args.out, "scores.csv"), index=False)
    calib = pd.DataFrame(cal)
    calib.to_csv(os.path.join(args.out, "calibration.csv"), index=False)
    held.to_csv(os.path.join(args.out, "jobs.csv"), index=False)
    excluded.to_csv(os.path.join(args.out, "excluded.csv"), index=False)
    figures(held, allj, args.out)
    cal_rows = [[r["system"], r["fs"], r["osts"], LABELS[r["model"]], r["q"],
                 "" if r["capacity_GBps"] != r["capacity_GBps"] else f"{r['capacity_GBps']:.1f}",
                 "" if r["ost_GBps"] != r["ost_GBps"] else f"{r['ost_GBps']:.3f}", r["train_jobs"],
                 f"{100 * r['train_median_ape']:.1f} %", r["test_jobs"], r["test_coarser_peak"]]
                for r in cal]
    lines = [
        "# TOKIO-ABC: held-out scores (analysis/tokio_validation.py)", "",
        f"Calibration on jobs starting before {tokio_model.SPLIT} (UTC), scores on the jobs from then on. "
        f"{len(jobs)} jobs kept, {int(excluded['jobs'].sum())} left out (excluded.csv). iosim vs the closed form of "
        f"the contention model, largest relative gap: {gap:.2e}. Wall time {time.time() - t0:.0f} s.",
        "", "## Per system", "", md_scores(per_system, ["system"]), "",
        "## Per application (all systems)", "", md_scores(per_app, ["app"]), "",
        "## Per system and application", "", md_scores(per_both, ["system", "app"]), "",
        "## Where the contention model acts", "",
        f"Held-out jobs whose simulated bandwidth is below their peak (the background binds): {len(binds)}.", "",
        md_scores(score_table(binds, ["system"]), ["system"]) if len(binds) else "(none)", "",
        "Held-out jobs under the heaviest background (the top 10 % of the background rate of their file system):", "",
        md_scores(score_table(heavy, ["system"]), ["system"]), "",
        "## What the models do not see", "",
        "The iosim contention model on held-out jobs with and without each factor (its median APE; bias = median of "
        "predicted / measured - 1):", "",
        md_table(factor_rows(held), ["factor", "jobs with", "median APE with", "bias with", "jobs without",
                                     "median APE without", "bias without"]), "",
        "## Calibration (training jobs only)", "",
        md_table(cal_rows, ["system", "file system", "OSTs", "model", "q", "C (GB/s)", "per OST (GB/s)",
                            "training jobs", "training median APE", "held-out jobs",
                            "held-out jobs with a coarser peak"]), "",
        "## Left out", "", md_table(excluded.values.tolist(), ["system", "reason", "jobs"]),
    ]
    return write_markdown(args.out, "validation.md", lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="results/tokio-validation", help="output directory")
    ap.add_argument("--systems", default="cori,edison,mira", help="comma-separated systems")
    args = ap.parse_args(argv)
    return cli("tokio_validation.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
