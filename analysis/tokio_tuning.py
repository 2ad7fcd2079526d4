#!/usr/bin/env python3
"""Why iosim's rolling calibration loses where it loses, and which calibration rule the first half would choose
(docs/validation.md, "Tuning the rolling calibration"). Every rule is scored twice: on the first half (2017-02-14 ..
2017-08-13, each job predicted from the days before its own: a rolling-origin score a site can compute from its past
alone) and on the held-out half; the choice is made on the first half only, and the held-out column says what it
would have given.

    analysis/tokio_tuning.py [--out DIR] [--systems cori,edison,mira]

Writes DIR/tuning.md (default results/tokio-tuning) and rules.csv. Reads $IOSIM_DATA_DIR/tokio-abc.

Rules, each a P rule (how the configuration's bandwidth P is estimated) with a C rule (the file system's capacity
for iosim's max-min share against the previous job's background, tokio_rolling.iosim_rolling):
- P: the q-quantile of the configuration's runs over the last 14, 30 or 90 days or over all the past ("all"), q
  chosen per file system on the first half (tokio_rolling.choose_q); the 10 % trimmed mean of the last 30 days
  (tokio_rolling.trimmed_mean); the q-quantile of the last 90 days with weights halving every 10 days of age
  (tokio_rolling.recency_quantile, q chosen on the first half); or "online": each day, the window of those four
  whose predictions of the jobs of the previous 30 days had the lowest median APE (follow the leader,
  tokio_rolling.follow_the_leader);
- C: fitted each day against the window jobs' measured background ("measured", the validation's iosim row), against
  their previous background ("previous", the input a prediction sees), or none (the peak alone, no simulator).

The adaptive window (docs/validation.md, "The adaptive window"), scored apart from the 21 rules: P since the
configuration's last level shift (tokio_rolling.level_segments) for k = 2, 3, 4 (tokio_rolling.SHIFT_KS), alone and
with C against the measured background; the variant chosen and the default decided on the first half only
(adaptive_first_half), the held-out column reported beside.

The contention gate (docs/validation.md, "The contention gate"), scored apart from the 21 rules: 30 d / measured
with the fit gate and with the record gate (tokio_rolling.rolling, gate=GATE_LEVEL), beside 30 d / measured, on the
first half (the choice: a gate becomes the default only if at or below 30 d / measured on every system's first
half) and held out.

Interference sharing (docs/validation.md, "Interference sharing, calibrated on the window"), scored apart from the
21 rules: 30 d / measured with K recalibrated each day (tokio_rolling.rolling, interference="heavy" or "all"), the
variant and the default decided on the first half only (interference_first_half), the held-out column beside.
"""

import argparse
import os
import sys

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, cli, md_table, np, pd, write_markdown
import tokio_data
import tokio_model
import tokio_rolling as tr

WINDOWS = (14, 30, 90, 100000)  # days; 100000: all the past
WNAME = {14: "14 d", 30: "30 d", 90: "90 d", 100000: "all"}


def rules_for(g, cut):
    """Every rule's prediction of every job of g (one file system, with end and prev_bg): a DataFrame on g.index,
    one column per rule "P rule / C rule", and the q chosen per window."""
    out, qs, by_window = pd.DataFrame(index=g.index), {}, {}
    for w in WINDOWS:
        q, _ = tr.choose_q(g, w, cut)
        qs[w] = q
        meas = tr.iosim_rolling(g, w, q)
        prev = tr.iosim_rolling(g, w, q, background="prev_bg")
        out[f"{WNAME[w]} / none"] = meas["p"]
        out[f"{WNAME[w]} / measured"] = meas["pred"]
        out[f"{WNAME[w]} / previous"] = prev["pred"]
        by_window[w] = out[[f"{WNAME[w]} / none", f"{WNAME[w]} / measured", f"{WNAME[w]} / previous"]]
    # the window is chosen on the peak's record (the P rule), then each C rule applied with that window
    for name, w, est in (("30 d trimmed mean", 30, tr.trimmed_mean), ("90 d recency-weighted", 90,
                                                                        tr.recency_quantile)):
        q, _ = tr.choose_q(g, w, cut, estimator=est)
        qs[name] = q
        meas = tr.iosim_rolling(g, w, q, estimator=est)
        prev = tr.iosim_rolling(g, w, q, background="prev_bg", estimator=est)
        out[f"{name} / none"], out[f"{name} / measured"], out[f"{name} / previous"] = meas["p"], meas["pred"], \
            prev["pred"]
    for k in tr.SHIFT_KS:  # the adaptive window's three declared variants (docs/validation.md)
        q, _ = tr.choose_q(g, 30, cut, shift_k=k)
        qs[f"adaptive k={k:g}"] = q
        ad = tr.iosim_rolling(g, 30, q, shift_k=k)
        out[f"adaptive k={k:g} / none"], out[f"adaptive k={k:g} / measured"] = ad["p"], ad["pred"]
    q30 = qs[30]
    for on in ("fit", "record"):
        out[f"gate: {on}"] = tr.iosim_rolling(g, 30, q30, gate=tr.GATE_LEVEL, gate_on=on)["pred"]
    for v in tr.INTERFERENCE_VARIANTS:  # declared before any score (docs/validation.md, "Interference sharing")
        out[f"interference: {v}"] = tr.iosim_rolling(g, 30, q30, interference=v)["pred"]
    use, _, _ = tr.choose_interference(g, 30, q30, cut)  # the amendment: chosen per file system on its first half
    qs["interference"] = "all" if use else "max-min"
    out["interference: per file system"] = out["interference: all"] if use else out["30 d / measured"]
    pick = tr.follow_the_leader(g, pd.DataFrame({w: by_window[w].iloc[:, 0] for w in WINDOWS}), 30, default=30)
    for k, c in enumerate(("none", "measured", "previous")):
        cand = pd.DataFrame({w: by_window[w].iloc[:, k] for w in WINDOWS})
        out[f"online / {c}"] = [cand.at[i, w] for i, w in zip(g.index, pick)]
    return out, qs


def adaptive_first_half(d, first, sys_list):
    """The adaptive window's choice on the first half only (docs/validation.md, "The adaptive window"): returns
    (k, {system: {rule: first-half median APE}}, default), k the variant of tr.SHIFT_KS with the lowest first-half
    median APE of "adaptive k / measured" averaged over the systems (ties: the larger k), default whether that
    variant is at or below "30 d / measured" on every system's first half. Held-out jobs are not read."""
    cand = [f"adaptive k={k:g} / measured" for k in tr.SHIFT_KS]
    ok = d[cand + ["30 d / measured"]].notna().all(axis=1)
    firsts = {}
    for s in sys_list:
        sel = first & ok & (d["system"] == s)
        firsts[s] = {r: tr.error_stats(d.loc[sel, r], d.loc[sel, "bw"])["median_ape"]
                     for r in cand + ["30 d / measured"]}
    mean = [np.mean([firsts[s][r] for s in sys_list]) for r in cand]
    i = max(j for j in range(len(cand)) if mean[j] <= min(mean) + 1e-12)
    k = tr.SHIFT_KS[i]
    default = all(firsts[s][cand[i]] <= firsts[s]["30 d / measured"] + 1e-12 for s in sys_list)
    return k, firsts, default


def interference_first_half(d, first, sys_list):
    """The interference variant's choice on the first half only (docs/validation.md, "Interference sharing,
    calibrated on the window"): returns (variant, {system: {rule: first-half median APE}}, default), the variant of
    tr.INTERFERENCE_VARIANTS with the lowest first-half median APE averaged over the systems (ties: the earlier),
    default whether it is at or below "30 d / measured" on every system's first half. Held-out jobs are not read."""
    cand = [f"interference: {v}" for v in tr.INTERFERENCE_VARIANTS]
    ok = d[cand + ["30 d / measured", "interference: per file system"]].notna().all(axis=1)
    firsts = {}
    for s in sys_list:
        sel = first & ok & (d["system"] == s)
        firsts[s] = {r: tr.error_stats(d.loc[sel, r], d.loc[sel, "bw"])["median_ape"]
                     for r in cand + ["30 d / measured", "interference: per file system"]}
    mean = [np.mean([firsts[s][r] for s in sys_list]) for r in cand]
    i = min(j for j in range(len(cand)) if mean[j] <= min(mean) + 1e-12)
    default = all(firsts[s][cand[i]] <= firsts[s]["30 d / measured"] + 1e-12 for s in sys_list)
    per_fs = all(firsts[s]["interference: per file system"] <= firsts[s]["30 d / measured"] + 1e-12 for s in sys_list)
    return tr.INTERFERENCE_VARIANTS[i], firsts, default, per_fs


def interference_table(d, first, held, sys_list, pct):
    """The interference candidate's table (first half: the choice; held out: what it gives) and its sentence."""
    v, firsts, default, per_fs = interference_first_half(d, first, sys_list)
    names = [f"interference: {x}" for x in tr.INTERFERENCE_VARIANTS] + ["interference: per file system"]
    rows = []
    for s in sys_list:
        sel = held & (d["system"] == s)
        h = {r: tr.error_stats(d.loc[sel, r], d.loc[sel, "bw"])["median_ape"] for r in names + ["30 d / measured"]}
        rows.append([s, pct(firsts[s]["30 d / measured"])] + [pct(firsts[s][r]) for r in names]
                    + [pct(h["30 d / measured"])] + [pct(h[r]) for r in names])
    text = (f"Chosen on the first half: {v}; default (at or below 30 d / measured on every system's first half): "
            f"{'yes' if default else 'no'}. Per file system (the amendment): default "
            f"{'yes' if per_fs else 'no'}.")
    return rows, text


def adaptive_table(d, first, held, sys_list, pct):
    """The adaptive window's table (first half: the choice; held out: what it gives) and its sentence."""
    k, firsts, default = adaptive_first_half(d, first, sys_list)
    rows = []
    for s in sys_list:
        sel = held & (d["system"] == s)
        h = {r: tr.error_stats(d.loc[sel, r], d.loc[sel, "bw"])["median_ape"]
             for r in (f"adaptive k={k:g} / measured", "30 d / measured", f"adaptive k={k:g} / none")}
        rows.append([s, pct(firsts[s]["30 d / measured"])] +
                    [pct(firsts[s][f"adaptive k={x:g} / measured"]) for x in tr.SHIFT_KS] +
                    [pct(h[f"adaptive k={k:g} / measured"]), pct(h["30 d / measured"]),
                     pct(h[f"adaptive k={k:g} / none"])])
    text = (f"Chosen on the first half: k = {k:g}; default (at or below 30 d / measured on every system's first "
            f"half): {'yes' if default else 'no'}.")
    return rows, text


def run(args):
    systems = [s for s in args.systems.split(",") if s]
    bad = [s for s in systems if s not in tokio_data.FILES]
    if bad or not systems:
        raise InputError(f"--systems {args.systems}: unknown system(s) {', '.join(bad)}; fix: give some of "
                         f"{', '.join(tokio_data.FILES)}")
    os.makedirs(args.out, exist_ok=True)
    jobs, _ = tokio_data.jobs(systems)
    d = tr.with_end(jobs)
    d["prev_bg"] = tr.previous_background(d)
    d["persist"] = tr.persistence(d, 7)
    cut = pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp()
    parts, qrows = [], []
    for (s, f), g in d.groupby(["system", "fs"], sort=False):
        preds, qs = rules_for(g, cut)
        train, _ = tokio_model.split(g)
        fz = tokio_model.calibrate(train, "peak")
        preds["_frozen"] = tokio_model.peaks(train, g, fz["q"])[0]
        parts.append(g.join(preds))
        qrows.append([s, f] + [qs[w] for w in WINDOWS] + [qs["90 d recency-weighted"]]
                     + [qs[f"adaptive k={k:g}"] for k in tr.SHIFT_KS] + [qs["interference"]])
    d = pd.concat(parts)
    rules = [c for c in d.columns if " / " in c and not c.startswith("adaptive")]
    ok = d[rules].notna().all(axis=1)
    first = ok & (d["start"] < cut)
    # the held-out jobs of tokio_prediction.py: those every predictor there can predict
    held = ok & (d["start"] >= cut) & d["persist"].notna() & d["_frozen"].notna()
    rows, gate_ok = [], {}
    for r in rules:
        row = {"rule": r}
        for s in dict.fromkeys(d["system"]):
            for part, m in (("first", first), ("held", held)):
                sel = m & (d["system"] == s)
                st = tr.error_stats(d.loc[sel, r], d.loc[sel, "bw"])
                row[f"{s}_{part}"] = st["median_ape"]
                if part == "held":
                    row[f"{s}_bias"] = st["bias"]
        rows.append(row)
    t = pd.DataFrame(rows)
    t.to_csv(os.path.join(args.out, "rules.csv"), index=False)
    sys_list = list(dict.fromkeys(d["system"]))
    pct = lambda v: f"{100 * v:.2f} %"  # noqa: E731
    table = [[r["rule"]] + [f"{pct(r[f'{s}_first'])} → {pct(r[f'{s}_held'])}" for s in sys_list]
             for _, r in t.iterrows()]
    chosen = []
    for s in sys_list:
        sim = t[~t["rule"].str.endswith("/ none")]
        a = sim.loc[sim[f"{s}_first"].idxmin()]
        b = t.loc[t[f"{s}_first"].idxmin()]
        cur = t.set_index("rule").loc["30 d / measured"]
        x = d[first & (d["system"] == s)]
        ea, ec = (x[a["rule"]] - x["bw"]).abs() / x["bw"], (x["30 d / measured"] - x["bw"]).abs() / x["bw"]
        blocks = np.floor(x["start"] / tr.DAY)
        diff, lo, hi = tr.bootstrap_median_difference(ea, ec, blocks, n=10000)
        # the best of m candidates against the current rule: Bonferroni's level 1 - 0.05 / m for the family
        m = len(sim) - 1
        _, blo, bhi = tr.bootstrap_median_difference(ea, ec, blocks, n=10000, level=1 - 0.05 / m)
        row = [s, a["rule"], pct(a[f"{s}_first"]), pct(a[f"{s}_held"]), pct(cur[f"{s}_held"])]
        for l_, h_ in ((lo, hi), (blo, bhi)):
            keep = not h_ < 0  # the interval of the first-half gain over the current rule reaches 0: keep it
            row += [f"{100 * diff:+.2f} ({100 * l_:+.2f} .. {100 * h_:+.2f})",
                    f"{'30 d / measured' if keep else a['rule']}: "
                    f"{pct(cur[f'{s}_held'] if keep else a[f'{s}_held'])}"]
        chosen.append(row + [b["rule"], pct(b[f"{s}_held"])])
        n_compared = m
    # where the contention term binds (the current rule): those jobs' error with and without it
    bind_rows = []
    for s in sys_list:
        m = held & (d["system"] == s)
        x = d[m]
        binds = x["30 d / measured"] < x["30 d / none"] * (1 - 1e-9)
        b = x[binds]
        e0 = tr.error_stats(b["30 d / none"], b["bw"])
        e1 = tr.error_stats(b["30 d / measured"], b["bw"])
        bind_rows.append([s, len(x), f"{int(binds.sum())} ({100 * binds.mean():.1f} %)",
                          f"{pct(e0['median_ape'])} ({100 * e0['bias']:+.1f} %)",
                          f"{pct(e1['median_ape'])} ({100 * e1['bias']:+.1f} %)"])
    gate_rows, gates = [], ["30 d / measured", "gate: fit", "gate: record"]
    for s in sys_list:
        row, firsts = [s], {}
        for part, m in (("first", first), ("held", held)):
            sel = m & (d["system"] == s) & d[gates].notna().all(axis=1)
            for r in gates:
                st = tr.error_stats(d.loc[sel, r], d.loc[sel, "bw"])
                row.append(pct(st["median_ape"]))
                if part == "first":
                    firsts[r] = st["median_ape"]
        gate_rows.append(row)
        for r in gates[1:]:
            gate_ok.setdefault(r, True)
            gate_ok[r] &= firsts[r] <= firsts[gates[0]] + 1e-12
    adaptive_rows, adaptive_choice = adaptive_table(d, first, held, sys_list, pct)
    interf_rows, interf_choice = interference_table(d, first, held, sys_list, pct)
    gate_rows.append(["default on the first half's criterion", "", *(
        "yes" if gate_ok[r] else "no" for r in gates[1:]), "", "", ""])
    pd.DataFrame(gate_rows, columns=["system", *(f"{r}, {part}" for part in ("first half", "held out")
                                                  for r in gates)]).to_csv(os.path.join(args.out, "gates.csv"),
                                                                          index=False)
    lines = ["# Tuning iosim's rolling calibration on the first half (analysis/tokio_tuning.py)", "",
             f"First half: {int(first.sum())} jobs before {tokio_model.SPLIT} (each predicted from the days before "
             f"its own); held out: {int(held.sum())} jobs. q per window chosen on the first half:", "",
             md_table(qrows, ["system", "file system"] + [WNAME[w] for w in WINDOWS] + ["90 d recency-weighted"]
                      + [f"adaptive k={k:g}" for k in tr.SHIFT_KS] + ["sharing (first half)"]),
             "",
             "## Every rule: first-half median APE → held-out median APE", "",
             md_table(table, ["P rule / C rule"] + sys_list), "",
             "## The choice on the first half", "",
             "The first half's best iosim rule, its first-half gain over the current rule (30 d / measured) with "
             "a day-block bootstrap interval (points of median APE; 10,000 resamples), at 95 % and at Bonferroni's "
             f"1 - 0.05 / {n_compared} for the best of {n_compared} candidates, and the rule kept (with its held-out "
             "median APE) when a change must be significant on the first half (the interval below 0):", "",
             md_table(chosen, ["system", "iosim rule best on the first half", "its first half", "its held out",
                               "current rule held out", "first-half difference, 95 % CI", "kept: held out",
                               "first-half difference, Bonferroni CI", "kept: held out",
                               "best rule of all on the first half", "its held out"]), "",
             "## The contention gate (30 d / measured with a gate; the choice on the first half only)", "",
             "Median APE on the jobs every rule predicts; a gate is the default only if at or below 30 d / measured "
             "on every system's first half (docs/validation.md, \"The contention gate\"):", "",
             md_table(gate_rows, ["system", *(f"{r}, {part}" for part in ("first half", "held out")
                                              for r in gates)]), "",
             "## The adaptive window (P since the configuration's last level shift; the choice on the first half "
             "only)", "",
             "Median APE, iosim (C against the measured background) with the adaptive P for k = "
             + ", ".join(f"{k:g}" for k in tr.SHIFT_KS) + ", beside 30 d / measured; the variant is the k of the "
             "lowest first-half median APE averaged over the systems (ties: the larger k), the default only if at or "
             "below 30 d / measured on every system's first half (docs/validation.md, \"The adaptive window\"):", "",
             md_table(adaptive_rows, ["system", "30 d / measured, first half",
                                      *(f"k={k:g}, first half" for k in tr.SHIFT_KS), "chosen, held out",
                                      "30 d / measured, held out", "adaptive peak (chosen k, no simulator), held out"]),
             "", adaptive_choice, "",
             "## Interference sharing, K recalibrated on the window (the choice on the first half only)", "",
             "Median APE, iosim (30 d / measured) with the sharing policy `interference`, K fitted each day on the "
             "window's heaviest backgrounds (heavy) or on all its jobs (all), beside 30 d / measured; the variant of "
             "the lowest first-half median APE averaged over the systems, the default only if at or below 30 d / "
             "measured on every system's first half (docs/validation.md, \"Interference sharing, calibrated on the "
             "window\"):", "",
             md_table(interf_rows, ["system", "30 d / measured, first half",
                                    *(f"{v}, first half" for v in tr.INTERFERENCE_VARIANTS),
                                    "per file system, first half", "30 d / measured, held out",
                                    *(f"{v}, held out" for v in tr.INTERFERENCE_VARIANTS),
                                    "per file system, held out"]),
             "", interf_choice, "",
             "## Where the contention term binds (30 d / measured, held out)", "",
             md_table(bind_rows, ["system", "jobs", "jobs where C - previous background < P",
                                  "on those: peak alone (bias)", "with the contention term (bias)"]), ""]
    return write_markdown(args.out, "tuning.md", lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="results/tokio-tuning", help="output directory")
    ap.add_argument("--systems", default="cori,edison,mira", help="comma-separated systems")
    args = ap.parse_args(argv)
    return cli("tokio_tuning.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
