"""The three predictors of a TOKIO-ABC job's bandwidth, their calibration on the first part of the year and their
scores on the rest (docs/validation.md).

- peak (no contention): the job gets P, the calibrated isolated bandwidth of its benchmark configuration;
- share (load-proportional): P x the job's share of the traffic its file system served during its window,
  min(1, volume / fs_bytes);
- contention (iosim): the job, demanding P, and the file system's other traffic during its window, demanding
  r = max(0, fs_bytes - volume) / window, share the file system's C bytes/s (N OSTs of C / N each) max-min: the job
  gets min(P, max(C - r, C / 2)). iosim computes it by simulating both as flows on the OSTs (tokio_iosim.py); the
  closed form here serves the calibration, and the held-out predictions of iosim are checked against it.

Calibration (each model on its own, each file system on its own, on the training jobs only): P of a configuration is
the q-quantile of its training jobs' bandwidths (a configuration absent from training takes the quantile of a coarser
group: same application, direction and processes, then same application and direction); q in 0.5, 0.6, ..., 1 and,
for the contention model, C on a log grid of 1 GB/s .. 10 TB/s (241 points), are the values minimising the median
absolute percentage error of the model's bandwidth over the training jobs.
"""

import iosim_path  # noqa: F401  (puts the iosim package on sys.path)
from iosim.campaign_io import np, pd
from iosim.fsmodel import FALLBACKS, QUANTILES, ape, contention, peaks  # noqa: F401  (re-exported)
from iosim.fsmodel import FINE_CAPACITIES as CAPACITIES  # C, bytes/s: 1 GB/s .. 10 TB/s, 241 points
from iosim.fsmodel import measured_background as background  # noqa: F401

SPLIT = "2017-08-14"  # the first six months (2017-02-14 .. 2017-08-13) train, the rest is held out
MODELS = ("peak", "share", "contention")


def split(d, cut=SPLIT):
    """(training, held-out) rows of jobs(): start before / from `cut` (UTC)."""
    t = pd.Timestamp(cut, tz="UTC").timestamp()
    return d[d["start"] < t], d[d["start"] >= t]








def predict(model, jobs, p, capacity=None):
    """The model's bandwidth for each row of `jobs` given its P (Series) and, for contention, C (bytes/s)."""
    if model == "peak":
        return p
    if model == "share":
        return p * (jobs["volume"] / jobs["fs_bytes"]).clip(upper=1.0)
    if model == "contention":
        return contention(p, background(jobs), capacity)
    raise ValueError(model)




def calibrate(train, model):
    """The parameters minimising the training median APE: {"q": ..., "capacity": ... or None, "train_median_ape"}."""
    best = None
    meas, r = train["bw"].to_numpy(), background(train).to_numpy()
    for q in QUANTILES:
        p, _ = peaks(train, train, q)
        if model != "contention":
            err = float(ape(predict(model, train, p), train["bw"]).median())
            cands = [(err, None)]
        else:
            pv = p.to_numpy()
            cands = [(float(np.median(np.abs(contention(pv, r, c) - meas) / meas)), c) for c in CAPACITIES]
        for err, c in cands:
            if best is None or err < best["train_median_ape"] - 1e-9:  # 1e-9: below, float noise (a tie)
                best = {"q": q, "capacity": c, "train_median_ape": err}
    return best


def scores(pred, meas):
    """Median and mean APE of the bandwidth and of the I/O time (volume / bandwidth), Pearson and Spearman correlation
    of predicted vs measured bandwidth, and the share of jobs whose bandwidth is within 10, 25 and 50 %."""
    ok = pred.notna() & meas.notna()
    pred, meas = pred[ok], meas[ok]
    e = ape(pred, meas)
    t = (meas / pred - 1).abs()  # |V/pred - V/meas| / (V/meas)
    frame = pd.DataFrame({"p": pred, "m": meas})
    varies = len(frame) > 2 and frame["p"].std() > 1e-9 * frame["p"].abs().mean()  # a constant has no correlation
    return {
        "jobs": int(len(pred)),
        "median_ape": float(e.median()),
        "mean_ape": float(e.mean()),
        "time_median_ape": float(t.median()),
        "time_mean_ape": float(t.mean()),
        "pearson": float(frame["p"].corr(frame["m"])) if varies else float("nan"),
        # Spearman's rho: Pearson's r of the ranks (ties averaged)
        "spearman": float(frame["p"].rank().corr(frame["m"].rank())) if varies else float("nan"),
        "within_10": float((e <= 0.10).mean()),
        "within_25": float((e <= 0.25).mean()),
        "within_50": float((e <= 0.50).mean()),
    }
