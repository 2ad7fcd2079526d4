#!/usr/bin/env python3
"""iosim view: one self-contained HTML page (no server, no network) that shows how runs shared their I/O resources.

usage: python3 -m iosim.view DIR [DIR...] [-o OUT] [--title TEXT] [--labels L1,L2,...] [--max-resources N]
       python/iosim/view.py CAMPAIGN_DIR [-o OUT] [--x COL] [--policy COL] [--metrics M,...] [report.py's options]

DIR is the output directory of `iosim run` (results.json, apps.csv, resources.csv, allocations.csv, and timeline.bin
or events.csv), or a run inside a campaign database, DB#RUN_ID (DB the campaign.db or the directory holding it; its
events or timeline tables give the intervals). Several DIRs are drawn side by side on one time axis, with their metrics in one table. A
CAMPAIGN_DIR (the output of `iosim sweep`: campaign.db, or runs.csv and runs/) gives the campaign page: the report's metrics per run as
interactive charts (hover: the run and its parameters; click: the run's view below), with the records of its runs
embedded up to a size limit. `iosim view` and `iosim report` run this script (docs/outputs.md, "iosim view").

The page draws with plotly.js (Debian python3-plotly), inlined. OUT defaults to view.html (DIR/report/view.html for a
campaign); the path written is printed. Exit 2 on bad input with the file, the field and the fix.
"""

import argparse
import json
import math
import os
import sys


from . import campaign_io  # noqa: E402  (exits 2 naming the Debian package when a module is missing)
from .campaign_io import InputError  # noqa: E402
from . import results  # noqa: E402  (runs inside a campaign database: DIR/campaign.db#RUN_ID)
from . import view_data  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTLY_JS = "/usr/share/python3-plotly/plotly.js"  # Debian python3-plotly
MAX_RESOURCES = 8  # resource panels per run by default (the busiest)
CAMPAIGN_RECORDS = 1_500_000  # intervals of the runs embedded in a campaign page (about 25 MB of page)


def plotly_source():
    """plotly.js as Debian's python3-plotly ships it (the file, else through the module)."""
    if os.path.isfile(PLOTLY_JS):
        with open(PLOTLY_JS, encoding="utf-8") as f:
            return f.read()
    try:
        from plotly.offline import get_plotlyjs
        return get_plotlyjs()
    except ImportError:
        raise InputError("plotly.js not found (Debian package python3-plotly); fix: apt-get install python3-plotly "
                         "(or `make deps`)") from None


def _json_for_script(obj):
    """JSON that can sit inside <script type="application/json">: no '</' and no NaN."""
    text = json.dumps(obj, separators=(",", ":"), allow_nan=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def clean(v):
    """JSON-safe value: NaN and infinities become None, numpy scalars Python numbers."""
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()}
    if isinstance(v, list):
        return [clean(x) for x in v]
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def limit_resources(run, max_resources):
    """Keeps the `max_resources` resources that moved the most bytes (pool order); notes the others."""
    res = run["resources"]
    if max_resources <= 0 or len(res) <= max_resources:
        return
    seg = run["seg"]
    r = view_data.decode(seg, "res", "<i4")
    b = view_data.decode(seg, "bytes", "<f8")
    moved = {}
    for i, x in zip(r.tolist(), b.tolist()):
        moved[i] = moved.get(i, 0.0) + (x if math.isfinite(x) else 0.0)
    keep = sorted(res, key=lambda q: -moved.get(q["index"], 0.0))[:max_resources]
    keep_ids = {q["index"] for q in keep}
    run["hiddenResources"] = (f"{len(res) - len(keep)} more resources not drawn (the {len(keep)} that moved the "
                              f"most bytes are); --max-resources N draws more")
    run["resources"] = [q for q in res if q["index"] in keep_ids]


def page(data, title, subtitle="", plotly_src=None):
    """The HTML text of the page: template, style, plotly.js, the data and view.js inlined; with `plotly_src` (a URL,
    as `iosim lab` serves its pages), plotly.js is loaded from there instead of inlined."""
    def read(name):
        with open(os.path.join(HERE, "view_page", name), encoding="utf-8") as f:
            return f.read()
    html = read("view.html")
    esc = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if plotly_src is not None:
        src = plotly_src.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
        plotly = f'<script src="{src}"></script>'
    else:
        plotly = "<script>\n" + plotly_source() + "\n</script>"
    parts = {"@TITLE@": esc, "@SUBTITLE@": subtitle, "@CSS@": read("view.css"), "@PLOTLY@": plotly,
             "@DATA@": _json_for_script(clean(data)), "@VIEWJS@": read("view.js")}
    # one pass, so that text inside the data or the libraries is never taken for a placeholder
    out, pos = [], 0
    while True:
        hits = [(html.find(k, pos), k) for k in parts]
        hits = [h for h in hits if h[0] >= 0]
        if not hits:
            out.append(html[pos:])
            break
        at, key = min(hits)
        out.append(html[pos:at])
        out.append(parts[key])
        pos = at + len(key)
    return "".join(out)


def write(path, text):
    d = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(d):
        raise InputError(f"-o {path}: directory {d} does not exist; fix: create it or write elsewhere")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def runs_page(dirs, labels, title, max_resources):
    runs = []
    for k, d in enumerate(dirs):
        run = view_data.read_run(d, labels[k] if labels else None)
        limit_resources(run, max_resources)
        runs.append(run)
    if title is None:
        title = "iosim view: " + " | ".join(f"{r['label']} ({r['policies'].get('sharing')})" for r in runs)
    return {"title": title, "runs": runs, "campaign": None}, title


def campaign_page(cdir, args, max_resources):
    """The campaign page's data: report.py's choices (x, policy, metrics), one row per complete run, and the
    records of as many runs as CAMPAIGN_RECORDS allows."""
    from . import figures
    from . import report
    df, swept, metrics = campaign_io.load_runs(cdir)
    camp = report.load_campaign(cdir)
    ch = report.resolve_choices(args, df, swept, metrics, camp, cdir)
    runs_df, _ = figures.complete_runs(df)
    if runs_df.empty:
        raise InputError(f"{campaign_io.runs_where(cdir)}: no complete run; fix: look at the 'error' column of the "
                         "failed runs, correct the campaign and rerun it")
    params = [c for c in swept] + (["seed"] if "seed" in df.columns else [])
    rows, runs, budget = [], [], CAMPAIGN_RECORDS
    units = {}
    for m in ch["metrics"] + ([ch["x"]] if ch["x"] else []):
        _, unit, factor = figures.unit_of(m)
        units[m] = unit
    dbp = campaign_io.campaign_db(cdir)
    recorded = None  # the runs whose intervals the database holds (events or timeline tables); None: files
    if dbp:
        db = results.open_db(dbp)
        recorded = set()
        for t in ("events", "timeline"):
            if t in db.tables:
                recorded |= set(db.query(f"select distinct run_id from {t}", table=t)["run_id"].astype(str))
    for _, r in runs_df.iterrows():
        run_id = str(r["run_id"])
        rdir = f"{dbp}#{run_id}" if dbp else os.path.join(cdir, "runs", run_id)
        row = {"run_id": run_id, "dir": rdir, "run": None, "why": "",
               "params": {c: clean(r[c]) for c in params},
               "metrics": {m: clean(float(r[m]) * figures.unit_of(m)[2]) if r[m] == r[m] else None
                           for m in ch["metrics"]}}
        if ch["x"]:
            row["params"][ch["x"]] = clean(r[ch["x"]] * figures.unit_of(ch["x"])[2]) \
                if isinstance(r[ch["x"]], (int, float)) else clean(r[ch["x"]])
        if recorded is not None and run_id not in recorded:
            row["why"] = (f"{dbp}: no events or timeline of this run (a campaign stores them only with "
                          "output.events)")
            rows.append(row)
            continue
        try:
            run = view_data.read_run(rdir, run_id)
            size = run["seg"]["n"] + run["io"]["n"] + run["work"]["n"]
            if size > budget:
                row["why"] = f"{size} intervals: over the page's limit of {CAMPAIGN_RECORDS} for all runs"
            else:
                budget -= size
                limit_resources(run, max_resources)
                run["label"] = run_id + " " + ", ".join(f"{c}={row['params'][c]}" for c in params
                                                         if c in (ch["policy"], ch["x"]))
                row["run"] = len(runs)
                runs.append(run)
        except InputError as e:
            row["why"] = str(e)
        rows.append(row)
    title = camp.get("name") or os.path.basename(os.path.normpath(campaign_io.campaign_dir(cdir)))
    embedded = sum(1 for r in rows if r["run"] is not None)
    note = (f"{embedded} of {len(rows)} complete runs have their records in this page"
            + ("" if embedded == len(rows) else " (the others: records missing or over the size limit; the click "
               "gives the command that views them)") + ".")
    data = {"title": f"iosim campaign {title}", "runs": runs,
            "campaign": {"title": title, "x": ch["x"], "policy": ch["policy"], "metrics": ch["metrics"],
                         "units": units, "rows": rows, "note": note, "xlog": False}}
    return data, data["title"]


def is_campaign(arg):
    """True for a campaign: a directory holding runs.csv or campaign.db, or a campaign database (a file whose meta
    holds the sweep); False for a run (a run directory, DB#RUN_ID, or the database of one `iosim run`)."""
    if os.path.isdir(arg):
        return os.path.isfile(os.path.join(arg, "runs.csv")) or campaign_io.campaign_db(arg) is not None
    ref = results.parse_run(arg)
    return isinstance(ref, results.RunRef) and ref.run_id is None and bool(results.open_db(ref.db).meta.get("sweep"))


def main(argv=None):
    p = argparse.ArgumentParser(description="A self-contained HTML page of runs (iosim run output directories) or "
                                "of a campaign (iosim sweep output directory).")
    p.add_argument("dirs", metavar="DIR", nargs="+", help="run directories, or one campaign directory")
    p.add_argument("-o", "--out", help="the HTML file (default view.html; DIR/report/view.html for a campaign)")
    p.add_argument("--title", help="the page's title")
    p.add_argument("--labels", help="comma-separated names of the runs (default: their directory names)")
    p.add_argument("--max-resources", type=int, default=MAX_RESOURCES, metavar="N",
                   help=f"resource panels per run, the busiest first (default {MAX_RESOURCES}; 0: all)")
    for opt in ("--x", "--policy", "--metrics", "--baseline", "--gantt", "--by-position"):
        p.add_argument(opt, help="campaign page: as in python/iosim/report.py")
    args = p.parse_args(argv)
    try:
        labels = [s.strip() for s in args.labels.split(",")] if args.labels else None
        if labels and len(labels) != len(args.dirs):
            raise InputError(f"--labels: {len(labels)} names for {len(args.dirs)} directories; fix: give one per "
                             "directory")
        campaign = [d for d in args.dirs if is_campaign(d)]
        if campaign:
            if len(args.dirs) > 1:
                raise InputError(f"{campaign[0]} is a campaign (it holds runs.csv or campaign.db): view it alone, or "
                                 "give its runs (DIR/runs/RUN_ID, or DIR/campaign.db#RUN_ID)")
            data, title = campaign_page(args.dirs[0], args, args.max_resources)
            out = args.out or os.path.join(campaign_io.campaign_dir(args.dirs[0]), "report", "view.html")
            os.makedirs(os.path.dirname(out), exist_ok=True) if not args.out else None
        else:
            data, title = runs_page(args.dirs, labels, args.title, args.max_resources)
            out = args.out or "view.html"
        if args.title:
            data["title"] = title = args.title
        write(out, page(data, title))
    except InputError as e:
        print(f"view.py: error: {e}", file=sys.stderr)
        return 2
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
