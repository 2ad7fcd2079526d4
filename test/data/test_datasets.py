#!/usr/bin/env python3
"""Tests of the data step (traces/datasets.py through `iosim data`): usage test_datasets.py [CLASS...], with IOSIM_BIN
the iosim binary (default build/iosim). The mirror is the datasets folder iosim uses (`iosim data dir`), which must
exist: a missing one fails, with the fix. Every test writes into a fresh temporary folder (under $TMPDIR, which ctest
points into the build tree) and removes it. The expected sums are recomputed here from the manifest's files with
hashlib, independently of the script under test."""
import gzip
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IOSIM = os.environ.get("IOSIM_BIN", os.path.join(SRC, "build", "iosim"))
with open(os.path.join(SRC, "traces", "datasets.json")) as _f:
    MANIFEST = json.load(_f)
DATASETS = {d["name"]: d for d in MANIFEST["datasets"]}


def iosim(*args):
    return subprocess.run([IOSIM, *args], capture_output=True, text=True, timeout=240)


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def mirror_dir():
    p = iosim("data", "dir")
    if p.returncode != 0:
        raise AssertionError(f"no datasets folder to use as the mirror: {p.stderr.strip()}")
    return p.stdout.strip()


class Scratch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="iosim-data-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def copy_dataset(self, src, dst, name):
        """Copies the manifest's files of dataset `name` from src/name into dst/name."""
        for e in DATASETS[name]["files"]:
            os.makedirs(os.path.dirname(os.path.join(dst, name, e["path"])), exist_ok=True)
            shutil.copyfile(os.path.join(src, name, e["path"]), os.path.join(dst, name, e["path"]))


class MirrorFetch(Scratch):
    def test_every_file_verified(self):
        # System: `iosim data fetch --mirror DATA -o OUT`, DATA the folder iosim uses (../shared/datasets in CI).
        # Expectations: exit 0; OUT holds every file of the manifest (24 in 5 datasets) with the pinned SHA-256
        # (recomputed here) and size, and nothing else but the dataset folders; `iosim data verify OUT` agrees.
        out = self.path("out")
        p = iosim("data", "fetch", "--mirror", mirror_dir(), "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        n = 0
        for ds in MANIFEST["datasets"]:
            for e in ds["files"]:
                f = os.path.join(out, ds["name"], e["path"])
                self.assertEqual(sha256_file(f), e["sha256"], f)
                self.assertEqual(os.path.getsize(f), e["bytes"], f)
                n += 1
        self.assertEqual(n, 24)
        self.assertEqual(sorted(os.listdir(out)), sorted(DATASETS))
        self.assertIn("24 files", p.stdout)
        v = iosim("data", "verify", out)
        self.assertEqual(v.returncode, 0, v.stderr)
        self.assertIn("24 files, every SHA-256 as pinned", v.stdout)

    def test_file_url_and_kept_copy(self):
        # System: a fetch of apex-workflows from the mirror given as a file:// URL, twice.
        # Expectations: both exit 0; the second says the dataset was kept (already there and intact).
        out = self.path("out")
        url = "file://" + mirror_dir()
        p = iosim("data", "fetch", "--mirror", url, "-o", out, "--dataset", "apex-workflows")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(os.listdir(out), ["apex-workflows"])
        p = iosim("data", "fetch", "--mirror", url, "-o", out, "--dataset", "apex-workflows")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("kept  apex-workflows", p.stdout)

    def test_default_verify_checks_the_folder_iosim_uses(self):
        # `iosim data verify` without a folder checks `iosim data dir`: every file as pinned.
        p = iosim("data", "verify")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(mirror_dir() + ": 24 files", p.stdout)


class CorruptMirror(Scratch):
    def test_a_changed_byte_is_refused_and_named(self):
        # System: a temporary mirror with boito-queue-generator and apex-workflows copied, one byte of
        # boito-queue-generator/runtime.csv changed (same size).
        # Expectations: exit 2; stderr names the file and both sums (the copy's, computed here, and the pinned one);
        # nothing of boito-queue-generator is written (no folder, no staging left), apex-workflows is fetched.
        mirror, out = self.path("mirror"), self.path("out")
        for name in ("boito-queue-generator", "apex-workflows"):
            self.copy_dataset(mirror_dir(), mirror, name)
        bad = os.path.join(mirror, "boito-queue-generator", "runtime.csv")
        with open(bad, "r+b") as f:
            f.seek(100)
            c = f.read(1)
            f.seek(100)
            f.write(b"7" if c != b"7" else b"8")
        p = iosim("data", "fetch", "--mirror", mirror, "-o", out, "--dataset", "boito-queue-generator", "--dataset",
                  "apex-workflows")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        pinned = next(e for e in DATASETS["boito-queue-generator"]["files"] if e["path"] == "runtime.csv")["sha256"]
        for says in ("boito-queue-generator/runtime.csv", sha256_file(bad), pinned):
            self.assertIn(says, p.stderr)
        self.assertEqual(sorted(os.listdir(out)), ["apex-workflows"])

    def test_a_missing_file_is_named(self):
        # System: a mirror of tokio-abc without its LICENSE.md. Expectations: exit 2 naming tokio-abc/LICENSE.md; the
        # output folder, which did not exist, is not left behind empty.
        mirror, out = self.path("mirror"), self.path("out")
        self.copy_dataset(mirror_dir(), mirror, "tokio-abc")
        os.remove(os.path.join(mirror, "tokio-abc", "LICENSE.md"))
        p = iosim("data", "fetch", "--mirror", mirror, "-o", out, "--dataset", "tokio-abc")
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("tokio-abc/LICENSE.md", p.stderr)
        self.assertFalse(os.path.exists(out), "an empty folder would look like a datasets folder")


class UpstreamDerivation(Scratch):
    def upstream_tree(self, names):
        """A file:// stand-in for raw.githubusercontent.com: ROOT/OWNER/REPO/COMMIT/UPSTREAM_PATH, filled from the
        mirror's copies of the upstream files (symbolic links)."""
        root, data = self.path("upstream"), mirror_dir()
        for name in names:
            ds = DATASETS[name]
            for e in ds["files"]:
                if "upstream" in e:
                    p = os.path.join(root, ds["repository"], ds["commit"], e["upstream"])
                    os.makedirs(os.path.dirname(p), exist_ok=True)
                    os.symlink(os.path.join(data, name, e["path"]), p)
        return root

    def test_derived_files_are_reproduced_byte_for_byte(self):
        # System: upstream mode (no --mirror) from a local upstream tree, for the four datasets whose upstream files
        # the mirror holds (apex-workflows' source is a Python file of its repository: Recipes). Derived: the two
        # FORGE per-pattern means, the kernels' pivot table, the slim TOKIO table.
        # Expectations: exit 0; every file, derived ones included, equal to the mirror's (same SHA-256, pinned).
        names = ["bez-forge-evaluation", "boito-queue-generator", "tokio-abc", "darshan-logs"]
        root, out = self.upstream_tree(names), self.path("out")
        args = ["data", "fetch", "--upstream", "file://" + root, "-o", out]
        for n in names:
            args += ["--dataset", n]
        p = iosim(*args)
        self.assertEqual(p.returncode, 0, p.stderr)
        derived = 0
        for n in names:
            for e in DATASETS[n]["files"]:
                self.assertEqual(sha256_file(os.path.join(out, n, e["path"])), e["sha256"], e["path"])
                derived += "derive" in e
        self.assertEqual(derived, 4)
        self.assertIn("2 derived", p.stdout)

    def test_a_damaged_upstream_file_stops_its_dataset(self):
        # System: the same tree for the FORGE dataset with marenostrum-4/results.csv replaced by a truncated copy.
        # Expectations: exit 2 naming the file and the upstream URL; nothing written (not even the output folder).
        root, out = self.upstream_tree(["bez-forge-evaluation"]), self.path("out")
        ds = DATASETS["bez-forge-evaluation"]
        p = os.path.join(root, ds["repository"], ds["commit"], "run/output/marenostrum-4/results/results.csv")
        with open(p, "rb") as f:
            text = f.read()
        os.remove(p)
        with open(p, "wb") as f:
            f.write(text[:-10])
        r = iosim("data", "fetch", "--upstream", "file://" + root, "-o", out, "--dataset", "bez-forge-evaluation")
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn("bez-forge-evaluation/marenostrum-4/results.csv", r.stderr)
        self.assertIn("run/output/marenostrum-4/results/results.csv", r.stderr)
        self.assertFalse(os.path.exists(out), "an empty folder would look like a datasets folder")


def load_script():
    spec = importlib.util.spec_from_file_location("datasets", os.path.join(SRC, "traces", "datasets.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# A source in the shape of the APEX encoding (written for this test): two platforms, each with its classes.
APEX_SOURCE = b"""
class AppClass: pass
class Platform: pass
debug = Platform(nodes = 2, workload = [])
trilab = Platform(nodes = 100, cores_per_node = 8, ram_per_node = 16*1024*1024*1024, node_bw = 0.5*1024*1024*1024,
                  system_bw = 10*1024*1024*1024,
                  workload = [AppClass(name = "Big", corehour_ratio = 0.25, walltime = 2.5*3600, cores = 64*8,
                                       input_ratio = 0, output_ratio = .5, ckpt_ratio = 0.125, iterations = 30/4,
                                       ensemble = 1, ckpt_period = 3600)])
nersc = Platform(nodes = 100, cores_per_node = 8, ram_per_node = 16*1024*1024*1024, node_bw = 0.5*1024*1024*1024,
                 system_bw = 10*1024*1024*1024,
                 workload = [AppClass(name = "Small", corehour_ratio = 0.01, walltime = 8*0.5*3600, cores = 16,
                                      input_ratio = 1, output_ratio = 2, ckpt_ratio = 0, iterations = 100,
                                      ensemble = 3, ckpt_period = 1800)])
"""


class Recipes(unittest.TestCase):
    def test_hand_made_source(self):
        # System: the recipes apex_workloads and apex_platform on APEX_SOURCE (parsed with ast, never executed).
        # Expectations, by hand: Big: walltime 2.5*3600 s = 2.5 h, cores 512, output .5 -> 0.5, iterations 30/4 = 7.5;
        # Small: 8*0.5*3600 s = 4 h (integral: written 4); the platform: 16 GiB, 0.5 GiB/s, 10 GiB/s; debug ignored.
        m = load_script()
        self.assertEqual(m.apex_workloads([APEX_SOURCE]).decode(),
                         "platform,app,corehour_ratio,walltime_h,cores,input_ratio,output_ratio,ckpt_ratio,iterations,"
                         "ensemble,ckpt_period_s\n"
                         "trilab,Big,0.25,2.5,512,0,0.5,0.125,7.5,1,3600\n"
                         "nersc,Small,0.01,4,16,1,2,0,100,3,1800\n")
        self.assertEqual(m.apex_platform([APEX_SOURCE]).decode(),
                         "platform,nodes,cores_per_node,ram_per_node_GiB,node_bw_GiB_s,system_bw_GiB_s\n"
                         "cielo_like(trilab and nersc both use it),100,8,16,0.5,10\n")

    def test_bad_sources_are_refused(self):
        # A call in place of a number, and platforms that differ: DataError naming the field / the reason.
        m = load_script()
        with self.assertRaisesRegex(m.DataError, "trilab.nodes: not a constant"):
            m.apex_platform([APEX_SOURCE.replace(b"trilab = Platform(nodes = 100", b"trilab = Platform(nodes = f()")])
        with self.assertRaisesRegex(m.DataError, "no longer share one platform"):
            m.apex_platform([APEX_SOURCE.replace(b"nersc = Platform(nodes = 100", b"nersc = Platform(nodes = 99")])

    def test_tokio_recipe_on_a_hand_made_summary(self):
        # System: two gzip summaries of one job each, one with the unnamed leading index column (Cori's shape), one
        # without and lacking most columns (Mira's shape). Expectations: the index dropped, the app's base name, the
        # missing columns empty, CRLF line ends.
        m = load_script()
        cols = [src for _, src in m.TOKIO_COLUMNS]
        cori = ",".join(cols) + "\r\n" + "0," + ",".join(
            "/bin/ior" if c == "darshan_app" else str(i) for i, c in enumerate(cols)) + "\r\n"
        mira = "darshan_app,darshan_nprocs\n/x/y/hacc_io_write,4096\n"
        got = m.tokio_slim([gzip.compress(cori.encode()), gzip.compress(mira.encode())], ("cori", "mira")).decode()
        want = ("system," + ",".join(c for c, _ in m.TOKIO_COLUMNS) + "\r\n"
                "cori,0,1,ior,3,4,5,6,7,8,9,10,11,12,13,14\r\n"
                "mira,,,hacc_io_write,4096,,,,,,,,,,,\r\n")
        self.assertEqual(got, want)

    def test_forge_means_by_hand(self):
        # System: pattern (8, 96, 0, 0, 32, 1) run twice with 1 forwarder (100 and 200.5 MiB/s) and once with 8
        # (1/3 MiB/s), nothing with 0, 2, 4; pattern (4, ...) once with 0. Expectations: means 150.25 and 0.333 (3
        # decimals), empty cells where there is no run, counts 0/2/0/0/1; patterns sorted (4 before 8); CRLF.
        m = load_script()
        head = "forwarders;clients;processes;layout;spatiality;odirect;stonewall;request;total;operation;time;" \
               "transfered;bandwidth\n"
        a = head + "1;8;96;0;0;1;60;32;1;write;1;1;100\n1;8;96;0;0;1;60;32;1;write;1;1;200.5\n" \
                   "8;8;96;0;0;1;60;32;1;write;1;1;0.3333333\n"
        b = head + "0;4;96;0;0;1;60;32;1;write;1;1;50\n"
        got = m.forge_means([b.encode(), a.encode()], zero_column="z").decode()
        self.assertEqual(got, 'clients,processes,"layout(0=fpp,1=shared)","spatiality(0=contig,1=strided)",request_KiB,'
                              'odirect,z,bw_1ion,bw_2ion,bw_4ion,bw_8ion,n_reps_0/1/2/4/8\r\n'
                              '4,96,0,0,32,1,50.0,,,,,1/0/0/0/0\r\n'
                              '8,96,0,0,32,1,,150.25,,,0.333,0/2/0/0/1\r\n')


if __name__ == "__main__":
    if not os.access(IOSIM, os.X_OK):
        sys.exit(f"test_datasets.py: {IOSIM} is not an executable iosim: build it (make build) or set IOSIM_BIN")
    unittest.main(verbosity=2)
