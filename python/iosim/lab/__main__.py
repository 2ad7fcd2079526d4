"""`iosim lab` (python3 -m iosim.lab): the teaching lab, a local web application for a class (docs/lab.md).

usage: python3 -m iosim.lab --iosim PATH [--modules DIR] [--workdir DIR] [--host H] [--port N] [--workers N]
                            [--max-queue N] [--timeout S] [--threads N]

It reads the modules of DIR (every sub-folder with a module.json; default: deploy/lab of iosim's home) and stops
with exit 2 naming the file, the field, the value and the fix when one is broken; it runs each module's default
setting once (checking that the metrics the module names exist) and the settings of its questions, then serves the
pages on http://HOST:PORT/ (printed) until interrupted. Simulations run `iosim run` (--iosim) in a pool of --workers
processes at a time; every file goes under --workdir (default results/lab).
"""

import argparse
import os
import signal
import subprocess
import sys
import threading

from .modules import ModuleError, load_modules
from .runner import Busy, RunError, Runner


def data_dir(iosim):
    """The datasets folder iosim uses (`iosim data dir`), or None."""
    try:
        p = subprocess.run([iosim, "data", "dir"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=30)
    except OSError:
        return None
    return p.stdout.strip() if p.returncode == 0 and p.stdout.strip() else None


def missing_data(modules, ddir):
    """{module id: message} for the modules whose datasets are not in `ddir`."""
    out = {}
    for m in modules:
        lacking = [n for n in m.needs if ddir is None or not os.path.isdir(os.path.join(ddir, n))]
        if lacking:
            where = f"the datasets folder iosim uses ({ddir})" if ddir else "any datasets folder"
            out[m.id] = (f"This module needs the public dataset(s) {', '.join(lacking)}, which are not in {where}. "
                         "iosim looks in $IOSIM_DATA_DIR, else ../shared/datasets beside its home, else "
                         "traces/datasets of its home (`iosim data dir` prints the one in use). Get them with "
                         "`make data` in iosim's source tree, or `iosim data fetch --dataset "
                         f"{lacking[0]}`, then restart `iosim lab` (traces/README.md).")
    return out


def check_modules(modules, runner, missing):
    """Runs each module's default setting and checks the metrics it names; raises ModuleError."""
    for m in modules:
        if m.id in missing:
            continue
        defaults = {f.key: f.default for f in m.fields}
        try:
            r = runner.get(m, defaults)
        except RunError as e:
            raise ModuleError(f"{m.path}: scenario: {m.scenario} with the form's defaults does not run: {e}; fix: "
                              "correct the scenario or the fields' defaults (iosim check)") from None
        named = ([("predict", m.predict)] if m.predict else []) + [(x.where, x) for x in m.show] + \
            [(q.metric.where, q.metric) for q in m.questions]
        for where, metric in named:
            try:
                metric.value(r)
            except KeyError as e:
                raise ModuleError(f"{m.path}: {where}: {e.args[0]}; fix: name a metric this scenario's runs give "
                                  "(docs/outputs.md)") from None


def warm(modules, runner, missing):
    """Starts the runs that check the questions, so that the first answers come at once."""
    for m in modules:
        if m.id in missing:
            continue
        for q in m.questions:
            for s in q.runs():
                try:
                    runner.submit(m, s)
                except Busy:
                    return


def main(argv=None):
    p = argparse.ArgumentParser(prog="iosim lab", description="The teaching lab: guided modules on HPC I/O "
                                "scheduling in the browser (docs/lab.md).")
    p.add_argument("--iosim", default="iosim", help="the iosim command the runs use (iosim lab passes its own)")
    p.add_argument("--home", help="iosim's home (deploy/lab is the default module folder)")
    p.add_argument("--modules", metavar="DIR", help="the folder of modules (default: deploy/lab of iosim's home)")
    p.add_argument("--workdir", metavar="DIR", default=os.path.join("results", "lab"),
                   help="where every run goes (default results/lab)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8042, help="port (default 8042; 0: any free port)")
    p.add_argument("--workers", type=int, default=0, help="simulations at a time (default: the machine's cores)")
    p.add_argument("--max-queue", type=int, default=400, help="runs waiting at most; more are refused (default 400)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds a run may take (default 120)")
    p.add_argument("--threads", type=int, default=48, help="the web server's threads (default 48)")
    a = p.parse_args(argv)
    for name, v, lo in (("--port", a.port, 0), ("--workers", a.workers, 0), ("--max-queue", a.max_queue, 1),
                        ("--threads", a.threads, 1)):
        if v < lo or (name == "--port" and v > 65535):
            print(f"iosim lab: error: {name} {v}: out of range; fix: give {'0 to 65535' if name == '--port' else f'at least {lo}'}",
                  file=sys.stderr)
            return 2
    if not a.timeout > 0:
        print(f"iosim lab: error: --timeout {a.timeout}: fix: a positive number of seconds", file=sys.stderr)
        return 2
    mdir = os.path.normpath(a.modules or os.path.join(a.home or ".", "deploy", "lab"))
    try:
        import flask  # noqa: F401
        import markdown  # noqa: F401
        import waitress
    except ImportError as e:
        print(f"iosim lab: error: Python module {e.name} not found; fix: apt-get install python3-flask "
              "python3-waitress python3-markdown (or `make deps`)", file=sys.stderr)
        return 2
    try:
        modules = load_modules(mdir)
    except ModuleError as e:
        print(f"iosim lab: error: {e}", file=sys.stderr)
        return 2
    try:
        os.makedirs(a.workdir, exist_ok=True)
        runner = Runner(a.iosim, a.workdir, workers=a.workers or None, max_queue=a.max_queue, timeout=a.timeout)
    except OSError as e:
        what = f"--iosim {a.iosim}" if e.filename is None and "iosim" in str(e) else f"--workdir {a.workdir}"
        print(f"iosim lab: error: {what}: {e.strerror}; fix: {'the path of the iosim command' if what.startswith('--iosim') else 'a folder you can write'}",
              file=sys.stderr)
        return 2
    ddir = data_dir(a.iosim)
    missing = missing_data(modules, ddir)
    try:
        check_modules(modules, runner, missing)
    except ModuleError as e:
        print(f"iosim lab: error: {e}", file=sys.stderr)
        runner.close()
        return 2
    from .app import create_app
    app = create_app(modules, runner, data_dir=ddir, missing=missing)
    try:
        server = waitress.create_server(app, host=a.host, port=a.port, threads=a.threads, ident="iosim-lab",
                                        connection_limit=500, channel_timeout=60)
    except OSError as e:
        print(f"iosim lab: error: cannot listen on {a.host}:{a.port} ({e.strerror}); fix: another --port (or "
              "stop what uses it)", file=sys.stderr)
        runner.close()
        return 2
    threading.Thread(target=warm, args=(modules, runner, missing), daemon=True).start()
    host = a.host if ":" not in a.host else f"[{a.host}]"
    print(f"iosim lab: http://{host}:{server.effective_port}/ — {len(modules)} modules from {mdir}"
          + (f" ({len(missing)} without their datasets)" if missing else "")
          + f"; runs in {runner.workdir}, {runner.workers} at a time; Ctrl-C stops it", flush=True)
    try:
        # SIGTERM stops the lab as Ctrl-C does: the interrupt leaves waitress's loop, which lets its worker threads end
        # (server.run catches it). The server is not closed from the handler: a worker that has just written its
        # response still wakes the loop through the server's trigger pipe, and a closed pipe made it print a traceback.
        signal.signal(signal.SIGTERM, _interrupt)
        server.run()
    except (KeyboardInterrupt, OSError):
        pass
    finally:
        runner.close()
    print(f"iosim lab: stopped ({runner.simulated} simulations this session)", flush=True)
    return 0


def _interrupt(signum, frame):
    """SIGTERM's handler: Ctrl-C's exception, raised in the main thread (waitress's loop)."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
