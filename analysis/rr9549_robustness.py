#!/usr/bin/env python3
"""RR-9549 §6.2 (robustness to the quality of the input): Figures 10 and 11 from an `iosim sweep` of
deploy/campaigns/rr9549-robustness.json.

usage: analysis/rr9549_robustness.py DIR [--bin WIDTH] [--profiles CSV] [--flat F]

DIR is the sweep's output (runs.csv and runs/*/results.json). An instance (application set) is one Θ and seed; its
x value is I/O-load(π_sys), the io_load of its nsys run (as analysis/rr9549.py). Each of TA+GNC, BBA+GNC and BBA+GC
runs with exact profiles and with group-fit profiles (knowledge.profiles) on the same set. Writes DIR/report/ and
prints the path of rr9549_robustness.md:
    rr9549_fig10_fit.png        the dataset's profiles (points b(n) per shape group: ascent, descent, peak, neutral)
                                and the polynomial iosim fitted over each group (results.json "knowledge_fit" of a
                                group-fit run), dashed, with what policies see: its values at the measured counts,
                                interpolated linearly between them as every profile is; --profiles is the dataset (default: the MN4 FORGE CSV under
                                $IOSIM_DATA_DIR), --flat the neutral threshold (default: the fit's own)
    rr9549_fig11_robustness.png (a) per set, 100·(Mean-I/O-SlowDown with group-fit / with exact − 1) for each
                                combination, mean and 10th-90th percentile per bin of x; (b) Machine-Idletime with
                                group-fit profiles, mean per bin (exact profiles dashed)
    rr9549_robustness.md        the tables behind both figures, the counts per group, and how many sets saw a
                                different allocation (an application's resource count) with group-fit.
The shape of each dataset profile is recomputed here with RR-9549 Fig. 1's rule as iosim applies it
(ios_profile_shape); the script stops with an error if its group counts differ from the ones iosim reports.
Exit 2 on bad input.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, run_files, complete_only, load_runs, md_table, np, pd, plt, write_markdown  # noqa: E402
from rr9549 import ALLOC, LABEL, PLACE, _bin_label, _name, _summary, bin_left  # noqa: E402

KNOW = "knowledge.profiles"
COMBOS = [("tcpu", "gnc"), ("bba", "gnc"), ("bba", "gc")]
SHAPES = ["ascent", "descent", "peak", "neutral"]
FORGE = "bez-forge-evaluation/mn4_189_patterns_mean_bw_by_ionodes.csv"


def combo_label(a, p):
    return f"{LABEL.get(a, a)}+{LABEL.get(p, p)}"


def load(cdir):
    df, swept, _ = load_runs(cdir, "deploy/campaigns/rr9549-robustness.json", ("index", "seed"))
    df = complete_only(df, os.path.join(cdir, "runs.csv"))
    for c in (ALLOC, PLACE, KNOW, "io_load", "mean_io_slowdown", "machine_idle_time"):
        if c not in df.columns:
            raise InputError(f"{cdir}/runs.csv: column {c} missing; fix: run deploy/campaigns/rr9549-robustness.json")
    d = df.copy()
    d[ALLOC] = d[ALLOC].map(_name)
    d[PLACE] = d[PLACE].map(_name)
    inst = [c for c in swept if c not in (ALLOC, PLACE, KNOW)] + ["seed"]
    d["instance"] = d[inst].astype(str).agg("|".join, axis=1)
    ns = d[(d[ALLOC] == "nsys") & (d[KNOW] == "exact")].groupby("instance")["io_load"].first().rename("load_sys")
    if ns.empty:
        raise InputError(f"{cdir}/runs.csv: no complete nsys run with exact profiles: I/O-load(π_sys) is its io_load; "
                         "fix: run deploy/campaigns/rr9549-robustness.json")
    d = d.join(ns, on="instance")
    return d[d["load_sys"].notna()].copy()


def paired(d, width):
    """One row per (instance, combination) with both knowledge runs: exact and group-fit Mean-I/O-SlowDown and
    Machine-Idletime, pct = 100·(group-fit / exact − 1) of the Mean-I/O-SlowDown, and the run ids."""
    rows = []
    for a, p in COMBOS:
        q = d[(d[ALLOC] == a) & (d[PLACE] == p)]
        piv = q.pivot_table(index="instance", columns=KNOW, values=["mean_io_slowdown", "machine_idle_time"],
                            aggfunc="first")
        ids = q.pivot_table(index="instance", columns=KNOW, values="run_id", aggfunc="first")
        if ("mean_io_slowdown", "exact") not in piv.columns or ("mean_io_slowdown", "group-fit") not in piv.columns:
            continue
        t = pd.DataFrame({"msd_exact": piv[("mean_io_slowdown", "exact")],
                          "msd_fit": piv[("mean_io_slowdown", "group-fit")],
                          "idle_exact": piv[("machine_idle_time", "exact")],
                          "idle_fit": piv[("machine_idle_time", "group-fit")],
                          "run_exact": ids["exact"], "run_fit": ids["group-fit"]}).dropna()
        t["combo"] = combo_label(a, p)
        rows.append(t)
    if not rows:
        raise InputError("no set has both an exact and a group-fit run of one combination; fix: run "
                         "deploy/campaigns/rr9549-robustness.json")
    t = pd.concat(rows).reset_index()
    t = t.join(d.groupby("instance")["load_sys"].first(), on="instance")
    t["pct"] = 100.0 * (t["msd_fit"] / t["msd_exact"] - 1.0)
    t["bin"] = bin_left(t["load_sys"], width)
    return t


def allocations(cdir, run_id):
    """{application: n_resources} of one run (runs/RUN/apps.csv)."""
    f = os.path.join(run_files(cdir, run_id), "apps.csv")
    a = pd.read_csv(f)
    return dict(zip(a["name"], a["n_resources"]))


def changed_allocations(cdir, t):
    """Per pair: 1 when some application got another resource count with group-fit than with exact profiles."""
    return [int(allocations(cdir, e) != allocations(cdir, f)) for e, f in zip(t["run_exact"], t["run_fit"])]


def read_fit(cdir, d):
    """The knowledge_fit object of the first group-fit run's results.json (every run fits the same dataset)."""
    for rid in d[d[KNOW] == "group-fit"]["run_id"]:
        f = os.path.join(run_files(cdir, rid), "results.json")
        if os.path.exists(f):
            with open(f) as fh:
                kf = json.load(fh).get("knowledge_fit")
            if kf:
                return kf
    raise InputError(f"{cdir}/runs/*/results.json: no knowledge_fit in a group-fit run; fix: rerun the sweep with "
                     "this iosim")


def read_forge(path):
    """The dataset's profiles: list of [(n, b(n) in bytes/s)], n = 0, 1, 2, 4, 8 (FORGE CSV, MiB/s)."""
    try:
        t = pd.read_csv(path)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}; fix: set IOSIM_DATA_DIR or pass --profiles")
    cols = [c for c in t.columns if c.startswith("bw_")]
    counts = [int("".join(ch for ch in c.split("_")[-1] if ch.isdigit())) for c in cols]
    return [[(n, float(r[c]) * 1048576.0) for n, c in zip(counts, cols)] for _, r in t.iterrows()]


def shape(points, flat):
    """RR-9549 Fig. 1 shape over n >= 1, as iosim's ios_profile_shape: neutral when (max − min)/max < flat; else
    ascent when the best count is the largest, descent when it is the smallest, peak otherwise."""
    pts = [(n, b) for n, b in points if n >= 1]
    ns = [n for n, _ in pts]
    bs = [b for _, b in pts]
    hi, lo = max(bs), min(bs)
    if not hi > 0 or (hi - lo) / hi < flat:
        return "neutral"
    best = ns[bs.index(hi)]
    return "ascent" if best == ns[-1] else "descent" if best == ns[0] else "peak"


def best_counts(profiles):
    """'n: how many' of the profiles whose best count (n >= 1, the smallest on ties) is n, by n."""
    best = {}
    for p in profiles:
        pts = [(n, b) for n, b in p if n >= 1]
        top = max(b for _, b in pts)
        n = min(n for n, b in pts if b == top)
        best[n] = best.get(n, 0) + 1
    return ", ".join(f"{n}: {best[n]}" for n in sorted(best))


def fit_best(group, profiles, flat):
    """The count, among the group's measured counts (n >= 1), where the fitted polynomial is largest."""
    if group["degree"] < 0:
        return ""
    counts = sorted({n for p in profiles if shape(p, flat) == group["shape"] for n, _ in p if n >= 1})
    vals = [poly(group, n) for n in counts]
    return str(counts[int(np.argmax(vals))])


def poly(group, n):
    v = sum(c * n ** k for k, c in enumerate(group["coefficients_Bps"]))
    return np.maximum(v, group["floor_Bps"])


def fig10(profiles, kf, flat, out_png):
    fig, axes = plt.subplots(1, 4, figsize=(15, 3.8))
    groups = {g["shape"]: g for g in kf["groups"]}
    for ax, s in zip(axes, SHAPES):
        mine = [p for p in profiles if shape(p, flat) == s]
        for p in mine:
            pts = [(n, b) for n, b in p if n >= 1]
            ax.plot([n for n, _ in pts], [b / 1e9 for _, b in pts], color="0.6", lw=0.6, alpha=0.6)
        g = groups.get(s)
        if g and g["degree"] >= 0:
            x = np.linspace(1, 8, 100)
            counts = sorted({n for p in mine for n, _ in p if n >= 1})
            ax.plot(x, poly(g, x) / 1e9, color="C3", lw=0.8, ls="--", label=f"degree {g['degree']} polynomial")
            ax.plot(counts, [poly(g, n) / 1e9 for n in counts], color="C3", lw=2, marker="o", ms=3,
                    label="what policies see")
            ax.legend(fontsize=7)
        ax.set_title(f"{s} ({len(mine)} profiles)", fontsize=9)
        ax.set_xlabel("I/O nodes n")
        ax.set_xticks([1, 2, 4, 8])
    axes[0].set_ylabel("b(n), GB/s")
    fig.suptitle("RR-9549 Fig. 10: one polynomial per profile shape, fitted over the whole dataset", fontsize=10)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def fig11(s_pct, s_idle, width, out_png):
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    for (name, g), c in zip(s_pct.groupby("combo", sort=False), ["C0", "C1", "C2"]):
        x = g["bin"] + width / 2
        a.plot(x, g["mean"], marker="o", ms=3, color=c, label=name)
        a.fill_between(x, g["p10"], g["p90"], color=c, alpha=0.15)
    a.axhline(0, color="0.5", lw=0.6)
    a.set_xlabel("I/O-load(π_sys)")
    a.set_ylabel("Mean-I/O-SlowDown, group-fit vs exact (%)")
    a.set_title("(a) mean, 10th-90th percentile", fontsize=9)
    a.legend(fontsize=8)
    for (name, g), c in zip(s_idle.groupby("combo", sort=False), ["C0", "C1", "C2"]):
        x = g["bin"] + width / 2
        b.plot(x, g["idle_fit"], marker="o", ms=3, color=c, label=f"{name} group-fit")
        b.plot(x, g["idle_exact"], ls="--", lw=0.8, color=c, label=f"{name} exact")
    b.set_xlabel("I/O-load(π_sys)")
    b.set_ylabel("Machine-Idletime")
    b.set_title("(b) mean per bin", fontsize=9)
    b.legend(fontsize=7)
    fig.suptitle("RR-9549 Fig. 11: three scheduling solutions with group-fit profiles", fontsize=10)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def report(cdir, width, profiles_csv, flat):
    d = load(cdir)
    t = paired(d, width)
    t["changed"] = changed_allocations(cdir, t)
    kf = read_fit(cdir, d)
    flat = kf["flat"] if flat is None else flat
    profiles = read_forge(profiles_csv)
    counts = {s: sum(shape(p, flat) == s for p in profiles) for s in SHAPES}
    theirs = {g["shape"]: g["profiles"] for g in kf["groups"]}
    if counts != theirs:
        raise InputError(f"{profiles_csv}: shapes per group {counts} differ from iosim's fit {theirs}; fix: pass the "
                         "dataset the campaign drew from (--profiles) and its flat (--flat)")
    out = os.path.join(cdir, "report")
    os.makedirs(out, exist_ok=True)
    fig10(profiles, kf, flat, os.path.join(out, "rr9549_fig10_fit.png"))
    order = {combo_label(a, p): i for i, (a, p) in enumerate(COMBOS)}
    s_pct = _summary(t.groupby(["combo", "bin"])["pct"]).reset_index()
    s_pct = s_pct.sort_values(["combo", "bin"], key=lambda c: c.map(order) if c.name == "combo" else c)
    s_idle = t.groupby(["combo", "bin"]).agg(sets=("pct", "size"), idle_exact=("idle_exact", "mean"),
                                              idle_fit=("idle_fit", "mean"), changed=("changed", "mean"),
                                              msd_exact=("msd_exact", "mean"), msd_fit=("msd_fit", "mean"),
                                              pct_abs_max=("pct", lambda x: x.abs().max())).reset_index()
    s_idle = s_idle.sort_values(["combo", "bin"], key=lambda c: c.map(order) if c.name == "combo" else c)
    fig11(s_pct, s_idle, width, os.path.join(out, "rr9549_fig11_robustness.png"))

    md = ["# RR-9549 §6.2: robustness to group-fit profiles", "",
          f"{len(t)} (set, combination) pairs over {t['instance'].nunique()} sets; x = I/O-load(π_sys).", "",
          "![Fig. 10](rr9549_fig10_fit.png)", "", "*Fig. 10: the dataset's profiles per shape and iosim's fit*", "",
          "![Fig. 11](rr9549_fig11_robustness.png)", "",
          "*Fig. 11: (a) Mean-I/O-SlowDown with group-fit relative to exact profiles; (b) Machine-Idletime*", "",
          "## Fig. 10: the fit", "",
          f"Dataset {profiles_csv}: {len(profiles)} profiles; neutral below a relative spread of {flat:g}.", ""]
    rows = [(g["shape"], g["profiles"], g["degree"],
             ", ".join(f"{c / 1e9:.4g}" for c in g["coefficients_Bps"]),
             ", ".join(f"{poly(g, n) / 1e9:.3f}" for n in (1, 2, 4, 8)) if g["degree"] >= 0 else "",
             best_counts([p for p in profiles if shape(p, flat) == g["shape"]]),
             fit_best(g, profiles, flat))
            for g in kf["groups"]]
    md += [md_table(rows, ["shape", "profiles", "degree", "coefficients of n^0, n^1, ... (GB/s)",
                           "b(1), b(2), b(4), b(8) (GB/s)", "profiles' own best count: profiles",
                           "fit's best count"]), ""]
    md += ["## Fig. 11a: Mean-I/O-SlowDown with group-fit / exact − 1 (%)", "",
           "Per set: mean [10th, 90th percentile], the largest |difference|, and the share of sets where some "
           "application got another resource count.", ""]
    pct = s_pct.set_index(["combo", "bin"])
    rows = [(r.combo, _bin_label(r.bin, width), int(r.sets), f"{pct.loc[(r.combo, r.bin), 'mean']:+.2f}",
             f"[{pct.loc[(r.combo, r.bin), 'p10']:+.2f}, {pct.loc[(r.combo, r.bin), 'p90']:+.2f}]",
             f"{r.pct_abs_max:.2f}", f"{r.changed:.0%}") for r in s_idle.itertuples(index=False)]
    md += [md_table(rows, ["combination", "I/O-load(π_sys)", "sets", "mean %", "p10, p90", "max |%|",
                           "allocation changed"]), ""]
    md += ["## Fig. 11b: means per bin", ""]
    rows = [(r.combo, _bin_label(r.bin, width), f"{r.msd_exact:.4f}", f"{r.msd_fit:.4f}", f"{r.idle_exact:.4f}",
             f"{r.idle_fit:.4f}") for r in s_idle.itertuples(index=False)]
    md += [md_table(rows, ["combination", "I/O-load(π_sys)", "Mean-I/O-SlowDown exact", "group-fit",
                           "Machine-Idletime exact", "group-fit"]), ""]
    best = []
    for b, g in s_idle.groupby("bin"):
        g = g.sort_values("idle_fit")
        best.append((_bin_label(b, width), g.iloc[0]["combo"], f"{g.iloc[0]['idle_fit']:.4f}",
                     ", ".join(f"{r.combo} {r.idle_fit:.4f}" for r in g.iloc[1:].itertuples(index=False))))
    md += ["## Lowest Machine-Idletime with group-fit, per bin", "",
           md_table(best, ["I/O-load(π_sys)", "best", "Machine-Idletime", "others"]), ""]
    overall = t.groupby("combo")["pct"].agg(["mean", lambda x: x.abs().max()])
    md += ["Over all sets: " + "; ".join(f"{c} mean {overall.loc[c, 'mean']:+.3f} %, max |{overall.loc[c].iloc[1]:.2f}| %"
                                         for c in sorted(overall.index, key=order.get)) + ".", ""]
    return write_markdown(out, "rr9549_robustness.md", md)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--bin", type=float, default=0.2, help="width of the I/O-load(π_sys) bins (default 0.2)")
    ap.add_argument("--profiles", default=None, help=f"the dataset (default $IOSIM_DATA_DIR/{FORGE})")
    ap.add_argument("--flat", type=float, default=None, help="neutral threshold (default: the fit's)")
    a = ap.parse_args(argv)
    if not a.bin > 0:
        print(f"rr9549_robustness.py: error: --bin {a.bin}: give a positive width", file=sys.stderr)
        return 2
    csv = a.profiles
    if csv is None:
        data = os.environ.get("IOSIM_DATA_DIR")
        if not data:
            print("rr9549_robustness.py: error: IOSIM_DATA_DIR is not set; fix: export IOSIM_DATA_DIR=../shared/datasets"
                  " or pass --profiles", file=sys.stderr)
            return 2
        csv = os.path.join(data, FORGE)
    try:
        print(report(a.dir, a.bin, csv, a.flat))
    except InputError as e:
        print(f"rr9549_robustness.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
