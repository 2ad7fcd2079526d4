"""The data of `iosim view`: one run directory read into the dict the page draws (python/iosim/view.py).

A run directory holds results.json, apps.csv, resources.csv, allocations.csv and either events.csv (output.events)
or timeline.bin (every other run; its format is in docs/outputs.md and src/sim/traces.c). Both give the same
intervals: work phases, I/O operations (posting to end, volume) and transfer segments (one transfer on one resource
at one rate: start, end, bytes). read_run() returns them as columns; the page computes rates, stacks and the state at
a date from them (python/iosim/view_page/view.js).

Bad input raises InputError naming the file, the field and the fix (view.py exits 2 with it).
"""

import base64
import csv
import math
import os
import re
import struct
import sys


from .campaign_io import InputError  # noqa: E402  (also checks the Debian modules)
from . import results as results_reader  # noqa: E402  (the checked reader of run outputs)
import numpy as np  # noqa: E402

TIMELINE_MAGIC = b"IOSIMTL2"
KIND_WORK, KIND_IO, KIND_TRANSFER = 0, 1, 2
RERUN = "fix: rerun it with this iosim (`iosim run SCENARIO -o DIR`)"


def _read_csv(path, required):
    if not os.path.isfile(path):
        raise InputError(f"{path}: file not found; {RERUN}")
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
        header = rows[0].keys() if rows else []
    missing = [c for c in required if rows and c not in header]
    if missing:
        raise InputError(f"{path}: column(s) {', '.join(missing)} missing; {RERUN}")
    return rows


def _num(path, row_no, col, text, allow_empty=False):
    if text in ("", None):
        if allow_empty:
            return None
        raise InputError(f"{path}: line {row_no}, column {col}: empty; {RERUN}")
    try:
        return float(text)
    except ValueError:
        raise InputError(f"{path}: line {row_no}, column {col}: '{text}' is not a number; {RERUN}") from None


def _varint(buf, pos, path):
    v, shift = 0, 0
    while True:
        if pos >= len(buf):
            raise InputError(f"{path}: ends inside a record at byte {pos}; the run did not finish writing it: {RERUN}")
        b = buf[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        if b < 0x80:
            return v, pos
        shift += 7
        if shift > 63:
            raise InputError(f"{path}: byte {pos}: malformed number; {RERUN}")


def read_timeline(path, buf=None):
    """timeline.bin -> (app names, resource names (pool then PFS), intervals): intervals is a dict of lists
    kind, app, res, t0, t1, bytes (res -1 for work and I/O operations; bytes NaN for work). `buf`: the file's bytes
    when they come from elsewhere (a campaign database's timeline table; `path` then names it in messages)."""
    if buf is None:
        with open(path, "rb") as f:
            buf = f.read()
    if buf[:8] != TIMELINE_MAGIC:
        raise InputError(f"{path}: not an iosim timeline (starts with {buf[:8]!r}, expected {TIMELINE_MAGIC!r}); "
                         f"{RERUN}")
    try:
        napps, nres = struct.unpack_from("<ii", buf, 8)
        pos = 16
        names = []
        for _ in range(napps + nres + 1):
            (n,) = struct.unpack_from("<I", buf, pos)
            pos += 4
            if pos + n > len(buf):
                raise struct.error("name")
            names.append(buf[pos:pos + n].decode("utf-8", errors="replace"))
            pos += n
    except struct.error:
        raise InputError(f"{path}: truncated header; {RERUN}") from None
    if napps < 0 or nres < 0:
        raise InputError(f"{path}: bad header counts ({napps} applications, {nres} resources); {RERUN}")
    apps, res = names[:napps], names[napps:napps + nres + 1]
    out = {k: [] for k in ("kind", "app", "res", "t0", "t1", "bytes")}
    dates = []
    now = math.nan
    unpack_d, unpack_f = struct.Struct("<d").unpack_from, struct.Struct("<f").unpack_from
    end = len(buf)
    while pos < end:
        h, pos = _varint(buf, pos, path)
        if h == 0:
            if pos + 8 > end:
                raise InputError(f"{path}: ends inside a date at byte {pos}; {RERUN}")
            (now,) = unpack_d(buf, pos)
            pos += 8
            dates.append(now)
            continue
        app, kind = divmod(h - 1, 4)
        if app >= napps or kind > KIND_TRANSFER:
            raise InputError(f"{path}: byte {pos}: record of application {app} kind {kind} (the header has "
                             f"{napps} applications); {RERUN}")
        r = -1
        if kind == KIND_TRANSFER:
            r, pos = _varint(buf, pos, path)
        d, pos = _varint(buf, pos, path)
        if d == 0:
            if pos + 8 > end:
                raise InputError(f"{path}: ends inside a record at byte {pos}; {RERUN}")
            (t0,) = unpack_d(buf, pos)
            pos += 8
        elif d <= len(dates):
            t0 = dates[len(dates) - d]
        else:
            raise InputError(f"{path}: byte {pos}: a start date {d} dates back, only {len(dates)} written; {RERUN}")
        b = math.nan
        if kind == KIND_IO:
            if pos + 8 > end:
                raise InputError(f"{path}: ends inside a record at byte {pos}; {RERUN}")
            (b,) = unpack_d(buf, pos)
            pos += 8
        elif kind == KIND_TRANSFER:
            if pos + 4 > end:
                raise InputError(f"{path}: ends inside a record at byte {pos}; {RERUN}")
            (b,) = unpack_f(buf, pos)
            pos += 4
        out["kind"].append(kind)
        out["app"].append(app)
        out["res"].append(r)
        out["t0"].append(t0)
        out["t1"].append(now)
        out["bytes"].append(b)
    return apps, res, out


def read_events(path, apps, res_names, rows=None):
    """events.csv -> intervals as read_timeline() gives them (application and resource names mapped to indices;
    a resource not in res_names is appended to it). `rows`: the events as dicts when they come from a campaign
    database's events table (`path` then names it in messages)."""
    if rows is None:
        rows = _read_csv(path, ["app", "kind", "resource", "start_s", "end_s", "bytes"])
    index = {n: i for i, n in enumerate(apps)}
    rindex = {n: i for i, n in enumerate(res_names)}
    kinds = {"work": KIND_WORK, "io": KIND_IO, "transfer": KIND_TRANSFER}
    out = {k: [] for k in ("kind", "app", "res", "t0", "t1", "bytes")}
    for no, row in enumerate(rows, start=2):
        if row["app"] not in index:
            raise InputError(f"{path}: line {no}: application '{row['app']}' is not in apps.csv; the files come from "
                             f"different runs: {RERUN}")
        if row["kind"] not in kinds:
            raise InputError(f"{path}: line {no}, column kind: '{row['kind']}' (expected work, io or transfer); "
                             f"{RERUN}")
        kind = kinds[row["kind"]]
        r = -1
        if kind == KIND_TRANSFER:
            if row["resource"] not in rindex:
                rindex[row["resource"]] = len(res_names)
                res_names.append(row["resource"])
            r = rindex[row["resource"]]
        out["kind"].append(kind)
        out["app"].append(index[row["app"]])
        out["res"].append(r)
        out["t0"].append(_num(path, no, "start_s", row["start_s"]))
        out["t1"].append(_num(path, no, "end_s", row["end_s"]))
        b = _num(path, no, "bytes", row["bytes"], allow_empty=True)
        out["bytes"].append(math.nan if b is None else b)
    return out


def _b64(values, dtype):
    return base64.b64encode(np.asarray(values, dtype=dtype).tobytes()).decode("ascii")


def _finite(v):
    return v if isinstance(v, (int, float)) and math.isfinite(v) else None


def _read_run_db(ref, label):
    """read_run() of a run inside a campaign database (results.RunRef): its results, apps and resources through
    iosim.results, its intervals from the events table (output.events) or the timeline table (the timeline.bin
    bytes), its allocations from the allocations table."""
    run = results_reader.read_run(ref, need=("results", "apps", "resources"))
    db = results_reader.open_db(ref.db)
    run_id = run.dir.rsplit("#", 1)[1]
    apps, capacity, kinds = _apps_of(run.apps, run.resources, f"{db.path}: table apps")
    names = [a["name"] for a in apps]
    srows = run.resources.to_dict("records")
    ev = results_reader.read_events_db(db, run_id)
    tl = db.query("select * from timeline where run_id = ?", (run_id,), "timeline") \
        if "timeline" in db.tables else None
    where = f"{db.path}: table events, run_id {run_id!r}"
    if ev is not None:
        res_names = [r["name"] for r in srows]
        iv = read_events(where, names, res_names,
                         [{k: ("" if v is None or v != v else v) for k, v in r.items()} for r in ev.to_dict("records")])
        source = "events"
    elif tl is not None and not tl.empty:
        blob = next((tl[c].iat[0] for c in tl.columns if isinstance(tl[c].iat[0], (bytes, bytearray))), None)
        where = f"{db.path}: table timeline, run_id {run_id!r}"
        if blob is None:
            raise InputError(f"{where}: no column holds the timeline's bytes; fix: rerun the campaign with this iosim")
        tl_apps, res_names, iv = read_timeline(where, bytes(blob))
        if tl_apps != names:
            raise InputError(f"{where}: its applications ({', '.join(tl_apps[:4])}...) are not those of the apps "
                             f"table ({', '.join(names[:4])}...); {RERUN}")
        source = "timeline"
    else:
        raise InputError(f"{db.path}: run {run_id} has neither events nor a timeline in the database (a campaign stores "
                         "them only when asked); fix: rerun the campaign with --set output.events=true (or with its "
                         "per-run directories, --run-dirs, which keep timeline.bin)")
    alloc = []
    if "allocations" in db.tables:
        aindex = {n: i for i, n in enumerate(names)}
        lwhere = f"{db.path}: table allocations, run_id {run_id!r}"
        rows = db.query("select * from allocations where run_id = ?", (run_id,), "allocations").to_dict("records")
        for no, r in enumerate(rows, start=1):
            if r.get("app") not in aindex:
                raise InputError(f"{lwhere}: row {no}: application {r.get('app')!r} is not in the apps table; {RERUN}")
            alloc.append({"app": aindex[r["app"]], "t0": _num(lwhere, no, "start_s", r["start_s"]),
                          "t1": _num(lwhere, no, "end_s", r["end_s"]),
                          "n": int(_num(lwhere, no, "n_resources", r["n_resources"])),
                          "resources": r["resources"] or ""})
    return _page_data(run.dir, label or run_id, run.results, apps, capacity, kinds, srows, res_names, iv, source,
                      alloc, False)


def _apps_of(adf, sdf, where):
    """The page's applications, capacities and kinds from the checked apps and resources tables."""
    missing = [c for c in ("nodes", "bandwidth_Bps", "start_s", "end_s", "yield") if c not in adf.columns]
    if missing:
        raise InputError(f"{where}: column(s) {', '.join(missing)} missing; {RERUN}")

    def opt(row, col):
        v = row.get(col, float("nan"))
        return None if v != v else float(v)

    apps = [{"name": r["name"], "nodes": float(r["nodes"]), "b": opt(r, "bandwidth_Bps"),
             "start": opt(r, "start_s"), "end": opt(r, "end_s"), "volume": opt(r, "io_volume_bytes"),
             "yield": opt(r, "yield"), "slowdown": opt(r, "io_slowdown"), "stretch": opt(r, "io_stretch"),
             "ioTime": opt(r, "io_time_s")} for r in adf.to_dict("records")]
    if "kind" not in sdf.columns:
        raise InputError(f"{where.replace('apps', 'resources')}: column kind missing; {RERUN}")
    srows = sdf.to_dict("records")
    capacity = {r["name"]: opt(r, "capacity_Bps") for r in srows}
    kinds = {r["name"]: r["kind"] for r in srows}
    return apps, capacity, kinds


def read_run(run_dir, label=None):
    """The page's data of one run directory, or of a run inside a campaign database (DB#RUN_ID: _read_run_db; see the
    module's docstring); raises InputError."""
    ref = results_reader.parse_run(run_dir)
    if isinstance(ref, results_reader.RunRef):
        return _read_run_db(ref, label)
    d = os.path.normpath(run_dir)
    if not os.path.isdir(d):
        raise InputError(f"{run_dir}: not a directory; fix: give the output directory of `iosim run` (its --out)")
    apath = os.path.join(d, "apps.csv")
    storage = not os.path.isfile(apath) and os.path.isfile(os.path.join(d, "requests.csv"))
    # results.json, apps.csv, resources.csv: every value checked (iosim.results)
    run = results_reader.read_run(d, need=("results",) if storage else ("results", "apps", "resources"))
    results = run.results
    if storage:  # a StorAlloc run with simulated I/O: its requests are the applications, its disks the resources
        apps, capacity, kinds = _storage_apps(d)
        srows = [{"name": n} for n in capacity]
    else:
        apps, capacity, kinds = _apps_of(run.apps, run.resources, apath)
        srows = run.resources.to_dict("records")
    names = [a["name"] for a in apps]

    tpath, epath = os.path.join(d, "timeline.bin"), os.path.join(d, "events.csv")
    if os.path.isfile(epath):  # output.events: the run wrote events.csv instead of timeline.bin
        res_names = [r["name"] for r in srows]
        iv = read_events(epath, names, res_names)
        source = "events.csv"
    elif os.path.isfile(tpath):
        tl_apps, res_names, iv = read_timeline(tpath)
        if tl_apps != names:
            raise InputError(f"{tpath}: its applications ({', '.join(tl_apps[:4])}...) are not those of {apath} "
                             f"({', '.join(names[:4])}...): the files come from different runs; {RERUN}")
        source = "timeline.bin"
    else:
        raise InputError(f"{d}: neither timeline.bin nor events.csv; fix: rerun it with this iosim (which writes "
                         "timeline.bin on every run), or with --set output.events=true")

    lpath = os.path.join(d, "allocations.csv")
    alloc = []
    if os.path.isfile(lpath):
        aindex = {n: i for i, n in enumerate(names)}
        for no, r in enumerate(_read_csv(lpath, ["app", "start_s", "end_s", "n_resources", "resources"]), start=2):
            if r["app"] not in aindex:
                raise InputError(f"{lpath}: line {no}: application '{r['app']}' is not in apps.csv; {RERUN}")
            alloc.append({"app": aindex[r["app"]], "t0": _num(lpath, no, "start_s", r["start_s"]),
                          "t1": _num(lpath, no, "end_s", r["end_s"]),
                          "n": int(_num(lpath, no, "n_resources", r["n_resources"])),
                          "resources": r["resources"]})

    return _page_data(d, label, results, apps, capacity, kinds, srows, res_names, iv, source, alloc, storage)


def _page_data(d, label, results, apps, capacity, kinds, srows, res_names, iv, source, alloc, storage):
    """read_run()'s dict from what it read (d: the run's directory, or DB#RUN_ID)."""
    resources = []
    used = sorted({r for r in iv["res"] if r >= 0})
    for i, n in enumerate(res_names):
        if n == "" or (i not in used and n not in capacity):
            continue
        resources.append({"index": i, "name": n, "capacity": capacity.get(n), "kind": kinds.get(n, "pfs")})
    scen = results.get("scenario") or {}
    pol = {fam: (scen.get(fam) or {}).get("policy") for fam in ("allocation", "placement", "sharing")}
    if storage:  # StorAlloc's placement policy chooses the disks; SimGrid's max-min shares them
        store = (scen.get("storage") or {}).get("allocation") or {}
        pol = {"allocation": f"storage {store.get('policy')}", "placement": "(the policy's disks)",
               "sharing": "max-min (SimGrid)"}
    win = results.get("window") or {}
    metrics = {k: _finite(v) for k, v in (results.get("metrics") or {}).items() if not isinstance(v, (dict, list))}
    kind = np.asarray(iv["kind"], dtype=np.int32)

    def cols(mask, with_res=False, with_bytes=False):
        c = {"app": _b64(np.asarray(iv["app"])[mask], np.int32),
             "t0": _b64(np.asarray(iv["t0"])[mask], np.float64),
             "t1": _b64(np.asarray(iv["t1"])[mask], np.float64), "n": int(mask.sum())}
        if with_res:
            c["res"] = _b64(np.asarray(iv["res"])[mask], np.int32)
        if with_bytes:
            c["bytes"] = _b64(np.asarray(iv["bytes"])[mask], np.float64)
        return c

    return {
        "capacity": _platform_capacity(d, results, capacity, kinds),
        "label": label or os.path.basename(d) or d,
        "dir": d,
        "source": source,
        "status": results.get("status"),
        "policies": pol,
        "seed": results.get("seed"),
        "window": {"begin": _finite(win.get("begin_s")), "end": _finite(win.get("end_s")), "kind": win.get("kind")},
        "metrics": metrics,
        "apps": apps,
        "resources": resources,
        "work": cols(kind == KIND_WORK),
        "io": cols(kind == KIND_IO, with_bytes=True),
        "seg": cols(kind == KIND_TRANSFER, with_res=True, with_bytes=True),
        "alloc": alloc,
    }


def _platform_capacity(d, results, capacity, kinds):
    """What the platform can deliver in all (bytes/s), as the run's summary computes it for IPDPS'21 Eq. 2's caveat:
    its pool's resources (resources.csv) plus a PFS behind them, read from the run's platform XML (its own
    platform.xml, else the scenario's file) when resources.csv does not list it. None when unknown."""
    total = sum(v for v in capacity.values() if isinstance(v, (int, float)) and math.isfinite(v))
    if any(k == "pfs" for k in kinds.values()):
        return total or None
    plat = (results.get("scenario") or {}).get("platform")
    paths = [os.path.join(d, "platform.xml")] + ([plat] if isinstance(plat, str) else [])
    for path in paths:
        if os.path.isfile(path):
            import xml.etree.ElementTree as ET
            try:
                root = ET.parse(path).getroot()
            except ET.ParseError:
                break
            links = {ln.get("id"): ln.get("bandwidth") for ln in root.iter("link")}
            for h in root.iter("host"):
                props = {p.get("id"): p.get("value") for p in h.iter("prop")}
                if props.get("role") == "pfs" and props.get("link") in links:
                    m = re.match(r"^([0-9.eE+-]+)\s*([kMGT]?)Bps$", links[props["link"]] or "")
                    if m:
                        total += float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[m.group(2)]
            break
    return total or None


def _storage_apps(d):
    """A storage run's requests as applications (requests.csv, in the order of the timeline's request0, request1,
    ...): from the start of the job's I/O to its end, its bytes, and as its bandwidth alone StorAlloc's estimate of its
    allocation (else its simulated mean); and its disks' bandwidths from the run's platform.xml. Returns (apps,
    {resource: bandwidth in bytes/s}, {resource: kind})."""
    rpath = os.path.join(d, "requests.csv")
    rows = _read_csv(rpath, ["id", "start_s", "end_s", "io_bytes", "io_start_s", "io_end_s", "io_time_s"])
    apps = []
    for k, r in enumerate(rows):
        no = k + 2
        start = _num(rpath, no, "io_start_s", r["io_start_s"], allow_empty=True)
        if start is None:
            start = _num(rpath, no, "start_s", r["start_s"], allow_empty=True)
        end = _num(rpath, no, "io_end_s", r["io_end_s"], allow_empty=True)
        if end is None:
            end = _num(rpath, no, "end_s", r["end_s"], allow_empty=True)
        b = _num(rpath, no, "est_bw_Bps", r.get("est_bw_Bps", ""), allow_empty=True) or \
            _num(rpath, no, "sim_bw_Bps", r.get("sim_bw_Bps", ""), allow_empty=True)
        apps.append({"name": f"request{k}", "nodes": 1, "b": b, "start": start, "end": end,
                     "volume": _num(rpath, no, "io_bytes", r["io_bytes"], allow_empty=True), "yield": None,
                     "slowdown": None, "stretch": None,
                     "ioTime": _num(rpath, no, "io_time_s", r["io_time_s"], allow_empty=True)})
    capacity, kinds = {}, {}
    ppath = os.path.join(d, "platform.xml")
    if os.path.isfile(ppath):
        import xml.etree.ElementTree as ET
        try:
            root = ET.parse(ppath).getroot()
        except ET.ParseError as e:
            raise InputError(f"{ppath}: not readable XML ({e}); {RERUN}") from None
        links = {ln.get("id"): ln.get("bandwidth") for ln in root.iter("link")}
        for h in root.iter("host"):
            props = {p.get("id"): p.get("value") for p in h.iter("prop")}
            if props.get("role") in ("disk", "pfs") and props.get("link") in links:
                m = re.match(r"^([0-9.eE+-]+)\s*Bps$", links[props["link"]] or "")
                capacity[h.get("id")] = float(m.group(1)) if m else None
                kinds[h.get("id")] = props["role"]
    return apps, capacity, kinds


def decode(col, name, dtype):
    """A column of read_run()'s output back as a numpy array (tests)."""
    return np.frombuffer(base64.b64decode(col[name]), dtype=dtype)
