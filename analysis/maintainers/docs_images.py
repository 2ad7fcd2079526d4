#!/usr/bin/env python3
"""The images committed under docs/, made again from the current build, so that none shows a developer's path or an
old output. Each is made as its page says, in a scratch folder of the build tree holding links to the repository's
docs/, deploy/ and platforms/, with the paths the page's reader types (results/...), never an absolute one:

  view-three-apps.png, view-two-policies.png   docs/tutorial.md steps 1-2: `iosim view` of three-apps.json under
                                               fairshare, and beside greedy-yield, opened in Debian's headless
                                               Chromium (chromium, chromium-driver, python3-selenium) 1400 px wide,
                                               cursor at 20 s, the whole page
  trace-default.png                            docs/trace.md: deploy/default.json traced, drawn by analysis/paje_plot.py
  sharing-ioload-mn4-min_yield.png             docs/campaigns.md: the report's line_min_yield.png of
                                               deploy/campaigns/sharing-ioload-mn4.json (480 runs, about a minute on 2
                                               cores; needs the FORGE dataset: IOSIM_DATA_DIR, else ../shared/datasets)

(docs/validation-*.png come from analysis/tokio_validation.py: docs/validation.md.)

usage (from the repository root, after `make build`):
  /usr/bin/python3 analysis/maintainers/docs_images.py [--iosim build/iosim] [--only view,trace,campaign] [--out docs]
Prints each image written. Exit 2 on a missing tool (with the Debian package), 1 when a step fails.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def run(cmd, cwd, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"docs_images.py: `{' '.join(cmd)}` (in {cwd}) exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stdout


def browser(work, width, height):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        print("docs_images.py: error: Python module selenium not found; fix: apt-get install python3-selenium chromium "
              "chromium-driver (or `make deps`)", file=sys.stderr)
        sys.exit(2)
    for f in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(f):
            print(f"docs_images.py: error: {f} not found; fix: apt-get install chromium chromium-driver",
                  file=sys.stderr)
            sys.exit(2)
    opts = webdriver.ChromeOptions()
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
              f"--user-data-dir={os.path.join(work, 'chromium-profile')}", f"--window-size={width},{height}"):
        opts.add_argument(a)
    opts.binary_location = CHROMIUM
    tmp = os.path.join(work, "tmp")  # Chromium's scoped folders: in the scratch folder, not /tmp
    os.makedirs(tmp, exist_ok=True)
    return webdriver.Chrome(service=Service(CHROMEDRIVER, env=dict(os.environ, TMPDIR=tmp)), options=opts)


def screenshot(work, page, png, width, height, cursor):
    d = browser(work, width, height)
    try:
        d.get("file://" + os.path.join(work, page))
        for _ in range(200):
            if d.execute_script("return !!(window.iosimView && window.iosimView.ready)"):
                break
            time.sleep(0.05)
        else:
            sys.exit(f"docs_images.py: {page}: the page did not finish drawing in 10 s")
        d.execute_script(f"window.iosimView.setCursor({cursor})")
        time.sleep(0.5)
        h = d.execute_script("return document.documentElement.scrollHeight")  # the whole page, as it opens
        d.set_window_size(width, h + 140)
        time.sleep(0.8)
        d.save_screenshot(png)
    finally:
        d.quit()


def views(iosim, work, out):
    scen = "docs/tutorial/three-apps.json"
    run([iosim, "run", scen], work)  # output.dir results/three-apps, as in the tutorial
    run([iosim, "run", scen, "--set", "sharing.policy=greedy-yield", "-o", "results/three-apps-greedy-yield"], work)
    run([iosim, "view", "results/three-apps", "-o", "results/three-apps.html"], work)
    run([iosim, "view", "results/three-apps", "results/three-apps-greedy-yield", "-o", "results/two-policies.html"],
        work)
    for page, png, w in (("results/three-apps.html", "view-three-apps.png", 1400),
                         ("results/two-policies.html", "view-two-policies.png", 1400)):
        screenshot(work, page, os.path.join(out, png), w, 900, 20)
        yield os.path.join(out, png)


def trace(iosim, work, out):
    run([iosim, "run", "deploy/default.json", "--set", "output.trace=true", "-o", "results/default-trace"], work)
    png = os.path.join(out, "trace-default.png")
    run([sys.executable, os.path.join(ROOT, "analysis", "paje_plot.py"), "results/default-trace/trace.paje", png,
         "--link", "gpfs", "--link", "ion0_link", "--link", "ion1_link", "--link", "ion2_link"], work)
    yield png


def campaign(iosim, work, out):
    run([iosim, "sweep", "deploy/campaigns/sharing-ioload-mn4.json", "-o", "results/sharing-ioload-mn4"], work)
    run([iosim, "report", "results/sharing-ioload-mn4"], work)
    png = os.path.join(out, "sharing-ioload-mn4-min_yield.png")
    shutil.copyfile(os.path.join(work, "results/sharing-ioload-mn4/report/line_min_yield.png"), png)
    yield png


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iosim", default=os.path.join(ROOT, "build", "iosim"))
    ap.add_argument("--only", default="view,trace,campaign")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "docs-images"),
                    help="the scratch folder (emptied first, removed at the end)")
    a = ap.parse_args()
    steps = {"view": views, "trace": trace, "campaign": campaign}
    only = [s for s in a.only.split(",") if s]
    bad = [s for s in only if s not in steps]
    if bad:
        print(f"docs_images.py: error: --only {','.join(bad)}: the images are {', '.join(steps)}", file=sys.stderr)
        return 2
    iosim, out, work = os.path.abspath(a.iosim), os.path.abspath(a.out), os.path.abspath(a.work)
    if not os.access(iosim, os.X_OK):
        print(f"docs_images.py: error: {a.iosim}: not an executable; fix: `make build`, or give --iosim",
              file=sys.stderr)
        return 2
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for d in ("docs", "deploy", "platforms"):
        os.symlink(os.path.join(ROOT, d), os.path.join(work, d))
    if "IOSIM_DATA_DIR" not in os.environ and os.path.isdir(os.path.join(ROOT, "..", "shared", "datasets")):
        os.environ["IOSIM_DATA_DIR"] = os.path.abspath(os.path.join(ROOT, "..", "shared", "datasets"))
    try:
        for s in only:
            for png in steps[s](iosim, work, out):
                print(png)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
