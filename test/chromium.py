"""Headless Chromium for the browser tests (Debian chromium, chromium-driver, python3-selenium).

start(work, width, height, extra=()) returns a selenium WebDriver whose profile and scoped directories live in WORK
(nothing in /tmp). Chromium sometimes dies while starting on a loaded machine (CI runs the ASan suite beside these
tests): a session that fails to start is tried again, up to three times, and the last error is raised with every
attempt's message. The browser tests also hold ctest's RESOURCE_LOCK "chromium", so one Chromium runs at a time.

Chromium binds a Unix socket, TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket, and exits at once ("Chrome instance
exited") when that path is longer than a socket address holds (107 bytes). WORK/tmp as an absolute path is that long in
a deep checkout (CI's /check/work/main/build-asan/test/whatif/compare-browser-work: 110 bytes), so Chromium is started
from inside WORK with the relative TMPDIR "tmp": the socket path is then 48 bytes wherever WORK is.
"""
import os
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = "/usr/bin/chromium"
ATTEMPTS = 3


def start(work, width=1400, height=900, extra=()):
    """A headless Chromium WebDriver with a WIDTH x HEIGHT window (pixels), its profile in WORK/chromium-profile."""
    if not os.path.exists(CHROMEDRIVER):
        raise AssertionError(f"{CHROMEDRIVER} not found; fix: apt-get install chromium chromium-driver (make deps)")
    work = os.path.abspath(work)
    opts = webdriver.ChromeOptions()
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
              f"--user-data-dir={os.path.join(work, 'chromium-profile')}", f"--window-size={width},{height}", *extra):
        opts.add_argument(a)
    opts.binary_location = CHROMIUM
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    tmp = os.path.join(work, "tmp")  # Chromium's scoped dirs: in the work folder, not /tmp
    os.makedirs(tmp, exist_ok=True)
    errors = []
    here = os.getcwd()
    os.chdir(work)  # chromedriver and Chromium inherit this directory: TMPDIR "tmp" is WORK/tmp, the socket path short
    try:
        for attempt in range(ATTEMPTS):
            try:
                return webdriver.Chrome(service=Service(CHROMEDRIVER, env=dict(os.environ, TMPDIR="tmp")), options=opts)
            except WebDriverException as e:
                errors.append(f"attempt {attempt + 1}: " + " | ".join(str(e).strip().splitlines()[:3])[:400])
                time.sleep(2 * (attempt + 1))
    finally:
        os.chdir(here)
    raise AssertionError(f"Chromium did not start (work folder {work}):\n  " + "\n  ".join(errors))
