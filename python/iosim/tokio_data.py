"""TOKIO-ABC jobs for the contention validation (docs/validation.md): one row per job of the three summaries of
$IOSIM_DATA_DIR/tokio-abc (NERSC/tokio-abcutils, SC18 "A Year in the Life of a Parallel File System"), with what
the job measured (Darshan) and what its file system served during it (Lustre LMT on Cori and Edison, GPFS on Mira).

Columns of jobs(): system, fs (file system), app (executable's base name), direction ("write" when the job wrote
more than it read), nprocs, volume (bytes, POSIX read + written), bw (measured bandwidth, bytes/s: Darshan's
agg_perf_by_slowest for POSIX), start (s since the epoch, the job's window start), window (s, end - start of the
window the server-side counters cover), fs_bytes (bytes the file system served in both directions during the
window, the job's own included), osts (the file system's OSTs; 1 for GPFS), cls (the benchmark configuration:
system, fs, app, direction, nprocs, volume in GiB), month ("YYYY-MM"); and what the models do not use: imbalance (the
slowest file record's read or write time over the mean) and meta_frac (the slowest record's metadata time over the
job's I/O time), both for jobs with one record per rank only, full_pct (mean OST fullness, %), failover_osts (OSTs served by their
failover server).

Jobs are left out, whatever their bandwidth, when their file system is not a parallel file system (Cori's DataWarp
rows have no file system), when the server side did not see their window (counters missing, no monitoring sample,
or more than 10 % of LMT samples missing), or when they moved no bytes; excluded() says how many for each reason.
"""

import os

from .campaign_io import InputError, np, pd

FILES = {
    "cori": "cori-summaries_2017-02-14-2018-02-15.csv.gz",
    "edison": "edison-summaries_2017-02-14-2018-02-15.csv.gz",
    "mira": "mira-summaries_2017-02-14_2018-02-15.csv.gz",
}
# The file systems' OSTs when the rows do not say (fshealth_ost_count is the usual source): GPFS (Mira) is one
# aggregate resource here: GPFS stripes every file over all its servers, and the rows give no per-server data.
GPFS_SERVERS = 1
MIB = 1048576.0


def data_dir():
    """$IOSIM_DATA_DIR/tokio-abc (the folder `iosim data dir` prints: iosim's commands set IOSIM_DATA_DIR)."""
    root = os.environ.get("IOSIM_DATA_DIR")
    if not root:
        raise InputError("tokio-abc: no datasets folder; fix: set IOSIM_DATA_DIR to the folder `iosim data dir` "
                         "prints (e.g. ../shared/datasets), or run `make data`")
    return os.path.join(root, "tokio-abc")


def read_summary(path, system):
    """The raw rows of one summary file (Cori and Edison have an unnamed leading index column)."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: file not found; fix: set IOSIM_DATA_DIR to the folder holding tokio-abc/ "
                         "(e.g. ../shared/datasets)")
    try:
        return pd.read_csv(path, index_col=0 if system != "mira" else None, low_memory=False)
    except (pd.errors.ParserError, UnicodeDecodeError, OSError, EOFError) as e:
        raise InputError(f"{path}: not a readable CSV ({e}); fix: fetch the file again (PROVENANCE.txt)") from None


REQUIRED = ["_datetime_start", "_datetime_end", "_file_system", "darshan_app", "darshan_nprocs",
            "darshan_agg_perf_by_slowest_posix", "darshan_tot_bytes_read_posix", "darshan_tot_bytes_written_posix",
            "fs_tot_bytes_read", "fs_tot_bytes_written"]


def tidy(raw, system, path="summary"):
    """One row per job (the columns of the module's doc) and the reason each left-out job was left out."""
    missing = [c for c in REQUIRED if c not in raw.columns]
    if missing:
        raise InputError(f"{path}: column(s) {', '.join(missing)} missing; fix: use the summaries of "
                         "NERSC/tokio-abcutils (PROVENANCE.txt)")
    r = raw
    vr = r["darshan_tot_bytes_read_posix"].fillna(0).astype(float)
    vw = r["darshan_tot_bytes_written_posix"].fillna(0).astype(float)
    fs_r, fs_w = r["fs_tot_bytes_read"].astype(float), r["fs_tot_bytes_written"].astype(float)
    d = pd.DataFrame({
        "system": system,
        "fs": r["_file_system"],
        "app": r["darshan_app"].astype(str).str.rsplit("/", n=1).str[-1],
        "direction": np.where(vw > vr, "write", "read"),
        "nprocs": r["darshan_nprocs"].astype(float),
        "volume": vr + vw,
        "bw": r["darshan_agg_perf_by_slowest_posix"].astype(float) * MIB,
        "start": r["_datetime_start"].astype(float),
        "window": (r["_datetime_end"].astype(float) - r["_datetime_start"].astype(float)).clip(lower=1.0),
        "fs_bytes": fs_r + fs_w,
    })
    # diagnostics of what the models do not see (NaN where a summary lacks the column)
    col = lambda name: r[name].astype(float) if name in r.columns else pd.Series(np.nan, index=r.index)  # noqa: E731
    dirn = np.where(vw > vr, "write", "read")
    tmax = np.where(dirn == "write", col("darshan_max_f_write_time_posix"), col("darshan_max_f_read_time_posix"))
    tave = np.where(dirn == "write", col("darshan_ave_f_write_time_posix"), col("darshan_ave_f_read_time_posix"))
    nrec = np.where(dirn == "write", col("darshan_num_f_write_time_posix"), col("darshan_num_f_read_time_posix"))
    d["imbalance"] = np.where(nrec > 1, tmax / tave, np.nan)  # slowest record's time over the mean, FPP jobs
    # (a shared file's record sums every rank's times: both only for jobs with one record per rank, file per process)
    d["meta_frac"] = np.where(nrec > 1, col("darshan_max_f_meta_time_posix") / (d["volume"] / d["bw"]), np.nan)
    d["full_pct"] = col("fshealth_ost_avg_full_pct")
    d["failover_osts"] = col("fshealth_ost_overloaded_ost_count")
    if "fshealth_ost_count" in r.columns:
        # the largest count reported on each file system (a health snapshot may miss some OSTs)
        d["osts"] = r["fshealth_ost_count"].groupby(r["_file_system"]).transform("max")
    else:
        d["osts"] = GPFS_SERVERS
    reason = pd.Series("", index=d.index)
    reason[d["fs"].isna()] = "no parallel file system (burst buffer)"
    no_server = fs_r.isna() | fs_w.isna() | ((fs_r + fs_w) <= 0)
    if "fs_frac_missing" in r.columns:
        no_server |= r["fs_frac_missing"].astype(float) > 0.1
    if "fs_monitoring_samples" in r.columns:
        no_server |= r["fs_monitoring_samples"].astype(float) <= 0
    reason[(reason == "") & no_server] = "server-side counters missing"
    reason[(reason == "") & (~(d["volume"] > 0) | ~(d["bw"] > 0))] = "no bytes measured"
    reason[(reason == "") & ~(d["osts"] > 0)] = "OST count unknown"
    d["cls"] = (d["system"] + "/" + d["fs"].astype(str) + "/" + d["app"] + "/" + d["direction"] + "/" +
                d["nprocs"].fillna(0).astype(int).astype(str) + "/" + (d["volume"] / 2**30).round().astype(int)
                .astype(str) + "GiB")
    d["month"] = pd.to_datetime(d["start"], unit="s").dt.strftime("%Y-%m")
    return d[reason == ""].reset_index(drop=True), reason[reason != ""]


def jobs(systems=tuple(FILES), directory=None):
    """Every kept job of `systems` (one DataFrame) and the counts of left-out jobs per (system, reason)."""
    directory = directory or data_dir()
    kept, out = [], []
    for s in systems:
        path = os.path.join(directory, FILES[s])
        d, why = tidy(read_summary(path, s), s, path)
        kept.append(d)
        out.append(why.value_counts().rename_axis("reason").reset_index(name="jobs").assign(system=s))
    return pd.concat(kept, ignore_index=True), pd.concat(out, ignore_index=True)[["system", "reason", "jobs"]]
