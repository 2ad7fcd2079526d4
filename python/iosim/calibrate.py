#!/usr/bin/env python3
"""iosim calibrate: the parameters iosim's file-system model uses, fitted on a site's own measurements over a rolling
window, written as a calibration file (JSON) that a scenario names (docs/validation.md, "iosim calibrate").

    iosim calibrate --tokio SUMMARY.csv[.gz]... [--days 30] [--until DATE] [--stale-after DAYS] [--fs NAME]
                    [--platform XML] [-o FILE]
    iosim calibrate --darshan DIR|LOG... [same options]        (the iosim binary reads the logs, then runs this)
    iosim.calibrate --jobs-csv FILE --source TEXT [...]  (the table the binary writes for --darshan)

The iosim binary checks the whole command line before any measurement is read (src/cli/calibrate.c) and hands this
module the platform's fingerprint (--platform-fingerprint, ios_calibration_fingerprint); run directly, this module
checks what argparse checks.

Inputs. --tokio: TOKIO-ABC summaries (NERSC/tokio-abcutils; columns of iosim.tokio_data), each job with the
bytes its file system served during its run (the background). --jobs-csv: one measured job per row, columns log,
start, end (s since the epoch), nprocs, bytes_read, bytes_written (bytes), io_time_s (the I/O time by the slowest
rank, s), osts (distinct OSTs of the job's files, 0 unknown), fs_osts (the file system's OSTs, 0 unknown), exe.

The window: the jobs that started at or after UNTIL - DAYS days and ended by UNTIL (default UNTIL: the end of the
newest measurement). A configuration is (file system, application, direction, processes, volume in GiB).

Fitted parameters (bandwidths in bytes/s):
- TOKIO-ABC: the rolling calibration of iosim.fsmodel, the one the validation scores: q (the quantile of
  a configuration's bandwidths that is its P) chosen on every job up to UNTIL, each predicted from the DAYS days
  before its own (fsmodel.choose_q); P the q-quantile of the configuration's window bandwidths; the file
  system's capacity C minimising the window's median APE of min(P, max(C - r, C / 2)), r the measured background;
  per-OST capacity c = C / N (N the file system's OSTs); per-configuration efficiency e = P / C.
- TOKIO-ABC, the contention gate (field contention_gate; docs/validation.md, "The contention gate"): the day-block
  sign test at 5 % of the contention term against the peak on the window's jobs (fsmodel.gate_for_window),
  "record" (the predictions made before each window job ran) unless --gate fit; recorded always, applied (C = +inf,
  the peak alone, when the test does not keep C) only with --gate record|fit: the first half chose no gate.
- TOKIO-ABC, the sharing model (field sharing; docs/validation.md, "Interference sharing, calibrated on the
  window", its amendment): per file system, the engine's sharing policy `interference` (variant "all") when its
  rolling-origin median APE on the file system's jobs up to UNTIL is at or below max-min's
  (fsmodel.choose_interference, with the q above and the fixed window's P), else max-min alone; K (interference_capacity_Bps) is fitted
  on the window's jobs at their window P, measured background and rolling C (fsmodel.window_interference,
  +inf: no interference, then max-min: nothing to apply), and kappa_per_ost_Bps = K / N is the engine's `kappa` on
  each of the N OSTs (what a run naming the file uses under sharing `interference`). With --gate record|fit or
  --window adaptive the file says max-min: the gates and the adaptive window were declared and scored with max-min.
- TOKIO-ABC, --window adaptive: P of each configuration the q-quantile of its runs since its last level shift as of
  UNTIL (fsmodel.level_segments, k = fsmodel.SHIFT_K; docs/validation.md, "The adaptive window"), not
  the default (the first half did not choose it); each configuration's history_start says where its history starts.
- Darshan (no server-side data, so no background): P = the median of the configuration's bandwidths; c = the largest
  bandwidth per OST of the window's jobs (a job over n OSTs reaches at most n x c, RR-9502 Eq. 1); e = P / (n c);
  sharing max-min (no background to fit K on).

The platform (field platform): with --platform XML, the file the calibration applies to, {"file": its absolute
path, "fingerprint": the fingerprint of its bytes}; null without. A run on a platform of that fingerprint gets the
fitted capacities; on any other, no capacity changes unless its scenario asks (docs/validation.md, "A run with its
calibration"). --fs NAME keeps the jobs of that file system only (a run applies exactly one).

The output file is written only when everything succeeded, atomically (a temporary file in its folder renamed over
it); the folders it needs are made then, and nothing is left behind on failure.

The held-out error (field held_out_error): jobs of the input predicted by the same calibration refitted each day on
the DAYS days before it (iosim.fsmodel), with only data older than the job: APE quantiles and bias of the
bandwidth, the band a what-if answer made with this calibration carries. TOKIO-ABC: iosim's contention model
(fsmodel.iosim_rolling, the validation's "iosim, rolling" row) with q and the sharing model (interference
variant "all" or max-min, as above; max-min with --gate) chosen per file system on the jobs before --split (default:
the input's middle day) and scored on the jobs from it on; Darshan: P, every job. Exit 2 with the fix on bad input.
"""

import argparse
import datetime as dt
import json
import os
import sys
import tempfile

from .campaign_io import InputError, cli, np, pd
from . import tokio_data
from . import fsmodel as tr

FORMAT = "iosim-calibration/1"
JOBS_COLUMNS = ["log", "start", "end", "nprocs", "bytes_read", "bytes_written", "io_time_s", "osts", "fs_osts", "exe"]


def iso(t):
    """s since the epoch -> "YYYY-MM-DDTHH:MM:SSZ"."""
    return dt.datetime.fromtimestamp(float(t), dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_date(text, what):
    """"YYYY-MM-DD" or an ISO 8601 time (UTC unless it says) -> s since the epoch."""
    try:
        t = pd.Timestamp(text)
    except (ValueError, TypeError):
        raise InputError(f"{what} {text!r}: not a date; fix: give YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ") from None
    t = t.tz_localize("UTC") if t.tzinfo is None else t
    return t.timestamp()


def tokio_jobs(paths):
    """The kept jobs of TOKIO-ABC summaries (tokio_data.tidy): the system is the file name's part before
    "-summaries" (else "site")."""
    parts = []
    for p in paths:
        base = os.path.basename(p)
        system = base.split("-summaries")[0] if "-summaries" in base else "site"
        raw = tokio_data.read_summary(p, "mira")  # read without an index column; Cori's and Edison's leading one:
        raw = raw.drop(columns=[c for c in raw.columns if str(c).startswith("Unnamed: ")])  # dropped
        d, _ = tokio_data.tidy(raw, system, p)
        if d.empty:
            raise InputError(f"{p}: no job with a parallel file system, server-side counters and bytes; fix: give "
                             "TOKIO-ABC summaries (tokio_data.py says which rows are kept)")
        parts.append(d)
    return pd.concat(parts, ignore_index=True)


def darshan_jobs(path):
    """Jobs of the --jobs-csv table (one Darshan log per row) in tokio_data.jobs()'s columns; no background."""
    try:
        t = pd.read_csv(path)
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: not a readable CSV ({e}); fix: the table `iosim calibrate --darshan` writes") \
            from None
    missing = [c for c in JOBS_COLUMNS if c not in t.columns]
    if missing:
        raise InputError(f"{path}: column(s) {', '.join(missing)} missing; fix: give columns {', '.join(JOBS_COLUMNS)}")
    vol = t["bytes_read"].astype(float) + t["bytes_written"].astype(float)
    keep = (vol > 0) & (t["io_time_s"].astype(float) > 0)
    if not keep.any():
        raise InputError(f"{path}: no log moved bytes in a positive I/O time; fix: give logs of jobs that did I/O")
    t, vol = t[keep], vol[keep]
    exe = t["exe"].fillna("").astype(str).str.split().str[0].fillna("").str.rsplit("/", n=1).str[-1]
    d = pd.DataFrame({
        "system": "darshan",
        "fs": np.where(t["fs_osts"] > 0, "lustre-" + t["fs_osts"].astype(int).astype(str) + "-osts", "fs"),
        "app": exe.where(exe != "", t["log"]),
        "direction": np.where(t["bytes_written"] > t["bytes_read"], "write", "read"),
        "nprocs": t["nprocs"].astype(float), "volume": vol, "bw": vol / t["io_time_s"].astype(float),
        "start": t["start"].astype(float), "window": (t["end"] - t["start"]).astype(float).clip(lower=1.0),
        "fs_bytes": vol, "osts": t["osts"].astype(float), "fs_osts": t["fs_osts"].astype(float), "log": t["log"]})
    d["cls"] = (d["system"] + "/" + d["fs"] + "/" + d["app"] + "/" + d["direction"] + "/" +
                d["nprocs"].astype(int).astype(str) + "/" + (d["volume"] / 2**30).round().astype(int).astype(str)
                + "GiB")
    return d.reset_index(drop=True)


SHARING_SECTION = 'docs/validation.md, "Interference sharing, calibrated on the window", its amendment'


def finite(x):
    """x when it is a finite number, else None (JSON null: +inf, NaN)."""
    return float(x) if x is not None and np.isfinite(x) else None


def sharing_object(choice, k, n, gate="none", adaptive=False):
    """The "sharing" object of a TOKIO-ABC file system: choice = fsmodel.choose_interference's (use interference,
    max-min's median APE, interference's median APE) on the file system's jobs up to UNTIL; k the interference
    capacity K fitted on the window (bytes/s, +inf: none); n the file system's OSTs; gate the --gate given. Policy
    "interference" only when chosen, K finite and no gate applied; kappa_per_ost_Bps = K / N then (the engine's
    `kappa` per OST), else null. adaptive (--window adaptive): max-min, the rule that window was declared and
    scored with."""
    use, e_mm, e_if = choice
    pct = f"interference {100 * e_if:.2f} %, max-min {100 * e_mm:.2f} %" if np.isfinite(e_mm) else ""
    if not np.isfinite(e_mm):
        policy, why = "maxmin", "max-min alone: no job up to the window's end was predicted, so nothing was chosen"
    elif adaptive:
        policy, why = "maxmin", (f"max-min alone: --window adaptive was declared and scored with max-min only "
                                 f"(rolling-origin median APE on the past: {pct})")
    elif gate != "none":
        policy, why = "maxmin", (f"max-min alone: --gate {gate} applies with max-min only (rolling-origin median "
                                 f"APE on the past: {pct})")
    elif not use:
        policy, why = "maxmin", (f"max-min alone: interference's rolling-origin median APE on the past is above "
                                 f"max-min's ({pct})")
    elif not np.isfinite(k):
        policy, why = "maxmin", (f"max-min: interference was chosen (rolling-origin median APE on the past: {pct}) "
                                 "but K fitted on the window is +inf (no interference), so there is nothing to apply")
    else:
        policy, why = "interference", (f"interference (variant all, K fitted on the window's jobs): its "
                                       f"rolling-origin median APE on the past is at or below max-min's ({pct})")
    return {"policy": policy, "variant": "all", "interference_capacity_Bps": finite(k),
            "kappa_per_ost_Bps": finite(k / n) if policy == "interference" and n > 0 else None,
            "past_median_ape": {"maxmin": e_mm, "interference": e_if},
            "rule": f"{why}; {SHARING_SECTION}"}


def fit(window, kind, q=0.5, past=None, until=None, shift_k=None, choice=None, gate="none"):
    """The parameters of one file system fitted on `window` (its jobs): a dict (see the module's doc). TOKIO-ABC:
    P of each configuration the q-quantile of its window bandwidths and C the capacity of fsmodel.CAPACITIES
    minimising the window's median APE of min(P, max(C - r, C / 2)), r each job's measured background
    (fsmodel.fit_capacity): what fsmodel.rolling() fits for a job of the day after the window. When
    several capacities fit equally well, capacity_Bps is the smallest of them on tr.FINE_CAPACITIES (the
    capacity a what-if platform is built with: the least that explains the window) and rolling_capacity_Bps the
    largest on fsmodel.CAPACITIES (the one the rolling predictions use: the fewest jobs slowed). Each
    configuration's history_start (s): the start of the first run its P uses. shift_k (TOKIO-ABC, with past: the
    file system's jobs that ended by `until`, with end): the adaptive window (docs/validation.md, "The adaptive
    window"): P the q-quantile of the configuration's runs since its last level shift as of `until`
    (fsmodel.level_segments), C still fitted on the window's q-quantiles, as fsmodel.rolling() does.
    choice (TOKIO-ABC): fsmodel.choose_interference's answer on the file system's past; K for the day after the
    window is fsmodel.window_interference (variant "all") on the window's P, measured background and
    rolling_capacity_Bps, and the "sharing" object says which sharing model applies (sharing_object; gate: --gate)."""
    extra = {}
    if kind == "tokio":
        p = window.groupby("cls")["bw"].transform(lambda x: float(np.quantile(x.to_numpy(), q)))
        r, bw = tr.measured_background(window).to_numpy(), window["bw"].to_numpy()
        extra["rolling_capacity_Bps"], err = tr.fit_capacity(p.to_numpy(), r, bw)
        k_if = tr.window_interference(p.to_numpy(), r, bw, extra["rolling_capacity_Bps"], "all")
        grid = tr.FINE_CAPACITIES
        pred = np.minimum(p.to_numpy()[None, :], np.maximum(grid[:, None] - r[None, :], grid[:, None] / 2))
        errs = np.median(np.abs(pred - bw[None, :]) / bw[None, :], axis=1)
        cap = float(grid[np.flatnonzero(errs <= errs.min() + 1e-9)[0]])
        n = float(window["osts"].max())
        ost = cap / n
        eff = p / cap
    else:
        q = 0.5
        p, _ = tr.peaks(window, window, q)
        known = window[window["osts"] > 0]
        # no Lustre layout in the window: P only (capacity, per-OST capacity and efficiencies null)
        ost = float((known["bw"] / known["osts"]).max()) if len(known) else float("nan")
        n = float(window["fs_osts"].max()) if window["fs_osts"].max() > 0 else float(window["osts"].max())
        cap = ost * n if n > 0 else float("nan")
        eff = p / (window["osts"] * ost).where(window["osts"] > 0)
        err = float(tr.ape(p, window["bw"]).median())
        extra["sharing"] = {"policy": "maxmin", "rule": "no background in Darshan logs: no interference capacity to "
                            f"fit, max-min alone; {SHARING_SECTION}"}
    if kind == "tokio":
        extra["sharing"] = sharing_object(choice if choice is not None else (False, np.nan, np.nan), k_if, n, gate,
                                          adaptive=shift_k is not None)
    confs = []
    for cls, g in window.groupby("cls", sort=True):
        r = g.iloc[0]
        hist = float(g["start"].min())
        if shift_k is not None:
            h = past[past["cls"] == cls]
            pv, hs = tr.adaptive_quantiles(h["start"].to_numpy(), h["end"].to_numpy(), h["bw"].to_numpy(),
                                            np.array([np.nextafter(float(until), np.inf)]), q, shift_k)
            p[g.index] = pv[0]
            eff[g.index] = pv[0] / cap
            hist = float(hs[0])
        confs.append({"key": cls, "app": r["app"], "direction": r["direction"], "nprocs": int(r["nprocs"]),
                      "volume_B": float(g["volume"].median()), "runs": int(len(g)),
                      "osts": int(g["osts"].max()), "bandwidth_Bps": float(p[g.index[0]]),
                      "efficiency": float(eff[g.index[0]]), "history_start": iso(hist)})
    return {"system": window["system"].iloc[0], "fs": window["fs"].iloc[0], "osts": int(n), "q": q,
            "p_window": "fixed" if shift_k is None else {"rule": "adaptive", "k": shift_k, "m": tr.SHIFT_RUNS},
            "capacity_Bps": float(cap), "ost_capacity_Bps": float(ost), "jobs": int(len(window)),
            "fit_median_ape": float(err), **extra, "configurations": confs}


def held_out(d, days, kind, split=None, gate="none", shift_k=None):
    """The rolling backtest: every job predicted by the calibration refitted daily on the `days` days before it, with
    only what was measured before it started. TOKIO-ABC: iosim's contention model (fsmodel.iosim_rolling, the
    validation's "iosim, rolling" row), its q and its sharing model (interference variant "all" or max-min,
    fsmodel.choose_interference; max-min when `gate` applies or with shift_k) chosen per file system on the jobs that started
    before `split` (s since the epoch; fsmodel.choose_q) and scored on the jobs from `split` on, so that no
    score uses a choice made on its own jobs; Darshan: P, the median (nothing chosen), scored on every job. Returns
    (the held_out_error dict, the per-job frame: system, fs, start, cls, bw, pred, scored). shift_k: the adaptive
    window for P (TOKIO-ABC; fsmodel.rolling), None for the fixed `days`; with it, max-min alone (the rule the
    adaptive window was declared and scored with: the validation's adaptive iosim row)."""
    parts, qs, shares = [], {}, {}
    for (s, f), g in tr.with_end(d).groupby(["system", "fs"], sort=False):
        g = g.copy()
        if kind == "tokio":
            q, _ = tr.choose_q(g, days, split, shift_k=shift_k)
            qs[(s, f)] = q
            # the sharing model, chosen as q on the jobs before the split (max-min alone when a gate applies)
            use = gate == "none" and shift_k is None and tr.choose_interference(g, days, q, split)[0]
            shares[(s, f)] = "interference" if use else "maxmin"
            g["pred"] = tr.iosim_rolling(g, days, q, gate=None if gate == "none" else tr.GATE_LEVEL,
                                         gate_on="record" if gate == "none" else gate, shift_k=shift_k,
                                         interference="all" if use else None)["pred"]
            g["scored"] = g["start"] >= split
        else:
            g["pred"] = tr.rolling(g, days, 0.5, fit_c=False)["p"]
            g["scored"] = True
        parts.append(g)
    g = pd.concat(parts)
    sc = g[g["scored"]]
    if kind == "tokio":
        chosen = ", ".join(f"{f} {share}" for (_, f), share in shares.items())
        sharing = (f"sharing max-min on every file system (the contention gate applies with max-min only)"
                   if gate != "none" else
                   "sharing max-min on every file system (the adaptive window was declared and scored with max-min)"
                   if shift_k is not None else
                   f"sharing per file system, chosen on the jobs before {iso(split)} as q is: interference (variant "
                   "all, K refitted each day on the window) where its median APE there is at or below max-min's, "
                   f"else max-min ({chosen}; {SHARING_SECTION})")
        method = (f"each job from {iso(split)} on predicted by iosim's contention model (the job at its "
                  f"configuration's rolling P against the previous job's background, on the rolling C) "
                  f"refitted each UTC day on the {days:g} days before it (only jobs that ended before that day), q per "
                  f"file system chosen on the jobs before {iso(split)}; {sharing}; P window: "
                  + (f"{days:g} days" if shift_k is None else f"adaptive (since the configuration's last level shift, "
                     f"two-window median test, k = {shift_k:g}, m = {tr.SHIFT_RUNS})") + "; contention gate: "
                  + ("none" if gate == "none" else f"{gate} (C kept only on days the sign test at "
                     f"{tr.GATE_LEVEL:g} keeps it)") + "; APE = |predicted - measured| / measured of the "
                  "bandwidth; bias = median of predicted / measured - 1")
    else:
        method = (f"each job predicted by its configuration's median bandwidth over the {days:g} days before its UTC "
                  "day (only jobs that ended before that day); APE = |predicted - measured| / measured of the "
                  "bandwidth; bias = median of predicted / measured - 1")
    out = {"method": method, **tr.error_stats(sc["pred"], sc["bw"])}
    if kind == "tokio":
        out["split"] = iso(split)
    out["per_file_system"] = [{"system": s, "fs": f, **({"q": qs[(s, f)]} if (s, f) in qs else {}),
                               **({"sharing": shares[(s, f)]} if (s, f) in shares else {}),
                               **tr.error_stats(x["pred"], x["bw"])}
                              for (s, f), x in sc.groupby(["system", "fs"], sort=False)]
    return out, g[["system", "fs", "start", "cls", "bw", "pred", "scored"]]


def default_split(d):
    """The middle of the input's days: 00:00 UTC of the day halfway between the first job's start and the last
    job's end (s since the epoch)."""
    mid = (float(d["start"].min()) + float((d["start"] + d["window"]).max())) / 2
    return np.floor(mid / tr.DAY) * tr.DAY


def nan_to_null(v):
    """`v` (dicts, lists, numbers) with every NaN as None (JSON null)."""
    if isinstance(v, dict):
        return {k: nan_to_null(x) for k, x in v.items()}
    if isinstance(v, list):
        return [nan_to_null(x) for x in v]
    return None if isinstance(v, float) and v != v else v


def write_atomic(out, cal):
    """Writes `cal` (JSON) to `out`: the missing folders made, a temporary file in the target folder renamed over `out`;
    on failure the temporary file and the folders made here are removed (nothing that looks like a result)."""
    target = os.path.dirname(os.path.abspath(out))
    made, d = [], target
    while not os.path.isdir(d):
        made.append(d)
        d = os.path.dirname(d)
    try:
        for d in reversed(made):
            os.mkdir(d)
        fd, tmp = tempfile.mkstemp(dir=target, prefix="." + os.path.basename(out) + ".", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(nan_to_null(cal), f, indent=1, allow_nan=False)
            os.replace(tmp, out)
        except BaseException:
            os.unlink(tmp)
            raise
    except BaseException:
        for d in made:
            try:
                os.rmdir(d)
            except OSError:
                pass
        raise


def run(args):
    if bool(args.tokio) == bool(args.jobs_csv):
        raise InputError("give --tokio SUMMARY.csv... or --darshan DIR (--jobs-csv FILE), one of them; fix: e.g. "
                         "iosim calibrate --tokio cori-summaries.csv.gz -o cori.json")
    if not args.days > 0:
        raise InputError(f"--days {args.days}: not a positive number of days; fix: e.g. --days 30")
    kind = "tokio" if args.tokio else "darshan"
    if args.window == "adaptive" and kind != "tokio":
        raise InputError("--window adaptive: TOKIO-ABC summaries only (--tokio); fix: drop --window for Darshan logs")
    shift_k = tr.SHIFT_K if args.window == "adaptive" else None
    if kind == "tokio":
        d = tokio_jobs(args.tokio)
        source = {"kind": "tokio-abc", "paths": [os.path.abspath(p) for p in args.tokio]}
    else:
        d = darshan_jobs(args.jobs_csv)
        source = {"kind": "darshan", "paths": args.source or [os.path.abspath(args.jobs_csv)]}
    if args.platform and not args.platform_fingerprint:
        raise InputError("--platform: its fingerprint is missing; fix: run iosim calibrate (the binary takes it), or "
                         "give --platform-fingerprint")
    if args.fs is not None:
        names = sorted(d["fs"].astype(str).unique())
        if args.fs not in names:
            raise InputError(f"--fs {args.fs}: no job of that file system; fix: one of {', '.join(names)}")
        d = d[d["fs"] == args.fs].reset_index(drop=True)
    ends = d["start"] + d["window"]
    until = parse_date(args.until, "--until") if args.until else float(ends.max())
    lo = until - args.days * tr.DAY
    win = d[(d["start"] >= lo) & (ends <= until)]
    if win.empty:
        raise InputError(f"no measured job in the window {iso(lo)} .. {iso(until)}; fix: a later --until (the data "
                         f"span {iso(d['start'].min())} .. {iso(ends.max())}) or a longer --days")
    upto = d[d["start"] + d["window"] <= until]
    fss = []
    for key, g in win.groupby(["system", "fs"], sort=True):
        # q: the rolling-origin choice over every job up to UNTIL (the past of the predictions the file serves)
        past = tr.with_end(upto[(upto["system"] == key[0]) & (upto["fs"] == key[1])])
        q = tr.choose_q(past, args.days, until, shift_k=shift_k)[0] if kind == "tokio" else 0.5
        # the sharing model: interference or max-min, chosen on the same past, as q is (docs/validation.md)
        choice = tr.choose_interference(past, args.days, q, until) if kind == "tokio" else None
        fss.append(fit(g, kind, q, past, until, shift_k, choice, args.gate))
        if kind == "tokio":
            on = "fit" if args.gate == "fit" else "record"
            inw = (past["start"] >= lo) & (past["end"] <= until)
            t = tr.gate_for_window(past, inw, args.days, q, on, shift_k=shift_k)
            applied = args.gate != "none"
            fss[-1]["contention_gate"] = {
                "test": f"{on}: day-block sign test, one-sided, of the contention term against the peak on the "
                        "window's jobs (docs/validation.md, \"The contention gate\")",
                "level": tr.GATE_LEVEL, "days_for": t["days_for"], "days_against": t["days_against"],
                "p_value": t["p_value"], "kept": t["kept"], "applied": applied,
                "capacity_Bps": t["capacity_Bps"] if (t["kept"] or not applied) else None}
    split = parse_date(args.split, "--split") if args.split else default_split(upto)
    wend = win["start"] + win["window"]
    cal = {
        "format": FORMAT,
        "source": {**source, "jobs": int(len(d))},
        "window": {"days": args.days, "from": iso(lo), "until": iso(until),
                   "first_measurement": iso(win["start"].min()),
                   "newest_measurement": iso(wend.max()), "jobs": int(len(win))},
        "stale_after_days": args.stale_after if args.stale_after is not None else args.days,
        "platform": ({"file": os.path.abspath(args.platform), "fingerprint": args.platform_fingerprint}
                     if args.platform else None),
        "file_systems": fss,
        "held_out_error": held_out(upto, args.days, kind, split, args.gate, shift_k)[0],
    }
    out = args.out
    write_atomic(out, cal)
    h = cal["held_out_error"]
    fit_text = "; ".join((f"{r['fs']}: C {r['capacity_Bps'] / 1e9:.3g} GB/s ({r['ost_capacity_Bps'] / 1e9:.3g} per "
                          "OST), " if r["capacity_Bps"] is not None and r["capacity_Bps"] == r["capacity_Bps"]
                          else f"{r['fs']}: no OST data, ") + sharing_text(r["sharing"])
                         + f", {len(r['configurations'])} configurations"
                         + (f", contention gate {'keeps' if r['contention_gate']['kept'] else 'drops'} C (days "
                            f"{r['contention_gate']['days_for']} for, {r['contention_gate']['days_against']} "
                            f"against, p {r['contention_gate']['p_value']:.3g}"
                            f"{'' if r['contention_gate']['applied'] else ', not applied'})"
                            if "contention_gate" in r else "")
                         for r in fss)
    band = (f"held-out median APE {100 * h['median_ape']:.1f} % (p90 {100 * h['p90']:.1f} %, {h['jobs']} jobs)"
            if h["jobs"] else "no held-out job (no configuration ran twice)")
    made_for = f"; for the platform {args.platform}" if args.platform else ""
    return (f"{out}: {kind} calibration, {len(win)} jobs from {cal['window']['first_measurement']} to "
            f"{cal['window']['newest_measurement']}; {fit_text}; {band}{made_for}")


def sharing_text(sh):
    """The summary line's words for a "sharing" object: the policy, and K and kappa when interference."""
    if sh["policy"] != "interference":
        return "sharing maxmin"
    return (f"sharing interference (K {sh['interference_capacity_Bps'] / 1e9:.3g} GB/s, kappa "
            f"{sh['kappa_per_ost_Bps'] / 1e9:.3g} GB/s per OST)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tokio", nargs="+", metavar="SUMMARY", help="TOKIO-ABC summary CSVs (.csv or .csv.gz)")
    ap.add_argument("--jobs-csv", metavar="FILE", help="one measured job per row (iosim calibrate --darshan)")
    ap.add_argument("--source", nargs="*", help="the paths the --jobs-csv table was read from (recorded)")
    ap.add_argument("--days", type=float, default=30.0, help="the window (days, default 30)")
    ap.add_argument("--until", help="the window's end (YYYY-MM-DD, UTC; default: the newest measurement's end)")
    ap.add_argument("--split", help="the held-out error's split (YYYY-MM-DD, UTC): q and the sharing model "
                    "(interference or max-min) chosen per file system on the jobs before it, scored on the jobs from "
                    "it on (TOKIO-ABC; default: the middle of the input's days)")
    ap.add_argument("--gate", choices=tr.GATES, default="none", help="TOKIO-ABC: the contention gate applied to "
                    "the held-out error and recorded as applied, with max-min sharing on every file system "
                    "(default none: recorded, not applied)")
    ap.add_argument("--window", choices=("fixed", "adaptive"), default="fixed", help="TOKIO-ABC: a configuration's "
                    "P from the --days window (fixed, the default) or from its runs since its last level shift "
                    "(adaptive; docs/validation.md, \"The adaptive window\"); C is fitted on the --days window "
                    "either way")
    ap.add_argument("--stale-after", type=float, help="days after its newest measurement when iosim check calls the "
                    "calibration stale (default: --days)")
    ap.add_argument("--fs", help="only the jobs of this file system (a run applies exactly one)")
    ap.add_argument("--platform", metavar="XML", help="the platform the calibration applies to (recorded with its "
                    "fingerprint: runs on it get the fitted capacities)")
    ap.add_argument("--platform-fingerprint", help="the fingerprint of --platform's bytes (the iosim binary gives it)")
    ap.add_argument("-o", "--out", default="calibration.json", help="the calibration file (default calibration.json)")
    args = ap.parse_args(argv)
    return cli("iosim calibrate", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
