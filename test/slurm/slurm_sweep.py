#!/usr/bin/env python3
"""iosim on a real one-node Slurm (issue 14): starts munged, slurmctld and slurmd on localhost from a configuration
written into a temporary directory (private munge socket and key, free TCP ports, a partition that is not the
default), emits the job array of a shrunk copy of deploy/campaigns/sharing-ioload-mn4.json with `iosim sweep
--emit-slurm`, submits it with `bash sweep.slurm submit` from another directory than the one it was emitted from (with
a relative IOSIM_DATA_DIR), waits for the merge job, and checks that the merged runs.csv has exactly the rows of a
local `iosim sweep` of the same campaign (every column but the wall times).

usage: slurm_sweep.py IOSIM SOURCE_DIR   (as root; the datasets folder is the one iosim uses, `iosim data dir`)
Exit 0 passed, 1 failed (with the daemons' log tails). It never skips: without root, Slurm or the data it fails and
says what is missing and how to get it (`make test` installs Slurm as root; exclude it with `ctest -LE slurm`).
The daemons are stopped and the temporary directory removed on every exit: normally, on an exception or a signal,
and, should this driver be killed with SIGKILL (a ctest timeout), by a detached watchdog that waits for its pid.
"""
import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

DEADLINE_S = 150  # under the ctest TIMEOUT (180 s), so the driver's own clean-up runs first
PROFILES = "bez-forge-evaluation/mn4_189_patterns_mean_bw_by_ionodes.csv"
PARTITION = "iosimq"
T0 = time.monotonic()


class Failure(Exception):
    pass


def cannot_run(why):
    """A missing prerequisite fails the test (it is never skipped: a skipped test looks like a passed one)."""
    print(f"FAIL: cannot run: {why}")
    sys.exit(1)


def data_dir(iosim):
    """The datasets folder iosim uses (src/base/ios_datadir.h): `iosim data dir`."""
    p = subprocess.run([iosim, "data", "dir"], capture_output=True, text=True, timeout=30)
    if p.returncode != 0:
        cannot_run(p.stderr.strip())
    # its real path: a relative IOSIM_DATA_DIR computed through a symbolic link (a ../shared that is one) would count
    # `..` from the link's target, not from where the link sits
    return os.path.realpath(p.stdout.strip())


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def left():
    return DEADLINE_S - (time.monotonic() - T0)


def run(cmd, env, cwd=None, check=True, timeout=None):
    p = subprocess.run(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=timeout if timeout is not None else max(left(), 1))
    if check and p.returncode != 0:
        raise Failure(f"{' '.join(cmd)}: exit {p.returncode}\nstdout: {p.stdout}\nstderr: {p.stderr}")
    return p


class Cluster:
    """munged + slurmctld + slurmd, everything under `tmp`."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.host = socket.gethostname().split(".")[0]
        self.conf = os.path.join(tmp, "slurm.conf")
        self.pidfiles = [os.path.join(tmp, n) for n in ("slurmd.pid", "slurmctld.pid", "munged.pid")]
        self.logs = [os.path.join(tmp, n) for n in ("munged.log", "slurmctld.log", "slurmd.log")]
        self.env = dict(os.environ, SLURM_CONF=self.conf)

    def write_config(self):
        t = self.tmp
        for d in ("state", "spool", "munge"):
            os.makedirs(os.path.join(t, d), mode=0o700)
        with open(os.path.join(t, "munge", "munge.key"), "wb") as f:
            os.fchmod(f.fileno(), 0o600)
            f.write(os.urandom(1024))
        mem_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1 << 20) // 2
        conf = f"""ClusterName=iosimtest
SlurmctldHost={self.host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={t}/munge/munge.socket
StateSaveLocation={t}/state
SlurmdSpoolDir={t}/spool
SlurmctldPidFile={t}/slurmctld.pid
SlurmdPidFile={t}/slurmd.pid
SlurmctldLogFile={t}/slurmctld.log
SlurmdLogFile={t}/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
MailProg=/bin/true
MinJobAge=600
NodeName={self.host} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} RealMemory={mem_mb} State=UNKNOWN
PartitionName={PARTITION} Nodes={self.host} Default=NO MaxTime=INFINITE State=UP
"""
        with open(self.conf, "w") as f:
            f.write(conf)
        with open(os.path.join(t, "cgroup.conf"), "w") as f:
            f.write("CgroupPlugin=cgroup/v1\n")

    def start(self):
        t = self.tmp
        quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        subprocess.run(["munged", "--force", f"--socket={t}/munge/munge.socket", f"--key-file={t}/munge/munge.key",
                        f"--pid-file={t}/munged.pid", f"--log-file={t}/munged.log", f"--seed-file={t}/munge/seed"],
                       env=self.env, timeout=20, check=True, **quiet)
        self.watchdog()
        subprocess.run(["slurmctld", "-f", self.conf], env=self.env, timeout=20, check=True, **quiet)
        subprocess.run(["slurmd", "-f", self.conf, "-N", self.host], env=self.env, timeout=20, check=True, **quiet)
        while left() > 0:
            p = run(["sinfo", "-h", "-p", PARTITION, "-o", "%t"], self.env, check=False, timeout=10)
            if p.returncode == 0 and p.stdout.strip() == "idle":
                return
            time.sleep(0.5)
        raise Failure("the Slurm node did not become idle")

    def watchdog(self):
        """A detached shell (double fork: not a child of this driver, so a ctest timeout does not kill it) that
        stops the daemons and removes the temporary directory once this driver's pid has gone."""
        kills = " ".join(f'[ -s "{p}" ] && kill -KILL "$(cat "{p}")" 2>/dev/null;' for p in self.pidfiles)
        script = (f"( while kill -0 {os.getpid()} 2>/dev/null; do sleep 1; done; {kills} sleep 1; "
                  f'rm -rf "{self.tmp}" ) </dev/null >/dev/null 2>&1 &')
        subprocess.run(["sh", "-c", script], start_new_session=True, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

    def stop(self):
        if os.path.exists(self.pidfiles[1]):  # jobs still under way (a failure, a signal) go first
            subprocess.run(["scancel", "-p", PARTITION], env=self.env, timeout=10, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        pids = []
        for pf in self.pidfiles:
            try:
                with open(pf) as f:
                    pid = int(f.read().strip())
                os.kill(pid, signal.SIGTERM)
                pids.append(pid)
            except (OSError, ValueError):
                pass
        end = time.monotonic() + 10
        for pid in pids:
            while time.monotonic() < end:
                try:
                    os.kill(pid, 0)
                except OSError:
                    break
                time.sleep(0.1)
            else:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

    def log_tails(self, extra=()):
        out = []
        for path in list(self.logs) + list(extra):
            try:
                with open(path, errors="replace") as f:
                    lines = f.read().splitlines()[-25:]
                out.append(f"---- {path} (last {len(lines)} lines)\n" + "\n".join(lines))
            except OSError as e:
                out.append(f"---- {path}: {e.strerror}")
        return "\n".join(out)


def small_campaign(src, work):
    """deploy/campaigns/sharing-ioload-mn4.json with 2 policies x 2 I/O loads x 2 seeds (8 points) over a base of
    8 FORGE applications on a horizon of 2,000 s (instead of 16 and 5,000 s): about 0.1 s per run."""
    with open(os.path.join(src, "deploy", "campaigns", "sharing-ioload-mn4.json")) as f:
        camp = json.load(f)
    with open(os.path.join(src, "deploy", "mn4-random16.json")) as f:
        base = json.load(f)
    base["platform"] = os.path.join(src, "platforms", "mn4-forwarding.xml")
    base["workload"]["generator"].update(count=8, horizon_s=2000)
    del base["output"]
    with open(os.path.join(work, "base.json"), "w") as f:
        json.dump(base, f, indent=1)
    camp["name"] = "slurm-it"
    camp["base"] = "base.json"
    camp["grid"] = {k: v[:2] for k, v in camp["grid"].items()}
    camp["seeds"]["count"] = 2
    camp["slurm"] = {"time": "00:05:00", "account": "iosim-test"}
    with open(os.path.join(work, "campaign.json"), "w") as f:
        json.dump(camp, f, indent=1)
    return "campaign.json"


def rows_without_wall(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    keep = [i for i, name in enumerate(rows[0]) if name not in ("wall_time_s", "sim_wall_s")]
    return [[r[i] for i in keep] for r in rows]


def job_state(env, job):
    p = run(["scontrol", "-o", "show", "job", job], env, check=False, timeout=10)
    for field in p.stdout.split():
        if field.startswith("JobState="):
            return field.split("=", 1)[1]
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    iosim, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    # Slurm's and munge's daemons are in /usr/sbin, which a minimal PATH (env -i, cron, some CI runners) leaves out
    path = os.environ.get("PATH", os.defpath).split(os.pathsep)
    os.environ["PATH"] = os.pathsep.join(path + [d for d in ("/usr/sbin", "/sbin") if d not in path])
    if os.geteuid() != 0:
        cannot_run("not root: slurmctld, slurmd and munged run as root here (CI runs the suite as root); as a user, "
                   "leave this test out with `ctest -LE slurm`")
    missing = [b for b in ("munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol") if not shutil.which(b)]
    if missing:
        cannot_run(f"{', '.join(missing)} not installed: install the Debian packages slurm-wlm and munge (`make deps`, "
                   f"which `make test` runs)")
    data = data_dir(iosim)
    if not os.path.isfile(os.path.join(data, PROFILES)):
        cannot_run(f"the datasets folder {data} (`iosim data dir`) does not hold {PROFILES}: run `make data`")

    tmp = os.path.realpath(tempfile.mkdtemp(prefix="iosim-slurm-"))
    os.chmod(tmp, 0o755)  # munged refuses a world-writable socket directory; the jobs (root) read everything
    cluster = Cluster(tmp)

    def on_signal(sig, frame):
        raise Failure(f"interrupted by signal {sig}")

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    outs = []
    try:
        cluster.write_config()
        cluster.start()
        t_up = time.monotonic() - T0
        work = os.path.join(tmp, "work")
        os.makedirs(work)
        camp = small_campaign(src, work)
        env = dict(cluster.env, IOSIM_DATA_DIR=os.path.relpath(data, work))
        # a directory deeper below tmp than the relative path climbs: from there it stays inside tmp, leading nowhere
        ups = env["IOSIM_DATA_DIR"].split(os.sep).count("..")
        elsewhere = os.path.join(tmp, "elsewhere", *(["deeper"] * (ups + 1)))
        os.makedirs(elsewhere)
        if os.path.exists(os.path.join(elsewhere, env["IOSIM_DATA_DIR"], PROFILES)):
            raise Failure(f"IOSIM_DATA_DIR={env['IOSIM_DATA_DIR']} also leads to the data from {elsewhere}")
        # relative campaign, output directory and data directory; command line beats the campaign's "time"
        run([iosim, "sweep", camp, "--emit-slurm", "--shards", "3", "--jobs", "1", "--out", "out",
             f"--partition={PARTITION}", "--time", "10", "--mem=64M"], env, cwd=work)
        script = os.path.join(work, "out", "sweep.slurm")
        with open(script) as f:
            text = f.read()
        for line in ("#SBATCH --time=10\n", f"#SBATCH --partition={PARTITION}\n", "#SBATCH --account=iosim-test\n",
                     "#SBATCH --mem=64M\n"):
            if text.count(line) != 2:  # the array job's and the merge job's
                raise Failure(f"sweep.slurm does not carry '{line.strip()}' twice:\n{text}")
        # submitted from another directory, where the relative IOSIM_DATA_DIR leads nowhere
        sub = run(["bash", script, "submit"], env, cwd=elsewhere)
        ids = sub.stdout.split()
        if len(ids) != 1 or not ids[0].split(";")[0].isdigit():
            raise Failure(f"submit printed {sub.stdout!r}, expected the merge job's id")
        merge_id = ids[0].split(";")[0]
        run([iosim, "sweep", camp, "--jobs", "1", "--out", "local"], env, cwd=work)
        state = None
        while left() > 0:
            state = job_state(cluster.env, merge_id)
            if state not in (None, "PENDING", "CONFIGURING", "RUNNING", "COMPLETING"):
                break
            time.sleep(0.5)
        outs = sorted(os.path.join(work, "out", n) for n in os.listdir(os.path.join(work, "out"))
                      if n.startswith("slurm-"))
        t_done = time.monotonic() - T0
        if state != "COMPLETED":
            raise Failure(f"merge job {merge_id}: state {state} after {time.monotonic() - T0:.0f} s")
        got = rows_without_wall(os.path.join(work, "out", "runs.csv"))
        want = rows_without_wall(os.path.join(work, "local", "runs.csv"))
        if got != want:
            raise Failure(f"merged runs.csv differs from the local sweep's:\n{got}\n!=\n{want}")
        if len(want) != 9 or any(r[want[0].index("status")] != "complete" for r in want[1:]):
            raise Failure(f"expected 8 complete runs, got {want}")
        print(f"PASS: the 8 points run by 3 array tasks and merged by Slurm equal the local sweep; Slurm up after "
              f"{t_up:.1f} s, merge job done after {t_done:.1f} s, total {time.monotonic() - T0:.1f} s")
        return 0
    except (Failure, subprocess.SubprocessError, OSError) as e:
        print(f"FAIL: {e}\n{cluster.log_tails(outs)}")
        return 1
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
