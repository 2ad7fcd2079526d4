#!/usr/bin/python3
"""IPDPS'21 §3.2 by arithmetic: the aggregated bandwidth of the arbitration policies over random sets of FORGE patterns.

Independent of the simulator (no iosim code is called): each policy's I/O-node counts n_a are computed from its
definition (Bez et al., IPDPS'21 §3.1-3.2), and a set's aggregated bandwidth is Σ_a b_a(n_a) (IPDPS'21 Eq. 2 for
applications that only do I/O and share no I/O node). Policies:

- ZERO: n = 0 (direct file-system access); ONE: n = 1;
- STATIC: n = min(ceil(C_a·F / C), F) with C = 512 compute nodes (`static-ceil`); STATIC+points lowers n to the
  largest measured count (0, 1, 2, 4, 8) not above it;
- SIZE / PROCESS: n = round(F·C_a / Σ C) (halves up), with processes instead of compute nodes for PROCESS;
- MCKP: max Σ b_a(n_a) subject to Σ n_a ≤ F, n_a ∈ {0} ∪ {divisors of C_a up to F} (IPDPS'21 Eq. 1), an exact
  multiple-choice knapsack solved here by dynamic programming over the capacity "at most c" (vectorised over sets);
- ORACLE: each application's best count, ignoring F.

b_a(n) is the FORGE profile: measured at n = 0, 1, 2, 4, 8, linear in between, b(8) beyond 8 (what iosim assumes,
docs/rr9549.md). Bandwidths in bytes/s (the CSV's MiB/s × 2^20).

Sets are drawn as iosim's `rr9549` generator draws them (src/inputs/forge.c, ios_rr9549_generate) for the campaign
deploy/campaigns/ipdps21-arbitration.json: seed s = 1, 2, ... gives a xoshiro256** stream (ios_rng, splitmix64 seeding,
stream 100); for j = 0..15 a partial Fisher-Yates shuffle picks pattern perm[j + below(189 − j)], then one draw for
the phase count (below(1)) and one uniform (the load X); the set does not depend on F. Seed s is therefore the set of
the campaign's runs with seed s, at every F.

Usage:
  ipdps21_arith.py [--sets 10000] [--first-seed 1] [--stat mean|median|max] [--ionodes 8,16,...,128]
                   [--static-c machine|set]
  ipdps21_arith.py --compare CAMPAIGN_DIR     (largest relative difference with the simulated runs.csv)
Profiles come from $IOSIM_DATA_DIR/bez-forge-evaluation (or --data DIR). Exit code 2 on bad input.
"""
import argparse
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, cli, np, pd, read_runs  # noqa: E402
from rr9549 import policy_label  # noqa: E402

MIB = 1048576.0
COUNTS = (0, 1, 2, 4, 8)
C_MACHINE = 512
MASK = (1 << 64) - 1
KEY = ["clients", "processes", "layout", "spatiality", "request", "odirect"]
POLICIES = ["zero", "one", "static-ceil", "static-ceil+points", "size", "process", "mckp", "oracle"]


# ---- iosim's random stream (src/base/rng.c), rewritten from its definition -----------------------------------

class Xoshiro:
    """xoshiro256** seeded by splitmix64 from seed ^ (stream · 0xd1342543de82ef95)."""

    def __init__(self, seed, stream):
        x = (seed ^ (stream * 0xD1342543DE82EF95)) & MASK
        self.s = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & MASK
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            self.s.append(z ^ (z >> 31))

    @staticmethod
    def _rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK

    def u64(self):
        s = self.s
        result = (self._rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self._rotl(s[3], 45)
        return result

    def below(self, n):
        limit = MASK - MASK % n
        while True:
            r = self.u64()
            if r < limit:
                return r % n


def draw_set(seed, npat, count=16, stream=100):
    """Pattern indices (0-based rows of the profile CSV) of the set iosim's rr9549 generator draws for `seed`."""
    rng = Xoshiro(seed, stream)
    perm = list(range(npat))
    out = []
    for j in range(count):
        pick = j + rng.below(npat - j)
        perm[pick], perm[j] = perm[j], perm[pick]
        out.append(perm[j])
        rng.below(1)  # phase count (phases_min = phases_max = 1)
        rng.u64()     # X ~ U[0, b]
    return out


# ---- profiles ----------------------------------------------------------------------------------------------------

def read_profiles(data_dir, stat="mean"):
    """DataFrame of the 189 patterns in the mean CSV's row order: clients, processes, b0, b1, b2, b4, b8 (bytes/s).
    stat 'mean' reads mn4_189_patterns_mean_bw_by_ionodes.csv; 'median' / 'max' recompute each (pattern, count)
    from the individual runs in marenostrum-4/results.csv and marenostrum-4-gpfs/results.csv."""
    base = os.path.join(data_dir, "bez-forge-evaluation")
    mean_csv = os.path.join(base, "mn4_189_patterns_mean_bw_by_ionodes.csv")
    try:
        m = pd.read_csv(mean_csv)
    except OSError as e:
        raise InputError(f"{mean_csv}: cannot read the FORGE profiles ({e.strerror}): set IOSIM_DATA_DIR or --data")
    cols = ["bw_MBps_0ion", "bw_1ion", "bw_2ion", "bw_4ion", "bw_8ion"]
    missing = [c for c in ["clients", "processes"] + cols if c not in m.columns]
    if missing:
        raise InputError(f"{mean_csv}: column(s) {missing} missing: give the FORGE per-pattern mean CSV")
    m = m.rename(columns={"layout(0=fpp,1=shared)": "layout", "spatiality(0=contig,1=strided)": "spatiality",
                          "request_KiB": "request"})
    out = pd.DataFrame({"clients": m["clients"].astype(int), "processes": m["processes"].astype(int)})
    if stat == "mean":
        for n, c in zip(COUNTS, cols):
            out[f"b{n}"] = m[c].astype(float) * MIB
        return out
    runs = []
    for sub in ("marenostrum-4", "marenostrum-4-gpfs"):
        f = os.path.join(base, sub, "results.csv")
        try:
            runs.append(pd.read_csv(f, sep=";"))
        except OSError as e:
            raise InputError(f"{f}: cannot read the FORGE runs ({e.strerror}): --stat {stat} needs them")
    r = pd.concat(runs)
    g = r.groupby(KEY + ["forwarders"])["bandwidth"].agg(stat).unstack("forwarders")
    keyed = m.set_index(KEY)
    for n in COUNTS:
        out[f"b{n}"] = g.reindex(keyed.index)[n].to_numpy() * MIB
    if out.isna().any().any():
        raise InputError(f"{base}: some pattern of the mean CSV has no run at some count: the datasets do not match")
    return out


def bw_table(prof, fmax):
    """[..., fmax + 1]: b(n) for n = 0..fmax (interpolated between the measured counts, b(8) beyond 8)."""
    pts = np.array([1, 2, 4, 8], dtype=float)
    tab = np.empty(prof.shape[:-1] + (fmax + 1,))
    tab[..., 0] = prof[..., 0]
    for n in range(1, fmax + 1):
        if n in (1, 2, 4) or n >= 8:
            tab[..., n] = prof[..., 1 + [1, 2, 4, 8].index(min(n, 8))]
        else:
            lo = max(p for p in pts if p < n)
            hi = min(p for p in pts if p > n)
            f = (n - lo) / (hi - lo)
            blo, bhi = prof[..., 1 + [1, 2, 4, 8].index(int(lo))], prof[..., 1 + [1, 2, 4, 8].index(int(hi))]
            tab[..., n] = blo + f * (bhi - blo)
    return tab


# ---- policies ----------------------------------------------------------------------------------------------------

def counts(policy, nodes, procs, prof, F, static_c="machine"):
    """I/O-node counts [sets, apps] of a non-knapsack policy at F I/O nodes. STATIC's C is the machine's 512 compute
    nodes (static_c 'machine', what iosim's static-ceil uses) or the set's Σ C_a ('set', the other reading)."""
    if policy == "zero":
        return np.zeros(nodes.shape, dtype=int)
    if policy == "one":
        return np.ones(nodes.shape, dtype=int)
    if policy.startswith("static-ceil"):
        c = C_MACHINE if static_c == "machine" else nodes.sum(axis=1, keepdims=True)
        n = np.minimum(-(-nodes * F // c), F)
        if policy.endswith("+points"):
            n = np.where(n >= 8, 8, np.where(n >= 4, 4, np.where(n >= 2, 2, n)))  # the measured count below
        return n
    if policy in ("size", "process"):
        s = (nodes if policy == "size" else procs).astype(float)
        n = np.floor(F * s / s.sum(axis=1, keepdims=True) + 0.5).astype(int)
        n = np.minimum(n, F)
        return np.where((n == 0) & (prof[..., 0] <= 0), 1, n)
    if policy == "oracle":
        tab = bw_table(prof, F)
        if np.any(prof[..., 0] <= 0):
            tab[..., 0] = -np.inf
        return np.argmax(tab, axis=-1)  # first maximum: the smallest count on ties, 0 preferred
    raise ValueError(policy)


def mckp(nodes, prof, F):
    """(best Σ b, counts [sets, apps]) of the multiple-choice knapsack with capacity F. best[c] = the most bandwidth
    of the applications so far using at most c I/O nodes; every application takes exactly one choice."""
    nsets, napps = nodes.shape
    tab = bw_table(prof, F)
    best = np.zeros((nsets, F + 1))
    choice = np.zeros((napps, nsets, F + 1), dtype=int)
    for a in range(napps):
        nxt = np.full((nsets, F + 1), -np.inf)
        arg = np.zeros((nsets, F + 1), dtype=int)
        for n in range(F + 1):
            ok = (prof[:, a, 0] > 0) if n == 0 else (nodes[:, a] % n == 0)
            if not ok.any():
                continue
            val = np.where(ok, tab[:, a, n], -np.inf)[:, None]
            cand = np.full((nsets, F + 1), -np.inf)
            cand[:, n:] = best[:, :F + 1 - n] + val
            better = cand > nxt
            nxt = np.where(better, cand, nxt)
            arg = np.where(better, n, arg)
        best, choice[a] = nxt, arg
    n_out = np.zeros((nsets, napps), dtype=int)
    cap = np.full(nsets, F)
    rows = np.arange(nsets)
    for a in range(napps - 1, -1, -1):
        n_out[:, a] = choice[a][rows, cap]
        cap = cap - n_out[:, a]
    if np.any(~np.isfinite(best[:, F])):
        raise InputError("mckp: some set has no feasible choice (an application without a direct-access point)")
    return best[:, F], n_out


def aggregate(nodes, procs, prof, F, static_c="machine"):
    """{policy: (aggregated bandwidth [sets] in bytes/s, counts [sets, apps])} at F I/O nodes."""
    res = {}
    tab = bw_table(prof, max(F, 8))
    for p in POLICIES:
        if p == "mckp":
            v, n = mckp(nodes, prof, F)
            res[p] = (v, n)
            continue
        n = counts(p, nodes, procs, prof, F, static_c)
        v = np.take_along_axis(tab, n[..., None], axis=-1)[..., 0].sum(axis=1)
        res[p] = (v, n)
    return res


def sets_arrays(profiles, seeds):
    idx = np.array([draw_set(int(s), len(profiles)) for s in seeds])
    nodes = profiles["clients"].to_numpy()[idx]
    procs = profiles["processes"].to_numpy()[idx]
    prof = profiles[[f"b{n}" for n in COUNTS]].to_numpy()[idx]
    return idx, nodes, procs, prof


# ---- reports -----------------------------------------------------------------------------------------------------

def summary(x):
    return float(np.min(x)), float(np.median(x)), float(np.max(x))


def run_sets(profiles, nsets, first_seed, ionodes, static_c="machine", out=sys.stdout):
    seeds = np.arange(first_seed, first_seed + nsets)
    _, nodes, procs, prof = sets_arrays(profiles, seeds)
    zero = prof[..., 0].sum(axis=1)
    one = prof[..., 1].sum(axis=1)
    oracle = prof.max(axis=2).sum(axis=1)
    c = nodes.sum(axis=1)
    lo, me, hi = summary(one / zero)
    print(f"{nsets} sets (seeds {first_seed}..{first_seed + nsets - 1}), compute nodes per set min / median / max: "
          f"{c.min()} / {np.median(c):g} / {c.max()}", file=out)
    print(f"ONE / ZERO per set: min {lo:.4f}, median {me:.4f}, max {hi:.4f} (median slowdown {100 * (1 - me):.2f} %)",
          file=out)
    lo, me, hi = summary(oracle / zero)
    print(f"ORACLE vs ZERO per set: min {100 * (lo - 1):+.2f} %, median {100 * (me - 1):+.2f} %, "
          f"max {100 * (hi - 1):+.2f} %", file=out)
    rows, all_ms, reach = [], [], None
    for F in ionodes:
        r = aggregate(nodes, procs, prof, F, static_c)
        ms = r["mckp"][0] / r["static-ceil"][0]
        mo = r["mckp"][0] / r["oracle"][0]
        all_ms.append(ms)
        if reach is None and np.median(mo) >= 1 - 1e-9:
            reach = F
        rows.append([F] + [np.median(r[p][0]) / 1e9 for p in POLICIES] +
                    [np.median(ms), ms.min(), ms.max(), np.median(mo)])
    cols = ["F"] + POLICIES + ["MCKP/STATIC med", "min", "max", "MCKP/ORACLE med"]
    t = pd.DataFrame(rows, columns=cols)
    print("median aggregated bandwidth (GB/s) per policy; MCKP / STATIC (static-ceil) per set; MCKP / ORACLE", file=out)
    print(t.to_string(index=False, float_format=lambda v: f"{v:.3f}"), file=out)
    ms = np.concatenate(all_ms)
    print(f"MCKP / STATIC over all {ms.size} (F, set) pairs: mean {ms.mean():.3f}, max {ms.max():.3f}, "
          f"MCKP below STATIC on {int((ms < 1 - 1e-9).sum())}; median MCKP / ORACLE reaches 1 (to 1e-9) at F = "
          f"{reach if reach is not None else 'none of these'}", file=out)
    return t


def compare(profiles, cdir, out=sys.stdout):
    """Largest relative difference between the simulated aggregate_bandwidth_Bps of cdir/runs.csv and the arithmetic,
    per policy, over the (F, set) instances where the counts fit in F (Σ n_a ≤ F: no I/O node needs to be shared)
    and, separately, where they do not."""
    f = os.path.join(cdir, "runs.csv")
    d = read_runs(cdir, "deploy/campaigns/ipdps21-arbitration.json",
                  ["platform.ionodes", "allocation", "seed", "aggregate_bandwidth_Bps"])
    d = d.dropna(subset=["aggregate_bandwidth_Bps"])
    d["policy"] = d["allocation"].map(policy_label)
    d = d[d["policy"].isin(POLICIES)]
    seeds = np.sort(d["seed"].astype(int).unique())
    _, nodes, procs, prof = sets_arrays(profiles, seeds)
    pos = {s: i for i, s in enumerate(seeds)}
    rows = []
    for F, g in d.groupby(d["platform.ionodes"].astype(int)):
        r = aggregate(nodes, procs, prof, F)
        for p, gp in g.groupby("policy"):
            v, n = r[p]
            i = gp["seed"].astype(int).map(pos).to_numpy()
            sim = gp["aggregate_bandwidth_Bps"].to_numpy(dtype=float)
            rel = np.abs(sim - v[i]) / v[i]
            fits = n[i].sum(axis=1) <= F
            rows += [(p, F, fi, x) for fi, x in zip(fits, rel)]
    t = pd.DataFrame(rows, columns=["policy", "F", "fits", "rel"])
    print(f"{f}: {len(t)} runs, {len(seeds)} sets, relative difference |sim − arithmetic| / arithmetic", file=out)
    for p in [p for p in POLICIES if p in set(t["policy"])]:
        a = t[(t["policy"] == p) & t["fits"]]
        b = t[(t["policy"] == p) & ~t["fits"]]
        s = f"  {p:20s} Σn ≤ F: {len(a):5d} runs, max {a['rel'].max() if len(a) else float('nan'):.2e}"
        if len(b):
            s += f"; Σn > F (shared I/O nodes): {len(b)} runs, max {b['rel'].max():.2e} (F = {sorted(b['F'].unique())})"
        print(s, file=out)
    fit = t[t["fits"]]
    print(f"largest relative difference where no I/O node is shared: {fit['rel'].max():.2e} "
          f"({len(fit)} of {len(t)} runs)", file=out)
    return t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", type=int, default=10000, help="number of sets (default 10000, IPDPS'21 §3.2)")
    ap.add_argument("--first-seed", type=int, default=1, help="seed of the first set (default 1, as the campaign)")
    ap.add_argument("--stat", choices=["mean", "median", "max"], default="mean",
                    help="per-pattern statistic of the repetitions (default mean: the CSV iosim reads)")
    ap.add_argument("--ionodes", default=",".join(str(8 * k) for k in range(1, 17)),
                    help="comma-separated F values (default 8,16,...,128)")
    ap.add_argument("--data", default=os.environ.get("IOSIM_DATA_DIR", ""), help="datasets (default $IOSIM_DATA_DIR)")
    ap.add_argument("--static-c", choices=["machine", "set"], default="machine",
                    help="STATIC's C: the machine's 512 compute nodes (default, as iosim) or the set's Σ C_a")
    ap.add_argument("--compare", metavar="CAMPAIGN_DIR", help="compare with the simulated runs.csv instead")
    a = ap.parse_args(argv)

    def run():
        if not a.data:
            raise InputError("IOSIM_DATA_DIR: not set: export IOSIM_DATA_DIR=../shared/datasets or give --data")
        if not 1 <= a.sets <= 10_000_000:
            raise InputError(f"--sets: {a.sets}: give 1 to 10000000")
        if a.first_seed < 0:
            raise InputError(f"--first-seed: {a.first_seed}: give a seed >= 0")
        try:
            ionodes = [int(x) for x in a.ionodes.split(",")]
        except ValueError:
            raise InputError(f"--ionodes: {a.ionodes!r}: give comma-separated integers, e.g. 8,16,24") from None
        if not ionodes or min(ionodes) < 1 or max(ionodes) > 4096:
            raise InputError(f"--ionodes: {a.ionodes}: give counts from 1 to 4096")
        profiles = read_profiles(a.data, a.stat)
        buf = io.StringIO()
        if a.compare:
            compare(profiles, a.compare, out=buf)
        else:
            run_sets(profiles, a.sets, a.first_seed, ionodes, a.static_c, out=buf)
        return buf.getvalue().rstrip("\n")

    return cli("ipdps21_arith.py", run)


if __name__ == "__main__":
    sys.exit(main())
