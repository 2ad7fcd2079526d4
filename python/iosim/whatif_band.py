#!/usr/bin/env python3
"""A what-if answer with its error band, from a calibration file of `iosim calibrate` (docs/validation.md).

    python/iosim/whatif_band.py CALIBRATION.json --fs FS --osts N [--match TEXT] [--compare FS2]

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
import sys

from .campaign_io import InputError, cli, md_table


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
