#!/usr/bin/env python3
"""iosim compare: did the change help? Per job and in total, the I/O time and the end time of several runs of the same
jobs, and their change against the first run.

usage: python3 -m iosim.compare RUN_DIR RUN_DIR... [--labels L1,L2,...] [--csv FILE] [--html FILE] [--allow-different]

Each RUN_DIR is the output directory of `iosim run` (results.json and apps.csv), or a run inside a campaign database,
DIR/campaign.db#RUN_ID or DIR#RUN_ID (iosim.results.parse_run). The first is the base. The answer to
"did it help" is the change of each job's I/O time (`io_time_s` of apps.csv) and of their sum (`total_io_time_s`),
in %, against the base: negative is faster. End times (`end_s`) and the resource that bound each job most
(`bound_by`, `bound_share`: apps.csv columns the engine writes; "n/a" when the run has none) are context
(docs/outputs.md, "Did it help? iosim compare"; docs/whatif.md).

Runs are comparable when they hold the same jobs (names) moving the same volumes (io_volume_bytes, relative
difference below 1e-6), all complete, with the same workload kind and replay mode (workload.*.osts, .phases, .replay,
queue.enabled). Beside every change, its band: the measured what-if band of its kind of change (python/iosim/
whatif_band.py: the key varied, e.g. an OST count; its empirical coverage beside the nominal, where it was measured,
transferred or the site's own) or, for a kind no what-if measured, "no validated band" and the held-out APE
quantiles of the calibration each run used (results.json's scenario.calibration; the file's held_out_error) with the
band they imply (change_band; "no calibration: error not validated" when a run used none; a warning when the runs
used different ones); whether a band crosses zero; whether it describes the sharing model the runs used; and the
calibration's standing (results.json's "calibration": validated on the platform it was made for or transferred, its
age against its stale_after_days).
Different jobs or volumes, or an incomplete run: refused (exit 2) unless --allow-different; a different
replay mode or workload kind: a warning line. `iosim compare` and `iosim whatif` run this script.
"""

import argparse
import calendar
import collections
import json
import math
import os
import sys
import time


from . import campaign_io  # noqa: E402  (exits 2 naming the Debian package when a module is missing)
from . import results  # noqa: E402  (the checked reader of run outputs)
from .campaign_io import InputError, pd  # noqa: E402
from . import whatif_band  # noqa: E402

VOLUME_RTOL = 1e-6  # relative difference of two volumes still "the same job"
TOTAL = "(all jobs)"  # the job name of the total row
REPLAY_KEYS = ("osts", "phases", "replay")  # workload options that say how the jobs are replayed


def load_run(rdir):
    """(results dict, apps DataFrame) of one run directory, read and checked by iosim.results (every value finite,
    none negative or impossible: a bad file is an InputError naming the file, the line, the column and the fix)."""
    run = results.read_run(rdir, need=("results", "apps"))
    if "end_s" not in run.apps.columns:
        raise InputError(f"{run.apps.attrs.get('path', os.path.join(rdir, 'apps.csv'))}: column end_s missing; fix: "
                         "rerun with this iosim")
    return run.results, run.apps


def replay_mode(res):
    """The workload kind and replay mode of a run, as a dict of strings (what two comparable runs share)."""
    sc = res.get("scenario", {}) if isinstance(res, dict) else {}
    wl = sc.get("workload", {}) if isinstance(sc.get("workload"), dict) else {}
    kinds = sorted(k for k in wl if wl[k] not in (None, False, [], {}, ""))
    mode = {"workload": "+".join(kinds) or "?"}
    for k in kinds:
        if isinstance(wl[k], dict):
            for opt in REPLAY_KEYS:
                if opt in wl[k]:
                    mode[f"{k}.{opt}"] = str(wl[k][opt])
    q = sc.get("queue", {})
    mode["queue"] = "on" if isinstance(q, dict) and q.get("enabled") else "off"
    return mode


def check_comparable(runs, labels, dirs):
    """(problems, warnings): lists of sentences. Problems (different jobs or volumes, an incomplete run) make the
    runs not comparable; warnings (another replay mode or workload kind) say what else differs."""
    problems, warnings = [], []
    base_res, base_apps = runs[0]
    base_vol = dict(zip(base_apps["name"], base_apps["io_volume_bytes"].astype(float)))
    base_mode = replay_mode(base_res)
    for i, (res, apps) in enumerate(runs):
        if res.get("status") != "complete":
            problems.append(f"{labels[i]} ({dirs[i]}) has status '{res.get('status')}': its jobs did not all end, "
                            "so its I/O times are partial")
        if i == 0:
            continue
        names = set(apps["name"])
        only_base, only_this = sorted(set(base_vol) - names), sorted(names - set(base_vol))
        if only_base or only_this:
            problems.append(f"{labels[i]} holds other jobs than {labels[0]}"
                            + (f"; missing: {', '.join(only_base[:5])}" if only_base else "")
                            + (f"; extra: {', '.join(only_this[:5])}" if only_this else ""))
        for name, vol in zip(apps["name"], apps["io_volume_bytes"].astype(float)):
            b = base_vol.get(name)
            if b is not None and abs(vol - b) > VOLUME_RTOL * max(abs(b), 1.0):
                problems.append(f"job {name} moves {vol:.6g} bytes in {labels[i]} but {b:.6g} in {labels[0]}")
        mode = replay_mode(res)
        for k in sorted(set(mode) | set(base_mode)):
            if mode.get(k) != base_mode.get(k):
                warnings.append(f"{labels[i]} differs from {labels[0]} in {k}: {mode.get(k, 'unset')} instead of "
                                f"{base_mode.get(k, 'unset')}")
    return problems, warnings


CALIBRATION_FORMAT = "iosim-calibration/1"
BAND_QUANTILES = whatif_band.QUANTILES  # the quantiles a change's band is given for (p75, p90)
Calibration = collections.namedtuple("Calibration", "path held_out record file")
Calibration.__doc__ = """The calibration a run used: path (None: none), held_out (the file's held_out_error dict, None
when it has no held-out job), record (results.json's "calibration": what the run applied, docs/outputs.md; None for a
run of an iosim that did not record it), file (the calibration file's dict)."""
NO_CALIBRATION = Calibration(None, None, None, None)


def calibration_path(sc):
    """The calibration file a resolved scenario names ("calibration": PATH or {"file": PATH, ...}), or None."""
    c = sc.get("calibration") if isinstance(sc, dict) else None
    return c.get("file") if isinstance(c, dict) else c


def run_calibration(res, rdir):
    """The calibration a run used (Calibration), from results.json's scenario.calibration (the path iosim run
    resolved against the scenario's folder) and its "calibration" record; NO_CALIBRATION when the scenario named
    none. The held_out_error's median_ape, p75 and p90 are fractions (docs/validation.md, "iosim calibrate").
    InputError naming the file, the field and the fix when it cannot be read."""
    sc = res.get("scenario", {}) if isinstance(res, dict) else {}
    path = calibration_path(sc)
    if path is None or path == "":
        return NO_CALIBRATION
    where = os.path.join(rdir, "results.json")
    if not isinstance(path, str):
        raise InputError(f"{where}: scenario.calibration {path!r} is not a file path; fix: rerun the scenario with "
                         "\"calibration\": \"FILE\" (a file iosim calibrate wrote)")
    try:
        with open(path, encoding="utf-8") as f:
            cal = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{where}: scenario.calibration {path}: cannot be read ({e}); fix: put the calibration file "
                         "the run used back at that path") from None
    if not isinstance(cal, dict) or cal.get("format") != CALIBRATION_FORMAT:
        raise InputError(f"{path}: format is not \"{CALIBRATION_FORMAT}\": not a calibration file; fix: write it "
                         "with iosim calibrate")
    h = cal.get("held_out_error")
    if not isinstance(h, dict):
        raise InputError(f"{path}: held_out_error missing; fix: write the file with iosim calibrate")
    rec = res.get("calibration") if isinstance(res.get("calibration"), dict) else None
    if not h.get("jobs"):
        return Calibration(path, None, rec, cal)
    for k in ("median_ape",) + BAND_QUANTILES:
        v = h.get(k)
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not v >= 0 or math.isinf(v):
            raise InputError(f"{path}: held_out_error.{k} = {v!r}: not a fraction >= 0; fix: write the file with "
                             "iosim calibrate")
    return Calibration(path, h, rec, cal)


def change_band(new, old, a_new, a_old):
    """(low, high) in % of the change of an I/O time from `old` to `new` (simulated, s) when each run's model error
    is within its held-out APE quantile (a_new, a_old: fractions). The APE is that of the bandwidth, |b^ - b| / b,
    and a simulated time is T^ = V / b^ for the measured T = V / b, so T / T^ = b^ / b lies in [1 - a, 1 + a]; the
    true ratio T_new / T_old then lies in r^ (1 - a_new) / (1 + a_old) .. r^ (1 + a_new) / (1 - a_old), r^ the
    simulated ratio (high = inf when a_old >= 1; low = -100 % when a_new >= 1). A sum of times (the total) each
    within its interval lies within the same interval of the sum. NaNs when old is not positive. A what-if band
    (whatif_band) is the error of the predicted bandwidth after a measured change, the bandwidth before it given:
    a_old = 0, a_new its APE quantile."""
    if old is None or new is None or not (old > 0) or math.isnan(new):
        return float("nan"), float("nan")
    r = new / old
    lo = r * max(1 - a_new, 0.0) / (1 + a_old)  # a time is never negative: at most -100 %
    hi = r * (1 + a_new) / (1 - a_old) if a_old < 1 else float("inf")
    return 100.0 * (lo - 1), 100.0 * (hi - 1)


def run_sharing(res):
    """The sharing policy a run used (results.json's scenario.sharing.policy), or None."""
    sh = (res.get("scenario", {}) if isinstance(res, dict) else {}).get("sharing")
    return sh.get("policy") if isinstance(sh, dict) else None


def change_bands(runs, labels, cals, bands):
    """Per run after the base: (kind, words, what-if band or None, whether a bands file exists) of its change against
    the base (whatif_band.kind_of_change, whatif_band.whatif_band for the site of the run's calibration)."""
    out = {}
    for i in range(1, len(runs)):
        kind, words = whatif_band.kind_of_change(runs[0][0], runs[i][0], labels[i])
        rec = cals[i].record or cals[0].record or {}
        system = rec.get("system") or next((f.get("system") for f in (cals[i].file or {}).get("file_systems", [])
                                            if isinstance(f, dict)), None)
        out[labels[i]] = (kind, words, whatif_band.whatif_band(bands, kind, system, run_sharing(runs[i][0])),
                          bands is not None)
    return out


def add_band(df, labels, cals, changes=None):
    """Adds to the table of compare() the model error of each row's run and the band of its I/O time change:
    calibration (path or "none"), error_median_pct, error_p75_pct, error_p90_pct (the run's calibration's held-out
    APE quantiles, %), band ("whatif:KIND": the measured what-if band of the run's kind of change (change_bands);
    "held-out": no what-if band of that kind, the calibrations' held-out errors; "none"), band_coverage_p75_pct,
    band_coverage_p90_pct (a what-if band's empirical coverage, %), io_change_p75_lo_pct .. io_change_p90_hi_pct
    (change_band against the base row of the same job; NaN for the base and when no error is known). `cals`: a
    Calibration per run; `changes`: change_bands' dict (None: held-out bands only)."""
    changes = changes or {}
    by_label = dict(zip(labels, cals))
    base_io = {j: v for j, r, v in zip(df["job"], df["run"], df["io_time_s"]) if r == labels[0]}
    cols = {k: [] for k in ("calibration", "error_median_pct", "error_p75_pct", "error_p90_pct", "band",
                            "band_coverage_p75_pct", "band_coverage_p90_pct")}
    for q in BAND_QUANTILES:
        cols[f"io_change_{q}_lo_pct"], cols[f"io_change_{q}_hi_pct"] = [], []
    base_h = cals[0].held_out
    for job, run, io in zip(df["job"], df["run"], df["io_time_s"]):
        c = by_label[run]
        h = c.held_out
        wb = changes.get(run, (None, None, None, False))[2] if run != labels[0] else None
        cols["calibration"].append(c.path if c.path is not None else "none")
        for k, q in (("error_median_pct", "median_ape"), ("error_p75_pct", "p75"), ("error_p90_pct", "p90")):
            cols[k].append(100.0 * h[q] if h is not None else float("nan"))
        source = "" if run == labels[0] else f"whatif:{wb['kind']}" if wb is not None else \
            "held-out" if h is not None and base_h is not None else "none"
        cols["band"].append(source)
        for q in BAND_QUANTILES:
            cols[f"band_coverage_{q}_pct"].append(100.0 * wb["coverage"][q] if wb is not None else float("nan"))
            lo = hi = float("nan")
            if wb is not None:
                lo, hi = change_band(io, base_io.get(job), wb["ape"][q], 0.0)
            elif source == "held-out":
                lo, hi = change_band(io, base_io.get(job), h[q], base_h[q])
            cols[f"io_change_{q}_lo_pct"].append(lo)
            cols[f"io_change_{q}_hi_pct"].append(hi)
    for k, v in cols.items():
        df[k] = v
    return df


def error_text(cal):
    """The model error of one calibration in words (the held-out APE quantiles), or why there is none."""
    if cal.path is None:
        return "no calibration: error not validated"
    if cal.held_out is None:
        return f"calibration {cal.path} has no held-out job: error not validated"
    h = cal.held_out
    return (f"model error of calibration {os.path.basename(cal.path)}: median {100 * h['median_ape']:.1f} %, "
            f"p75 {100 * h['p75']:.1f} %, p90 {100 * h['p90']:.1f} % (held-out APE, {h['jobs']} jobs)")


def calibration_where(cal):
    """Where a run's calibration band holds, from its results.json record: validated on the platform it was made for,
    or transferred, and whether capacities changed."""
    rec = cal.record
    if rec is None:
        return "not recorded by the run (an older iosim): whether it was made for this platform is not known"
    if rec.get("platform_matches"):
        return "band validated on this platform (the one it was made for), capacities applied"
    return ("band transferred, not validated on this platform (" +
            ("made for " + os.path.basename(rec["platform_recorded"]) if rec.get("platform_recorded")
             else "made for no recorded platform") + "), capacities " +
            ("applied (apply_capacity true)" if rec.get("capacity_changed") else "unchanged"))


def calibration_age(cal):
    """A calibration's age in words: days against its stale_after_days (the run's record; for a run without one, its
    age now), "" when unknown."""
    rec = cal.record or {}
    age, after = rec.get("age_days"), rec.get("stale_after_days")
    if age is None:
        t = str(((cal.file or {}).get("window") or {}).get("newest_measurement", ""))
        try:
            age = (time.time() - calendar.timegm(time.strptime(t, "%Y-%m-%dT%H:%M:%SZ"))) / 86400.0
        except ValueError:
            return ""
        after = (cal.file or {}).get("stale_after_days")
    if not isinstance(after, (int, float)):
        return f"{age:.0f} days old"
    return f"{age:.0f} days old, STALE (more than its stale_after_days {after:g})" if age > after else \
        f"{age:.0f} days old (stale after {after:g})"


def calibration_words(base_cal, cal):
    """The calibrations' standing in words for the answer line: for each, its age (calibration_age) and where its
    band holds on the base's and on this run's platform (calibration_where); "" when neither run has one."""
    if base_cal.path is None and cal.path is None:
        return ""
    if base_cal.path == cal.path:
        age = calibration_age(cal)
        b, r = calibration_where(base_cal), calibration_where(cal)
        where = f"both runs: {r}" if b == r else f"base: {b}; this run: {r}"
        return f"calibration {os.path.basename(cal.path)}" + (f", {age}" if age else "") + f": {where}"
    return "; ".join(f"{who} calibration " + (f"{os.path.basename(c.path)}, {calibration_age(c)}: "
                                               f"{calibration_where(c)}" if c.path else "none")
                     for who, c in (("base", base_cal), ("this run's", cal)))


def sharing_words(described, used):
    """Whether a band describes the sharing model the runs used, in words."""
    if not described:
        return "the band's sharing model is not recorded"
    if described == used:
        return f"the band describes the runs' sharing `{used}`"
    return f"the band describes sharing `{described}`, not the runs' `{used}`"


def fmt_band(lo, hi):
    if lo != lo:
        return "n/a"
    return f"{lo:+.1f} .. " + ("+inf %" if math.isinf(hi) else f"{hi:+.1f} %")


def zero_words(row):
    """Which bands of a change cross zero (the change is not shown at that level), in words; "" when none."""
    cross = [q for q in reversed(BAND_QUANTILES)
             if row[f"io_change_{q}_lo_pct"] < 0 < row[f"io_change_{q}_hi_pct"]]
    return f"the {' and '.join(cross)} band{'s' if len(cross) > 1 else ''} cross{'' if len(cross) > 1 else 'es'} " \
           "zero: the change is not shown at that level" if cross else ""


def pct(new, old):
    """The change of `new` against `old` in % (NaN when old is 0 or either is missing)."""
    if old is None or new is None or not (old > 0) or math.isnan(new):
        return float("nan")
    return 100.0 * (new - old) / old


def bound(apps, name):
    """(bound_by, bound_share) of job `name`: apps.csv's columns when the run has them, else ("n/a", NaN)."""
    if "bound_by" not in apps.columns:
        return "n/a", float("nan")
    row = apps.loc[apps["name"] == name].iloc[0]
    by = row["bound_by"]
    share = float(row["bound_share"]) if "bound_share" in apps.columns and row["bound_share"] == row["bound_share"] \
        else float("nan")
    return (str(by) if by == by and str(by) != "" else "none"), share


def compare(runs, labels):
    """The tidy table: one row per (job, run) and one per run for the total, base first. Columns: job, run, io_time_s,
    io_time_change_pct, end_s, end_change_pct, bound_by, bound_share."""
    base_apps = runs[0][1]
    names = list(base_apps["name"])
    rows = []
    base = {}
    for i, (res, apps) in enumerate(runs):
        by_name = apps.set_index("name")
        for name in names:
            if name not in by_name.index:
                continue
            io, end = float(by_name.at[name, "io_time_s"]), float(by_name.at[name, "end_s"])
            if i == 0:
                base[name] = (io, end)
            b_io, b_end = base.get(name, (None, None))
            by, share = bound(apps, name)
            rows.append({"job": name, "run": labels[i], "io_time_s": io, "io_time_change_pct": pct(io, b_io),
                         "end_s": end, "end_change_pct": pct(end, b_end), "bound_by": by, "bound_share": share})
        common = [n for n in names if n in by_name.index]
        total_io = float(by_name.loc[common, "io_time_s"].astype(float).sum())
        last_end = float(by_name.loc[common, "end_s"].astype(float).max()) if common else float("nan")
        if i == 0:
            base[TOTAL] = (total_io, last_end)
        rows.append({"job": TOTAL, "run": labels[i], "io_time_s": total_io,
                     "io_time_change_pct": pct(total_io, base[TOTAL][0]), "end_s": last_end,
                     "end_change_pct": pct(last_end, base[TOTAL][1]), "bound_by": "", "bound_share": float("nan")})
    df = pd.DataFrame(rows)
    order = {n: k for k, n in enumerate(names + [TOTAL])}
    df["_j"] = df["job"].map(order)
    df["_r"] = df["run"].map({lab: k for k, lab in enumerate(labels)})
    return df.sort_values(["_j", "_r"], kind="stable").drop(columns=["_j", "_r"]).reset_index(drop=True)


def fmt_pct(x, base_row):
    if base_row:
        return "base"
    return "n/a" if x != x else f"{x:+.1f} %"


def text_table(df, labels):
    """The table printed on standard output."""
    show = pd.DataFrame({
        "job": df["job"], "run": df["run"],
        "io_time_s": df["io_time_s"].map(lambda v: f"{v:.6g}"),
        "Δ io_time": [fmt_pct(x, r == labels[0]) for x, r in zip(df["io_time_change_pct"], df["run"])],
        "p90 band": ["" if r == labels[0] else fmt_band(lo, hi)
                     for lo, hi, r in zip(df["io_change_p90_lo_pct"], df["io_change_p90_hi_pct"], df["run"])],
        "end_s": df["end_s"].map(lambda v: "n/a" if v != v else f"{v:.6g}"),
        "Δ end": [fmt_pct(x, r == labels[0]) for x, r in zip(df["end_change_pct"], df["run"])],
        "bound_by": df["bound_by"],
        "bound_share": df["bound_share"].map(lambda v: "" if v != v else f"{v:.2f}"),
    })
    show["job"] = show["job"].where(show["job"] != show["job"].shift(), "")  # the job's name on its first row only
    for col in ("job", "run", "bound_by"):  # names read from the left
        width = max(show[col].str.len().max(), len(col))
        show[col] = show[col].str.ljust(width)
        show = show.rename(columns={col: col.ljust(width)})
    return show.to_string(index=False)


def answer_lines(df, labels, cals, changes=None, runs=None):
    """The answer: the total I/O time of each run against the base with the band of the change (band_words: a
    measured what-if band of its kind of change, else the calibrations' held-out error, said as such), whether a
    band crosses zero, how many jobs got faster or slower, and the calibration's standing (calibration_words:
    validated or transferred, its age)."""
    tot = df[df["job"] == TOTAL].set_index("run")
    changes = changes or {}
    lines = []
    for lab in labels[1:]:
        k = labels.index(lab)
        jobs = df[(df["job"] != TOTAL) & (df["run"] == lab)]["io_time_change_pct"]
        faster, slower = int((jobs < -0.05).sum()), int((jobs > 0.05).sum())
        res = runs[k][0] if runs else {}
        cal_words = calibration_words(cals[0], cals[k])
        lines.append(f"answer: {lab}: total I/O time {tot.at[labels[0], 'io_time_s']:.6g} s -> "
                     f"{tot.at[lab, 'io_time_s']:.6g} s ({fmt_pct(tot.at[lab, 'io_time_change_pct'], False)}; "
                     f"{band_words(tot.loc[lab], cals[0], cals[k], changes.get(lab), run_sharing(res))}); "
                     f"{faster} job(s) faster, {slower} slower, {len(jobs) - faster - slower} within 0.05 % "
                     f"(of {len(jobs)})" + (f"; {cal_words}" if cal_words else ""))
    return lines


def band_words(row, base_cal, cal, change=None, used=None):
    """The error band of one run's total change against the base, in words (answer_lines). change: (kind, words,
    what-if band or None, whether a bands file exists) of change_bands; used: the runs' sharing policy."""
    kind, what, wb, have = change if change is not None else (None, None, None, False)
    bands = ", ".join(f"{q} {fmt_band(row[f'io_change_{q}_lo_pct'], row[f'io_change_{q}_hi_pct'])}"
                      + (f" (empirical coverage {100 * wb['coverage'][q]:.0f} % of a nominal {q[1:]} %)"
                         if wb is not None else "")
                      for q in reversed(BAND_QUANTILES))
    zero = zero_words(row)
    if wb is not None:
        origin = ("measured on this site's own what-ifs" if wb["own"] else
                  "transferred: not measured on this site")
        jobs = f", {wb['jobs']} jobs" if wb.get("jobs") is not None else ""
        return (f"what-if band of {what}, measured on {wb['measured_on']}{jobs} ({origin}): {bands}"
                + (f"; {zero}" if zero else "") + f"; {sharing_words(wb['sharing'], used)}")
    none = ("no validated what-if band" if kind is None else
            f"no validated band for {what} (no measured what-if of this kind)" if have else
            f"no validated band for {what} (no measured what-if bands: iosim has no whatif_bands.json yet)")
    if base_cal.held_out is None or cal.held_out is None:
        why = [error_text(c) for c in (base_cal, cal) if c.held_out is None]
        if base_cal.path is None and cal.path is None and not (have and kind is not None):
            return "; ".join(dict.fromkeys(why))  # nothing measured at all: "no calibration: error not validated"
        return "; ".join(dict.fromkeys([none] + why))
    same = base_cal.path == cal.path
    err = error_text(cal) if same else f"base {error_text(base_cal)}; this run {error_text(cal)}"
    described = ((cal.record or {}).get("band_sharing") or {}).get("policy") if cal.record else next(
        (((f or {}).get("sharing") or {}).get("policy") for f in (cal.file or {}).get("file_systems", [])
         if isinstance(f, dict) and isinstance(f.get("ost_capacity_Bps"), (int, float))), None)
    return (f"{none}; {err}; change within that error (the calibration's own jobs, not a what-if's): {bands}"
            + (f"; {zero}" if zero else "") + f"; {sharing_words(described, used)}")


def layout_lines(runs, labels, df):
    """The assumption that decides the jobs without a Lustre layout (results.json "no_layout": a Darshan job whose log
    records none has its files on the file system's default stripe count, or the restripe, placed by Lustre's
    round-robin allocator on a platform of OSTs; else the scenario's allocation, or its striping policy when it has one;
    "decided_by" says which, docs/whatif.md),
    printed with the answer: which jobs, what decided them in each run, and their share of each run's total I/O time.
    Nothing when no run has such a job."""
    per_run = []
    for (res, _), lab in zip(runs, labels):
        nl = res.get("no_layout") if isinstance(res, dict) else None
        jobs = [j for j in nl.get("jobs", []) if isinstance(j, str)] if isinstance(nl, dict) else []
        rule = str(nl.get("decided_by", "?")) if isinstance(nl, dict) else ""
        sub = df[(df["run"] == lab) & df["job"].isin(jobs)]["io_time_s"]
        total = df[(df["run"] == lab) & (df["job"] == TOTAL)]["io_time_s"]
        t, tot = float(sub.sum()), float(total.iloc[0]) if len(total) else float("nan")
        per_run.append((lab, jobs, rule, t, tot))
    if not any(jobs for _, jobs, _, _, _ in per_run):
        return []
    names = list(dict.fromkeys(j for _, jobs, _, _, _ in per_run for j in jobs))
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    parts = [f"in {lab}: {rule or 'none'}, {t:.6g} s of {tot:.6g} s of I/O time ({100 * t / tot:.2f} %)"
             if tot > 0 else f"in {lab}: {rule or 'none'}" for lab, jobs, rule, t, tot in per_run]
    return [f"assumed: {len(names)} of {len(runs[0][1])} jobs have no Lustre layout in their logs ({shown}): their "
            "OSTs are assumed, not from the logs; "
            + "; ".join(parts) + " (docs/whatif.md)"]


PAGE_TOP_JOBS = 25  # jobs drawn in the answer figure (the largest changes); the others are summarised under it
PAGE_BAND = "p90"  # the band drawn as error bars (the table's)


def page_order(df, labels):
    """The jobs of the table (not the total) sorted by their change against the base, most negative first (the
    first variant's change; NaN last), and the PAGE_TOP_JOBS of largest |change| (in that order): (all, drawn)."""
    jobs = df[(df["job"] != TOTAL) & (df["run"] == labels[1])].set_index("job")["io_time_change_pct"]
    ordered = list(jobs.sort_values(kind="stable", na_position="last").index)
    top = set(jobs.abs().sort_values(ascending=False, kind="stable", na_position="last").index[:PAGE_TOP_JOBS])
    return ordered, [j for j in ordered if j in top]


def rest_summary(df, labels, drawn):
    """One sentence per variant on the jobs the answer figure leaves out: how many, and their changes."""
    out = []
    for lab in labels[1:]:
        rest = df[(df["job"] != TOTAL) & (df["run"] == lab) & ~df["job"].isin(drawn)]["io_time_change_pct"]
        if rest.empty:
            continue
        same = int((rest.abs() <= 0.05).sum())
        faster, slower = rest[rest < -0.05], rest[rest > 0.05]
        parts = [f"{same} within 0.05 %"]
        if len(faster):
            parts.append(f"{len(faster)} faster ({faster.min():+.1f} .. {faster.max():+.1f} %)")
        if len(slower):
            parts.append(f"{len(slower)} slower ({slower.min():+.1f} .. {slower.max():+.1f} %)")
        out.append(f"{lab}: the other {len(rest)} jobs, not drawn: " + ", ".join(parts)
                   + " (every job is in the table below, in the same order)")
    return out


def band_crosses_zero(lo, hi):
    """Whether a change's band (%, NaN when none) holds 0: the change is within the model's error."""
    return lo == lo and hi == hi and lo <= 0 <= hi


def html_page(df, labels, header_lines):
    """One self-contained page (plotly.js inlined from Debian's python3-plotly, no network), readable with hundreds of
    jobs at 1400 x 900: the answer figure (each variant's change of the I/O time per job, in %, as horizontal bars
    with the p90 band of the model error as error bars; a change whose band crosses zero hatched and named so; the
    total first, then the PAGE_TOP_JOBS largest changes sorted by change, the others summarised in a line), the
    context (each job's I/O time in a variant against the base, log-log), then the table of every job in the same
    order, fitted to the page's width."""
    try:
        import plotly.graph_objects as go
    except ImportError:
        raise InputError("python module plotly not found; fix: apt-get install python3-plotly (or `make deps`)") \
            from None
    ordered, drawn = page_order(df, labels)
    rows = [TOTAL] + drawn  # top to bottom
    lo_col, hi_col = f"io_change_{PAGE_BAND}_lo_pct", f"io_change_{PAGE_BAND}_hi_pct"
    colors = ["#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377"]
    answer = go.Figure()
    span = [0.0, 0.0]
    crossing_by_row = {j: [] for j in rows}  # the variants whose band of row j crosses 0
    for k, lab in enumerate(labels[1:]):
        sub = df[df["run"] == lab].set_index("job").reindex(rows)
        y = sub["io_time_change_pct"].astype(float)
        lo, hi = sub[lo_col].astype(float), sub[hi_col].astype(float)
        finite = [v for v in list(y) + list(lo) + [h for h in hi if h != float("inf")] if v == v]
        span = [min([span[0]] + finite), max([span[1]] + finite)]
        cross = [band_crosses_zero(a, b) for a, b in zip(lo, hi)]
        for j, c in zip(rows, cross):
            if c:
                crossing_by_row[j].append(lab)
        has_band = bool(lo.notna().any())
        for crossing in ((False, True) if has_band else (False,)):
            mask = [c == crossing for c in cross]
            if not any(mask):
                continue
            name = f"{lab} vs {labels[0]}" + ((": p90 band crosses 0 (not shown to change)" if crossing else
                                                ": p90 band excludes 0") if has_band else "")
            yy = [v if m else None for v, m in zip(y, mask)]
            plus = [(h - v if h != float("inf") else None) if m and h == h else None for v, h, m in zip(y, hi, mask)]
            minus = [(v - a) if m and a == a else None for v, a, m in zip(y, lo, mask)]
            hover = [f"{j}: {v:+.1f} %" + (f"<br>p90 band {fmt_band(a, b)}<br>p75 band "
                                          f"{fmt_band(sub.at[j, 'io_change_p75_lo_pct'], sub.at[j, 'io_change_p75_hi_pct'])}"
                                          if a == a else "<br>no band: error not validated")
                     + ("<br>the band crosses 0: within the model's error" if c else "")
                     for j, v, a, b, c in zip(rows, y, lo, hi, cross)]
            answer.add_trace(go.Bar(
                y=rows, x=yy, orientation="h", name=name, offsetgroup=str(k), legendgroup=lab,
                marker={"color": colors[k % len(colors)], "opacity": 0.45 if crossing else 0.9,
                        "pattern": {"shape": "/" if crossing else ""}},
                error_x={"type": "data", "symmetric": False, "array": plus, "arrayminus": minus, "color": "#333",
                         "thickness": 1.5, "width": 4, "visible": has_band},
                hovertext=hover, hoverinfo="text"))
    pad = max(5.0, 0.08 * (span[1] - span[0]))
    height = 130 + 26 * len(rows) * max(1, len(labels) - 1)
    for j, labs in crossing_by_row.items():  # said in words beside the bar, in the right margin
        if labs:
            answer.add_annotation(x=1.0, xref="paper", xanchor="left", xshift=6, y=j, yref="y", showarrow=False,
                                  text="band crosses 0" + ("" if len(labels) == 2 else ": " + ", ".join(labs)),
                                  font={"size": 11, "color": "#555"})
    answer.update_layout(
        barmode="group", height=height, template="plotly_white", margin={"t": 60, "l": 10, "r": 130, "b": 40},
        legend={"orientation": "h", "y": 0, "yanchor": "top", "x": 0}, bargap=0.25,
        xaxis={"title": {"text": "Δ I/O time (%)", "standoff": 4}, "side": "top", "zeroline": True,
               "zerolinewidth": 2, "zerolinecolor": "#000", "range": [span[0] - pad, span[1] + pad]},
        yaxis={"autorange": "reversed", "automargin": True, "type": "category"})
    context = go.Figure()
    base = df[(df["run"] == labels[0]) & (df["job"] != TOTAL)].set_index("job")["io_time_s"]
    positive = [v for v in df.loc[df["job"] != TOTAL, "io_time_s"] if v == v and v > 0]
    for k, lab in enumerate(labels[1:]):
        sub = df[(df["run"] == lab) & (df["job"] != TOTAL)].set_index("job")["io_time_s"].reindex(base.index)
        context.add_trace(go.Scattergl(x=list(base), y=list(sub), mode="markers", name=lab,
                                       marker={"color": colors[k % len(colors)], "size": 7},
                                       text=list(base.index), hovertemplate="%{text}: %{x:.6g} s -> %{y:.6g} s"
                                       "<extra>" + lab + "</extra>"))
    if positive:
        a, b = min(positive), max(positive)
        context.add_trace(go.Scatter(x=[a, b], y=[a, b], mode="lines", name="unchanged",
                                     line={"color": "#888", "dash": "dot"}, hoverinfo="skip"))
    context.update_layout(
        height=460, template="plotly_white", margin={"t": 30, "l": 70, "r": 20, "b": 50},
        xaxis={"type": "log", "title": f"{labels[0]}: I/O time (s)"}, yaxis={"type": "log", "title": "I/O time (s)"},
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0})
    config = {"displaylogo": False, "responsive": True}
    body = "<div id='answer'>" + answer.to_html(include_plotlyjs=True, full_html=False, config=config) + "</div>"
    context_html = "<div id='context'>" + context.to_html(include_plotlyjs=False, full_html=False, config=config) \
        + "</div>"
    esc = (lambda t: str(t).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    order = {j: k for k, j in enumerate([TOTAL] + ordered)}
    tab = df.assign(_o=df["job"].map(order)).sort_values(["_o"], kind="stable")
    show = pd.DataFrame({
        "job": tab["job"], "run": tab["run"], "io_time_s": tab["io_time_s"].map(lambda v: f"{v:.6g}"),
        "Δ io_time": [fmt_pct(x, r == labels[0]) for x, r in zip(tab["io_time_change_pct"], tab["run"])],
        "p75 band": ["" if r == labels[0] else fmt_band(a, b) for a, b, r in
                     zip(tab["io_change_p75_lo_pct"], tab["io_change_p75_hi_pct"], tab["run"])],
        "p90 band": ["" if r == labels[0] else fmt_band(a, b) + (" (crosses 0)" if band_crosses_zero(a, b) else "")
                     for a, b, r in zip(tab[lo_col], tab[hi_col], tab["run"])],
        "end_s": tab["end_s"].map(lambda v: "n/a" if v != v else f"{v:.6g}"),
        "Δ end": [fmt_pct(x, r == labels[0]) for x, r in zip(tab["end_change_pct"], tab["run"])],
        "bound_by": tab["bound_by"], "bound_share": tab["bound_share"].map(lambda v: "" if v != v else f"{v:.2f}")})
    table = show.to_html(index=False, border=0, classes="jobs", escape=True)
    notes = "".join(f"<p>{esc(line)}</p>" for line in header_lines)
    rest = "".join(f"<p class='rest'>{esc(line)}</p>" for line in rest_summary(df, labels, drawn))
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>iosim compare</title><style>"
            "body{font-family:sans-serif;max-width:1300px;margin:auto;padding:0 12px;overflow-wrap:anywhere}"
            "p{margin:4px 0}p.rest{font-style:italic}"
            "table.jobs{border-collapse:collapse;font-size:13px;width:100%;table-layout:fixed}"
            "table.jobs td,table.jobs th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right;"
            "overflow-wrap:anywhere}table.jobs td:nth-child(-n+2),table.jobs th:nth-child(-n+2){text-align:left}"
            "table.jobs th:nth-child(1){width:26%}table.jobs th:nth-child(2){width:18%}"
            "</style></head><body><h2>iosim compare</h2>"
            f"{notes}<h3>The answer: change of each job's I/O time against {esc(labels[0])} (%; negative = "
            f"faster), with the {PAGE_BAND} band of the model error as error bars</h3>{body}{rest}"
            f"<h3>Context: each job's I/O time (s), {esc(labels[0])} (x) against each variant (y)</h3>{context_html}"
            "<h3>Per job and run (sorted as the answer figure: by change)</h3>"
            f"{table}</body></html>")


def main(argv=None):
    p = argparse.ArgumentParser(prog="iosim compare", description="Per job and in total, the I/O time and end time "
                                "of several runs of the same jobs, and their change (%) against the first.")
    p.add_argument("dirs", metavar="RUN_DIR", nargs="+", help="iosim run output directories, or runs inside a campaign "
                   "database (DIR/campaign.db#RUN_ID, DIR#RUN_ID); the first is the base")
    p.add_argument("--labels", help="comma-separated names of the runs (default: their directory names)")
    p.add_argument("--csv", metavar="FILE", help="write the table as CSV (one row per job and run, and the total)")
    p.add_argument("--html", metavar="FILE", help="write a self-contained page (plotly, no network)")
    p.add_argument("--allow-different", action="store_true",
                   help="compare runs whose jobs or volumes differ, or that did not complete (marked not comparable)")
    args = p.parse_args(argv)
    try:
        if len(args.dirs) < 2:
            raise InputError("give at least two run directories (the first is the base); fix: iosim compare "
                             "BASE_DIR OTHER_DIR...")
        labels = [s.strip() for s in args.labels.split(",")] if args.labels else \
            [results.run_label(d) for d in args.dirs]
        if len(labels) != len(args.dirs):
            raise InputError(f"--labels: {len(labels)} names for {len(args.dirs)} directories; fix: one per "
                             "directory")
        if len(set(labels)) != len(labels):
            labels = [f"{k}:{lab}" for k, lab in enumerate(labels)]
        runs = [load_run(d) for d in args.dirs]
        problems, warnings = check_comparable(runs, labels, args.dirs)
        if problems and not args.allow_different:
            raise InputError("the runs are not comparable: " + "; ".join(problems[:8])
                             + ("; ..." if len(problems) > 8 else "")
                             + "; fix: compare runs of the same jobs that completed (or pass --allow-different)")
        cals = [run_calibration(res, d) for (res, _), d in zip(runs, args.dirs)]
        changes = change_bands(runs, labels, cals, whatif_band.load_bands())
        df = add_band(compare(runs, labels), labels, cals, changes)
        header = [f"base: {labels[0]} ({args.dirs[0]})"] + \
            [f"run {k}: {labels[k]} ({args.dirs[k]})" for k in range(1, len(labels))]
        header.append("comparable: " + ("no: " + "; ".join(problems) if problems else
                                        f"yes ({len(runs[0][1])} jobs, same names and volumes, all complete"
                                        + (")" if not warnings else "; but see the warnings)")))
        used = list(dict.fromkeys(c.path for c in cals))
        if len(used) > 1:
            warnings.append("the runs used different calibrations (" + ", ".join(
                f"{lab}: {c.path or 'none'}" for lab, c in zip(labels, cals)) + "): each change's band combines the "
                "two runs' own error quantiles, and is not validated when one of them has none")
        applied = {lab: (c.record or {}).get("capacity_changed") for lab, c in zip(labels, cals) if c.record}
        if len(set(applied.values())) > 1:
            warnings.append("the runs applied their calibration's per-OST capacity differently (" + ", ".join(
                f"{lab}: {'applied' if v else 'not applied'}" for lab, v in applied.items()) + "): each change mixes "
                "the calibration with the change; fix: \"calibration\": {\"file\": ..., \"apply_capacity\": true} "
                "(or false) so that every run does the same")
        header += [f"warning: {w}" for w in warnings]
        header.append(error_text(cals[0]) if len(used) == 1 else "model error: " + "; ".join(
            f"{lab}: {error_text(c)}" for lab, c in zip(labels, cals)))
        if "bound_by" not in runs[0][1].columns:
            header.append("bound_by: n/a (these runs' apps.csv have no bound_by column)")
        answers = answer_lines(df, labels, cals, changes, runs) + layout_lines(runs, labels, df)
        out = "\n".join(header) + "\n\n" + text_table(df, labels) + "\n\n" + "\n".join(answers)
        print(out)
        if args.csv:
            df.to_csv(args.csv, index=False, float_format="%.9g", na_rep="")
            print(f"wrote {args.csv}")
        if args.html:
            page = html_page(df, labels, header + answers)
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(page)
            print(f"wrote {args.html}")
    except InputError as e:
        print(f"iosim compare: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"iosim compare: error: {e.filename}: {e.strerror}; fix: write to a directory that exists and is "
              "writable", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
