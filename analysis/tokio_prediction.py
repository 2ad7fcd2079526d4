#!/usr/bin/env python3
"""Prediction before the job runs, on TOKIO-ABC (docs/validation.md): every predictor scored on the same held-out
jobs, with only what was measured before each job started; iosim's model with a rolling calibration; the noise
floor; contention under the heaviest backgrounds; and the Edison what-if (24-OST scratch1/scratch2 against the 36-OST
scratch3).

    analysis/tokio_prediction.py [--out DIR] [--systems cori,edison,mira] [--days 30]

Writes to DIR (default results/tokio-prediction): prediction.md (every table), scores.csv (per system), scores_app_
month.csv (per system, application and month), scores_configuration.csv (per configuration), jobs.csv (each held-out job with every prediction), heavy.csv,
whatif.csv, interference.png (the fit of the sharing model). The iosim predictions are simulated (tokio_iosim.py;
$IOSIM_BIN or build/iosim) and checked against their closed form. Reads $IOSIM_DATA_DIR/tokio-abc (else
../shared/datasets/tokio-abc). Exit 2 with the fix on bad input.

Predictors, for each held-out job (start from tokio_model.SPLIT on), all from jobs that ended before it started:
- frozen peak: the calibrated peak of the first six months (tokio_model, docs/validation.md's first table);
- persistence: the median of its configuration's last 7 runs;
- rolling peak: P, the q-quantile of its configuration's runs over the trailing `days` days (q chosen on the first
  half among tokio_model.QUANTILES);
- adaptive peak: P, the q-quantile of its configuration's runs since its last level shift (tokio_rolling.
  level_segments, k = SHIFT_K chosen on the first half; docs/validation.md, "The adaptive window");
- peak x state bins: the frozen peak times the median measured / peak of the first half's jobs in the same bin of
  file-system state at start (OST fullness quartile, OSTs on failover or not, previous background quartile);
- iosim, rolling: iosim's contention model (the job at P against the previous job's background on C, max-min on the
  OSTs) with P and C recalibrated every day on the trailing `days` days (tokio_rolling.rolling), and on the file
  systems whose first half chose it (tokio_rolling.choose_interference) the sharing policy `interference` with K
  recalibrated every day too (docs/validation.md, "Interference sharing, calibrated on the window");
- iosim, rolling, max-min alone: the same without interference anywhere (the default before that amendment);
- iosim, rolling, C fitted against the previous background: the same, with C of each window fitted against each
  window job's previous background (what a prediction sees) instead of its measured one;
- iosim, rolling, fit gate / record gate: iosim, rolling with the contention gate (tokio_rolling.rolling, gate=
  GATE_LEVEL): the day's C kept only when a day-block sign test on the trailing window's jobs says the term beat
  the peak ("fit": the day's P and C re-applied to the window's jobs; "record": the predictions made before each
  window job ran); the peak alone otherwise (docs/validation.md, "The contention gate");
- iosim, rolling, adaptive: iosim, rolling with the adaptive P (C as in iosim, rolling);
- rolling P x interference: the rolling P times 1 / (1 + r / K), r the previous job's background, K fitted per file
  system on the first half (tokio_rolling.fit_interference): the sharing model of "Contention where it binds", a
  closed form that iosim's max-min engine does not simulate.
"""

import argparse
import os
import sys
import time

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, cli, md_table, np, pd, plt, write_markdown
from iosim import calibrate
import tokio_data
from tokio_health import verdict
import tokio_iosim
import tokio_model
import tokio_rolling as tr

PREDICTORS = {
    "frozen": "calibrated peak, first half (frozen)",
    "persist": "same configuration, median of its last 7 runs",
    "rolling": "peak recalibrated on the trailing window",
    "adaptive": "peak since the configuration's last level shift (adaptive window)",
    "state": "frozen peak x bins of file-system state at start",
    "expanding": "peak over the expanding window (every earlier run)",
    "peakconst": "first-half peak x a first-half constant",
    "iosim": "iosim, P, C and K recalibrated on the trailing window (interference where the first half chose it)",
    "iosim_maxmin": "iosim, rolling, max-min alone (the default before the interference amendment)",
    "iosim_prev": "the same, C fitted against the previous job's background",
    "iosim_adaptive": "iosim, rolling, P since the last level shift (adaptive window; not the default)",
    "iosim_gate_fit": "iosim, rolling, fit gate (declared first; not the default)",
    "iosim_gate": "iosim, rolling, record gate (not the default)",
    "interf": "rolling P x interference 1/(1+r/K), K of the first half (not in the engine)",
}
ENGINE_INTERFERENCE = "interference, simulated (sharing `interference`, max-min on C)"
NO_SIM = ("frozen", "persist", "rolling", "adaptive", "state", "expanding", "peakconst")
GATED = ("iosim_gate_fit", "iosim_gate")
MARGIN = 0.10  # the equivalence margin: 10 % of the best predictor's median APE (docs/validation.md)


def state_bins(train, test, p_train, p_test):
    """The frozen peak times the median measured / P of the training jobs of the same state bin (1 when the bin
    had no training job): bins are OST-fullness quartile, failover OSTs > 0, previous-background quartile, each with
    quartile edges from the training jobs."""
    def key(d, edges_full, edges_bg):
        full = np.digitize(d["full_pct"].fillna(-1), edges_full)
        fail = (d["failover_osts"].fillna(0) > 0).astype(int)
        bg = np.digitize(d["prev_bg"].fillna(-1), edges_bg)
        return pd.Series([f"{a}/{b}/{c}" for a, b, c in zip(full, fail, bg)], index=d.index)
    ef = train["full_pct"].quantile([0.25, 0.5, 0.75]).to_numpy() if train["full_pct"].notna().any() else []
    eb = train["prev_bg"].quantile([0.25, 0.5, 0.75]).to_numpy() if train["prev_bg"].notna().any() else []
    ratio = (train["bw"] / p_train).groupby(key(train, ef, eb)).median()
    return p_test * key(test, ef, eb).map(ratio).fillna(1.0).to_numpy()


def choose_q(d, days):
    """The q of tokio_model.QUANTILES whose rolling peak has the lowest median APE over the first half's jobs
    (tokio_rolling.choose_q with the cut at tokio_model.SPLIT)."""
    return tr.choose_q(d, days, pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp())


def simulate(held, out_dir, cap_col="capacity", tag="iosim", p_col="p", kappa_col=None, bg_col="prev_bg"):
    """iosim's predictions of the held-out jobs under their rolling P and C and the previous background (Series on
    held.index). One iosim run per file system (and per value of the scaled K with interference); each job's P,
    background, volume (and K) are scaled by C0 / C (the share is homogeneous of degree 1 in P, r, C and K), so that
    one platform of C0 bytes/s serves jobs whose capacities differ, and the simulated time is the job's own. cap_col,
    p_col, bg_col: the columns of C, P and the background; kappa_col: the column of K (sharing `interference`;
    NaN or inf: max-min alone), None for max-min alone."""
    c0 = 1e11
    runs = []
    for _, g in held.groupby(["system", "fs"], sort=False):
        cap = g[cap_col].fillna(1e18)  # no capacity fitted: the peak (the background never binds)
        s = c0 / cap
        kap = (g[kappa_col].fillna(np.inf) * s) if kappa_col is not None else pd.Series(np.inf, index=g.index)
        for i, (kv, h) in enumerate(g.groupby(kap, sort=True)):
            scaled = h.copy()
            scaled["volume"] = h["volume"] * s[h.index]
            runs.append(tokio_iosim.prepare(scaled, h[p_col] * s[h.index], h[bg_col].fillna(0) * s[h.index],
                                            float(h["osts"].iloc[0]), c0,
                                            os.path.join(out_dir, tag, str(g["fs"].iloc[0]) + (f"-k{i}" if
                                                                                             np.isfinite(kv) else "")),
                                            kv if np.isfinite(kv) else None))
    tokio_iosim.run_all(runs)
    out = []
    for run in runs:
        bw = tokio_iosim.collect(run)  # scaled volume / simulated time
        out.append(bw * (held.loc[bw.index, cap_col].fillna(1e18) / c0))
    return pd.concat(out).loc[held.index]


def score_rows(held, keys, predictors):
    """error_stats() of each predictor for each group of `keys` (all jobs when keys is empty)."""
    rows = []
    groups = held.groupby(keys if len(keys) > 1 else keys[0]) if keys else [((), held)]
    for g, d in groups:
        g = g if isinstance(g, tuple) else (g,)
        for m in predictors:
            rows.append({**dict(zip(keys, g)), "predictor": m, **tr.error_stats(d[m], d["bw"])})
    return pd.DataFrame(rows)


def pct(v, sign=False):
    return "" if v != v else (f"{100 * v:+.1f} %" if sign else f"{100 * v:.1f} %")


def heavy_contention(d, held, out_dir):
    """Contention where it binds: the held-out jobs in the top 10 % of their file system's background rate (the
    background measured during the job: the what-if of a known background), predicted by the rolling peak alone,
    by max-min against the rolling C, and by the interference model P / (1 + r / K), K fitted per file system on
    the first half's top-10 % jobs (their rolling P and measured background). Rows and the fit's parameters."""
    rows, fits, engine = [], [], []
    fig, axes = plt.subplots(1, d["fs"].nunique(), figsize=(3.2 * d["fs"].nunique(), 3.2), squeeze=False)
    for ax, ((s, f), g) in zip(axes[0], d.groupby(["system", "fs"], sort=False)):
        g = g[g["p"].notna()]
        r = tokio_model.background(g)
        first, _ = tokio_model.split(g)
        cut = tokio_model.background(first).quantile(0.9)
        tr_heavy = first[tokio_model.background(first) >= cut]
        k, train_err = tr.fit_interference(tr_heavy["p"].to_numpy(), tokio_model.background(tr_heavy).to_numpy(),
                                           tr_heavy["bw"].to_numpy())
        h = held[(held["system"] == s) & (held["fs"] == f)]
        hr = tokio_model.background(h)
        hh = h[hr >= hr.quantile(0.9)]
        rr = tokio_model.background(hh)
        preds = {"no contention": hh["p"],
                 "max-min (iosim)": np.minimum(hh["p"], np.maximum(hh["capacity"].fillna(1e18) - rr,
                                                                   hh["capacity"].fillna(1e18) / 2)),
                 "interference P/(1+r/K)": tr.interference(hh["p"], rr, k)}
        for name, pr in preds.items():
            rows.append({"system": s, "fs": f, "model": name, **tr.error_stats(pr, hh["bw"])})
        engine.append(hh.assign(bg_meas=rr, k_first=k, closed=tr.interference_share(
            hh["p"].to_numpy(), rr.to_numpy(), hh["capacity"].fillna(np.inf).to_numpy(), k)))
        fits.append({"system": s, "fs": f, "K_GBps": k / 1e9, "train_jobs": len(tr_heavy),
                     "train_median_ape": train_err, "train_cut_GBps": cut / 1e9, "held_jobs": len(hh)})
        x = np.logspace(np.log10(max(r.min(), 1e6)), np.log10(max(r.max(), 1e7)), 100)
        ax.scatter(tokio_model.background(first) / 1e9, first["bw"] / first["p"], s=3, alpha=0.3, color="#999999",
                   label="first half")
        ax.scatter(tokio_model.background(tr_heavy) / 1e9, tr_heavy["bw"] / tr_heavy["p"], s=4, color="#1f77b4",
                   label="first half, top 10 %")
        ax.plot(x / 1e9, 1 / (1 + x / k), "r-", lw=1.2, label=f"1/(1+r/K), K={k / 1e9:.0f} GB/s")
        ax.set(xscale="log", yscale="log", ylim=(0.05, 5), title=f"{s} {f}", xlabel="background r (GB/s)",
               ylabel="measured / rolling P")
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "interference.png"), dpi=110)
    plt.close(fig)
    # the same K in the engine: sharing `interference` (kappa = K / N per OST) with max-min on the rolling C
    e = pd.concat(engine)
    e["sim"] = simulate(e, out_dir, tag="heavy-interference", kappa_col="k_first", bg_col="bg_meas")
    gap = float(((e["sim"] - e["closed"]).abs() / e["closed"]).max())
    if not gap < 1e-6:
        raise InputError(f"the engine's interference sharing and its closed form differ by {gap:.3g} on the heavy "
                         "jobs: a bug of tokio_prediction.py or of the engine")
    for (s, f), x in e.groupby(["system", "fs"], sort=False):
        rows.append({"system": s, "fs": f, "model": ENGINE_INTERFERENCE, **tr.error_stats(x["sim"], x["bw"])})
    order = {k: i for i, k in enumerate(dict.fromkeys(zip(e["system"], e["fs"])))}
    out = pd.DataFrame(rows)
    out = out.iloc[sorted(range(len(out)), key=lambda i: order.get((out["system"].iat[i], out["fs"].iat[i]), 0))]
    return out.reset_index(drop=True), pd.DataFrame(fits)


WHATIF_PAIRS = (("scratch1+2", "scratch3"), ("scratch3", "scratch1+2"), ("scratch1", "scratch3"),
                ("scratch2", "scratch3"), ("scratch3", "scratch1"), ("scratch3", "scratch2"))


def whatif(d):
    """Edison: each configuration (application, direction, volume) on the 24-OST scratch1 and scratch2 against the
    36-OST scratch3, per half (first, held-out) and per pair (WHATIF_PAIRS: the 24-OST side pooled, as the first
    version of this table, and each file system on its own). Calibrated on one side (median P per configuration,
    the capacity C fitted on all that side's jobs of the half, per OST c = C / N), predicted on the other from its
    OST count alone, two ways iosim's oss-ost platform can describe a job alone on N OSTs:
    - per-configuration efficiency per OST (the job's flow spans every OST, each serving it e x c, e = P / (N c)):
      P x N_to / N_from, the same as plain scaling by OST count when the OSTs are alike;
    - a client-side limit (roofline): min(L, N_to x c), L the configuration's P when it ran below 0.9 C (the
      file system did not bind), else unbounded.
    The medians of each side over the whole half: the job-by-job what-if is analysis/whatif_backtest.py. Rows per
    half, pair and configuration."""
    e = d[d["system"] == "edison"]
    if e.empty:
        return pd.DataFrame()
    e = e.assign(conf=e["app"] + "/" + e["direction"] + "/" + (e["volume"] / 2**30).round().astype(int).astype(str)
                 + "GiB")
    first, held = tokio_model.split(e)
    rows = []
    for half, part in (("first", first), ("held-out", held)):
        sides = {"scratch1+2": part[part["fs"].isin(["scratch1", "scratch2"])]}
        for fs in ("scratch1", "scratch2", "scratch3"):
            sides[fs] = part[part["fs"] == fs]
        for src, dst in WHATIF_PAIRS:
            a, b = sides[src], sides[dst]
            if a.empty or b.empty:
                continue
            na, nb = float(a["osts"].max()), float(b["osts"].max())
            pa = a.groupby("conf")["bw"].median()
            pa_cls = a.groupby("conf")["bw"].transform("median")
            c, _ = tr.fit_capacity(pa_cls.to_numpy(), tokio_model.background(a).to_numpy(), a["bw"].to_numpy())
            c_ost = c / na
            mb = b.groupby("conf")["bw"].median()
            for conf in sorted(set(pa.index) & set(mb.index)):
                p = pa[conf]
                limit = p if p < 0.9 * c else np.inf
                rows.append({"half": half, "from": src, "to": dst, "conf": conf,
                             "runs_from": int((a["conf"] == conf).sum()), "runs_to": int((b["conf"] == conf).sum()),
                             "P_from_GBps": p / 1e9, "measured_GBps": mb[conf] / 1e9, "measured_gain": mb[conf] / p,
                             "ost_scaling_gain": nb / na, "roofline_gain": min(limit, nb * c_ost) / p,
                             "c_ost_GBps": c_ost / 1e9})
    w = pd.DataFrame(rows)
    w["ost_scaling_ape"] = (w["ost_scaling_gain"] - w["measured_gain"]).abs() / w["measured_gain"]
    w["roofline_ape"] = (w["roofline_gain"] - w["measured_gain"]).abs() / w["measured_gain"]
    return w


def run(args):
    t0 = time.time()
    systems = [s for s in args.systems.split(",") if s]
    bad = [s for s in systems if s not in tokio_data.FILES]
    if bad or not systems:
        raise InputError(f"--systems {args.systems}: unknown system(s) {', '.join(bad)}; fix: give some of "
                         f"{', '.join(tokio_data.FILES)}")
    if not args.days > 0:
        raise InputError(f"--days {args.days}: not a positive number of days; fix: e.g. --days 30")
    os.makedirs(args.out, exist_ok=True)
    jobs, _ = tokio_data.jobs(systems)
    d = tr.with_end(jobs)
    d["prev_bg"] = tr.previous_background(d)
    d["persist"] = tr.persistence(d, 7)
    d["noise"] = tr.noise_floor(d)  # the floor redefined (docs/validation.md): the level known from both sides
    d["neighbour"] = tr.neighbour_interpolation(d)  # the former "noise floor"
    qs, ks, qas, sharing, qes, kcs = {}, {}, {}, {}, {}, {}
    parts = []
    for (s, f), g in d.groupby(["system", "fs"], sort=False):
        q, _ = choose_q(g, args.days)
        qs[(s, f)] = q
        # the sharing model, chosen per file system on its first half (docs/validation.md, "Interference sharing,
        # calibrated on the window", the amendment), as q is
        use, e_mm, e_if = tr.choose_interference(g, args.days, q, pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp())
        sharing[(s, f)] = ("interference" if use else "max-min", e_mm, e_if)
        # the same function as iosim calibrate's held-out error
        roll = tr.iosim_rolling(g, args.days, q, interference="all" if use else None)
        mm = tr.iosim_rolling(g, args.days, q)["pred"] if use else roll["pred"]
        g = g.join(roll.drop(columns=["prev_bg"]))
        g["iosim_maxmin_closed"] = mm
        g["rolling"] = g["p"]
        train, test = tokio_model.split(g)
        fz = tokio_model.calibrate(train, "peak")
        p_tr, _ = tokio_model.peaks(train, train, fz["q"])
        p_te, _ = tokio_model.peaks(train, g, fz["q"])
        g["frozen"] = p_te
        g["state"] = state_bins(train, g, p_tr, p_te)
        # the stronger simple predictors: every earlier run (q chosen on the first half), and the first half's peak
        # (its largest run, coarser groups for a configuration without one) times a constant fitted on the first half
        qe, _ = tr.choose_q(g, tr.EXPANDING_DAYS, pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp())
        g["expanding"] = tr.rolling(g, tr.EXPANDING_DAYS, qe, fit_c=False)["p"]
        peak_tr, _ = tokio_model.peaks(train, train, 1.0)
        kc, _ = tr.fit_constant(peak_tr, train["bw"])
        g["peakconst"] = tokio_model.peaks(train, g, 1.0)[0] * kc
        qes[(s, f)], kcs[(s, f)] = qe, kc
        g["iosim_closed"] = g.pop("pred")
        qa, _ = tr.choose_q(g, args.days, pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp(), shift_k=tr.SHIFT_K)
        qas[(s, f)] = qa
        ad = tr.iosim_rolling(g, args.days, qa, shift_k=tr.SHIFT_K)
        g["adaptive"], g["capacity_iosim_adaptive"], g["iosim_adaptive_closed"] = ad["p"], ad["capacity"], ad["pred"]
        g["p_iosim_adaptive"], g["history_start"] = ad["p"], ad["history_start"]
        prev = tr.iosim_rolling(g, args.days, q, background="prev_bg")
        g["capacity_prev"], g["iosim_prev_closed"] = prev["capacity"], prev["pred"]
        for m, on in (("iosim_gate_fit", "fit"), ("iosim_gate", "record")):
            gt = tr.iosim_rolling(g, args.days, q, gate=tr.GATE_LEVEL, gate_on=on)
            g["capacity_" + m], g[m + "_closed"], g[m + "_p"] = gt["capacity"], gt["pred"], gt["gate_p"]
        fp = train[train["p"].notna() & train["prev_bg"].notna()]
        k, _ = tr.fit_interference(fp["p"].to_numpy(), fp["prev_bg"].to_numpy(), fp["bw"].to_numpy())
        g["interf"] = tr.interference(g["p"], g["prev_bg"].fillna(0), k)
        ks[(s, f)] = k
        parts.append(g)
    d = pd.concat(parts)
    _, held = tokio_model.split(d)
    # the same held-out jobs for every predictor: those every predictor can predict
    held = held[held[["frozen", "persist", "rolling", "adaptive", "state", "iosim_closed"]].notna().all(axis=1)].copy()
    held["iosim"] = simulate(held, args.out, kappa_col="kappa_K")
    held["iosim_maxmin"] = simulate(held, args.out, tag="iosim-maxmin")
    held["iosim_prev"] = simulate(held, args.out, "capacity_prev", "iosim-prev")
    for m in GATED:
        held[m] = simulate(held, args.out, "capacity_" + m, m.replace("_", "-"))
    held["iosim_adaptive"] = simulate(held, args.out, "capacity_iosim_adaptive", "iosim-adaptive", "p_iosim_adaptive")
    gap = max(float(((held[m] - held[m + "_closed"]).abs() / held[m + "_closed"]).max())
              for m in ("iosim", "iosim_maxmin", "iosim_prev", *GATED, "iosim_adaptive"))
    if not gap < 1e-6:
        raise InputError(f"iosim and the closed form of the rolling contention model differ by {gap:.3g}: a bug "
                         "of tokio_prediction.py or of the engine")
    # iosim calibrate's held-out error is this row: its per-job predictions (calibrate.held_out, split at SPLIT)
    _, cal_jobs = calibrate.held_out(jobs, args.days, "tokio", pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp())
    cal_pred = held[["cls", "start"]].merge(cal_jobs, on=["cls", "start"], how="left")["pred"].to_numpy()
    cal_gap = float(np.nanmax(np.abs(cal_pred - held["iosim_closed"].to_numpy()) / held["iosim_closed"].to_numpy()))
    if not (cal_gap < 1e-12 and not np.isnan(cal_pred).any()):
        raise InputError(f"iosim calibrate's held-out predictions and the validation's iosim row differ by {cal_gap:.3g}:"
                         " a bug of calibrate.py or tokio_prediction.py")
    # and `iosim calibrate --window adaptive`'s is the adaptive row (the same function, shift_k = tr.SHIFT_K)
    _, cal_ad = calibrate.held_out(jobs, args.days, "tokio", pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp(),
                                   shift_k=tr.SHIFT_K)
    ad_pred = held[["cls", "start"]].merge(cal_ad, on=["cls", "start"], how="left")["pred"].to_numpy()
    ad_gap = float(np.nanmax(np.abs(ad_pred - held["iosim_adaptive_closed"].to_numpy())
                             / held["iosim_adaptive_closed"].to_numpy()))
    if not (ad_gap < 1e-12 and not np.isnan(ad_pred).any()):
        raise InputError(f"iosim calibrate --window adaptive's held-out predictions and the validation's adaptive iosim"
                         f" row differ by {ad_gap:.3g}: a bug of calibrate.py or tokio_prediction.py")
    preds = list(PREDICTORS)
    per_sys = score_rows(held, ["system"], preds)
    noise = held.groupby("system")["noise"].agg(["median", "count"])
    neigh = held.groupby("system")["neighbour"].agg(["median", "count"])
    per_sys.to_csv(os.path.join(args.out, "scores.csv"), index=False)
    per_am = score_rows(held, ["system", "app", "month"], preds)
    per_am.to_csv(os.path.join(args.out, "scores_app_month.csv"), index=False)
    score_rows(held, ["system", "cls"], preds).to_csv(os.path.join(args.out, "scores_configuration.csv"), index=False)
    held.to_csv(os.path.join(args.out, "jobs.csv"), index=False)
    # the main table: one column per system
    sys_list = list(dict.fromkeys(held["system"]))
    main_rows = []
    for m in preds:
        cells = [PREDICTORS[m]]
        for s in sys_list:
            r = per_sys[(per_sys["system"] == s) & (per_sys["predictor"] == m)].iloc[0]
            cells.append(f"{pct(r['median_ape'])} ({pct(r['bias'], True)}; {pct(r['p25'])} / {pct(r['p75'])} / "
                         f"{pct(r['p90'])})")
        main_rows.append(cells)
    main_rows.append(["noise floor: the median of the configuration's runs within 15 days before and after"] +
                     [f"{pct(noise.loc[s, 'median'])} ({int(noise.loc[s, 'count'])} jobs)" if s in noise.index else ""
                      for s in sys_list])
    main_rows.append(["neighbour interpolation (the former noise floor; not a floor)"] +
                     [f"{pct(neigh.loc[s, 'median'])} ({int(neigh.loc[s, 'count'])} jobs)" if s in neigh.index
                      else "" for s in sys_list])
    goal_rows = []
    for s in sys_list:
        sub = per_sys[per_sys["system"] == s].set_index("predictor")
        best = sub.loc[list(NO_SIM), "median_ape"].idxmin()
        nf = float(noise.loc[s, "median"]) if s in noise.index else float("nan")
        x = held[held["system"] == s]
        for m in ("iosim", "iosim_maxmin", "iosim_prev", *GATED, "iosim_adaptive"):
            io = sub.loc[m, "median_ape"]
            ea, eb = (x[m] - x["bw"]).abs() / x["bw"], (x[best] - x["bw"]).abs() / x["bw"]
            days = np.floor(x["start"] / tr.DAY)
            diff, lo, hi = tr.bootstrap_median_difference(ea, eb, days)
            _, lo90, hi90 = tr.bootstrap_median_difference(ea, eb, days, level=0.90)
            delta = MARGIN * float(sub.loc[best, "median_ape"])
            goal_rows.append([s, PREDICTORS[m], int(sub.loc[m, "jobs"]), f"{100 * io:.2f} %",
                              f"{PREDICTORS[best]}: {100 * sub.loc[best, 'median_ape']:.2f} %",
                              f"{100 * diff:+.3f} ({100 * lo:+.3f} .. {100 * hi:+.3f})",
                              f"{100 * lo90:+.3f} .. {100 * hi90:+.3f}", f"{100 * delta:.3f}",
                              verdict(lo90, hi90, delta),
                              "yes" if io <= sub.loc[best, "median_ape"] + 1e-12 else "no",
                              f"{100 * nf:.2f} %" if nf == nf else "n/a", f"{io / nf:.2f}" if nf > 0 else "n/a",
                              "yes" if io <= 2 * nf else "no"])
    gate_rows = []
    for (s_, f_), g in d.groupby(["system", "fs"], sort=False):
        day = np.floor(g["start"] / tr.DAY)
        first = g["start"] < pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp()
        row = [s_, f_]
        for m in GATED:
            tested = g[m + "_p"].notna()
            kept = g["capacity_" + m].notna()
            for part in (first, ~first):
                n = day[tested & part].nunique()
                row.append(f"{day[kept & part].nunique()} / {n}")
        gate_rows.append(row)
    heavy, fits = heavy_contention(d, held, args.out)
    heavy.to_csv(os.path.join(args.out, "heavy.csv"), index=False)
    w = whatif(d)
    w.to_csv(os.path.join(args.out, "whatif.csv"), index=False)
    lines = [
        "# TOKIO-ABC: prediction before the job runs (analysis/tokio_prediction.py)", "",
        f"Held-out jobs (start from {tokio_model.SPLIT} UTC) that every predictor can predict: {len(held)}. Rolling "
        f"window {args.days:g} days; q of the rolling P per file system (chosen on the first half): " +
        ", ".join(f"{f} {q}" for (_, f), q in qs.items()) + f"; of the adaptive P (k = {tr.SHIFT_K:g}): " +
        ", ".join(f"{f} {q}" for (_, f), q in qas.items()) + "; of the expanding window: " +
        ", ".join(f"{f} {q}" for (_, f), q in qes.items()) + "; the first-half constant of the first-half peak: " +
        ", ".join(f"{f} {k:.2f}" for (_, f), k in kcs.items()) + f". iosim vs its closed form, largest relative gap "
        f"{gap:.2e}. Sharing model per file system (chosen on the first half; its first-half median APE with max-min "
        f"alone, with interference): " + ", ".join(f"{f} {m} ({100 * a:.2f} %, {100 * b:.2f} %)"
                                                 for (_, f), (m, a, b) in sharing.items()) +
        f". K of the interference predictor (first half, previous background): " +
        ", ".join(f"{f} {k / 1e9:.0f} GB/s" for (_, f), k in ks.items()) + f". Wall time {time.time() - t0:.0f} s.", "",
        "## Per system", "",
        "Each cell: median APE of the bandwidth (bias = median of predicted / measured - 1; APE p25 / p75 / p90).", "",
        md_table(main_rows, ["predictor (before start)", *sys_list]), "",
        "## The goal", "",
        md_table(goal_rows, ["system", "iosim", "jobs", "its median APE", "best predictor without a simulator",
                             "difference, points (95 % day-block bootstrap)", "90 % interval", "margin δ (10 % of the "
                             "best's median APE)", "equivalence test", "iosim at or below it",
                             "noise floor (centred level)", "iosim / noise floor", "within 2x"]), "",
        "## The contention gate: days its C was kept", "",
        "File-system days on which the gate kept the fitted C, of the days it tested (a window of 5 jobs or more), "
        f"day-block sign test at {tr.GATE_LEVEL:g}:", "",
        md_table(gate_rows, ["system", "file system", "fit gate, first half", "fit gate, held out",
                             "record gate, first half", "record gate, held out"]), "",
        "## Contention where it binds (held-out top 10 % of the background during the job)", "",
        md_table([[r["system"], r["fs"], r["model"], r["jobs"], pct(r["median_ape"]), pct(r["bias"], True),
                   pct(r["p90"])] for _, r in heavy.iterrows()],
                 ["system", "file system", "model", "jobs", "median APE", "bias", "APE p90"]), "",
        "The fit (first half's top 10 %; interference.png):", "",
        md_table([[r["system"], r["fs"], f"{r['K_GBps']:.1f}", r["train_jobs"], f"{r['train_cut_GBps']:.2f}",
                   pct(r["train_median_ape"]), r["held_jobs"]] for _, r in fits.iterrows()],
                 ["system", "file system", "K (GB/s)", "training jobs", "top-10 % cut (GB/s)",
                  "training median APE", "held-out jobs"]), "",
    ]
    if len(w):
        summ = w.groupby(["half", "from", "to"], sort=False).agg(
            confs=("conf", "size"), ost=("ost_scaling_ape", "median"), roofline=("roofline_ape", "median"),
            worst=("ost_scaling_ape", "max")).reset_index()
        head = ["half", "calibrated on", "predicted", "configurations", "median APE of the gain, OST scaling (= per-OST "
                "efficiency)", "largest", "median APE of the gain, client-limit roofline"]
        rows = [[r["half"], r["from"], r["to"], r["confs"], pct(r["ost"]), pct(r["worst"]), pct(r["roofline"])]
                for _, r in summ.iterrows()]
        held_w = w[(w["half"] == "held-out") & w["from"].isin(["scratch1+2", "scratch3"])
                   & w["to"].isin(["scratch1+2", "scratch3"])]
        per = [[r["from"], r["to"], r["conf"], r["runs_from"], r["runs_to"], f"{r['P_from_GBps']:.2f}",
                f"{r['measured_gain']:.2f}", f"{r['ost_scaling_gain']:.2f}", f"{r['roofline_gain']:.2f}"]
               for _, r in held_w.iterrows()]
        lines += ["## What-if: Edison 24 OSTs against 36 OSTs, per half and pair (medians of each side)", "",
                  md_table(rows, head), "", "The held-out half, scratch1 and scratch2 pooled:", "",
                  md_table(per, ["from", "to", "configuration", "runs from", "runs to", "P from (GB/s)",
                                 "measured gain", "OST scaling (= per-OST efficiency)", "client-limit roofline"]), ""]
    return write_markdown(args.out, "prediction.md", lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="results/tokio-prediction", help="output directory")
    ap.add_argument("--systems", default="cori,edison,mira", help="comma-separated systems")
    ap.add_argument("--days", type=float, default=30.0, help="the rolling window (days)")
    args = ap.parse_args(argv)
    return cli("tokio_prediction.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
