"""The file-system model `iosim calibrate` fits, and the rolling calibration a site runs from its own monitoring
(docs/validation.md, "Prediction before the job runs" and "iosim calibrate"). The validation studies of analysis/
(tokio_model.py, tokio_rolling.py, tokio_prediction.py, tokio_tuning.py) score these same functions.

Every function takes rows of measured jobs in the columns of iosim.tokio_data.tidy() (one file system or several)
plus "end" = start + window (with_end). Bandwidths are bytes/s; times are s since the epoch (UTC).

- A configuration's isolated bandwidth P: the q-quantile of its runs (peaks; a configuration without runs takes a
  coarser group of FALLBACKS). A job demanding P beside a background r (measured_background, bytes/s) shares the
  file system's capacity C max-min: min(P, max(C - r, C / 2)) (contention).
- rolling(d, days, q): per UTC day D, P of every configuration from its runs that started in [D - days, D) and
  ended before D, and C fitted on the same window (fit_capacity), so P, C and P / C are recalibrated every day from
  data older than every job of the day; choose_q picks q on the past alone; iosim_rolling predicts
  min(P, max(C - r_prev, C / 2)), r_prev the previous job's background (previous_background).
- The adaptive window (rolling(..., shift_k=k)): P from a configuration's runs since its last level shift
  (level_segments, adaptive_quantiles); not the default (the first half did not choose it).
- The contention gate (contention_gate, sign_gate, gate_for_window): a day-block sign test of whether the fitted C
  has proved itself on a window's own jobs (docs/validation.md, "The contention gate").
- Interference sharing (interference_share, window_interference, choose_interference): the engine's sharing policy
  `interference` (policies/sharing/interference.c, evaluated by the C policy itself through the compiled module's
  iosim.share_batch: one implementation) for a job beside a background, K fitted each day on the window
  (docs/validation.md, "Interference sharing, calibrated on the window").
"""

import math

from .campaign_io import np, pd

QUANTILES = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)  # the q a configuration's P may take
FINE_CAPACITIES = np.logspace(9, 13, 241)  # C, bytes/s: the grid of a fit on a whole period (1 GB/s .. 10 TB/s)
# coarser groups for configurations never seen in training, finest first
FALLBACKS = (["cls"], ["system", "fs", "app", "direction", "nprocs"], ["system", "fs", "app", "direction"],
             ["system", "app", "direction"])
DAY = 86400.0
CAPACITIES = np.logspace(9, 13, 121)  # C grid of the rolling fit, bytes/s (1 GB/s .. 10 TB/s)
GATE_LEVEL = 0.05  # the contention gate's one threshold (one-sided p), declared before any score (docs/validation.md)
GATES = ("none", "record", "fit")  # the contention gates; "none", the default: the first half chose no gate
SHIFT_RUNS = 5  # the adaptive window's recent window m (runs), declared before any score (docs/validation.md)
SHIFT_KS = (2.0, 3.0, 4.0)  # its three pre-listed thresholds k (x the configuration's own MAD of ln bandwidth)
SHIFT_K = 3.0  # the variant the first half chose (docs/validation.md); not the default (above 30 d on every system)
SHIFT_MAD_FLOOR = 0.01  # the MAD's floor (ln units): guards a reference of identical runs only
INTERFERENCE_VARIANTS = ("heavy", "all")  # K's two pre-listed fits, declared before any score (docs/validation.md)
HEAVY_QUANTILE = 0.9  # "heavy": the window jobs at or above this quantile of the window's backgrounds (top 10 %)
HEAVY_MIN_JOBS = 5  # fewer heavy jobs than this: K = +inf (no interference)


def peaks(train, jobs, q):
    """P of every row of `jobs`: the q-quantile of the bandwidths of the training jobs of its configuration (or of
    the first coarser group that has training jobs; NaN when none has). Also the level used (0 = its configuration)."""
    p = pd.Series(np.nan, index=jobs.index)
    level = pd.Series(-1, index=jobs.index)
    for i, keys in enumerate(FALLBACKS):
        table = train.groupby(keys)["bw"].quantile(q)
        where = pd.MultiIndex.from_frame(jobs[keys]) if len(keys) > 1 else pd.Index(jobs[keys[0]])
        hit = pd.Series(table.reindex(where).to_numpy(), index=jobs.index)
        fill = p.isna() & hit.notna()
        p[fill] = hit[fill]
        level[fill] = i
    return p, level


def measured_background(jobs):
    """r: the file system's other traffic during the job's window, bytes/s (its bytes served minus the job's own,
    over the window)."""
    return (jobs["fs_bytes"] - jobs["volume"]).clip(lower=0) / jobs["window"]


def contention(p, r, capacity):
    """The max-min share of a job demanding p against a background demanding r on capacity C: min(p, max(C - r,
    C / 2)) (bytes/s; arrays or Series)."""
    c = float(capacity)
    return np.minimum(p, np.maximum(c - r, c / 2))


def ape(pred, meas):
    """Absolute percentage error of a bandwidth, as a fraction."""
    return (pred - meas).abs() / meas


def with_end(d):
    """d with its "end" column (start + window), sorted by start."""
    d = d.copy()
    d["end"] = d["start"] + d["window"]
    return d.sort_values("start", kind="stable")


def previous_background(d):
    """Series on d.index: measured_background() of the last job of the same file system that ended before the
    job started (NaN when none did)."""
    out = pd.Series(np.nan, index=d.index)
    r_all = measured_background(d)
    for _, g in d.groupby(["system", "fs"], sort=False):
        order = np.argsort(g["end"].to_numpy(), kind="stable")
        ends, r = g["end"].to_numpy()[order], r_all[g.index].to_numpy()[order]
        n = np.searchsorted(ends, g["start"].to_numpy(), side="left")
        vals = np.where(n > 0, r[np.maximum(n - 1, 0)], np.nan)
        out[g.index] = vals
    return out


def fit_capacity(p, r, meas, grid=CAPACITIES):
    """The C of `grid` minimising the median APE of min(p, max(C - r, C / 2)) against `meas` (arrays), and that
    median APE. Ties keep the largest C (the fewest jobs slowed)."""
    pred = np.minimum(p[None, :], np.maximum(grid[:, None] - r[None, :], grid[:, None] / 2))
    err = np.median(np.abs(pred - meas[None, :]) / meas[None, :], axis=1)
    best = np.flatnonzero(err <= err.min() + 1e-12)[-1]
    return float(grid[best]), float(err[best])


def sign_test(n_for, n_against):
    """One-sided sign test: P(X >= n_for) for X ~ Binomial(n_for + n_against, 1/2), the chance of n_for or more
    successes among the non-tied pairs if each were a fair coin (1.0 when there is no pair)."""
    n = int(n_for) + int(n_against)
    return float(sum(math.comb(n, k) for k in range(int(n_for), n + 1)) / 2.0**n) if n else 1.0


def contention_gate(p, meas, prev_bg, capacity, days, level=GATE_LEVEL):
    """The contention gate (docs/validation.md, "The contention gate"): has the term min(P, max(C - b, C / 2)) proved
    itself on a window's own jobs? Arrays over the window's jobs: p (each job's P in the window, bytes/s), meas (its
    measured bandwidth), prev_bg (b, the previous job's background, bytes/s; NaN read as 0), days (each job's UTC day
    or any block label); capacity the fitted C (bytes/s). A job counts for the term when its prediction with it is
    closer to meas than P alone, against when further; a day counts +1 when more of its jobs count for than against,
    -1 when fewer, 0 (left out) on a tie. Returns a dict: kept (the day-block sign test's p <= level), days_for,
    days_against, p_value (sign_test)."""
    p = np.asarray(p, float)
    b = np.nan_to_num(np.asarray(prev_bg, float), nan=0.0)
    return sign_gate(p, np.minimum(p, np.maximum(capacity - b, capacity / 2)), meas, days, level)


def sign_gate(peak, term, meas, days, level=GATE_LEVEL):
    """The day-block sign test both gates share: arrays over jobs of the peak's predictions, the predictions with
    the contention term, the measured bandwidths and each job's day (block label). A job votes +1 when `term` is
    closer to meas than `peak`, -1 when further, 0 on a tie; a day counts for the term when its votes sum above 0,
    against when below (left out at 0). Returns {kept: p_value <= level, days_for, days_against, p_value}."""
    peak, term, meas = np.asarray(peak, float), np.asarray(term, float), np.asarray(meas, float)
    vote = np.sign(np.abs(peak - meas) - np.abs(term - meas))
    per_day = pd.Series(vote).groupby(np.asarray(days)).sum().to_numpy()
    n_for, n_against = int((per_day > 0).sum()), int((per_day < 0).sum())
    pv = sign_test(n_for, n_against)
    return {"kept": bool(pv <= level), "days_for": n_for, "days_against": n_against, "p_value": pv}


def quantile(values, ages, q):
    """The default estimator of P: the q-quantile of a window's bandwidths (linear interpolation; ages unused)."""
    return float(np.quantile(values, q))


def level_segments(x, k, m=SHIFT_RUNS, floor=SHIFT_MAD_FLOOR):
    """The online level-shift detector of the adaptive window (docs/validation.md, "The adaptive window"): x the
    ln bandwidths of one configuration's runs in the order they ended (array). After each run n (1-based count), the
    recent window is x[n - m:n] and the reference the current segment's runs before it, x[seg:n - m]; when the
    reference holds >= m runs and |median(recent) - median(reference)| > k x max(MAD(reference), floor) (MAD
    unscaled, ln units), a shift is declared and the segment restarts at the first recent run closer to
    median(recent) than to median(reference). A two-window (reference against recent) test of the median,
    robust to the single slow runs these series hold. Returns seg, an int array of len(x) + 1: seg[n] the index of
    the first run of the segment current after n runs (seg[0] = 0)."""
    x = np.asarray(x, float)
    seg = np.zeros(len(x) + 1, dtype=int)
    s = 0
    for n in range(1, len(x) + 1):
        if n - m - s >= m:
            ref, rec = x[s:n - m], x[n - m:n]
            mr, mc = float(np.median(ref)), float(np.median(rec))
            mad = float(np.median(np.abs(ref - mr)))
            if abs(mc - mr) > k * max(mad, floor):
                closer = np.flatnonzero(np.abs(rec - mc) < np.abs(rec - mr))
                s = n - m + int(closer[0]) if len(closer) else n - m
        seg[n] = s
    return seg


def adaptive_quantiles(starts, ends, bws, day_starts, q, k, estimator=quantile):
    """For each day start D of `day_starts` (s): estimator(bws, ages in days, q) over the runs of one configuration
    that ended before D and belong to its current segment (level_segments on the runs that ended before D), NaN when
    none; and the start (s) of that segment's first run (its history start). Arrays of one configuration."""
    order = np.argsort(ends, kind="stable")
    s_o, e_o, b_o = starts[order], ends[order], bws[order]
    seg = level_segments(np.log(b_o), k)
    out, first = np.full(len(day_starts), np.nan), np.full(len(day_starts), np.nan)
    for i, hi in enumerate(day_starts):
        n = int(np.searchsorted(e_o, hi, side="left"))  # runs ended strictly before D
        if n:
            lo = seg[n]
            out[i] = estimator(b_o[lo:n], (hi - s_o[lo:n]) / DAY, q)
            first[i] = float(s_o[lo:n].min())
    return out, first


def _window_quantiles(starts, ends, bws, day_starts, days, q, estimator=quantile):
    """For each day start D of `day_starts` (s): estimator(bws, ages in days, q) over the runs with start >= D - days
    and end < D (NaN when none), and how many runs that is. Arrays of one group, any order."""
    out, count = np.full(len(day_starts), np.nan), np.zeros(len(day_starts), dtype=int)
    for i, hi in enumerate(day_starts):
        m = (starts >= hi - days * DAY) & (ends < hi)
        count[i] = int(m.sum())
        if count[i]:
            out[i] = estimator(bws[m], (hi - starts[m]) / DAY, q)
    return out, count


def rolling(d, days=30, q=0.5, fit_c=True, background=None, estimator=quantile, gate=None, gate_on="record",
            shift_k=None, interference=None):
    """The rolling calibration of every job of d (one or several file systems): a DataFrame on d.index with
    p (the configuration's P, NaN when the window has no run of the configuration or of a coarser group of
    FALLBACKS), level (0 = its configuration), capacity (the C of its file system the predictions use,
    NaN when not fitted, when the window has fewer than 5 jobs, or when the gate dropped it: the peak alone),
    capacity_fitted (the C fitted, before the gate), gate_p, gate_days_for, gate_days_against (the contention gate's
    test on the window, NaN without a gate or a fit), window_jobs, window_start and window_end (s). The window of a
    job starting on UTC day D is the jobs that started in [D - days, D) and ended before D. C is fitted against
    `background` (a column of d, bytes/s: e.g. "prev_bg", the background a prediction will see) or, when None, each
    window job's measured background (measured_background). gate: None (C kept whenever fitted) or the level of
    the day-block sign test (sign_gate) that keeps the day's C, on the window's jobs with their previous background
    (column "prev_bg" of d, else previous_background(d)); gate_on: "record" (each window job's predictions made
    before it ran: its own rolling P with and without the term at its own day's fitted C) or "fit" (the day's P and
    fitted C re-applied to the window's jobs, contention_gate). shift_k: None (P from the fixed window) or the
    adaptive window's k (docs/validation.md, "The adaptive window"): a configuration's P from its runs since its last
    level shift (adaptive_quantiles, level_segments), its history's start in column history_start (s; NaN for a job
    predicted by a coarser group, which keeps the fixed window); C is fitted on the fixed window either way.
    interference: None, or a variant of INTERFERENCE_VARIANTS: column kappa_K, the K of the day
    (window_interference, after C, against the same background; +inf when none was fitted)."""
    if gate_on not in ("record", "fit"):
        raise ValueError(f"gate_on {gate_on!r}: give 'record' or 'fit'")
    out = pd.DataFrame(np.nan, index=d.index,
                       columns=["p", "level", "capacity", "capacity_fitted", "gate_p", "gate_days_for",
                                "gate_days_against", "window_jobs", "window_start", "window_end",
                                "history_start", "kappa_K"])
    day0 = np.floor(d["start"].to_numpy() / DAY) * DAY
    out["window_start"], out["window_end"] = day0 - days * DAY, day0
    for lvl, keys in enumerate(FALLBACKS):
        for _, g in d.groupby(keys if len(keys) > 1 else keys[0], sort=False):
            todo = out.loc[g.index, "p"].isna().to_numpy()
            if not todo.any():
                continue
            gd = np.floor(g["start"].to_numpy() / DAY) * DAY
            days_u, inv = np.unique(gd, return_inverse=True)
            if lvl == 0 and shift_k is not None:
                qv, hs = adaptive_quantiles(g["start"].to_numpy(), g["end"].to_numpy(), g["bw"].to_numpy(), days_u,
                                            q, shift_k, estimator)
            else:
                qv, _ = _window_quantiles(g["start"].to_numpy(), g["end"].to_numpy(), g["bw"].to_numpy(), days_u,
                                          days, q, estimator)
                hs = None
            v = qv[inv]
            fill = todo & ~np.isnan(v)
            idx = g.index[fill]
            out.loc[idx, "p"] = v[fill]
            out.loc[idx, "level"] = lvl
            if hs is not None:
                out.loc[idx, "history_start"] = hs[inv][fill]
    for _, g in d.groupby(["system", "fs"], sort=False):
        s, e = g["start"].to_numpy(), g["end"].to_numpy()
        gd = np.floor(s / DAY) * DAY
        codes = pd.factorize(g["cls"])[0]
        bw = g["bw"].to_numpy()
        r = (measured_background(g) if background is None else g[background].fillna(0)).to_numpy()
        if gate is not None:
            pb = (g["prev_bg"] if "prev_bg" in g.columns else previous_background(g)).to_numpy()
        fitted = {}
        for hi in np.unique(gd):
            w = np.flatnonzero((s >= hi - days * DAY) & (e < hi))
            today = g.index[gd == hi]
            out.loc[today, "window_jobs"] = len(w)
            if not fit_c or len(w) < 5:
                continue
            pw = np.empty(len(w))  # each window job's P: its configuration's q-quantile within the window
            for c in np.unique(codes[w]):
                m = codes[w] == c
                pw[m] = estimator(bw[w][m], (hi - s[w][m]) / DAY, q)
            cap = fitted[hi] = fit_capacity(pw, r[w], bw[w])[0]
            out.loc[today, "capacity_fitted"] = cap
            if interference is not None:
                out.loc[today, "kappa_K"] = window_interference(pw, r[w], bw[w], cap, interference)
            if gate is None:
                out.loc[today, "capacity"] = cap
            elif gate_on == "fit":
                _set_gate(out, today, contention_gate(pw, bw[w], pb[w], cap, gd[w], gate), cap)
        if gate is None or gate_on != "record" or not fitted:
            continue
        # the record: each job's predictions made before it ran, with and without the term at its day's C
        peak = out.loc[g.index, "p"].to_numpy()
        cf = out.loc[g.index, "capacity_fitted"].fillna(np.inf).to_numpy()
        term = np.minimum(peak, np.maximum(cf - np.nan_to_num(pb, nan=0.0), cf / 2))
        for hi, cap in fitted.items():
            w = np.flatnonzero((s >= hi - days * DAY) & (e < hi) & ~np.isnan(peak))
            _set_gate(out, g.index[gd == hi], sign_gate(peak[w], term[w], bw[w], gd[w], gate), cap)
    return out


def _set_gate(out, rows, t, cap):
    """Writes a gate's test (sign_gate's dict) on `rows` of rolling()'s frame, and C when the test kept it."""
    out.loc[rows, ["gate_p", "gate_days_for", "gate_days_against"]] = [t["p_value"], t["days_for"],
                                                                       t["days_against"]]
    if t["kept"]:
        out.loc[rows, "capacity"] = cap


def interference_bounds(p, r, k):
    """The bounds the engine's sharing policy `interference` (policies/sharing/interference.c, run through
    iosim.share_batch: one view of two transfers per element, the job of cap p and a background of cap r, its
    kappa = k) puts on a job and a background over the same resources: p' = p / (1 + r / k), r' = r / (1 + p / k)
    (bytes/s; arrays or scalars broadcast together; k = inf: no interference, kappa 0). The policy's bounds do not
    read the resource's capacity, so the views get the largest finite one. Elements where p or r is not a finite
    number >= 0 give NaN (as the arithmetic would). Returns (p', r'), float arrays of the broadcast shape.
    ValueError when a k is not > 0."""
    p, r, k = np.broadcast_arrays(np.asarray(p, float), np.asarray(r, float), np.asarray(k, float))
    if not (k > 0).all():
        raise ValueError("interference capacity K: give values > 0 (inf: no interference)")
    ok = np.isfinite(p) & np.isfinite(r) & (p >= 0) & (r >= 0)
    pp, rr = np.full(p.shape, np.nan), np.full(p.shape, np.nan)
    if ok.any():
        from . import _core  # the compiled module: the C policy (built with iosim)
        kappa = np.where(np.isfinite(k[ok]), k[ok], 0.0)  # the policy's kappa = 0: no interference
        rates = _core.share_batch("interference", np.finfo(float).max,
                                  {"app": [0, 1], "cap": np.stack([p[ok], r[ok]], axis=-1)}, {"kappa": kappa})
        pp[ok], rr[ok] = rates[:, 0], rates[:, 1]
    return pp, rr


def interference_share(p, r, c, k):
    """The job's bandwidth under the engine's sharing policy `interference` (policies/sharing/interference.c): a job
    of cap p and a background of cap r over the same resources of total capacity c, each slowed by the other's
    offered load at an interference capacity k (all bytes/s; arrays or scalars; c or k = inf: no capacity or no
    interference): the policy's bounds p' = p / (1 + r / k), r' = r / (1 + p / k) (interference_bounds: the C policy
    itself, through iosim.share_batch), then SimGrid's max-min for two flows on one capacity, in closed form (what
    the engine's max-min gives them, docs/validation.md): min(p', max(c - r', c / 2)). With k = inf this is iosim's
    max-min share min(p, max(c - r, c / 2))."""
    pp, rr = interference_bounds(p, r, k)
    return np.minimum(pp, np.maximum(c - rr, c / 2))


def fit_interference_share(p, r, c, meas, grid=CAPACITIES):
    """The K of +inf and `grid` minimising the median APE of interference_share(p, r, c, K) against `meas` (arrays
    over jobs; c the fitted capacity, scalar), and that error. Ties keep the largest K (+inf first: the fewest
    jobs slowed), as fit_capacity."""
    ks = np.concatenate([[np.inf], np.sort(np.asarray(grid, float))[::-1]])
    pred = interference_share(p[None, :], r[None, :], c, ks[:, None])
    err = np.median(np.abs(pred - meas[None, :]) / meas[None, :], axis=1)
    best = int(np.flatnonzero(err <= err.min() + 1e-12)[0])
    return float(ks[best]), float(err[best])


def window_interference(pw, r, bw, capacity, variant):
    """K for the day after a window (docs/validation.md, "Interference sharing, calibrated on the window"): arrays
    over the window's jobs of their window P, measured background and measured bandwidth (bytes/s), the window's
    fitted C; variant "heavy" (fit on the jobs whose background is at or above the window's HEAVY_QUANTILE; +inf
    with fewer than HEAVY_MIN_JOBS) or "all" (every window job). Returns K (bytes/s, +inf: no interference)."""
    if variant not in INTERFERENCE_VARIANTS:
        raise ValueError(f"interference variant {variant!r}: give one of {', '.join(INTERFERENCE_VARIANTS)}")
    pw, r, bw = np.asarray(pw, float), np.asarray(r, float), np.asarray(bw, float)
    if variant == "heavy":
        sel = r >= np.quantile(r, HEAVY_QUANTILE) if len(r) else np.zeros(0, bool)
        if sel.sum() < HEAVY_MIN_JOBS:
            return float("inf")
        pw, r, bw = pw[sel], r[sel], bw[sel]
    return fit_interference_share(pw, r, capacity, bw)[0]


def error_stats(pred, meas):
    """Scores of predictions against measurements (Series; rows where either is NaN are left out): jobs, median APE,
    bias (median of pred / meas - 1, signed), APE quantiles p25, p75, p90, within 25 % (fractions)."""
    ok = pred.notna() & meas.notna()
    pred, meas = pred[ok].astype(float), meas[ok].astype(float)
    e = (pred - meas).abs() / meas
    return {"jobs": int(len(e)),
            "median_ape": float(e.median()) if len(e) else float("nan"),
            "bias": float((pred / meas - 1).median()) if len(e) else float("nan"),
            "p25": float(e.quantile(0.25)) if len(e) else float("nan"),
            "p75": float(e.quantile(0.75)) if len(e) else float("nan"),
            "p90": float(e.quantile(0.90)) if len(e) else float("nan"),
            "within_25": float((e <= 0.25).mean()) if len(e) else float("nan")}


def choose_q(d, days, cut, quantiles=QUANTILES, estimator=quantile, shift_k=None):
    """The q of `quantiles` whose rolling peak (rolling(..., fit_c=False)) has the lowest median APE over the jobs of
    d that start before `cut` (s since the epoch), each predicted from the `days` days before its own day: the
    rolling-origin choice a site can make from its past alone. Returns (q, that median APE); ties keep the smaller q.
    d: one file system's jobs (with "end"). shift_k: the adaptive window's k (rolling()), None for the fixed one."""
    first = d[d["start"] < cut]
    best = None
    for q in quantiles:
        r = rolling(first, days, q, fit_c=False, estimator=estimator, shift_k=shift_k)
        err = float(ape(r["p"], first["bw"]).median())
        if best is None or err < best[1] - 1e-12:
            best = (q, err)
    return best


def iosim_rolling(g, days, q, background=None, estimator=quantile, gate=None, gate_on="record", shift_k=None,
                  interference=None):
    """iosim's rolling prediction of every job of g (one file system, with "end"): rolling(g, days, q) joined with
    prev_bg (previous_background) and pred = min(P, max(C - prev_bg, C / 2)), the max-min share iosim simulates
    (contention), C = +inf when the window could not fit it or the contention gate dropped it (the peak
    alone). `background` as in rolling() (the background C is fitted against); gate, gate_on: the contention gate
    as in rolling() (gate=GATE_LEVEL to apply it; default None, no gate: the rule the first half kept,
    docs/validation.md "The contention gate"); shift_k: the adaptive window for P (rolling(); None: the fixed
    `days`); interference: None (max-min alone, the default) or a variant of INTERFERENCE_VARIANTS (pred =
    interference_share with the day's K, rolling()). This is both the
    validation's "iosim, rolling" row (analysis/tokio_prediction.py) and the held-out error of `iosim
    calibrate` (iosim.calibrate): one function, so they agree."""
    g = g if "prev_bg" in g.columns else g.assign(prev_bg=previous_background(g))
    out = rolling(g, days, q, fit_c=True, background=background, estimator=estimator, gate=gate, gate_on=gate_on,
                  shift_k=shift_k, interference=interference)
    out["prev_bg"] = g["prev_bg"]
    cap = out["capacity"].fillna(np.inf)
    if interference is None:
        out["pred"] = np.minimum(out["p"], np.maximum(cap - out["prev_bg"].fillna(0), cap / 2))
    else:
        k = out["kappa_K"].fillna(np.inf).to_numpy()
        out["pred"] = interference_share(out["p"].to_numpy(), out["prev_bg"].fillna(0).to_numpy(), cap.to_numpy(), k)
    return out


def choose_interference(g, days, q, cut, variant="all"):
    """The per-file-system choice of the sharing model (docs/validation.md, "Interference sharing, calibrated on the
    window", the amendment): on g's jobs (one file system, with end; prev_bg as a column or computed) that start
    before `cut` (s since the epoch), the rolling-origin median APE of iosim_rolling(g, days, q) with max-min alone
    and with interference `variant`, on the jobs both predict. Returns (use interference: its median APE at or below
    max-min's, max-min's median APE, interference's median APE); (False, nan, nan) when no first-half job is
    predicted. Held-out jobs are not read (every prediction uses only jobs ended before its own day)."""
    g = g if "prev_bg" in g.columns else g.assign(prev_bg=previous_background(g))
    first = g[g["start"] < cut]
    a = iosim_rolling(first, days, q)["pred"]
    b = iosim_rolling(first, days, q, interference=variant)["pred"]
    ok = a.notna() & b.notna()
    if not ok.any():
        return False, float("nan"), float("nan")
    ea = float(ape(a[ok], first.loc[ok[ok].index, "bw"]).median())
    eb = float(ape(b[ok], first.loc[ok[ok].index, "bw"]).median())
    return bool(eb <= ea + 1e-12), ea, eb


def gate_for_window(g, in_window, days, q, gate_on="record", level=GATE_LEVEL, background=None, shift_k=None):
    """The contention gate for the day after a window (what `iosim calibrate` records): g one file system's jobs
    (with end; prev_bg as a column or computed), in_window a boolean mask on g.index of the window's jobs. "record":
    sign_gate over the window's jobs of the predictions rolling(g, days, q) made before each ran, with and without
    the term at each job's own day's fitted C; "fit": contention_gate with the window's P (each configuration's
    q-quantile in the window) and C fitted on the window (fit_capacity against `background`, as rolling()). Returns
    sign_gate's dict plus capacity_Bps (the C fitted on the window). shift_k: the adaptive window for the record's
    P (rolling())."""
    g = g if "prev_bg" in g.columns else g.assign(prev_bg=previous_background(g))
    w = g[in_window]
    pw = w.groupby("cls")["bw"].transform(lambda x: float(np.quantile(x.to_numpy(), q))).to_numpy()
    r = (measured_background(w) if background is None else w[background].fillna(0)).to_numpy()
    cap = fit_capacity(pw, r, w["bw"].to_numpy())[0] if len(w) else float("nan")
    day = np.floor(w["start"].to_numpy() / DAY)
    if gate_on == "fit":
        t = contention_gate(pw, w["bw"].to_numpy(), w["prev_bg"].to_numpy(), cap, day, level)
    else:
        roll = rolling(g, days, q, fit_c=True, background=background, shift_k=shift_k)
        peak = roll.loc[w.index, "p"].to_numpy()
        cf = roll.loc[w.index, "capacity_fitted"].fillna(np.inf).to_numpy()
        term = np.minimum(peak, np.maximum(cf - w["prev_bg"].fillna(0).to_numpy(), cf / 2))
        ok = ~np.isnan(peak)
        t = sign_gate(peak[ok], term[ok], w["bw"].to_numpy()[ok], day[ok], level)
    return {**t, "capacity_Bps": cap}
