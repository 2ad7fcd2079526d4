#!/usr/bin/env python3
"""iosim's data step: the public datasets of traces/datasets.json, fetched at their pinned versions and checked.

usage: datasets.py fetch [--mirror DIR|URL] [--upstream URL] [-o DIR] [--dataset NAME]... [--force]
       datasets.py verify [DIR] [--dataset NAME]...
       datasets.py list

fetch   Without --mirror (upstream mode): downloads every file marked "upstream" (and every "source") from its
        repository at the pinned commit (URL/OWNER/REPO/COMMIT/PATH, URL = --upstream, default
        https://raw.githubusercontent.com), checks its size and SHA-256, derives the files marked "derive" with the
        recipes below, and checks those too. With --mirror (a folder, a file:// URL or any URL holding
        DATASET/PATH, e.g. ../shared/datasets): copies every file and checks it. Each dataset is written into
        DIR/DATASET (default: the traces/datasets folder beside this script, where iosim looks when neither
        $IOSIM_DATA_DIR nor ../shared/datasets exists) through a staging folder renamed once every file of it has
        passed, so a failed dataset leaves nothing that looks complete. A dataset already there and intact is kept
        (--force fetches it again).
verify  Checks the files of DIR (default: the folder iosim uses: $IOSIM_DATA_DIR, else ../shared/datasets beside
        iosim's home, else traces/datasets) against the manifest without downloading anything.
list    The datasets: name, files, bytes, repository and commit.

Exit codes: 0 every file checked; 2 a file is missing, unreadable or differs from the manifest (the message names the
file, where it came from, both SHA-256 sums and the fix), or bad arguments; 1 an internal error.
"""
import argparse
import csv
import gzip
import hashlib
import io
import json
import os
import shutil
import sys
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "datasets.json")
DEFAULT_OUT = os.path.join(HERE, "datasets")


class DataError(Exception):
    """Bad input: a missing or corrupt file, a bad argument (exit 2)."""


def load_manifest(path=MANIFEST):
    try:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        raise DataError(f"{path}: cannot read the manifest ({e})")
    if m.get("format") != 1 or not isinstance(m.get("datasets"), list):
        raise DataError(f"{path}: not a format-1 manifest (\"format\": 1, \"datasets\": [...])")
    return m


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def as_url(place):
    """A folder path becomes a file:// URL; a URL is kept. No trailing slash."""
    if "://" in place:
        return place.rstrip("/")
    if not os.path.isdir(place):
        raise DataError(f"{place}: no such folder (--mirror takes a folder or a URL)")
    return "file://" + urllib.parse.quote(os.path.abspath(place))


def download(url):
    """The bytes at `url` (file://, http://, https://)."""
    tries = 1 if url.startswith("file://") else 3
    for attempt in range(tries):
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                return r.read()
        except urllib.error.HTTPError as e:
            raise DataError(f"{url}: HTTP {e.code} {e.reason}")
        except (urllib.error.URLError, OSError) as e:
            if attempt + 1 == tries:
                reason = getattr(e, "reason", e)
                raise DataError(f"{url}: cannot download ({reason}); fix: check the network (a proxy goes in "
                                f"https_proxy), or copy the datasets from a mirror (--mirror DIR|URL)")
    raise AssertionError("unreachable")


def check(data, entry, label, origin):
    """Raises DataError unless data has the entry's size and SHA-256."""
    got = sha256(data)
    if got != entry["sha256"] or len(data) != entry["bytes"]:
        raise DataError(f"{label} (from {origin}): SHA-256 {got} ({len(data):,} bytes), but traces/datasets.json "
                        f"pins {entry['sha256']} ({entry['bytes']:,} bytes): the copy is damaged or not the pinned "
                        f"version; fetch it again (make data), from another mirror, or from upstream (no --mirror)")


# ---------------------------------------------------------------------------------------------------- recipes
# Each takes the bytes of the files named by "from" (in that order) and the manifest's "args", and returns the
# bytes of the derived file. They reproduce the copies in ../shared/datasets byte for byte (their SHA-256 is pinned).

def forge_means(inputs, zero_column):
    """Per FORGE pattern (clients, processes, layout, spatiality, request, odirect) the mean bandwidth (MiB/s) of its
    repetitions with 0, 1, 2, 4 and 8 forwarders, rounded to 3 decimals, and the repetition counts; patterns in
    increasing order; CSV with CRLF line ends. Inputs: the ';'-separated results.csv files (0 forwarders first)."""
    runs = {}
    for data in inputs:
        for r in csv.DictReader(io.StringIO(data.decode("utf-8"), newline=""), delimiter=";"):
            key = tuple(int(r[c]) for c in ("clients", "processes", "layout", "spatiality", "request", "odirect"))
            runs.setdefault((key, int(r["forwarders"])), []).append(float(r["bandwidth"]))
    out = io.StringIO(newline="")
    w = csv.writer(out)
    w.writerow(["clients", "processes", "layout(0=fpp,1=shared)", "spatiality(0=contig,1=strided)", "request_KiB",
                "odirect", zero_column, "bw_1ion", "bw_2ion", "bw_4ion", "bw_8ion", "n_reps_0/1/2/4/8"])
    for key in sorted({k for k, _ in runs}):
        cells = [runs.get((key, n), []) for n in (0, 1, 2, 4, 8)]
        means = [repr(round(sum(v) / len(v), 3)) if v else "" for v in cells]
        w.writerow(list(key) + means + ["/".join(str(len(v)) for v in cells)])
    return out.getvalue().encode()


# The nine kernels of the queue generator (its application_encode.py letters): the IPDPS'21 name (§5, Table 3) and,
# in parentheses, the application's name in bandwidth.csv's source when it differs.
KERNELS = {"A": "BT-C(BTIO)", "B": "BT-D(BTIO)", "C": "HACC", "D": "IOR-MPIIO", "E": "POSIX-S(IOR-POSIX)",
           "F": "POSIX-L(IOR-POSIX)", "G": "MAD(MADBENCH2)", "H": "SIM(S3ASIM)", "I": "S3D(S3D-IO)"}


def kernels_pivot(inputs):
    """bandwidth.csv (';': index;scenario;forwarders;bandwidth;clients;processes) as one row per kernel: code, name,
    nodes, processes and the bandwidth (MB/s, rounded to an integer) with 0, 1, 2, 4, 8 forwarders; CRLF."""
    rows = {}
    for r in csv.DictReader(io.StringIO(inputs[0].decode("utf-8"), newline=""), delimiter=";"):
        k = rows.setdefault(r["scenario"], {"nodes": r["clients"], "procs": r["processes"]})
        k[int(r["forwarders"])] = float(r["bandwidth"])
    out = io.StringIO(newline="")
    w = csv.writer(out)
    w.writerow(["code", "app", "nodes", "procs", "bw0", "bw1", "bw2", "bw4", "bw8"])
    for code in sorted(rows):
        if code not in KERNELS:
            raise DataError(f"bandwidth.csv: unknown kernel code {code!r} (known: {', '.join(KERNELS)})")
        k = rows[code]
        w.writerow([code, KERNELS[code], k["nodes"], k["procs"]] + [round(k[n]) for n in (0, 1, 2, 4, 8)])
    return out.getvalue().encode()


# tokio_abc_jobs_slim.csv: its column, and the column of the TOKIO summaries it comes from.
TOKIO_COLUMNS = [("start_epoch", "_datetime_start"), ("file_system", "_file_system"), ("app", "darshan_app"),
                 ("nprocs", "darshan_nprocs"), ("walltime_s", "darshan_walltime"),
                 ("bytes_read", "darshan_tot_bytes_read_posix"), ("bytes_written", "darshan_tot_bytes_written_posix"),
                 ("agg_perf_MiBps", "darshan_agg_perf_by_slowest_posix"),
                 ("concurrent_jobs", "jobsdb_concurrent_jobs"), ("concurrent_nodes", "jobsdb_concurrent_nodes"),
                 ("fs_ave_GiBps_read", "fs_ave_gibs_read_per_sec"),
                 ("fs_ave_GiBps_written", "fs_ave_gibs_written_per_sec"), ("fs_tot_bytes_read", "fs_tot_bytes_read"),
                 ("fs_tot_bytes_written", "fs_tot_bytes_written"), ("ost_count", "fshealth_ost_count")]


def tokio_slim(inputs, systems=("cori", "edison", "mira")):
    """The 15 columns above of the three gzip summaries (one row per job, in file order; the system's name first,
    the application as the executable's base name, every other cell as written; a column a system lacks is empty).
    Cori and Edison rows have an unnamed leading index column, dropped. CSV with CRLF."""
    out = io.StringIO(newline="")
    w = csv.writer(out)
    w.writerow(["system"] + [c for c, _ in TOKIO_COLUMNS])
    for system, data in zip(systems, inputs):
        r = csv.reader(io.TextIOWrapper(gzip.GzipFile(fileobj=io.BytesIO(data)), encoding="utf-8", newline=""))
        header = next(r)
        for row in r:
            if len(row) == len(header) + 1:
                row = row[1:]
            cell = dict(zip(header, row))
            vals = [cell.get(src, "") for _, src in TOKIO_COLUMNS]
            vals[2] = os.path.basename(vals[2])
            w.writerow([system] + vals)
    return out.getvalue().encode()


def _number(node, where):
    """The value of a constant arithmetic expression of the Python source (numbers, + - * /, parentheses)."""
    import ast
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _number(node.operand, where)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        a, b = _number(node.left, where), _number(node.right, where)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if b == 0:
            raise DataError(f"windowsstats.py: {where}: a division by zero")
        return a / b
    raise DataError(f"windowsstats.py: {where}: not a constant arithmetic expression")


def _platforms(source):
    """{name: {"kw": {...}, "workload": [{...}, ...]}} for every `NAME = Platform(...)` of the source, read with the
    ast module (parsed, never executed)."""
    import ast
    try:
        tree = ast.parse(source.decode("utf-8"))
    except (SyntaxError, UnicodeDecodeError) as e:
        raise DataError(f"windowsstats.py: cannot parse it ({e})")
    plats = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "Platform"):
            continue
        name = node.targets[0].id
        kw, apps = {}, []
        for k in node.value.keywords:
            if k.arg == "workload":
                for call in getattr(k.value, "elts", []):
                    app = {}
                    for a in call.keywords:
                        app[a.arg] = a.value.value if a.arg == "name" else _number(a.value, f"{name}.{a.arg}")
                    apps.append(app)
            else:
                kw[k.arg] = _number(k.value, f"{name}.{k.arg}")
        plats[name] = {"kw": kw, "workload": apps}
    return plats


def _fmt(x):
    """A number as the tables write it: integers without a decimal point, others as Python's shortest repr."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


APEX_PLATFORMS = ("trilab", "nersc")


def apex_workloads(inputs):
    """One row per application class of the trilab and nersc platforms of windowsstats.py, in source order:
    platform, app, corehour_ratio, walltime_h (its walltime in s / 3600), cores, input/output/ckpt ratios,
    iterations, ensemble, ckpt_period_s. CSV with LF line ends."""
    plats = _platforms(inputs[0])
    lines = ["platform,app,corehour_ratio,walltime_h,cores,input_ratio,output_ratio,ckpt_ratio,iterations,ensemble,"
             "ckpt_period_s"]
    for p in APEX_PLATFORMS:
        if p not in plats or not plats[p]["workload"]:
            raise DataError(f"windowsstats.py: no `{p} = Platform(..., workload=[AppClass(...), ...])`")
        for a in plats[p]["workload"]:
            try:
                vals = [a["corehour_ratio"], a["walltime"] / 3600, a["cores"], a["input_ratio"], a["output_ratio"],
                        a["ckpt_ratio"], a["iterations"], a["ensemble"], a["ckpt_period"]]
            except KeyError as e:
                raise DataError(f"windowsstats.py: {p}: an AppClass without {e}")
            lines.append(",".join([p, a["name"]] + [_fmt(v) for v in vals]))
    return ("\n".join(lines) + "\n").encode()


def apex_platform(inputs):
    """The platform both workloads use (nodes, cores per node, RAM per node in GiB, node and system bandwidth in
    GiB/s), checked to be the same for trilab and nersc. CSV with LF line ends."""
    plats = _platforms(inputs[0])
    keys = ("nodes", "cores_per_node", "ram_per_node", "node_bw", "system_bw")
    got = []
    for p in APEX_PLATFORMS:
        kw = plats.get(p, {}).get("kw", {})
        if any(k not in kw for k in keys):
            raise DataError(f"windowsstats.py: `{p} = Platform(...)` lacks one of {', '.join(keys)}")
        got.append(tuple(kw[k] for k in keys))
    if got[0] != got[1]:
        raise DataError("windowsstats.py: trilab and nersc no longer share one platform: the table has one row")
    nodes, cores, ram, node_bw, sys_bw = got[0]
    gib = 1024 ** 3
    return ("platform,nodes,cores_per_node,ram_per_node_GiB,node_bw_GiB_s,system_bw_GiB_s\n"
            "cielo_like(trilab and nersc both use it)," +
            ",".join(_fmt(v) for v in (nodes, cores, ram / gib, node_bw / gib, sys_bw / gib)) + "\n").encode()


RECIPES = {"forge_means": forge_means, "kernels_pivot": kernels_pivot, "tokio_slim": tokio_slim,
           "apex_workloads": apex_workloads, "apex_platform": apex_platform}


# ---------------------------------------------------------------------------------------------------- steps
def select(manifest, names):
    known = [d["name"] for d in manifest["datasets"]]
    for n in names or []:
        if n not in known:
            raise DataError(f"--dataset {n}: no such dataset (known: {', '.join(known)})")
    return [d for d in manifest["datasets"] if not names or d["name"] in names]


def intact(folder, ds):
    """Whether folder/NAME holds every file of the dataset with its pinned sum."""
    for e in ds["files"]:
        try:
            with open(os.path.join(folder, ds["name"], e["path"]), "rb") as f:
                if sha256(f.read()) != e["sha256"]:
                    return False
        except OSError:
            return False
    return True


def gather(ds, mirror, upstream):
    """{path: bytes} of every file of the dataset, each checked; raises DataError on the first bad one."""
    name = ds["name"]
    got = {}
    if mirror is not None:
        for e in ds["files"]:
            url = f"{mirror}/{urllib.parse.quote(name)}/{urllib.parse.quote(e['path'])}"
            data = download(url)
            check(data, e, f"{name}/{e['path']}", url)
            got[e["path"]] = data
        return got
    base = f"{upstream}/{ds['repository']}/{ds['commit']}"
    sources = {}
    for e in ds.get("sources", []) + [f for f in ds["files"] if "upstream" in f]:
        url = f"{base}/{urllib.parse.quote(e['upstream'])}"
        data = download(url)
        label = f"{name}/{e['path']}" if "path" in e else f"{name}: the source {e['upstream']}"
        check(data, e, label, url)
        sources[e.get("path", e.get("id"))] = data
        if "path" in e:
            got[e["path"]] = data
    for e in ds["files"]:
        if "derive" not in e:
            continue
        d = e["derive"]
        recipe = RECIPES.get(d["recipe"])
        if recipe is None:
            raise DataError(f"traces/datasets.json: {name}/{e['path']}: unknown recipe {d['recipe']!r}")
        missing = [x for x in d["from"] if x not in sources]
        if missing:
            raise DataError(f"traces/datasets.json: {name}/{e['path']}: derived from {', '.join(missing)}, which "
                            f"is neither an upstream file nor a source of the dataset")
        data = recipe([sources[x] for x in d["from"]], **d.get("args", {}))
        check(data, e, f"{name}/{e['path']}", f"recipe {d['recipe']} of traces/datasets.py on "
                                             f"{', '.join(d['from'])}")
        got[e["path"]] = data
    return got


def install(out, ds, files):
    """Writes the files into out/.NAME.partial, then renames it to out/NAME (replacing an older copy)."""
    final = os.path.join(out, ds["name"])
    stage = os.path.join(out, f".{ds['name']}.partial")
    shutil.rmtree(stage, ignore_errors=True)
    try:
        for path, data in files.items():
            p = os.path.join(stage, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(data)
        old = os.path.join(out, f".{ds['name']}.old")
        shutil.rmtree(old, ignore_errors=True)
        if os.path.exists(final):
            os.rename(final, old)
        os.rename(stage, final)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as e:
        shutil.rmtree(stage, ignore_errors=True)
        raise DataError(f"{final}: cannot write ({e.strerror}); fix: -o a writable folder")


def fetch(args, manifest):
    mirror = as_url(args.mirror) if args.mirror else None
    upstream = (args.upstream or manifest.get("upstream_base", "")).rstrip("/")
    out = os.path.abspath(args.out)
    chosen = select(manifest, args.dataset)
    existed = os.path.isdir(out)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise DataError(f"{out}: cannot create it ({e.strerror}); fix: -o a writable folder")
    where = f"mirror {mirror}" if mirror else f"upstream {upstream}"
    failed, nfiles, nbytes = [], 0, 0
    for ds in chosen:
        size = sum(e["bytes"] for e in ds["files"])
        if not args.force and intact(out, ds):
            print(f"  kept  {ds['name']}: {len(ds['files'])} files, {size:,} bytes, already there and intact")
            nfiles, nbytes = nfiles + len(ds["files"]), nbytes + size
            continue
        try:
            files = gather(ds, mirror, upstream)
            install(out, ds, files)
        except DataError as e:
            print(f"iosim data: error: {e}", file=sys.stderr)
            failed.append(ds["name"])
            continue
        derived = sum(1 for e in ds["files"] if "derive" in e and mirror is None)
        how = f", {derived} derived" if derived else ""
        print(f"  ok    {ds['name']}: {len(ds['files'])} files{how}, {size:,} bytes, SHA-256 checked "
              f"({ds['repository']} at {ds['commit'][:12]})")
        nfiles, nbytes = nfiles + len(ds["files"]), nbytes + size
    if failed:
        if not existed and not os.listdir(out):
            os.rmdir(out)  # an empty folder would look like a data folder to iosim's lookup
        print(f"iosim data: {len(failed)} dataset(s) not fetched ({', '.join(failed)}): nothing of them was "
              f"written to {out}", file=sys.stderr)
        return 2
    print(f"fetched from {where}: {nfiles} files, {nbytes:,} bytes, every SHA-256 as pinned, in {out}")
    return 0


def default_verify_dir():
    """The folder iosim uses (src/base/ios_datadir.h): $IOSIM_DATA_DIR, else ../shared/datasets beside iosim's home
    (the folder above this script's), else traces/datasets."""
    env = os.environ.get("IOSIM_DATA_DIR")
    if env:
        return env
    shared = os.path.join(HERE, "..", "..", "shared", "datasets")
    return os.path.realpath(shared) if os.path.isdir(shared) else DEFAULT_OUT


def verify(args, manifest):
    folder = args.dir or default_verify_dir()
    if not os.path.isdir(folder):
        raise DataError(f"{folder}: no such folder; fix: make data (or iosim data fetch -o {folder})")
    bad, n = 0, 0
    for ds in select(manifest, args.dataset):
        for e in ds["files"]:
            label = f"{ds['name']}/{e['path']}"
            p = os.path.join(folder, label)
            try:
                with open(p, "rb") as f:
                    check(f.read(), e, label, p)
                n += 1
            except OSError as err:
                print(f"iosim data: error: {p}: {err.strerror}; fix: make data (or iosim data fetch -o {folder})",
                      file=sys.stderr)
                bad += 1
            except DataError as err:
                print(f"iosim data: error: {err}", file=sys.stderr)
                bad += 1
    if bad:
        print(f"{folder}: {bad} file(s) missing or different from traces/datasets.json, {n} as pinned",
              file=sys.stderr)
        return 2
    print(f"{folder}: {n} files, every SHA-256 as pinned")
    return 0


def list_datasets(manifest):
    for ds in manifest["datasets"]:
        size = sum(e["bytes"] for e in ds["files"])
        derived = sum(1 for e in ds["files"] if "derive" in e)
        print(f"{ds['name']:24} {len(ds['files']):2} files ({derived} derived) {size:>11,} bytes  "
              f"github.com/{ds['repository']} @ {ds['commit'][:12]} ({ds['date']})")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="iosim data", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fetch", help="download (or copy from a mirror) and check every dataset")
    f.add_argument("--mirror", help="a folder or URL holding DATASET/PATH (e.g. ../shared/datasets)")
    f.add_argument("--upstream", help="instead of https://raw.githubusercontent.com: URL/OWNER/REPO/COMMIT/PATH")
    f.add_argument("-o", "--out", default=DEFAULT_OUT, help=f"where (default {DEFAULT_OUT})")
    f.add_argument("--dataset", action="append", help="only this dataset (repeatable)")
    f.add_argument("--force", action="store_true", help="fetch datasets already there and intact again")
    v = sub.add_parser("verify", help="check a folder against the manifest")
    v.add_argument("dir", nargs="?", help="the datasets folder (default: the one iosim uses)")
    v.add_argument("--dataset", action="append", help="only this dataset (repeatable)")
    sub.add_parser("list", help="the datasets, their size and pinned version")
    args = ap.parse_args(argv)
    try:
        manifest = load_manifest()
        if args.cmd == "fetch":
            return fetch(args, manifest)
        if args.cmd == "verify":
            return verify(args, manifest)
        return list_datasets(manifest)
    except DataError as e:
        print(f"iosim data: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
