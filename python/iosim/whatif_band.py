#!/usr/bin/env python3
"""The error band a what-if answer carries (iosim compare, iosim whatif: python/iosim/compare.py), and a what-if
table from a calibration file of `iosim calibrate` (docs/validation.md).

The band of a change comes from measured what-ifs where they exist: the what-if backtest of the validation
(docs/validation.md, "What-ifs against measured what-ifs") ships its bands per kind of change as
python/iosim/whatif_bands.json (format "iosim-whatif-bands/1": {"format", "source", "command", "kinds": {KIND:
{"measured_on": text, "jobs": n, "ape": {"p50", "p75", "p90"} (fractions), "coverage": {"p75", "p90"} (the
empirical fraction of the backtest's jobs inside the nominal band), "sharing": the sharing policy it was measured
with}}}; $IOSIM_WHATIF_BANDS names another file). kind_of_change maps the key a what-if varies (or the fields in
which two runs' resolved scenarios differ) to a KIND (KIND_RULES: "ost_count", "stripe_count", "failover",
"fullness", "platform"); whatif_band picks that kind's band, says where it was measured (transferred unless the
calibration's system is where it was measured), its empirical coverage beside the nominal, and whether it describes
the sharing model the runs used; a kind the file does not hold (or no file) carries "no validated band".

    python3 -m iosim.whatif_band CALIBRATION.json --fs FS --osts N [--match TEXT] [--compare FS2]

For each configuration of file system FS in the calibration (those whose key contains TEXT): its calibrated
bandwidth P on the file system's N_0 OSTs and the bandwidth iosim's model gives it on N OSTs of the same kind, the
configuration's efficiency per OST unchanged: P x N / N_0 (bytes/s; the oss-ost platform's job spanning every OST,
each serving it e x c). The band: the calibration's held-out APE quantiles of that file system (held_out_error.
per_file_system: p75 and p90): a measurement m with |pred - m| / m <= a lies in [pred / (1 + a), pred / (1 - a)]
(upper bound unbounded when a >= 1). --compare FS2: beside it, the P the same calibration gives the same
configuration on file system FS2 (measured there over the same window). Prints a Markdown table; exit 2 with the fix
on bad input.
"""

import argparse
import json
import math
import os
import re
import sys

from .campaign_io import InputError, cli, md_table

BANDS_FORMAT = "iosim-whatif-bands/1"
BANDS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "whatif_bands.json")
QUANTILES = ("p75", "p90")  # the nominal bands an answer gives: 75 % and 90 %
# (pattern on the varied key, kind): the first match decides; "platform" is refined by the runs' OST counts
KIND_RULES = ((r"(^|\.)stripe_count$|^striping(\.|$)", "stripe_count"), (r"failover", "failover"),
              (r"full", "fullness"), (r"(^|\.)osts?(_per_server)?$|(^|\.)servers$", "ost_count"),
              (r"^platform(\.|$)", "platform"))
KIND_WORDS = {"ost_count": "an OST-count change", "stripe_count": "a stripe-count change",
              "failover": "an OSS failover", "fullness": "a change of OST fullness", "platform": "a platform change other than the OST count"}
IGNORED = ("output.", "calibration")  # scenario fields that change no result of the jobs


def load_bands(path=None):
    """The what-if bands: the file `path`, else $IOSIM_WHATIF_BANDS, else the packaged whatif_bands.json; None when
    no such file exists (no measured what-if shipped). InputError naming the file, the field and the fix when it is
    not "iosim-whatif-bands/1" or a kind's ape/coverage are not fractions."""
    path = path or os.environ.get("IOSIM_WHATIF_BANDS") or BANDS_FILE
    if not os.path.exists(path):
        if path != BANDS_FILE:
            raise InputError(f"{path}: what-if bands file not found; fix: unset IOSIM_WHATIF_BANDS or give the file "
                             "the what-if backtest wrote")
        return None
    try:
        with open(path, encoding="utf-8") as f:
            bands = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: not readable JSON ({e}); fix: the file the what-if backtest wrote") from None
    if not isinstance(bands, dict) or bands.get("format") != BANDS_FORMAT or not isinstance(bands.get("kinds"), dict):
        raise InputError(f"{path}: format is not \"{BANDS_FORMAT}\" with a \"kinds\" object; fix: the file the "
                         "what-if backtest wrote")
    for kind, b in bands["kinds"].items():
        for part, keys in (("ape", ("p50",) + QUANTILES), ("coverage", QUANTILES)):
            for q in keys:
                v = b.get(part, {}).get(q) if isinstance(b, dict) and isinstance(b.get(part), dict) else None
                if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 <= v < math.inf or \
                        (part == "coverage" and v > 1):
                    raise InputError(f"{path}: kinds.{kind}.{part}.{q} = {v!r}: not a fraction >= 0"
                                     f"{' and <= 1' if part == 'coverage' else ''}; fix: the file the what-if "
                                     "backtest wrote")
    bands["path"] = path
    return bands


def _flat(d, prefix=""):
    """{dotted key: value} of a nested dict."""
    out = {}
    for k, v in (d.items() if isinstance(d, dict) else ()):
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def varied_keys(base_res, res, label=None):
    """The scenario keys a run changes against the base: the KEY of a label "KEY=VALUE" (iosim whatif's), else the
    dotted fields in which the two runs' resolved scenarios (results.json's "scenario") differ, output.* and the
    calibration left out. A list, sorted."""
    if label and "=" in label and not label.startswith("="):
        return [label.split("=", 1)[0].split(":", 1)[-1]]  # compare prefixes "K:" to repeated labels
    a, b = _flat((base_res or {}).get("scenario", {})), _flat((res or {}).get("scenario", {}))
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k) and not k.startswith(IGNORED))


def _osts(res):
    """The run's OST count (results.json's platform.resources when its pool is OSTs), else None."""
    pl = (res or {}).get("platform", {})
    return pl.get("resources") if isinstance(pl, dict) and pl.get("pool_role") == "ost" else None


def kind_of_change(base_res, res, label=None):
    """(kind, words): the kind of change from the base to this run (KIND_RULES on the varied keys; a platform change
    with another OST count is "ost_count", with the same count "platform"), and the change in words. (None,
    words) when the runs differ in no scenario field; ("mixed", words) when the keys map to several kinds."""
    keys = varied_keys(base_res, res, label)
    if not keys:
        return None, "no scenario field differs"
    kinds = []
    for k in keys:
        kind = next((kd for pat, kd in KIND_RULES if re.search(pat, k)), k)
        if kind == "platform":
            n0, n1 = _osts(base_res), _osts(res)
            if n0 is not None and n1 is not None and n0 != n1:
                kind = "ost_count"
        kinds.append(kind)
    kinds = list(dict.fromkeys(kinds))
    if len(kinds) > 1:
        return "mixed", "several changes at once (" + ", ".join(keys) + ")"
    n0, n1 = _osts(base_res), _osts(res)
    words = KIND_WORDS.get(kinds[0], f"a change of {kinds[0]}")
    if kinds[0] == "ost_count" and n0 is not None and n1 is not None:
        words += f" ({n0} -> {n1} OSTs)"
    return kinds[0], words


def whatif_band(bands, kind, system=None, run_sharing=None):
    """The band of a what-if of `kind` (kind_of_change) for a site whose calibration was measured on `system` (its
    file_systems[].system, or None): a dict with kind, ape and coverage (fractions), measured_on, jobs, sharing, own
    (True when `system` is named in measured_on: the site's own measured what-ifs; else the band is transferred),
    sharing_matches (the runs' sharing policy `run_sharing` is the band's; None when either is unknown); None when
    `bands` is None or holds no band of that kind (no validated band)."""
    b = (bands or {}).get("kinds", {}).get(kind) if kind else None
    if b is None:
        return None
    on = str(b.get("measured_on", "?"))
    own = bool(system) and re.search(r"\b" + re.escape(str(system)) + r"\b", on, re.I) is not None
    sharing = b.get("sharing")
    return {"kind": kind, "ape": b["ape"], "coverage": b["coverage"], "measured_on": on, "jobs": b.get("jobs"),
            "sharing": sharing, "own": own,
            "sharing_matches": None if not sharing or not run_sharing else sharing == run_sharing}


def bounds(pred, a):
    """[pred / (1 + a), pred / (1 - a)] as text in GB/s ("inf" upper bound when a >= 1)."""
    hi = f"{pred / (1 - a) / 1e9:.2f}" if a < 1 else "inf"
    return f"{pred / (1 + a) / 1e9:.2f} .. {hi}"


def answer(cal, fs, osts, match="", compare=None):
    """The table rows (see the module's doc) and the held-out quantiles used."""
    sys_fs = [f for f in cal.get("file_systems", []) if f.get("fs") == fs]
    if not sys_fs:
        names = ", ".join(str(f.get("fs")) for f in cal.get("file_systems", []))
        raise InputError(f"--fs {fs}: not in the calibration; fix: one of {names}")
    f = sys_fs[0]
    err = [e for e in cal["held_out_error"].get("per_file_system", []) if e.get("fs") == fs]
    if not err or err[0].get("p75") is None:
        raise InputError(f"file system {fs}: the calibration has no held-out error for it (no job predicted); fix: "
                         "calibrate on data where configurations ran more than once (a longer --days)")
    e = err[0]
    n0 = f["osts"]
    other = {}
    if compare:
        g = [x for x in cal["file_systems"] if x.get("fs") == compare]
        if not g:
            raise InputError(f"--compare {compare}: not in the calibration; fix: a file system it holds")
        other = {c["key"].replace(f"/{compare}/", f"/{fs}/"): c.get("bandwidth_Bps") for c in g[0]["configurations"]}
    rows = []
    for c in f["configurations"]:
        if match not in c["key"] or c.get("bandwidth_Bps") is None:
            continue
        pred = c["bandwidth_Bps"] * osts / n0
        rows.append([c["key"], f"{c['bandwidth_Bps'] / 1e9:.2f}", f"{pred / 1e9:.2f}", bounds(pred, e["p75"]),
                     bounds(pred, e["p90"])] + ([f"{other[c['key']] / 1e9:.2f}" if other.get(c["key"]) else ""]
                                                if compare else []))
    return rows, e, n0


def run(args):
    if not args.osts > 0:
        raise InputError(f"--osts {args.osts}: not a positive OST count; fix: e.g. --osts 36")
    try:
        with open(args.calibration, encoding="utf-8") as fh:
            cal = json.load(fh)
    except (OSError, ValueError) as ex:
        raise InputError(f"{args.calibration}: not a readable calibration file ({ex}); fix: write it with iosim "
                         "calibrate") from None
    if cal.get("format") != "iosim-calibration/1":
        raise InputError(f"{args.calibration}: format is {cal.get('format')!r}, not 'iosim-calibration/1'; fix: write "
                         "it with iosim calibrate")
    rows, e, n0 = answer(cal, args.fs, args.osts, args.match, args.compare)
    head = ["configuration", f"P on {n0} OSTs (GB/s)", f"on {args.osts:g} OSTs (GB/s)",
            f"p75 band (APE {100 * e['p75']:.1f} %)", f"p90 band (APE {100 * e['p90']:.1f} %)"] + \
        ([f"P on {args.compare} (GB/s)"] if args.compare else [])
    w = cal["window"]
    return (f"{args.calibration}: {args.fs}, window {w['first_measurement']} .. {w['newest_measurement']}, held-out "
            f"median APE {100 * e['median_ape']:.1f} % over {e['jobs']} jobs\n\n" + md_table(rows, head))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("calibration", help="a calibration file of iosim calibrate")
    ap.add_argument("--fs", required=True, help="the calibrated file system")
    ap.add_argument("--osts", type=float, required=True, help="the OST count of the what-if")
    ap.add_argument("--match", default="", help="only the configurations whose key contains this")
    ap.add_argument("--compare", help="a file system of the calibration whose P to show beside the answer")
    args = ap.parse_args(argv)
    return cli("whatif_band.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
