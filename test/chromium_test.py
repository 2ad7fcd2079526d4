#!/usr/bin/env python3
"""test/chromium.py starts Chromium from a checkout of any depth.

Chromium exits at start ("Chrome instance exited") when its singleton socket, TMPDIR/org.chromium.Chromium.XXXXXX/
SingletonSocket, is longer than a Unix socket address holds (sizeof sun_path = 108 bytes with its NUL). CI's ASan build
folder made that path 110 bytes for whatif_compare_browser. This test starts Chromium through chromium.start in a work
folder whose absolute socket path would be 160 bytes or more, checks that the test really is past the limit, opens a
page and reads its title and a computed value back, and removes the folder.

usage: chromium_test.py --work DIR   (DIR is removed at the end)
"""
import argparse
import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # test/: chromium.py
try:
    import chromium
except ImportError:
    print("chromium_test.py: error: Python module selenium not found; fix: apt-get install python3-selenium "
          "chromium chromium-driver (or `make deps`)", file=sys.stderr)
    sys.exit(2)

ARGS = None
SUN_PATH = 108  # bytes of struct sockaddr_un's sun_path on Linux, the terminating NUL included
SOCKET = "tmp/org.chromium.Chromium.XXXXXX/SingletonSocket"


class DeepWorkFolder(unittest.TestCase):
    def setUp(self):
        root = os.path.abspath(ARGS.work)
        shutil.rmtree(root, ignore_errors=True)
        deep = root
        while len(os.path.join(deep, SOCKET)) < 160:
            deep = os.path.join(deep, "a-folder-deep-in-a-checkout")
        os.makedirs(deep)
        self.root, self.work = root, deep

    def tearDown(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def test_starts_where_an_absolute_socket_path_is_too_long(self):
        self.assertGreaterEqual(len(os.path.join(self.work, SOCKET)), SUN_PATH)  # the case CI met, and longer
        here = os.getcwd()
        d = chromium.start(self.work, 800, 600)
        try:
            self.assertEqual(os.getcwd(), here)  # start() gives the caller's directory back
            d.get("data:text/html,<title>deep</title><p id=v></p><script>v.textContent=6*7</script>")
            self.assertEqual(d.title, "deep")
            self.assertEqual(d.find_element("id", "v").text, "42")
        finally:
            d.quit()
        self.assertTrue(os.path.isdir(os.path.join(self.work, "chromium-profile")))  # the profile is in the folder


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
