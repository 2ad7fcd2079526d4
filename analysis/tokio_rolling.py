"""The validation study's predictors of a TOKIO-ABC job's bandwidth that use only what was measured before the job
started (docs/validation.md, "Prediction before the job runs"), beside the rolling calibration `iosim calibrate`
runs, which lives in the installed package (iosim.fsmodel: rolling, choose_q, iosim_rolling, the gates, the
adaptive window, interference sharing) and is re-exported here so the studies read `tr.rolling` as before.

Every function takes rows of tokio_data.jobs() (one file system or several; the columns of iosim.tokio_data) plus
"end" = start + window (s since the epoch). Bandwidths are bytes/s; times are s since the epoch (UTC). The study's own:

- persistence(d, runs): the median bandwidth of the same configuration's last `runs` runs that ended before the job
  started;
- the estimators of P the tuning compared with fsmodel.quantile: trimmed_mean (the 10 % trimmed mean) and
  recency_quantile (the q-quantile with weights halving every 10 days of age), each estimator(bandwidths, ages in
  days, q);
- noise_floor(d): the APE of the median of the job's configuration's other runs that started within 15 days before
  or after it (at least 5): the scatter of a run about a level known from both sides, which a predictor seeing only
  the past is not expected to beat (docs/validation.md, the floor redefined so that "within 2x" can fail);
  neighbour_interpolation(d), the page's former "noise floor": the APE of the mean of the previous and next runs;
- the stronger simple predictors: EXPANDING_DAYS (rolling() over every earlier run: the expanding window) and
  fit_constant (a first-half peak times a first-half constant);
- interference(p, r, k): P / (1 + r / K), the sharing model of "Contention where it binds" (no capacity), and
  fit_interference;
- bootstrap_median_difference: a paired day-block bootstrap of two predictors' median errors;
- follow_the_leader: an online choice among predictors by their recent errors.
"""

import iosim_path  # noqa: F401  (puts the iosim package on sys.path)
from iosim.campaign_io import np, pd
from iosim.fsmodel import *  # noqa: F401,F403  (the rolling calibration, re-exported)
from iosim.fsmodel import CAPACITIES, DAY, _set_gate, _window_quantiles  # noqa: F401


def persistence(d, runs=7):
    """Series on d.index: the median bandwidth of the last `runs` runs of the same configuration (cls) that ended
    before the job started (NaN for a configuration's first run)."""
    out = pd.Series(np.nan, index=d.index)
    for _, g in d.groupby("cls", sort=False):
        g = g.sort_values("start", kind="stable")
        ends, bws, starts = g["end"].to_numpy(), g["bw"].to_numpy(), g["start"].to_numpy()
        order = np.argsort(ends, kind="stable")
        ends_sorted, bws_by_end = ends[order], bws[order]
        for idx, s in zip(g.index, starts):
            n = int(np.searchsorted(ends_sorted, s, side="left"))  # runs ended strictly before s
            if n:
                out[idx] = float(np.median(bws_by_end[max(0, n - runs):n]))
    return out


def trimmed_mean(values, ages, q, trim=0.1):
    """An estimator of P: the mean of the window's bandwidths without the lowest and highest `trim` fraction of
    them (floor(trim x n) values cut at each end; q unused): less sensitive to one slow or fast run than the mean."""
    v = np.sort(np.asarray(values, float))
    k = int(np.floor(trim * len(v)))
    return float(v[k:len(v) - k].mean())


def recency_quantile(values, ages, q, half_life=10.0):
    """An estimator of P that follows recent runs more: the weighted q-quantile of the window's bandwidths, each
    weighted 2^(-age / half_life) (age in days before the day predicted), i.e. the smallest bandwidth whose
    cumulative weight (bandwidths ascending) reaches q of the total."""
    v, a = np.asarray(values, float), np.asarray(ages, float)
    order = np.argsort(v, kind="stable")
    w = np.power(2.0, -a[order] / half_life)
    cum = np.cumsum(w) / w.sum()
    return float(v[order][min(int(np.searchsorted(cum, q - 1e-12, side="left")), len(v) - 1)])


def neighbour_interpolation(d, gap=3.0):
    """Series on d.index: |(b_prev + b_next) / 2 - b| / b, b_prev and b_next the bandwidths of the same
    configuration's previous and next runs when each started within `gap` days of the job (NaN otherwise): the
    page's former "noise floor", not a floor (it averages two runs; predictors pooling more fall below it)."""
    out = pd.Series(np.nan, index=d.index)
    for _, g in d.groupby("cls", sort=False):
        g = g.sort_values("start", kind="stable")
        s, b = g["start"].to_numpy(), g["bw"].to_numpy()
        if len(g) < 3:
            continue
        ok = (s[1:-1] - s[:-2] <= gap * DAY) & (s[2:] - s[1:-1] <= gap * DAY)
        e = np.abs((b[:-2] + b[2:]) / 2 - b[1:-1]) / b[1:-1]
        out[g.index[1:-1]] = np.where(ok, e, np.nan)
    return out


def noise_floor(d, half_width=15.0, min_runs=5):
    """Series on d.index: |m - b| / b, m the median bandwidth of the job's configuration's other runs that started
    within half_width days before or after it (at least min_runs of them; NaN otherwise): the scatter of one run
    about its configuration's level known from both sides (docs/validation.md, "The noise floor")."""
    out = pd.Series(np.nan, index=d.index)
    for _, g in d.groupby("cls", sort=False):
        s, b = g["start"].to_numpy(float), g["bw"].to_numpy(float)
        vals = np.full(len(g), np.nan)
        for i in range(len(g)):
            m = np.abs(s - s[i]) <= half_width * DAY
            m[i] = False
            if m.sum() >= min_runs:
                vals[i] = abs(float(np.median(b[m])) - b[i]) / b[i]
        out[g.index] = vals
    return out


EXPANDING_DAYS = 1e5  # rolling(..., days=EXPANDING_DAYS): every run that ended before the day (the expanding window)
CONSTANTS = np.round(np.arange(0.30, 1.2001, 0.01), 2)  # fit_constant's grid


def fit_constant(p, meas, grid=CONSTANTS):
    """The k of `grid` minimising the median APE of k x p against meas (Series or arrays; rows with a NaN left out),
    and that median APE; ties keep the k closest to 1."""
    p, meas = np.asarray(p, float), np.asarray(meas, float)
    ok = ~np.isnan(p) & ~np.isnan(meas)
    best = None
    for k in sorted(grid, key=lambda v: (abs(v - 1.0), v)):
        err = float(np.median(np.abs(k * p[ok] - meas[ok]) / meas[ok]))
        if best is None or err < best[1] - 1e-12:
            best = (float(k), err)
    return best


def interference(p, r, k):
    """P / (1 + r / K): the job's bandwidth under a background r when every byte/s of others' traffic costs it a
    share (arrays or Series, bytes/s; K > 0)."""
    return p / (1.0 + r / float(k))


def fit_interference(p, r, meas, grid=CAPACITIES):
    """The K of `grid` minimising the median APE of interference(p, r, K) against `meas` (arrays), and that error."""
    pred = p[None, :] / (1.0 + r[None, :] / grid[:, None])
    err = np.median(np.abs(pred - meas[None, :]) / meas[None, :], axis=1)
    best = int(np.argmin(err))
    return float(grid[best]), float(err[best])


def bootstrap_median_difference(err_a, err_b, blocks, n=2000, seed=1, level=0.95):
    """How sure is "a beats b"? The difference median(err_a) - median(err_b) of two predictors' errors on the same
    jobs (arrays of equal length, no NaN) and its percentile bootstrap interval at `level`, resampling whole blocks
    (e.g. UTC days: the jobs of one day share the file system's state, so they are not independent draws) with
    replacement, the same blocks for both predictors (a paired bootstrap). Returns (difference, low, high)."""
    err_a, err_b, blocks = np.asarray(err_a, float), np.asarray(err_b, float), np.asarray(blocks)
    codes, uniq = pd.factorize(blocks)
    members = [np.flatnonzero(codes == k) for k in range(len(uniq))]
    rng = np.random.default_rng(seed)
    diffs = np.empty(n)
    for i in range(n):
        pick = np.concatenate([members[k] for k in rng.integers(0, len(members), len(members))])
        diffs[i] = np.median(err_a[pick]) - np.median(err_b[pick])
    lo, hi = np.quantile(diffs, [(1 - level) / 2, (1 + level) / 2])
    return float(np.median(err_a) - np.median(err_b)), float(lo), float(hi)


def follow_the_leader(g, candidates, lookback=30, default=None, min_jobs=20):
    """Online choice among predictors (follow the leader): for the jobs of UTC day D, the column of `candidates`
    (a DataFrame on g.index, one column per predictor's bandwidth) whose predictions of the jobs that started in
    [D - lookback days, D) and ended before D (those every candidate predicted) had the lowest median APE against
    their measured bw; with fewer than `min_jobs` such jobs, `default` (else the first column). Ties keep the
    earlier column. Uses only jobs finished before the day, so it is a predictor before the job runs. g: one file
    system's jobs with start, end, bw. Returns a Series on g.index of column labels."""
    cols = list(candidates.columns)
    default = cols[0] if default is None else default
    s, e, bw = g["start"].to_numpy(), g["end"].to_numpy(), g["bw"].to_numpy()
    pred = candidates.loc[g.index, cols].to_numpy(dtype=float)
    err = np.abs(pred - bw[:, None]) / bw[:, None]
    ok = ~np.isnan(err).any(axis=1)
    day = np.floor(s / DAY) * DAY
    out = pd.Series(default, index=g.index, dtype=object)
    for hi in np.unique(day):
        w = ok & (s >= hi - lookback * DAY) & (e < hi)
        if w.sum() >= min_jobs:
            out[g.index[day == hi]] = cols[int(np.argmin(np.median(err[w], axis=0)))]
    return out
