#!/usr/bin/env python3
"""RR-9549 §6.1 figures (5-9) and IPDPS'21 §3.2 figures (2-3) for campaigns run with `iosim sweep`.

usage: analysis/rr9549.py DIR [--kind auto|rr9549|ipdps21] [--bin WIDTH] [--at CENTRE] [--half HALF]

DIR is the output of `iosim sweep` (runs.csv). The kind is guessed from the swept columns (auto):

rr9549 (deploy/campaigns/rr9549-allocation-placement.json): columns allocation.policy and placement.policy. An
  instance (application set) is one value of every other swept column and the seed. Its x value is I/O-load(π_sys)
  (RR-9549 §5.3): the io_load metric (Eq. 3) of the instance's `nsys` run; instances without one are left out.
  Sets are binned by x in bins [k·WIDTH, (k+1)·WIDTH) (--bin, default 0.2). Writes DIR/report/rr9549.md and
    rr9549_fig5_placement.png  Mean-I/O-SlowDown of GNC and RandP relative to GC on the same set and allocation,
                               (ratio − 1) in %, mean and 10th-90th percentile per bin, one line per allocation
    rr9549_fig6_spread.png     I/O-spread per allocation and placement for the sets with |x − AT| <= HALF
                               (--at 0.5 --half 0.05, the paper's 0.5 ± 0.05)
    rr9549_fig7_spread_bba.png I/O-spread per placement with BBA, mean and 95% confidence interval per bin
    rr9549_fig8_slowdown.png   Mean-I/O-SlowDown, ρ_io and ρ_con per allocation with GNC (and mckp), mean and
                               10th-90th percentile per bin
    rr9549_fig9_idle.png       Machine-Idletime per allocation with GNC, idem
ipdps21 (deploy/campaigns/ipdps21-arbitration.json): columns platform.ionodes (F) and allocation (a policy object,
  e.g. {"policy": "static-ceil", "points": 1}) or allocation.policy. An instance is (F, seed and any other swept
  column). Writes DIR/report/ipdps21.md and
    ipdps21_fig2_bandwidth.png median aggregated bandwidth (Eq. 2) per policy vs F
    ipdps21_fig3_mckp_static.png  MCKP / STATIC aggregated bandwidth on the same instance: min, median, max vs F
Prints the Markdown path. Exit 2 on bad input (no runs.csv, missing columns, no complete run).
"""

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import (InputError, complete_only, load_runs, md_table, np, pd, plt,  # noqa: E402
                         write_markdown)

ALLOC = "allocation.policy"
PLACE = "placement.policy"
IONODES = "platform.ionodes"
ALLOCATIONS = ["random", "static", "bba", "nsys", "tcpu", "mckp"]  # RR-9549 order, then MCKP
PLACEMENTS = ["gc", "gnc", "random"]
ALIASES = {"best-bandwidth": "bba", "nsysa": "nsys", "ta": "tcpu", "randp": "random",
           "greedy-non-clairvoyant": "gnc", "greedy-clairvoyant": "gc"}
LABEL = {"random": "Random", "static": "Static", "bba": "BBA", "nsys": "NSYSA", "tcpu": "TA", "mckp": "MCKP",
         "gc": "GC", "gnc": "GNC"}
PLACE_LABEL = {"gc": "GC", "gnc": "GNC", "random": "RandP"}
IPDPS_ORDER = ["zero", "one", "static-ceil", "static-ceil+points", "size", "size+points", "process", "mckp",
               "oracle"]



# ----------------------------------------------------------------------------------------------------------------
# inputs


def load(cdir):
    """(complete runs of DIR/runs.csv, swept columns): campaign_io.load_runs(). Metric columns are floats."""
    df, swept, _ = load_runs(cdir, "deploy/campaigns/rr9549-allocation-placement.json (or ipdps21-arbitration.json)",
                             ("index", "seed"))
    return complete_only(df, os.path.join(cdir, "runs.csv")), swept


def guess_kind(swept):
    if ALLOC in swept and PLACE in swept:
        return "rr9549"
    if IONODES in swept and ("allocation" in swept or ALLOC in swept):
        return "ipdps21"
    return None


def _need(df, cols, path_hint):
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise InputError(f"runs.csv: column(s) {', '.join(missing)} missing; fix: {path_hint}")


def _name(v):
    v = str(v)
    return ALIASES.get(v, v)


def bin_left(x, width):
    """Left edge k·width of the bin [k·width, (k+1)·width) holding x (a tolerance keeps 0.3/0.1 in bin 3)."""
    return np.round(np.floor(np.asarray(x, dtype=float) / width + 1e-9) * width, 10)


def _summary(g):
    """n, mean, 10th and 90th percentiles (linear interpolation), 95% confidence half-width of the mean."""
    n = g.size()
    sd = g.std(ddof=1)
    return pd.DataFrame({"n": n, "mean": g.mean(), "p10": g.quantile(0.1), "p90": g.quantile(0.9),
                         "ci95": 1.96 * sd / np.sqrt(n)})


# ----------------------------------------------------------------------------------------------------------------
# RR-9549


def rr_prepare(df, swept):
    """Normalised policy names, `instance` id and `load_sys` = io_load of the instance's nsys run (Eq. 3 at π_sys).
    Instances without an nsys run are dropped."""
    _need(df, [ALLOC, PLACE, "io_load", "mean_io_slowdown"],
          "sweep allocation.policy (with nsys) and placement.policy (rr9549-allocation-placement.json)")
    d = df.copy()
    d[ALLOC] = d[ALLOC].map(_name)
    d[PLACE] = d[PLACE].map(_name)
    inst = [c for c in swept if c not in (ALLOC, PLACE)] + ["seed"]
    d["instance"] = d[inst].astype(str).agg("|".join, axis=1)
    ns = d[d[ALLOC] == "nsys"].groupby("instance")["io_load"].first().rename("load_sys")
    if ns.empty:
        raise InputError("runs.csv: no complete nsys run: I/O-load(π_sys), the x axis of RR-9549 §6, is the io_load "
                         "of the nsys allocation; fix: add nsys to allocation.policy")
    d = d.join(ns, on="instance")
    return d[d["load_sys"].notna()].copy()


def placement_ratio(d, width):
    """Per set and allocation: pct = 100·(Mean-I/O-SlowDown with P / with GC − 1) for P in gnc, random (Fig. 5).
    Returns (per-run table, summary per placement, allocation and bin)."""
    gc = d[d[PLACE] == "gc"].set_index(["instance", ALLOC])["mean_io_slowdown"].rename("gc_msd")
    r = d[d[PLACE].isin(["gnc", "random"])].join(gc, on=["instance", ALLOC]).dropna(subset=["gc_msd"])
    r = r.assign(pct=100.0 * (r["mean_io_slowdown"] / r["gc_msd"] - 1.0), bin=bin_left(r["load_sys"], width))
    s = _summary(r.groupby([PLACE, ALLOC, "bin"])["pct"]).reset_index()
    return r, s


def metric_by_bin(d, metric, width, placement="gnc"):
    """Per allocation and bin: n, mean, p10, p90, ci95 of `metric` over the runs with `placement`."""
    q = d[(d[PLACE] == placement) & d[metric].notna()]
    q = q.assign(bin=bin_left(q["load_sys"], width))
    return _summary(q.groupby([ALLOC, "bin"])[metric]).reset_index()


def spread_by_placement(d, width, allocation="bba"):
    """Fig. 7: I/O-spread per placement and bin with one allocation."""
    q = d[(d[ALLOC] == allocation) & d["io_spread"].notna()]
    q = q.assign(bin=bin_left(q["load_sys"], width))
    return _summary(q.groupby([PLACE, "bin"])["io_spread"]).reset_index()


def spread_at(d, centre, half):
    """Fig. 6: I/O-spread per allocation and placement over the sets with |load_sys − centre| <= half."""
    q = d[((d["load_sys"] - centre).abs() <= half + 1e-12) & d["io_spread"].notna()]
    g = q.groupby([ALLOC, PLACE])["io_spread"]
    return pd.DataFrame({"n": g.size(), "mean": g.mean(), "median": g.median()}).reset_index(), q


def findings(d, width):
    """Per bin (GNC): sets, the allocation with the lowest mean Mean-I/O-SlowDown, BBA's and MCKP's means and ranks,
    and TA / BBA Machine-Idletime (ratio of the means, and share of sets where TA is lower)."""
    rows = []
    q = d[d[PLACE] == "gnc"]
    q = q.assign(bin=bin_left(q["load_sys"], width))
    for b, g in q.groupby("bin"):
        m = g.groupby(ALLOC)["mean_io_slowdown"].mean().sort_values()
        idle = g.pivot_table(index="instance", columns=ALLOC, values="machine_idle_time")
        row = {"bin": b, "sets": g["instance"].nunique(), "best": m.index[0], "best_msd": m.iloc[0]}
        for a in ("bba", "tcpu", "mckp"):
            row[f"{a}_msd"] = m.get(a, np.nan)
            row[f"{a}_rank"] = int(list(m.index).index(a)) + 1 if a in m.index else np.nan
        row["nalloc"] = len(m)
        if {"bba", "tcpu"} <= set(idle.columns):
            both = idle[["bba", "tcpu"]].dropna()
            row["idle_bba"] = both["bba"].mean()
            row["idle_tcpu"] = both["tcpu"].mean()
            row["idle_ratio"] = both["tcpu"].mean() / both["bba"].mean()
            row["tcpu_lower"] = float((both["tcpu"] < both["bba"]).mean())
        rows.append(row)
    return pd.DataFrame(rows)


def _order(values, order):
    present = list(dict.fromkeys(values))
    return [v for v in order if v in present] + sorted(v for v in present if v not in order)


def _sorted(t, keys):
    """t sorted by (column, preferred order) pairs, unknown values last, then by bin when present."""
    rank = {}
    for col, order in keys:
        vals = _order(t[col], order)
        rank[col] = t[col].map({v: i for i, v in enumerate(vals)})
    by = [rank[col] for col, _ in keys] + ([t["bin"]] if "bin" in t.columns else [])
    idx = sorted(range(len(t)), key=lambda i: tuple(float(s.iloc[i]) for s in by))
    return t.iloc[idx]


def _colors(n):
    cmap = plt.get_cmap("tab10")
    return [cmap(i % 10) for i in range(n)]


def _band_lines(ax, t, key, keys, labels, width, mid="mean", lo="p10", hi="p90"):
    for k, c in zip(keys, _colors(len(keys))):
        s = t[t[key] == k].sort_values("bin")
        if s.empty:
            continue
        x = s["bin"] + width / 2
        ax.plot(x, s[mid], marker="o", ms=3, color=c, label=labels.get(k, k))
        if lo == "ci95":
            ax.fill_between(x, s[mid] - s["ci95"], s[mid] + s["ci95"], color=c, alpha=0.15)
        else:
            ax.fill_between(x, s[lo], s[hi], color=c, alpha=0.15)


def fig5(s, width, out_png):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=False)
    allocs = _order(s[ALLOC], ALLOCATIONS)
    for ax, p, title in [(axes[0], "gnc", "(a) GNC vs GC"), (axes[1], "random", "(b) RandP vs GC")]:
        _band_lines(ax, s[s[PLACE] == p], ALLOC, allocs, LABEL, width)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_title(title)
        ax.set_xlabel(f"I/O-load(π_sys) (bins of {width:g})")
        ax.set_ylabel("Mean-I/O-SlowDown vs GC (%)")
        ax.grid(alpha=0.3)
    axes[1].legend(fontsize=8)
    fig.suptitle("RR-9549 Fig. 5: placement relative to GC (mean, 10th-90th percentile)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def fig6(q, centre, half, out_png):
    allocs = _order(q[ALLOC], ALLOCATIONS)
    places = _order(q[PLACE], PLACEMENTS)
    fig, ax = plt.subplots(figsize=(9, 4.2))
    colors = _colors(len(places))
    w = 0.8 / max(len(places), 1)
    for j, (p, c) in enumerate(zip(places, colors)):
        data, pos = [], []
        for i, a in enumerate(allocs):
            v = q[(q[ALLOC] == a) & (q[PLACE] == p)]["io_spread"].dropna()
            if len(v):
                data.append(v.values)
                pos.append(i + (j - (len(places) - 1) / 2) * w)
        if data:
            bp = ax.boxplot(data, positions=pos, widths=w * 0.9, patch_artist=True, showfliers=False)
            for patch in bp["boxes"]:
                patch.set_facecolor(c)
                patch.set_alpha(0.6)
        ax.plot([], [], color=c, lw=6, alpha=0.6, label=PLACE_LABEL.get(p, p))
    ax.set_xticks(range(len(allocs)))
    ax.set_xticklabels([LABEL.get(a, a) for a in allocs])
    ax.set_ylabel("I/O-spread (Eq. 6)")
    ax.set_title(f"RR-9549 Fig. 6: I/O-spread at I/O-load(π_sys) = {centre:g} ± {half:g} "
                 f"({q['instance'].nunique()} sets)", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def fig7(t, width, out_png):
    fig, ax = plt.subplots(figsize=(6, 4.2))
    _band_lines(ax, t, PLACE, _order(t[PLACE], PLACEMENTS), PLACE_LABEL, width, lo="ci95")
    ax.set_xlabel(f"I/O-load(π_sys) (bins of {width:g})")
    ax.set_ylabel("I/O-spread (Eq. 6)")
    ax.set_title("RR-9549 Fig. 7: I/O-spread with BBA (mean, 95% CI)", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def fig_alloc(tables, titles, width, suptitle, out_png):
    fig, axes = plt.subplots(1, len(tables), figsize=(5 * len(tables), 4.2), squeeze=False)
    for ax, t, title in zip(axes[0], tables, titles):
        _band_lines(ax, t, ALLOC, _order(t[ALLOC], ALLOCATIONS), LABEL, width)
        ax.set_xlabel(f"I/O-load(π_sys) (bins of {width:g})")
        ax.set_ylabel(title)
        ax.grid(alpha=0.3)
    axes[0][-1].legend(fontsize=8)
    fig.suptitle(suptitle, fontsize=10)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def _bin_label(b, width):
    return f"[{b:g}, {b + width:g})"


def rr_report(df, swept, cdir, width, centre, half):
    d = rr_prepare(df, swept)
    out = os.path.join(cdir, "report")
    os.makedirs(out, exist_ok=True)
    figs = []
    _, s5 = placement_ratio(d, width)
    if not s5.empty:
        fig5(s5, width, os.path.join(out, "rr9549_fig5_placement.png"))
        figs.append(("rr9549_fig5_placement.png", "Fig. 5: Mean-I/O-SlowDown of GNC and RandP relative to GC"))
    t6, q6 = spread_at(d, centre, half)
    if not q6.empty:
        fig6(q6, centre, half, os.path.join(out, "rr9549_fig6_spread.png"))
        figs.append(("rr9549_fig6_spread.png", f"Fig. 6: I/O-spread at I/O-load(π_sys) = {centre:g} ± {half:g}"))
    t7 = spread_by_placement(d, width)
    if not t7.empty:
        fig7(t7, width, os.path.join(out, "rr9549_fig7_spread_bba.png"))
        figs.append(("rr9549_fig7_spread_bba.png", "Fig. 7: I/O-spread per placement with BBA"))
    t8 = {m: metric_by_bin(d, m, width) for m in ("mean_io_slowdown", "mean_rho_io", "mean_rho_con")
          if m in d.columns}
    if t8 and not t8["mean_io_slowdown"].empty:
        fig_alloc(list(t8.values()), [{"mean_io_slowdown": "Mean-I/O-SlowDown", "mean_rho_io": "ρ_io (allocation)",
                                       "mean_rho_con": "ρ_con (congestion)"}[m] for m in t8], width,
                  "RR-9549 Fig. 8: allocations with GNC (mean, 10th-90th percentile)",
                  os.path.join(out, "rr9549_fig8_slowdown.png"))
        figs.append(("rr9549_fig8_slowdown.png", "Fig. 8: Mean-I/O-SlowDown, ρ_io and ρ_con per allocation (GNC)"))
    t9 = metric_by_bin(d, "machine_idle_time", width) if "machine_idle_time" in d.columns else pd.DataFrame()
    if not t9.empty:
        fig_alloc([t9], ["Machine-Idletime"], width, "RR-9549 Fig. 9: Machine-Idletime per allocation (GNC)",
                  os.path.join(out, "rr9549_fig9_idle.png"))
        figs.append(("rr9549_fig9_idle.png", "Fig. 9: Machine-Idletime per allocation (GNC)"))

    nsets = d["instance"].nunique()
    per_bin = d.drop_duplicates("instance").assign(bin=lambda x: bin_left(x["load_sys"], width)).groupby("bin").size()
    md = ["# RR-9549 §6.1: allocation and placement", "",
          f"{len(d)} complete runs over {nsets} application sets; x = I/O-load(π_sys), the io_load of each set's "
          f"nsys run. Sets per bin: " + ", ".join(f"{_bin_label(b, width)}: {n}" for b, n in per_bin.items()) + ".",
          ""]
    for name, caption in figs:
        md += [f"![{caption}]({name})", "", f"*{caption}*", ""]
    if not s5.empty:
        md += ["## Fig. 5: Mean-I/O-SlowDown relative to GC (%)", "",
               "Per set and allocation, 100·(Mean-I/O-SlowDown with the placement / with GC − 1): mean "
               "[10th, 90th percentile].", ""]
        rows = [(PLACE_LABEL.get(p, p), LABEL.get(a, a), _bin_label(b, width), int(n), f"{m:+.2f}",
                 f"[{lo:+.2f}, {hi:+.2f}]")
                for p, a, b, n, m, lo, hi in _sorted(s5, [(PLACE, PLACEMENTS), (ALLOC, ALLOCATIONS)])[
                    [PLACE, ALLOC, "bin", "n", "mean", "p10", "p90"]].itertuples(
                    index=False)]
        md += [md_table(rows, ["placement", "allocation", "I/O-load(π_sys)", "sets", "mean %", "p10, p90"]), ""]
    if not t6.empty:
        md += [f"## Fig. 6: I/O-spread at I/O-load(π_sys) = {centre:g} ± {half:g}", ""]
        rows = [(LABEL.get(a, a), PLACE_LABEL.get(p, p), int(n), f"{m:.3f}", f"{me:.3f}")
                for a, p, n, m, me in _sorted(t6, [(ALLOC, ALLOCATIONS), (PLACE, PLACEMENTS)])[
                    [ALLOC, PLACE, "n", "mean", "median"]].itertuples(index=False)]
        md += [md_table(rows, ["allocation", "placement", "sets", "mean", "median"]), ""]
    if not t7.empty:
        md += ["## Fig. 7: I/O-spread with BBA", ""]
        rows = [(PLACE_LABEL.get(p, p), _bin_label(b, width), int(n), f"{m:.3f}", f"{c:.3f}")
                for p, b, n, m, c in _sorted(t7, [(PLACE, PLACEMENTS)])[
                    [PLACE, "bin", "n", "mean", "ci95"]].itertuples(index=False)]
        md += [md_table(rows, ["placement", "I/O-load(π_sys)", "sets", "mean", "95% CI ±"]), ""]
    for m, title in [("mean_io_slowdown", "Fig. 8: Mean-I/O-SlowDown (GNC)"), ("mean_rho_io", "Fig. 8: ρ_io (GNC)"),
                     ("mean_rho_con", "Fig. 8: ρ_con (GNC)"), ("machine_idle_time", "Fig. 9: Machine-Idletime (GNC)")]:
        t = t9 if m == "machine_idle_time" else t8.get(m)
        if t is None or t.empty:
            continue
        md += [f"## {title}", ""]
        rows = [(LABEL.get(a, a), _bin_label(b, width), int(n), _num(mm), f"[{_num(lo)}, {_num(hi)}]")
                for a, b, n, mm, lo, hi in _sorted(t, [(ALLOC, ALLOCATIONS)])[
                    [ALLOC, "bin", "n", "mean", "p10", "p90"]].itertuples(index=False)]
        md += [md_table(rows, ["allocation", "I/O-load(π_sys)", "sets", "mean", "p10, p90"]), ""]
    f = findings(d, width)
    if not f.empty:
        md += ["## Findings per bin (GNC)", "",
               "Best = allocation with the lowest mean Mean-I/O-SlowDown; ranks among the allocations run (1 = "
               "lowest); TA/BBA idle = mean Machine-Idletime of TA over BBA's on the same sets, and the share of sets "
               "where TA's is lower.", ""]
        rows = []
        for r in f.to_dict("records"):
            rows.append((_bin_label(r["bin"], width), r["sets"], f"{LABEL.get(r['best'], r['best'])} "
                         f"({r['best_msd']:.3f})", _fmt_rank(r, "bba"), _fmt_rank(r, "tcpu"), _fmt_rank(r, "mckp"),
                         f"{r['idle_ratio']:.3f}" if "idle_ratio" in r and not _nan(r.get("idle_ratio")) else "",
                         f"{r['tcpu_lower']:.0%}" if "tcpu_lower" in r and not _nan(r.get("tcpu_lower")) else ""))
        md += [md_table(rows, ["I/O-load(π_sys)", "sets", "best", "BBA (rank)", "TA (rank)", "MCKP (rank)",
                                "TA/BBA idle", "TA lower"]), ""]
    return write_markdown(out, "rr9549.md", md)


def _num(v):
    """4 significant digits; |v| < 1e-9 (rounding noise of ρ − ρ_io) is written 0."""
    return "0" if abs(v) < 1e-9 else f"{v:.4g}"


def _nan(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


def _fmt_rank(r, a):
    if _nan(r.get(f"{a}_msd")):
        return ""
    return f"{r[f'{a}_msd']:.3f} ({int(r[f'{a}_rank'])}/{r['nalloc']})"


# ----------------------------------------------------------------------------------------------------------------
# IPDPS'21 §3.2


def policy_label(v):
    """'mckp' for "mckp" or {"policy": "mckp"}; parameters set to 1 are appended: 'static-ceil+points'."""
    s = str(v).strip()
    if s.startswith("{"):
        try:
            o = json.loads(s)
        except ValueError:
            return s
        name = _name(o.get("policy", "?"))
        extra = [k if val == 1 else f"{k}={val}" for k, val in sorted(o.items()) if k != "policy"]
        return "+".join([name] + extra)
    return _name(s)


def ip_prepare(df, swept):
    col = "allocation" if "allocation" in swept else ALLOC
    _need(df, [IONODES, col, "aggregate_bandwidth_Bps"],
          "sweep platform.ionodes and allocation (ipdps21-arbitration.json)")
    d = df.copy()
    d["policy"] = d[col].map(policy_label)
    inst = [c for c in swept if c != col] + ["seed"]
    d["instance"] = d[inst].astype(str).agg("|".join, axis=1)
    d["F"] = d[IONODES].astype(int)
    return d


def ip_bandwidth(d):
    """Per policy and F: sets, median, min, max aggregated bandwidth (B/s)."""
    g = d.groupby(["policy", "F"])["aggregate_bandwidth_Bps"]
    return pd.DataFrame({"n": g.size(), "median": g.median(), "min": g.min(), "max": g.max()}).reset_index()


def ip_ratio(d, num, den):
    """Per instance num/den aggregated bandwidth; summary per F: sets, min, median, mean, max, share below 1."""
    a = d[d["policy"] == num].set_index("instance")["aggregate_bandwidth_Bps"]
    b = d[d["policy"] == den].set_index("instance")["aggregate_bandwidth_Bps"]
    f = d.drop_duplicates("instance").set_index("instance")["F"]
    r = pd.DataFrame({"ratio": a / b, "F": f}).dropna()
    g = r.groupby("F")["ratio"]
    s = pd.DataFrame({"n": g.size(), "min": g.min(), "median": g.median(), "mean": g.mean(), "max": g.max(),
                      "below1": g.apply(lambda x: float((x < 1 - 1e-9).mean()))}).reset_index()
    return r, s


def fig_ip2(t, out_png):
    fig, ax = plt.subplots(figsize=(7, 4.4))
    pols = _order(t["policy"], IPDPS_ORDER)
    for p, c in zip(pols, _colors(len(pols))):
        s = t[t["policy"] == p].sort_values("F")
        ax.plot(s["F"], s["median"] / 1e9, marker="o", ms=3, color=c, label=p,
                ls="--" if "+" in p else "-")
    ax.set_xlabel("I/O nodes F")
    ax.set_ylabel("median aggregated bandwidth (GB/s)")
    ax.set_title("IPDPS'21 Fig. 2: median aggregated bandwidth (Eq. 2)", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def fig_ip3(summaries, out_png):
    fig, ax = plt.subplots(figsize=(7, 4.4))
    for (label, s), c in zip(summaries, _colors(len(summaries))):
        s = s.sort_values("F")
        ax.plot(s["F"], s["median"], marker="o", ms=3, color=c, label=f"median, {label}")
        ax.fill_between(s["F"], s["min"], s["max"], color=c, alpha=0.15, label=f"min-max, {label}")
    ax.axhline(1, color="grey", lw=0.8)
    ax.set_yscale("log")
    ax.set_xlabel("I/O nodes F")
    ax.set_ylabel("MCKP / STATIC aggregated bandwidth")
    ax.set_title("IPDPS'21 Fig. 3: improvement of MCKP over STATIC", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def ip_report(df, swept, cdir):
    d = ip_prepare(df, swept)
    out = os.path.join(cdir, "report")
    os.makedirs(out, exist_ok=True)
    t = ip_bandwidth(d)
    fig_ip2(t, os.path.join(out, "ipdps21_fig2_bandwidth.png"))
    statics = [p for p in _order(d["policy"], IPDPS_ORDER) if p.startswith("static")]
    ratios = [(s, ip_ratio(d, "mckp", s)) for s in statics] if "mckp" in set(d["policy"]) else []
    ratios = [(s, r) for s, r in ratios if not r[1].empty]
    md = ["# IPDPS'21 §3.2: arbitration of I/O nodes", "",
          f"{len(d)} complete runs, {d['instance'].nunique()} (F, set) instances, "
          f"{d['seed'].nunique()} sets; F = {', '.join(str(f) for f in sorted(d['F'].unique()))}.", "",
          "![median aggregated bandwidth](ipdps21_fig2_bandwidth.png)", "",
          "*Fig. 2: median aggregated bandwidth (Eq. 2) per policy against the number of I/O nodes*", ""]
    if ratios:
        fig_ip3([(s, r[1]) for s, r in ratios], os.path.join(out, "ipdps21_fig3_mckp_static.png"))
        md += ["![MCKP over STATIC](ipdps21_fig3_mckp_static.png)", "",
               "*Fig. 3: MCKP / STATIC aggregated bandwidth on the same set: median and min-max per F*", ""]
    pols = _order(t["policy"], IPDPS_ORDER)
    md += ["## Median aggregated bandwidth (GB/s)", ""]
    piv = t.pivot(index="F", columns="policy", values="median")
    rows = [[int(f)] + [f"{piv.loc[f, p] / 1e9:.3f}" if p in piv.columns and not _nan(piv.loc[f, p]) else ""
                        for p in pols] for f in piv.index]
    md += [md_table(rows, ["F"] + pols), ""]
    for s, (r, summ) in ratios:
        md += [f"## MCKP / {s}", "",
               f"Over all instances: mean {r['ratio'].mean():.3f}, min {r['ratio'].min():.3f}, median "
               f"{r['ratio'].median():.3f}, max {r['ratio'].max():.3f}; MCKP below {s} on "
               f"{(r['ratio'] < 1 - 1e-9).sum()} of {len(r)} instances.", ""]
        rows = [(int(f), int(n), f"{mi:.3f}", f"{me:.3f}", f"{mn:.3f}", f"{ma:.3f}", f"{b:.0%}")
                for f, n, mi, me, mn, ma, b in summ[["F", "n", "min", "median", "mean", "max",
                                                     "below1"]].itertuples(index=False)]
        md += [md_table(rows, ["F", "sets", "min", "median", "mean", "max", "below 1"]), ""]
    extra = []
    if "mckp" in pols and "oracle" in pols:
        _, mo = ip_ratio(d, "mckp", "oracle")
        extra += ["## MCKP / ORACLE", "",
                  md_table([(int(f), f"{me:.4f}", f"{mi:.4f}") for f, me, mi in
                             mo[["F", "median", "min"]].itertuples(index=False)], ["F", "median", "min"]), ""]
    for num, den in [("oracle", "zero"), ("one", "zero")]:
        if num in pols and den in pols:
            r, _ = ip_ratio(d, num, den)
            # these policies do not depend on F once F >= 8: one value per set (the largest F)
            r = r[r["F"] == r["F"].max()]
            extra += [f"{num.upper()} / {den.upper()} per set (F = {int(r['F'].max())}, {len(r)} sets): min "
                      f"{r['ratio'].min():.4f}, median {r['ratio'].median():.4f}, max {r['ratio'].max():.4f}.", ""]
    md += extra
    return write_markdown(out, "ipdps21.md", md)


# ----------------------------------------------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--kind", choices=["auto", "rr9549", "ipdps21"], default="auto")
    ap.add_argument("--bin", type=float, default=0.2, help="width of the I/O-load(π_sys) bins (default 0.2)")
    ap.add_argument("--at", type=float, default=0.5, help="I/O-load(π_sys) of Fig. 6 (default 0.5)")
    ap.add_argument("--half", type=float, default=0.05, help="half-width around --at for Fig. 6 (default 0.05)")
    a = ap.parse_args(argv)
    if not a.bin > 0 or not a.half >= 0:
        print(f"rr9549.py: error: --bin {a.bin} / --half {a.half}: give a positive width and a half-width >= 0",
              file=sys.stderr)
        return 2
    try:
        df, swept = load(a.dir)
        kind = guess_kind(swept) if a.kind == "auto" else a.kind
        if kind is None:
            raise InputError(f"{a.dir}/runs.csv: swept columns {', '.join(swept) or '(none)'}: neither an RR-9549 "
                             f"campaign ({ALLOC} and {PLACE}) nor an IPDPS'21 one ({IONODES} and allocation); fix: "
                             "pass --kind or the right directory")
        print(rr_report(df, swept, a.dir, a.bin, a.at, a.half) if kind == "rr9549" else ip_report(df, swept, a.dir))
    except InputError as e:
        print(f"rr9549.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
