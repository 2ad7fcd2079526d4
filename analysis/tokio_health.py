"""What TOKIO-ABC records of a file system's health and of each benchmark's layout, and the what-if rules the
backtest scores with them (docs/validation.md, "What-ifs against measured what-ifs"; analysis/whatif_backtest.py).

- jobs(systems): tokio_data.jobs() plus the OST-health snapshot taken before each job started (pytokio's
  `fshealth_ost_*` columns: most_full_pct, least_full_pct, failover_oss = servers holding more OSTs than the file
  system's usual count, i.e. servers that took over a failed partner's OSTs) and the job's layout.
- layout(d): "fpp" (one file per process, each of one stripe) or "shared" (one file striped over every OST), as the
  benchmark collection's own job scripts ran each mode (NERSC/tokio-abc, run-cron-benchmarks-nersc.sh: IOR's POSIX
  runs and HACC-IO in a directory set to `lfs setstripe -c 1`, IOR's MPI-IO runs, VPIC-IO and BD-CATS in one set to
  `-c -1`; inputs/*.params: POSIX IOR runs 4 to 16 times the segments of MPI-IO IOR, so the larger IOR volume of a
  file system and process count is the file-per-process one). Mira's IOR runs both modes with the same volume
  (inputs/mira.params): there Darshan's record count decides (a record per rank: file per process).
- Health factors h (the bandwidth of a job spread over every OST in a state, over its bandwidth on the healthy,
  empty file system): failover_factor (iosim's: one server carries its partner's OSTs too, so those OSTs share its
  rate; the job waits for them; failover_share its closed form for equal loads), failover_proportional (capacity in proportion to the servers in service),
  fullness_curve and fullness_factor (iosim's: each OST's rate times g(its fullness), the job waits for its slowest
  OST), fullness_proportional (bandwidth in proportion to the free space).
- reference_predictions, reference_sets and predict_from_sets: a what-if predicted from other runs: P = the
  q-quantile of the reference runs' bw / h(run), times h(job); h = 1 is "no change"; fit_grid: a parameter chosen
  on a grid by the median APE; coverage, cross_half_coverage: how often a band holds; verdict: the equivalence test.

Bandwidths are bytes/s, times s since the epoch (UTC), fullness a fraction of the OST's capacity (0..1).
"""

import os

import iosim_path  # noqa: F401  (puts the iosim package on sys.path)
from iosim.campaign_io import np, pd
import tokio_data

DAY = 86400.0
# the raw summary columns this module adds (pytokio's summarize_job; NaN where a summary lacks them: Mira's GPFS)
HEALTH = {"most_full_pct": "fshealth_ost_most_full_pct", "least_full_pct": "fshealth_ost_least_full_pct",
          "failover_oss": "fshealth_ost_overloaded_oss_count"}
RECORDS = {"write": "darshan_num_f_write_time_posix", "read": "darshan_num_f_read_time_posix"}
FPP_APPS = ("hacc_io_write", "hacc_io_read")  # GLEAN, file per process, `lfs setstripe -c 1`
SHARED_APPS = ("vpicio_uni", "dbscan_read")  # pHDF5, one shared file, `lfs setstripe -c -1`
FLOOR = 0.05  # the fullness curve's floor: no OST slower than 5 % of its empty rate


def with_health(d, raw, why):
    """d (tokio_data.tidy's kept rows of `raw`, in order) with the HEALTH columns, `records` (Darshan's file records
    of the job's direction) and layout; `why` the left-out rows (tidy's second value, indexed like raw)."""
    kept = raw.loc[~raw.index.isin(why.index)]
    if len(kept) != len(d):
        raise ValueError(f"{len(kept)} kept raw rows for {len(d)} jobs: tokio_data.tidy changed its rule")
    d = d.copy()
    for name, col in HEALTH.items():
        d[name] = kept[col].astype(float).to_numpy() if col in kept.columns else np.nan
    rec = {k: (kept[c].astype(float).to_numpy() if c in kept.columns else np.full(len(kept), np.nan))
           for k, c in RECORDS.items()}
    d["records"] = np.where(d["direction"].to_numpy() == "write", rec["write"], rec["read"])
    d["layout"] = layout(d)
    return d


def jobs(systems=tuple(tokio_data.FILES), directory=None):
    """tokio_data.jobs(systems) with the OST health and layout of each job (with_health)."""
    directory = directory or tokio_data.data_dir()
    parts = []
    for s in systems:
        path = os.path.join(directory, tokio_data.FILES[s])
        raw = tokio_data.read_summary(path, s)
        d, why = tokio_data.tidy(raw, s, path)
        parts.append(with_health(d, raw, why))
    return pd.concat(parts, ignore_index=True)


def layout(d):
    """Series on d.index: "fpp" or "shared" (the module's doc: the benchmark scripts' striping of each mode), "" for
    an application the scripts do not run. HACC-IO file per process, VPIC-IO and BD-CATS shared; IOR by its mode,
    read from Darshan's file records (`records`: one per rank, > 1, is POSIX file per process; one is the MPI-IO
    shared file), or, without them, by the scripts' volumes: file per process when its volume is the larger of the
    IOR volumes of its (system, file system, processes), shared when the smaller (volume_layout)."""
    out = pd.Series("", index=d.index, dtype=object)
    out[d["app"].isin(FPP_APPS)] = "fpp"
    out[d["app"].isin(SHARED_APPS)] = "shared"
    ior = d["app"] == "ior"
    rec = d["records"] if "records" in d.columns else pd.Series(np.nan, index=d.index)
    by_vol = volume_layout(d)
    out[ior] = np.where(rec[ior].notna(), np.where(rec[ior] > 1, "fpp", "shared"), by_vol[ior])
    return out


def volume_layout(d):
    """IOR's mode by the job scripts' volumes alone (inputs/*.params: POSIX runs 4 to 16 times the segments of
    MPI-IO runs): "fpp" for the larger IOR volume of a (system, file system, processes), "shared" for the smaller,
    "" when there is one volume (Mira's two modes move the same volume) or the job is not IOR."""
    out = pd.Series("", index=d.index, dtype=object)
    ior = d[d["app"] == "ior"]
    vol = (ior["volume"] / 2**30).round()
    grp = [ior["system"], ior["fs"], ior["nprocs"]]
    hi, lo = vol.groupby(grp).transform("max"), vol.groupby(grp).transform("min")
    out[ior.index] = np.where(hi > lo, np.where(vol == hi, "fpp", "shared"), "")
    return out


def round_robin_loads(files, osts):
    """Files per OST when `files` one-stripe files take Lustre's round-robin allocator's consecutive OSTs from OST 0
    within one allocator period (docs/striping.md): ceil on the first files mod osts OSTs, floor on the others."""
    base, extra = divmod(int(files), int(osts))
    return np.array([base + 1] * extra + [base] * (int(osts) - extra), dtype=float)


def job_bandwidth(loads, rates):
    """A job's bandwidth, in units of (volume per unit of load) per unit of time, when OST o carries loads[o] of the
    job's volume at rates[o] and the job ends with its slowest OST: sum(loads) / max(loads / rates)."""
    loads, rates = np.asarray(loads, float), np.asarray(rates, float)
    busy = loads > 0
    return float(loads.sum() / np.max(loads[busy] / rates[busy]))


def layout_loads(kind, osts, files):
    """Each OST's share of a job's volume: "shared" (one file striped over all `osts`, equal stripes) or "fpp"
    (`files` one-stripe files, round_robin_loads)."""
    if kind == "shared":
        return np.ones(int(osts))
    if kind == "fpp":
        return round_robin_loads(files, osts)
    raise ValueError(f"layout {kind!r}: give 'fpp' or 'shared'")


def layout_gain(kind, files, osts_from, osts_to):
    """The OST-count what-if of a job alone, each OST at the same rate: its bandwidth on osts_to OSTs over its
    bandwidth on osts_from (shared: osts_to / osts_from; fpp: max files per OST from / to)."""
    return (job_bandwidth(layout_loads(kind, osts_to, files), np.ones(int(osts_to))) /
            job_bandwidth(layout_loads(kind, osts_from, files), np.ones(int(osts_from))))


def failover_bandwidth(loads, failed, rho):
    """iosim's failover model for one job (test/engine_ost_health.cpp by hand): OST o carries loads[o] of the job's
    volume at rate 1 behind a server of its own of rate rho >= 1, except that for i < failed the OSTs 2i and 2i + 1
    are both behind one server (2i's failed over to its partner): while both move data each gets min(1, rho / 2),
    then the one left min(1, rho). Returns the job's bandwidth, sum(loads) / the time of its slowest OST (units of
    load per unit of time)."""
    loads = np.asarray(loads, float)
    t = loads.copy()
    both, alone = min(1.0, rho / 2.0), min(1.0, rho)
    for i in range(int(failed)):
        a, b = sorted((loads[2 * i], loads[2 * i + 1]))
        t[2 * i] = t[2 * i + 1] = a / both + (b - a) / alone
    return float(loads.sum() / t.max())


def failover_factor(loads, failed, rho):
    """iosim's failover what-if of a job: failover_bandwidth with `failed` servers down over the same with none.
    A job whose two OSTs behind the shared server carry its largest loads (a shared file: every OST the same) gets
    min(1, rho / 2) of its healthy bandwidth, whatever the OST and server counts (failover_share); a
    file-per-process job whose placement leaves those OSTs a file short loses less."""
    return failover_bandwidth(loads, failed, rho) / failover_bandwidth(loads, 0, rho)


def failover_share(servers_down, rho):
    """failover_factor's closed form for equal loads: min(1, rho / 2) when a server is down, 1 otherwise (arrays or
    scalars)."""
    k = np.asarray(servers_down, float)
    return np.where(k > 0, np.minimum(1.0, float(rho) / 2.0), 1.0)


def failover_proportional(servers_down, servers):
    """The proportional rule: capacity in proportion to the servers in service, (S - k) / S."""
    return (np.asarray(servers, float) - np.asarray(servers_down, float)) / np.asarray(servers, float)


def fullness_curve(phi, knee, slope, floor=FLOOR):
    """An OST's rate at fullness phi over its rate when empty: g = max(floor, 1 - slope x max(0, phi - knee))
    (phi, knee fractions; slope: the rate lost per unit of fullness above the knee). Arrays or scalars."""
    phi = np.asarray(phi, float)
    return np.maximum(floor, 1.0 - slope * np.maximum(0.0, phi - knee))


def ost_fullness(osts, least, mean, most):
    """The OSTs' fullness the health snapshot allows (least, mean and most full OST): OST 0 at `most`, OST N-1 at
    `least`, the others at the value that makes the mean `mean`, clipped to [least, most] (fractions)."""
    n = int(osts)
    mid = (n * mean - most - least) / (n - 2) if n > 2 else mean
    out = np.full(n, min(max(mid, least), most))
    out[0], out[-1] = most, least
    return out


def fullness_factor(loads, least, mean, most, knee, slope):
    """iosim's fullness what-if of a job whose OSTs carry `loads` (natural order): its bandwidth with each OST at rate
    g(its fullness) (ost_fullness, fullness_curve) over its bandwidth with every OST empty, the job waiting for its
    slowest OST: max(loads) / max(loads / g)."""
    loads = np.asarray(loads, float)
    g = fullness_curve(ost_fullness(len(loads), least, mean, most), knee, slope)
    return job_bandwidth(loads, g) / job_bandwidth(loads, np.ones(len(loads)))


def fullness_proportional(mean):
    """The proportional rule: bandwidth in proportion to the free space, 1 - mean fullness."""
    return 1.0 - np.asarray(mean, float)


def reference_predictions(d, h, q, days=30.0, state=None, min_runs=3, source=None):
    """For each job of d (one file system's jobs or a target's, with start, end, cls-like `key`), the prediction
    from reference runs: the runs of `source` (default d) with the same key that started in [D - days, D) and ended
    before D (D the job's UTC day), and, when `state` is given (a column of both), whose state differs from the
    job's; with at least `min_runs` of them, P = the q-quantile of bw / h over those runs, and the prediction
    P x h(job). h: a column name of both frames holding each run's health factor, or None (h = 1: no change).
    Returns a DataFrame on d.index: pred (NaN when too few runs), runs (their number)."""
    source = d if source is None else source
    out = pd.DataFrame({"pred": np.nan, "runs": 0}, index=d.index)
    hs = source[h].to_numpy(float) if h is not None else np.ones(len(source))
    hd = d[h].to_numpy(float) if h is not None else np.ones(len(d))
    norm = source["bw"].to_numpy(float) / hs
    s_start, s_end = source["start"].to_numpy(float), source["end"].to_numpy(float)
    s_state = source[state].to_numpy() if state is not None else None
    by_key = {k: np.flatnonzero(source["key"].to_numpy() == k) for k in pd.unique(d["key"])}
    d_key, d_start = d["key"].to_numpy(), d["start"].to_numpy(float)
    d_state = d[state].to_numpy() if state is not None else None
    preds, runs = np.full(len(d), np.nan), np.zeros(len(d), dtype=int)
    for i in range(len(d)):
        idx = by_key[d_key[i]]
        day = np.floor(d_start[i] / DAY) * DAY
        m = (s_start[idx] >= day - days * DAY) & (s_end[idx] < day)
        if state is not None:
            m &= s_state[idx] != d_state[i]
        runs[i] = int(m.sum())
        if runs[i] >= min_runs:
            preds[i] = float(np.quantile(norm[idx][m], q)) * hd[i]
    out["pred"], out["runs"] = preds, runs
    return out


def median_ape(pred, meas):
    """The median of |pred - meas| / meas over the rows where both are numbers (NaN when none)."""
    pred, meas = np.asarray(pred, float), np.asarray(meas, float)
    ok = ~np.isnan(pred) & ~np.isnan(meas)
    return float(np.median(np.abs(pred[ok] - meas[ok]) / meas[ok])) if ok.any() else float("nan")


def reference_sets(d, days=30.0, min_runs=3, key="key", state=None):
    """For each job of d (one file system, with start, end and `key`): the positions in d of its reference runs
    (same key, started in [D - days, D), ended before D, D the job's UTC day, and, when `state` names a column, in
    another state than the job's), as a list of int arrays (empty when fewer than min_runs)."""
    s, e, k = d["start"].to_numpy(float), d["end"].to_numpy(float), d[key].to_numpy()
    st = d[state].to_numpy() if state is not None else None
    by_key = {v: np.flatnonzero(k == v) for v in pd.unique(k)}
    out = []
    for i in range(len(d)):
        idx = by_key[k[i]]
        day = np.floor(s[i] / DAY) * DAY
        m = idx[(s[idx] >= day - days * DAY) & (e[idx] < day)]
        if st is not None:
            m = m[st[m] != st[i]]
        out.append(m if len(m) >= min_runs else np.zeros(0, dtype=int))
    return out


def predict_from_sets(bw, h, sets, q, jobs):
    """For each position j of `jobs`: the q-quantile of bw[r] / h[r] over its reference set r = sets[j], times h[j]
    (arrays over one file system's runs; NaN for an empty set)."""
    out = np.full(len(jobs), np.nan)
    for n, j in enumerate(jobs):
        r = sets[j]
        if len(r):
            out[n] = float(np.quantile(bw[r] / h[r], q)) * h[j]
    return out


def fit_grid(candidates, predict, meas):
    """The candidate (tried in the given order; ties keep the earlier) minimising the median APE of predict(candidate)
    (an array like meas) against meas, and that median APE."""
    best = None
    for c in candidates:
        err = median_ape(predict(c), meas)
        if best is None or err < best[1] - 1e-12:
            best = (c, err)
    return best


def coverage(ape, a):
    """The fraction of jobs whose APE is at most a (inside the band [pred / (1 + a), pred / (1 - a)]); arrays, a
    scalar or one per job (NaN a: the job is left out)."""
    ape, a = np.asarray(ape, float), np.broadcast_to(np.asarray(a, float), np.shape(ape))
    ok = ~np.isnan(ape) & ~np.isnan(a)
    return float(np.mean(ape[ok] <= a[ok])) if ok.any() else float("nan")


def cross_half_coverage(ape, half, qs=(0.75, 0.9)):
    """The band measured out of sample: for each half h, the APE quantiles of the other half's jobs as the band of
    h's jobs. Returns {q: fraction of all jobs inside the band of their other half} and, per half, {half: {q:
    (band a, coverage)}}."""
    ape, half = np.asarray(ape, float), np.asarray(half)
    per, inside = {}, {q: [] for q in qs}
    for h in pd.unique(half):
        mine, other = ape[half == h], ape[half != h]
        per[h] = {}
        for q in qs:
            a = float(np.quantile(other, q)) if len(other) else float("nan")
            per[h][q] = (a, coverage(mine, a))
            if not np.isnan(a):
                inside[q].extend(list(mine <= a))
    return {q: (float(np.mean(v)) if v else float("nan")) for q, v in inside.items()}, per


def verdict(low, high, delta, tol=1e-12):
    """The equivalence test of docs/validation.md: "better" when the interval [low, high] of median APE(candidate)
    - median APE(baseline) lies below -delta, "equivalent" when within (-delta, delta), "worse" when above delta,
    else "not shown"; differences within tol of a bound are float noise (identical predictors are equivalent)."""
    if high < -delta - tol:
        return "better"
    if low > delta + tol:
        return "worse"
    if -delta - tol < low and high < delta + tol:
        return "equivalent"
    return "not shown"
