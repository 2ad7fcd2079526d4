#!/usr/bin/env python3
"""What-ifs on measured what-ifs, job by job (docs/validation.md, "What-ifs on measured what-ifs"): every change of
capacity TOKIO-ABC measured, each job predicted before it ran from runs measured in the other condition, and the
error band measured on those predictions.

    analysis/whatif_backtest.py [--out DIR] [--bands FILE] [--first-half-only] [--jobs N]

- OST count: Edison's scratch1 and scratch2 (24 OSTs) and scratch3 (36), four pairs (source -> target), each target
  job from the source's runs of its configuration in the 30 days before its day: OST scaling (P x N_T / N_S, what
  iosim's what-if gives today), iosim with the benchmarks' layouts (tokio_health.layout), with random placement of
  the one-stripe files, and with the file systems' health (the failover and fullness models below); the band iosim
  carries today (the source's held-out error before the day) and the what-if band, each with its coverage.
- Failover: jobs on OSTs behind a failover server predicted from the same configuration's healthy runs, and the
  reverse; no change, the proportional rule, iosim's model (`iosim platform oss-ost --set failed_over=k`, the
  server's rate rho fitted per direction on one half, scored on the other, then swapped).
- Fullness: jobs whose mean OST fullness differs by 5 points or more from their reference runs'; no change, the
  proportional rule, iosim's model (scenario key `ost_fullness`, the curve fitted as rho).

Every iosim answer is simulated (one `iosim run` per layout, OST count and state; $IOSIM_BIN or build/iosim) and
checked against its closed form (tokio_health). Writes DIR (default results/whatif-backtest): backtest.md (every
table), ost_count_jobs.csv, failover_jobs.csv, fullness_jobs.csv, fits.json; and FILE (default
python/iosim/whatif_bands.json, format iosim-whatif-bands/1: the bands per kind of change). --first-half-only: the
fits and the scores of the first half alone (the choices the rules make), no bands file. Reads
$IOSIM_DATA_DIR/tokio-abc (else ../shared/datasets/tokio-abc). Exit 2 with the fix on bad input.
"""

import argparse
import json
import os
import sys
import time

import iosim_path  # noqa: F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, cli, md_table, np, pd, write_markdown
import tokio_health as th
import tokio_iosim
import tokio_model
import tokio_rolling as tr

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DAYS = 30.0
MIN_RUNS = 3
PAIRS = (("scratch1", "scratch3"), ("scratch2", "scratch3"), ("scratch3", "scratch1"), ("scratch3", "scratch2"))
RHO_GRID = np.round(np.arange(1.0, 2.0001, 0.02), 2)
KNEES = (0.5, 0.6, 0.7, 0.8, 0.9)
SLOPES = tuple(np.round(np.arange(0.0, 3.0001, 0.1), 1))
FULLNESS_CHANGE = 0.05  # a fullness what-if: the mean OST fullness 5 points or more from the references'
NEARLY_FULL = 0.90  # the subset of nearly full OSTs: the fullest at 90 % or more
RANDOM_SEEDS = range(1, 21)
BAND_MIN_JOBS = 100  # the band iosim carries today needs this many earlier source jobs
LEVEL = 0.90  # the equivalence test's interval
MARGIN = 0.10  # delta = MARGIN x the baseline's median APE
GIB = 1073741824.0
OST_RATE = 1e9
SHARED_WRITERS = 8
FORMAT = "iosim-whatif-bands/1"
COMMAND = "IOSIM_DATA_DIR=../shared/datasets /usr/bin/python3 analysis/whatif_backtest.py"


def pct(v, digits=1):
    return "" if v is None or v != v else f"{100 * v:.{digits}f} %"


# ---------------------------------------------------------------- the simulations

class Sims:
    """The iosim runs of the backtest, one per distinct spec: (osts, layout, files, direction, failed, rho,
    fullness (tuple or None), curve (knee, slope) or None, reseed, seed). A job alone on a generated oss-ost
    platform of `osts` servers with one OST each (OSTs of OST_RATE; servers of rho x OST_RATE when rho, else
    1e15; `failed` servers failed over), its files in `layout` (fpp: `files` one-stripe files of 1 GiB, one
    writer each; shared: one file of osts GiB striped over every OST, SHARED_WRITERS writers), `lustre-default`
    with reseed_files `reseed` and the scenario's `seed`; `ost_fullness` when fullness is given."""

    def __init__(self, out_dir):
        self.dir = os.path.join(out_dir, "sim")
        self.specs, self.result = [], {}

    def want(self, spec):
        if spec not in self.result:
            self.result[spec] = None
            self.specs.append(spec)
        return spec

    def scenario(self, spec, out):
        osts, kind, files, direction, failed, rho, full, curve, reseed, seed = spec
        writers = int(files) if kind == "fpp" else SHARED_WRITERS
        volume = (int(files) if kind == "fpp" else int(osts)) * GIB
        plat = {"kind": "oss-ost", "compute": writers, "servers": int(osts), "osts_per_server": 1,
                "ost_bw": OST_RATE, "server_bw": rho * OST_RATE if rho else 1e15, "nic_bw": 1e15}
        if failed:
            plat["failed_over"] = int(failed)
        sc = {"platform": plat,
              "workload": {"applications": [{"name": "job", "nodes": writers, "release": 0,
                                             "phases": [{direction: volume}]}]},
              "allocation": {"policy": "fixed"}, "placement": {"policy": "greedy-non-clairvoyant"},
              "sharing": {"policy": "maxmin"},
              "striping": {"policy": "lustre-default", "layout": "fpp" if kind == "fpp" else "ssf",
                           "stripe_count": 1 if kind == "fpp" else -1, "reseed_files": int(reseed)},
              "seed": int(seed), "output": {"dir": out, "progress": False}}
        if full is not None:
            sc["ost_fullness"] = {"fullness": th.ost_fullness(osts, full[2], full[1], full[0]).tolist(),
                                  "curve": {"knee": curve[0], "slope": curve[1]}}
        return sc, volume

    def run(self, parallel=2):
        todo = [s for s in self.specs if self.result[s] is None]
        runs = []
        for i, spec in enumerate(todo):
            out = os.path.abspath(os.path.join(self.dir, f"run{len(self.result) - len(todo) + i}"))
            os.makedirs(out, exist_ok=True)
            sc, volume = self.scenario(spec, out)
            path = os.path.join(out, "scenario.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(sc, f)
            runs.append({"path": path, "out": out, "spec": spec, "volume": volume})
        tokio_iosim.run_all(runs, parallel)
        for r in runs:
            apps = pd.read_csv(os.path.join(r["out"], "apps.csv")).set_index("name")
            res = pd.read_csv(os.path.join(r["out"], "resources.csv")).set_index("name")
            loads = res.loc[[f"ost{i}" for i in range(int(r["spec"][0]))], "bytes"].to_numpy(float)
            self.result[r["spec"]] = (r["volume"] / float(apps.at["job", "io_time_s"]), loads)

    def bw(self, spec):
        return self.result[spec][0]

    def loads(self, spec):
        return self.result[spec][1]


def healthy(osts, kind, files, direction, reseed=0, seed=1):
    """The spec of a job alone on a healthy, empty file system."""
    return (int(osts), kind, int(files) if kind == "fpp" else 0, direction, 0, None, None, None, reseed, seed)


# ---------------------------------------------------------------- the data

def load():
    """Cori's and Edison's jobs with their health (tokio_health.jobs), end, key (configuration without the file
    system), half, fo (1 failover, 0 healthy, NaN unknown), down (servers failed over), phi_* (fractions)."""
    d = tr.with_end(th.jobs(("cori", "edison")))
    d = d[d["layout"] != ""].copy()
    d["key"] = (d["app"] + "/" + d["direction"] + "/" + d["nprocs"].astype(int).astype(str) + "/" +
                (d["volume"] / 2**30).round().astype(int).astype(str) + "GiB")
    cut = pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp()
    d["half"] = np.where(d["start"] < cut, "first", "second")
    d["fo"] = (d["failover_osts"] > 0).astype(float).where(d["failover_osts"].notna())
    d["down"] = d["failover_oss"].fillna(0)
    d["phi_avg"], d["phi_most"], d["phi_least"] = d["full_pct"] / 100, d["most_full_pct"] / 100, \
        d["least_full_pct"] / 100
    d["files"] = np.where(d["layout"] == "fpp", d["nprocs"], 0).astype(int)
    d["day"] = np.floor(d["start"] / tr.DAY)
    return d


def rolling_q(d):
    """The rolling peak's q of each file system, chosen on the first half (tokio_rolling.choose_q)."""
    cut = pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp()
    return {fs: tr.choose_q(g, DAYS, cut)[0] for fs, g in d.groupby("fs", sort=False)}


def todays_band(d, qs):
    """The band iosim carries today on each Edison file system: its rolling iosim predictions ("iosim, rolling":
    q and the sharing model chosen on the first half) and their APE (Series on d.index, NaN elsewhere)."""
    cut = pd.Timestamp(tokio_model.SPLIT, tz="UTC").timestamp()
    out = pd.Series(np.nan, index=d.index)
    for fs, g in d[d["system"] == "edison"].groupby("fs", sort=False):
        g = g.assign(prev_bg=tr.previous_background(g))
        use, _, _ = tr.choose_interference(g, DAYS, qs[fs], cut)
        pred = tr.iosim_rolling(g, DAYS, qs[fs], interference="all" if use else None)["pred"]
        out[g.index] = (pred - g["bw"]).abs() / g["bw"]
    return out


def band_before(src, ape, day_start, q):
    """a: the q-quantile of `ape` over the source jobs that ended before day_start (NaN with fewer than
    BAND_MIN_JOBS)."""
    ok = (src["end"] < day_start) & ape.notna()
    return float(np.quantile(ape[ok], q)) if ok.sum() >= BAND_MIN_JOBS else float("nan")


# ---------------------------------------------------------------- scores

def compare(cand, base, meas, day):
    """Δ median APE (candidate - baseline, fraction), its LEVEL day-block bootstrap interval, δ and the verdict,
    over the jobs where both predict."""
    cand, base, meas = np.asarray(cand, float), np.asarray(base, float), np.asarray(meas, float)
    ok = ~np.isnan(cand) & ~np.isnan(base)
    if ok.sum() < 2:
        return {"jobs": int(ok.sum()), "diff": np.nan, "low": np.nan, "high": np.nan, "delta": np.nan,
                "verdict": "no jobs"}
    ea, eb = np.abs(cand[ok] - meas[ok]) / meas[ok], np.abs(base[ok] - meas[ok]) / meas[ok]
    diff, lo, hi = tr.bootstrap_median_difference(ea, eb, np.asarray(day)[ok], level=LEVEL)
    delta = MARGIN * float(np.median(eb))
    return {"jobs": int(ok.sum()), "diff": diff, "low": lo, "high": hi, "delta": delta,
            "verdict": th.verdict(lo, hi, delta)}


def cmp_cell(c):
    return (f"{100 * c['diff']:+.2f} ({100 * c['low']:+.2f} .. {100 * c['high']:+.2f}; δ {100 * c['delta']:.2f}): "
            f"**{c['verdict']}**" if c["jobs"] >= 2 else "no jobs")


def ape(pred, meas):
    return (pred - meas).abs() / meas


# ---------------------------------------------------------------- OST count

def ost_count(d, qs, sims, health, bands_today):
    """The four pairs' predictions (one row per target job with a prediction)."""
    rows = []
    for src, dst in PAIRS:
        a, b = d[d["fs"] == src], d[d["fs"] == dst]
        if a.empty or b.empty:
            continue
        na, nb = float(a["osts"].max()), float(b["osts"].max())
        base = th.reference_predictions(b, None, qs[src], DAYS, min_runs=MIN_RUNS, source=a)
        hl = th.reference_predictions(b.assign(h=health[b.index]), "h", qs[src], DAYS, min_runs=MIN_RUNS,
                                      source=a.assign(h=health[a.index]))
        t = b.loc[base["pred"].notna(), ["system", "fs", "key", "app", "direction", "layout", "files", "half",
                                         "start", "end", "day", "bw"]].copy()
        t["source"], t["runs"] = src, base.loc[t.index, "runs"]
        t["P"] = base.loc[t.index, "pred"]
        t["scaling"] = t["P"] * nb / na
        gain = {}
        for (kind, files, dirn), _ in t.groupby(["layout", "files", "direction"]):
            s_a, s_b = healthy(na, kind, files, dirn), healthy(nb, kind, files, dirn)
            gain[(kind, files, dirn)] = sims.bw(s_b) / sims.bw(s_a)
            if kind == "fpp":
                ra = np.mean([sims.bw(healthy(na, kind, files, dirn, 1, s)) for s in RANDOM_SEEDS])
                rb = np.mean([sims.bw(healthy(nb, kind, files, dirn, 1, s)) for s in RANDOM_SEEDS])
                gain[(kind, files, dirn, "random")] = rb / ra
        for k, v in gain.items():
            if len(k) == 3 and abs(v / th.layout_gain(k[0], k[1], na, nb) - 1) > 1e-9:
                raise InputError(f"whatif_backtest.py: iosim's layout gain {v} differs from the closed form: a bug")
        keys = list(zip(t["layout"], t["files"], t["direction"]))
        t["gain_layout"] = [gain[k] for k in keys]
        t["gain_random"] = [gain.get(k + ("random",), gain[k]) for k in keys]
        t["layout_pred"] = t["P"] * t["gain_layout"]
        t["random_pred"] = t["P"] * t["gain_random"]
        t["health_pred"] = hl.loc[t.index, "pred"] * t["gain_layout"]
        # the band iosim carries today: the source's held-out APE quantiles before the job's day
        src_jobs, src_ape = a, bands_today[a.index]
        for q, col in ((0.75, "band75"), (0.90, "band90")):
            cache = {}
            t[col] = [cache.setdefault(dd, band_before(src_jobs, src_ape, dd * tr.DAY, q)) for dd in t["day"]]
        t["pair"] = f"{src} → {dst}"
        rows.append(t)
    if not rows:
        raise InputError("whatif_backtest.py: no OST-count what-if: the summaries hold no configuration run on both "
                         "a 24-OST and a 36-OST Edison file system; fix: give Edison's summaries (PROVENANCE.txt)")
    return pd.concat(rows)


# ---------------------------------------------------------------- failover and fullness

class Health:
    """The failover and fullness what-ifs of one kind: per file system, its jobs with a snapshot (frame g), their
    reference sets (tokio_health.reference_sets: other state for failover, any for fullness), q, and the scored jobs'
    positions; the jobs' placement loads (from the healthy simulations) give iosim's factors for any parameter."""

    def __init__(self, d, qs, kind, loads):
        self.kind, self.parts, self.loads = kind, {}, loads
        rows = []
        for fs, g in d.groupby("fs", sort=False):
            if kind == "failover":
                g = g[g["fo"].notna()]
                sets = th.reference_sets(g, DAYS, MIN_RUNS, state="fo") if len(g) else []
            else:
                g = g[g["phi_avg"].notna() & g["phi_most"].notna() & g["phi_least"].notna()]
                sets = th.reference_sets(g, DAYS, MIN_RUNS) if len(g) else []
            if not len(g):
                continue
            g = g.copy()
            g["pos"] = np.arange(len(g))
            g["runs"] = [len(r) for r in sets]
            scored = g["runs"] > 0
            if kind == "fullness":
                avg = g["phi_avg"].to_numpy()
                g["ref_avg"] = [np.median(avg[r]) if len(r) else np.nan for r in sets]
                scored &= (g["phi_avg"] - g["ref_avg"]).abs() >= FULLNESS_CHANGE
            if not scored.any():
                continue
            self.parts[fs] = (g, sets, qs[fs])
            rows.append(g[scored])
        self.jobs = pd.concat(rows) if rows else d.iloc[:0].assign(pos=0, runs=0, ref_avg=np.nan)
        self.jobs["naive"] = self.predict(lambda g: np.ones(len(g)))
        prop = (lambda g: th.failover_proportional(g["down"], g["osts"])) if kind == "failover" else \
            (lambda g: th.fullness_proportional(g["phi_avg"]))
        self.jobs["proportional"] = self.predict(prop)

    def predict(self, h, jobs=None):
        """Series on jobs.index (default: every scored job): quantile_q(bw_ref / h_ref) x h_job, h(g) an array of
        each run's factor over a file system's frame g."""
        jobs = self.jobs if jobs is None else jobs
        out = pd.Series(np.nan, index=jobs.index)
        for fs, (g, sets, q) in self.parts.items():
            x = jobs[jobs["fs"] == fs]
            if len(x):
                hv = np.asarray(h(g), float)
                out[x.index] = th.predict_from_sets(g["bw"].to_numpy(float), hv, sets, q, x["pos"].to_numpy())
        return out

    def factor(self, param):
        """iosim's factor of each run of a frame g for a parameter (failover: rho per direction; fullness: (knee,
        slope) per direction), the closed form the simulation reproduces, from the runs' placement loads."""
        def h(g):
            out = np.ones(len(g))
            for (fs, kind, files, dirn), x in g.groupby(["fs", "layout", "files", "direction"]):
                if dirn not in param:  # a fit of one direction: the other's runs are never its references
                    continue
                loads = self.loads[(fs, kind, files, dirn)]
                pos = x["pos"].to_numpy()
                if self.kind == "failover":
                    rho = param[dirn]
                    cache = {k: th.failover_factor(loads, k, rho) for k in np.unique(x["down"].to_numpy())}
                    out[pos] = [cache[k] if f > 0 else 1.0 for k, f in zip(x["down"], x["fo"])]
                else:  # tokio_health.fullness_factor, vectorised: OST 0 the most full, N - 1 the least
                    knee, slope = param[dirn]
                    n, lo, me, mo = len(loads), x["phi_least"].to_numpy(), x["phi_avg"].to_numpy(), \
                        x["phi_most"].to_numpy()
                    mid = np.clip((n * me - mo - lo) / (n - 2), lo, mo)
                    worst = np.maximum(np.maximum(loads[0] / th.fullness_curve(mo, knee, slope),
                                                  loads[-1] / th.fullness_curve(lo, knee, slope)),
                                       loads[1:-1].max() / th.fullness_curve(mid, knee, slope))
                    out[pos] = loads.max() / worst
            return out
        return h

    def fit(self, half):
        """The parameter per direction minimising the median APE of the `half`'s what-ifs (file systems pooled):
        failover rho on RHO_GRID (ties: the larger), fullness (knee, slope) on KNEES x SLOPES (ties: the smaller
        slope, then the larger knee). Returns {direction: {value, fit_median_ape, jobs, file_systems}}."""
        out = {}
        for dirn in ("read", "write"):
            x = self.jobs[(self.jobs["half"] == half) & (self.jobs["direction"] == dirn)]
            if self.kind == "failover":
                cands = sorted(RHO_GRID, reverse=True)
                none = 2.0
            else:
                cands = [(k, sl) for sl in sorted(SLOPES) for k in sorted(KNEES, reverse=True)]
                none = (0.9, 0.0)
            if not len(x):
                out[dirn] = {"value": none, "fit_median_ape": float("nan"), "jobs": 0, "file_systems": []}
                continue
            val, err = th.fit_grid(cands, lambda c: self.predict(self.factor({dirn: c}), x).to_numpy(),
                                   x["bw"].to_numpy(float))
            out[dirn] = {"value": val, "fit_median_ape": err, "jobs": int(len(x)),
                         "file_systems": sorted(x["fs"].unique())}
        return out


def fullness_sample(frame, per_group=10):
    """The states iosim simulates for the fullness check: per (file system, layout, files, direction), up to
    `per_group` rows spread over the range of the fullest OST (its extremes included)."""
    picks = []
    for _, x in frame.groupby(["fs", "layout", "files", "direction"]):
        x = x.sort_values("phi_most", kind="stable")
        at = np.unique(np.round(np.linspace(0, len(x) - 1, min(per_group, len(x)))).astype(int))
        picks.append(x.iloc[at])
    return pd.concat(picks) if picks else frame.iloc[:0]


# ---------------------------------------------------------------- the run

def run(args):
    t0 = time.time()
    os.makedirs(args.out, exist_ok=True)
    d = load()
    qs = rolling_q(d)
    sims = Sims(args.out)
    osts = d.groupby("fs")["osts"].max().to_dict()
    halves = ["first"] if args.first_half_only else ["first", "second"]
    # every job's layout on its healthy file system (and random placements on Edison): the placement loads
    combos = d[["fs", "layout", "files", "direction"]].drop_duplicates()
    for _, c in combos.iterrows():
        sims.want(healthy(osts[c["fs"]], c["layout"], c["files"], c["direction"]))
        if c["fs"].startswith("scratch") and c["layout"] == "fpp":
            for s in RANDOM_SEEDS:
                sims.want(healthy(osts[c["fs"]], c["layout"], c["files"], c["direction"], 1, s))
    sims.run(args.jobs)
    loads = {(c["fs"], c["layout"], c["files"], c["direction"]):
             sims.loads(healthy(osts[c["fs"]], c["layout"], c["files"], c["direction"])) for _, c in combos.iterrows()}
    fo, fu = Health(d, qs, "failover", loads), Health(d, qs, "fullness", loads)
    fits = {"q": qs, "failover": {h: fo.fit(h) for h in halves}, "fullness": {h: fu.fit(h) for h in halves}}
    # the simulations of the fitted states: every failover state, a sample of fullness states
    known = d[d["fo"].notna()]
    for h in halves:
        for _, r in known.drop_duplicates(["fs", "layout", "files", "direction", "down", "fo"]).iterrows():
            rho = fits["failover"][h][r["direction"]]["value"]
            for k in ((int(r["down"]), 0) if r["fo"] > 0 else (0,)):
                sims.want(fo_spec(osts, r, rho, k))
        snap = d[d["phi_most"].notna() & d["phi_least"].notna() & d["phi_avg"].notna()]
        for _, r in fullness_sample(snap).iterrows():
            sims.want(fu_spec(osts, r, fits["fullness"][h][r["direction"]]["value"]))
    print(f"whatif_backtest: {len(sims.specs)} iosim runs", file=sys.stderr)
    sims.run(args.jobs)
    gap = check_closed_forms(sims)

    def h_fail_sim(h):
        """iosim's simulated failover factor of each run of a frame (fit of half h)."""
        def f(g):
            return np.array([sims.bw(fo_spec(osts, r, fits["failover"][h][r["direction"]]["value"], int(r["down"])))
                             / sims.bw(fo_spec(osts, r, fits["failover"][h][r["direction"]]["value"], 0))
                             if r["fo"] > 0 else 1.0 for _, r in g.iterrows()])
        return f

    def params(kind, h):
        return {k: v["value"] for k, v in fits[kind][h].items()}

    # the OST-count what-if, the health variant with the first half's fits
    e = d[d["system"] == "edison"].copy()
    e["pos"] = np.arange(len(e))
    health = pd.Series(1.0, index=d.index)
    ke = e[e["fo"].notna()]
    health[ke.index] = h_fail_sim("first")(ke)
    se = e[e["phi_most"].notna() & e["phi_least"].notna() & e["phi_avg"].notna()].copy()
    se["pos"] = np.arange(len(se))
    health[se.index] *= Health.factor(fu, params("fullness", "first"))(se)
    oc = ost_count(d, qs, sims, health, todays_band(d, qs))
    # failover and fullness: iosim's prediction with each half's fit; a job is scored with the other half's
    for h in halves:
        fo.jobs[f"iosim_fit_{h}"] = fo.predict(h_fail_sim(h))
        fu.jobs[f"iosim_fit_{h}"] = fu.predict(fu.factor(params("fullness", h)))
    for t in (fo.jobs, fu.jobs):
        t["iosim"] = t["iosim_fit_first"] if args.first_half_only else \
            np.where(t["half"] == "first", t["iosim_fit_second"], t["iosim_fit_first"])
    return report(args, d, qs, fits, oc, fo.jobs, fu.jobs, gap, t0)


def fo_spec(osts, row, rho, down):
    """The simulation of a job like `row` with `down` servers failed over, servers of rho x OST_RATE."""
    return (int(osts[row["fs"]]), row["layout"], int(row["files"]), row["direction"], int(down), float(rho), None,
            None, 0, 1)


def fu_spec(osts, row, curve):
    """The simulation of a job like `row` at its fullness (least, mean, most to 0.1 point), OSTs slowed by curve."""
    return (int(osts[row["fs"]]), row["layout"], int(row["files"]), row["direction"], 0, None,
            (round(row["phi_most"], 3), round(row["phi_avg"], 3), round(row["phi_least"], 3)),
            (float(curve[0]), float(curve[1])), 0, 1)


def check_closed_forms(sims):
    """The largest relative gap between every simulated bandwidth and its closed form (tokio_health), raising when
    it exceeds 1e-6: a job on its healthy file system (its volume over its most loaded OST's time), failover's
    min(1, rho / 2) of it, fullness's job_bandwidth at g of each OST; and a state never moves the placement."""
    worst = 0.0
    for spec in sims.specs:
        osts, kind, files, direction, failed, rho, full, curve, reseed, seed = spec
        loads = sims.loads(spec)
        closed = loads.sum() / (loads.max() / OST_RATE)
        if failed:
            closed = th.failover_bandwidth(loads, failed, rho) * OST_RATE
        if full is not None:
            g = th.fullness_curve(th.ost_fullness(osts, full[2], full[1], full[0]), curve[0], curve[1])
            closed = th.job_bandwidth(loads, g * OST_RATE)
        worst = max(worst, abs(sims.bw(spec) - closed) / closed)
        base = healthy(osts, kind, files, direction, reseed, seed)
        if base != spec and sims.result.get(base) is not None and not np.allclose(sims.loads(base), loads):
            raise InputError("whatif_backtest.py: a health state moved the job's placement: a bug")
    if not worst < 1e-6:
        raise InputError(f"whatif_backtest.py: iosim and the closed forms differ by {worst:.3g}: a bug of "
                         "tokio_health.py or of the engine")
    return worst


# ---------------------------------------------------------------- the report

PRED_OC = {"scaling": "OST scaling (iosim today)", "layout_pred": "iosim, layout",
           "random_pred": "iosim, layout, random placement", "health_pred": "iosim, layout and health"}


def report(args, d, qs, fits, oc, fo, fu, gap, t0):
    halves = ["first"] if args.first_half_only else ["first", "second"]
    oc, fo, fu = (t[t["half"].isin(halves)].copy() for t in (oc, fo, fu))  # --first-half-only: nothing else shown
    oc.to_csv(os.path.join(args.out, "ost_count_jobs.csv"), index=False)
    fo.to_csv(os.path.join(args.out, "failover_jobs.csv"), index=False)
    fu.to_csv(os.path.join(args.out, "fullness_jobs.csv"), index=False)
    for c in PRED_OC:
        oc[c + "_ape"] = ape(oc[c], oc["bw"])
    lines = [f"# What-ifs on measured what-ifs (analysis/whatif_backtest.py{' --first-half-only' if args.first_half_only else ''})",
             "", "q per file system (rolling peak, chosen on the first half): " +
             ", ".join(f"{k} {v}" for k, v in qs.items()) + f". iosim against the closed forms: largest relative "
             f"gap {gap:.2e}. Wall time {time.time() - t0:.0f} s.", ""]
    # OST count: per pair and half
    rows = []
    for (pair, half), x in oc.groupby(["pair", "half"], sort=False):
        rows.append([pair, half, len(x)] + [pct(x[c + "_ape"].median()) for c in PRED_OC] +
                    [pct(th.coverage(x["scaling_ape"], x["band75"]), 0) + f" ({int(x['band75'].notna().sum())})",
                     pct(th.coverage(x["scaling_ape"], x["band90"]), 0)])
    lines += ["## OST count: per pair and half", "",
              "Median APE of each predictor, job by job; the band iosim carries today (the source's held-out "
              "error before the day) and the fraction of jobs inside it (jobs with a band in brackets):", "",
              md_table(rows, ["pair", "half", "jobs", *PRED_OC.values(), "inside today's p75 band (nominal 75 %)",
                              "inside today's p90 band (nominal 90 %)"]), ""]
    # per configuration
    rows = []
    for (pair, key, half), x in oc.groupby(["pair", "key", "half"], sort=False):
        rows.append([pair, key, x["layout"].iloc[0], half, len(x), f"{x['gain_layout'].iloc[0]:.4f}"] +
                    [pct(x[c + "_ape"].median()) for c in PRED_OC] +
                    [pct(th.coverage(x["scaling_ape"], x["band75"]), 0),
                     pct(th.coverage(x["scaling_ape"], x["band90"]), 0),
                     f"{(x['bw'] / x['P']).median():.3f}"])
    lines += ["## OST count: per pair, configuration and half", "",
              md_table(rows, ["pair", "configuration", "layout", "half", "jobs", "iosim layout gain",
                              *PRED_OC.values(), "inside today's p75", "inside today's p90",
                              "measured gain (median b / P)"]), ""]
    # per pair and configuration, both halves side by side (the table docs/validation.md shows)
    both = []
    for (pair, key), x in oc.groupby(["pair", "key"], sort=False):
        hs = [x[x["half"] == h] for h in halves]

        def cells(f):
            return " / ".join(f(y) if len(y) else "—" for y in hs)
        both.append([pair, key.rsplit("/", 2)[0] + "/" + key.rsplit("/", 1)[1], x["layout"].iloc[0],
                     " / ".join(str(len(y)) for y in hs),
                     cells(lambda y: pct(y["scaling_ape"].median())),
                     cells(lambda y: pct(y["layout_pred_ape"].median())),
                     cells(lambda y: pct(th.coverage(y["scaling_ape"], y["band75"]), 0)),
                     cells(lambda y: pct(th.coverage(y["scaling_ape"], y["band90"]), 0)),
                     cells(lambda y: f"{(y['bw'] / y['P']).median():.2f}")])
    hl = " / ".join(halves)
    lines += ["## OST count: per pair and configuration, both halves", "",
              f"Each cell: {hl} half. iosim's OST-count what-if today is OST scaling (gain N_T / N_S); iosim with the "
              "layouts gains 1.5 (shared file) or 86 / 57 = 1.509 (2048 one-stripe files), the reverse 0.667 and "
              "0.663; the band iosim carries today, its p75 (nominal 75 %) and p90 (nominal 90 %), job by job:", "",
              md_table(both, ["pair", "configuration", "layout", "jobs", "OST scaling, median APE",
                              "iosim, layout, median APE", "inside today's p75", "inside today's p90",
                              "measured gain (median b / P)"]), ""]
    # the margin tests, pooled over pairs, per half, and per pair; the default chosen on the first half
    rows, better = [], []
    for half in halves:
        x = oc[oc["half"] == half]
        for c in ("layout_pred", "random_pred", "health_pred"):
            cmp = compare(x[c], x["scaling"], x["bw"], x["day"])
            rows.append(["all pairs", half, PRED_OC[c], cmp_cell(cmp)])
            if half == "first" and cmp["verdict"] == "better":
                better.append((float(x[c + "_ape"].median()), c))
        for pair, y in x.groupby("pair", sort=False):
            for c in ("layout_pred", "random_pred", "health_pred"):
                rows.append([pair, half, PRED_OC[c], cmp_cell(compare(y[c], y["scaling"], y["bw"], y["day"]))])
    fits["ost_count_default"] = min(better)[1] if better else "scaling"
    with open(os.path.join(args.out, "fits.json"), "w", encoding="utf-8") as f:
        json.dump(fits, f, indent=1, default=float)
    lines += ["## OST count: each simulated variant against OST scaling", "",
              f"Δ median APE (points, candidate − scaling), its {int(100 * LEVEL)} % day-block bootstrap interval, the "
              f"margin δ = {int(100 * MARGIN)} % of scaling's median APE, and the verdict. The default chosen on the "
              f"first half (a variant *better* there, else scaling): **{PRED_OC[fits['ost_count_default']]}**.", "",
              md_table(rows, ["pairs", "half", "candidate", "Δ (interval; δ): verdict"]), ""]
    # the what-if band of the OST count (scaling and each variant)
    rows = []
    for c in PRED_OC:
        cov, per = th.cross_half_coverage(oc[c + "_ape"], oc["half"])
        rows.append([PRED_OC[c], len(oc), pct(oc[c + "_ape"].median()), pct(oc[c + "_ape"].quantile(0.75)),
                     pct(oc[c + "_ape"].quantile(0.9))] +
                    [f"{pct(per[h][0.75][0])} → {pct(per[h][0.75][1], 0)}; {pct(per[h][0.9][0])} → "
                     f"{pct(per[h][0.9][1], 0)}" for h in halves if h in per])
    lines += ["## OST count: the what-if band", "",
              "APE quantiles over every scored job; per half: the other half's p75 and p90 as this half's band → the "
              "fraction of this half's jobs inside it:", "",
              md_table(rows, ["predictor", "jobs", "p50", "p75", "p90", *[f"{h} half: p75 → inside; p90 → inside"
                                                                         for h in halves]]), ""]
    lines += health_tables(fo, fu, fits, halves, args.first_half_only)
    write_markdown(args.out, "backtest.md", lines)
    if not args.first_half_only:
        write_bands(args, oc, fo, fu, fits)
    return os.path.join(args.out, "backtest.md")


def health_tables(fo, fu, fits, halves, first_only):
    lines = []
    for name, t, fitk in (("Failover", fo, "failover"), ("Fullness", fu, "fullness")):
        if t.empty:
            continue
        t = t[t["half"].isin(halves)].copy()
        for c in ("naive", "proportional", "iosim"):
            t[c + "_ape"] = ape(t[c], t["bw"])
        t["lay"] = t["layout"] + ", " + t["direction"]
        f = fits[fitk]
        lines += [f"## {name}", "", "Fits (per direction; scored on the other half"
                  + (": here the first half in sample" if first_only else "") + "): " +
                  "; ".join(f"{h} half: " + ", ".join(f"{k} " + (f"rho {v['value']:.2f}" if name == "Failover" else
                                                                  f"knee {v['value'][0]:.1f} slope {v['value'][1]:.1f}")
                                                         + f" ({v['jobs']} jobs, {pct(v['fit_median_ape'])})"
                                                         for k, v in fh.items()) for h, fh in f.items()), ""]
        rows = []
        for (half, fs, lay), x in t.groupby(["half", "fs", "lay"], sort=True):
            rows.append([half, fs, lay, len(x), int((x["fo"] > 0).sum()) if name == "Failover" else
                         int((x["phi_avg"] > x["ref_avg"]).sum())] +
                        [pct(x[c + "_ape"].median()) for c in ("naive", "proportional", "iosim")])
        lines += [md_table(rows, ["half scored", "file system", "layout", "jobs",
                                  "in failover" if name == "Failover" else "fuller than references",
                                  "no change", "proportional", "iosim"]), ""]
        rows = []
        for (half, lay), x in t.groupby(["half", "lay"], sort=True):
            rows.append([half, lay, len(x), cmp_cell(compare(x["iosim"], x["naive"], x["bw"], x["day"])),
                         cmp_cell(compare(x["iosim"], x["proportional"], x["bw"], x["day"]))])
        for half, x in t.groupby("half", sort=True):
            rows.append([half, "all layouts", len(x), cmp_cell(compare(x["iosim"], x["naive"], x["bw"], x["day"])),
                         cmp_cell(compare(x["iosim"], x["proportional"], x["bw"], x["day"]))])
        lines += [f"iosim against no change and against the proportional rule (Δ median APE, points; {int(100 * LEVEL)} "
                  "% day-block interval; δ; verdict):", "",
                  md_table(rows, ["half scored", "layout", "jobs", "iosim vs no change", "iosim vs proportional"]),
                  ""]
        if name == "Fullness":
            x = t[t["phi_most"] >= NEARLY_FULL]
            rows = [[h, len(y)] + [pct(y[c + "_ape"].median()) for c in ("naive", "proportional", "iosim")]
                    for h, y in x.groupby("half", sort=True)]
            lines += [f"Nearly full (fullest OST at {int(100 * NEARLY_FULL)} % or more):", "",
                      md_table(rows, ["half scored", "jobs", "no change", "proportional", "iosim"]), ""]
    return lines


def write_bands(args, oc, fo, fu, fits):
    """python/iosim/whatif_bands.json (FORMAT): the APE quantiles and the out-of-sample coverage of iosim's what-if
    answer per kind of change (band_entry)."""
    chosen = fits["ost_count_default"]
    kinds = {"ost_count": band_entry(
        ape(oc[chosen], oc["bw"]), oc["half"],
        "TOKIO-ABC, Edison: scratch1 and scratch2 (24 OSTs) and scratch3 (36 OSTs), both directions, every benchmark "
        "configuration, 2017-02-14 .. 2018-02-15; each job predicted from the other file system's runs of its "
        f"configuration in the {DAYS:g} days before its day ({PRED_OC[chosen]})", "maxmin")}
    for name, t, what in (("failover", fo, "jobs on OSTs behind a failover server predicted from healthy runs of "
                           "their configuration in the 30 days before, and the reverse (file systems: "),
                          ("fullness", fu, "jobs whose mean OST fullness differs by 5 points or more from their "
                           "configuration's runs in the 30 days before (file systems: ")):
        if t.empty:
            continue
        kinds[name] = band_entry(ape(t["iosim"], t["bw"]), t["half"], "TOKIO-ABC, " + what +
                                 ", ".join(sorted(t["fs"].unique())) + "); iosim's model fitted on one half, "
                                 "each job scored by the other half's fit", "maxmin")
    if "failover" in kinds:
        kinds["failover"]["model"] = {"fitted_on": "first half", "server_rate_over_ost_rate": {
            k: v["value"] for k, v in fits["failover"]["first"].items()},
            "platform": "iosim platform oss-ost --set failed_over=K --set server_bw=RHO x ost_bw"}
    if "fullness" in kinds:
        kinds["fullness"]["model"] = {"fitted_on": "first half", "curve": {
            k: {"knee": v["value"][0], "slope": v["value"][1], "floor": th.FLOOR}
            for k, v in fits["fullness"]["first"].items()},
            "scenario": "\"ost_fullness\": {\"fullness\": ..., \"curve\": {\"knee\": ..., \"slope\": ...}}"}
    doc = {"format": FORMAT, "source": "TOKIO-ABC (NERSC/tokio-abcutils summaries, $IOSIM_DATA_DIR/tokio-abc); "
           "docs/validation.md, \"What-ifs on measured what-ifs\"", "command": COMMAND, "kinds": kinds}
    os.makedirs(os.path.dirname(os.path.abspath(args.bands)), exist_ok=True)
    with open(args.bands, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def band_entry(x, half, measured_on, sharing):
    """One kind of the bands file: jobs, the APE quantiles p50, p75, p90 over every job, and the coverage of the p75
    and p90 bands measured out of sample (each half's jobs inside the band of the other half's quantiles, both
    halves pooled: tokio_health.cross_half_coverage)."""
    x, half = np.asarray(x, float), np.asarray(half)
    ok = ~np.isnan(x)
    x, half = x[ok], half[ok]
    cov, _ = th.cross_half_coverage(x, half)
    r4 = lambda v: round(float(v), 4)  # noqa: E731
    return {"measured_on": measured_on, "jobs": int(len(x)),
            "ape": {"p50": r4(np.quantile(x, 0.5)), "p75": r4(np.quantile(x, 0.75)), "p90": r4(np.quantile(x, 0.9))},
            "coverage": {"p75": r4(cov[0.75]), "p90": r4(cov[0.9])}, "sharing": sharing}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="results/whatif-backtest", help="output directory")
    ap.add_argument("--bands", default=os.path.join(ROOT, "python", "iosim", "whatif_bands.json"),
                    help="the bands file to write")
    ap.add_argument("--first-half-only", action="store_true", help="fits and first-half scores only (no bands file)")
    ap.add_argument("--jobs", type=int, default=2, help="iosim runs at once")
    args = ap.parse_args(argv)
    return cli("whatif_backtest.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
