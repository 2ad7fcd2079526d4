#!/usr/bin/env python3
"""test/docs/run_docs.py, the runner of the tested pages, on hand-made pages whose commands print known text (printf).

Expectations (by hand):
- a page whose output block matches exits 0; the same page with one number changed (1.25 -> 1.26, in a console
  block, in an `expect` block, in a table compared by numbers) exits 1 and names the page's line and both values;
- `[...]` matches a wall time, a `...` line an excerpt; without the `...` line the extra output lines fail;
- `numbers unordered` finds each number of a transposed table among the printed ones (4.12 -> 4.13 fails);
- `numbers` compares a Markdown table with a printed table of other layout (same numbers in order; `scratch1` and
  `2048/512GiB` are not numbers; 30.7 printed for 30.70 is equal at the page's precision, 30.8 is not);
- `stderr` compares standard error; a failing command fails; `slow` blocks are left out unless --slow, and counted;
- an unknown marker word exits 2.

usage: test_run_docs.py --source SRC --iosim BUILD/iosim
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ARGS = None

PAGE = """# a page

```console
$ printf 'total 1.25 s\\nwall 0.013 s\\n'
total 1.25 s
wall [...] s
```

<!-- doc-test: run -->
```sh
printf 'header\\nmakespan_s 42.5 | min_yield 0.99\\nfooter 7\\n'
```

<!-- doc-test: expect -->
```
...
makespan_s 42.5 | min_yield 0.99
...
```

<!-- doc-test: run -->
```sh
printf 'configuration  P on 24 OSTs (GB/s)  on 36 OSTs\\nedison/scratch1/ior/read/2048/512GiB  2.95  4.43  3.94 .. 5.05\\n'
printf 'edison/scratch1/ior/write/2048/512GiB  23.70  35.55  31.65 .. 40.54  30.7\\n'
```

<!-- doc-test: expect numbers -->
| configuration (scratch1) | P on 24 OSTs | on 36 OSTs | p75 band | measured |
|---|---|---|---|---|
| ior/read/2048/512GiB | 2.95 | 4.43 | 3.94 .. 5.05 |
| ior/write/2048/512GiB | 23.70 | 35.55 | 31.65 .. 40.54 | 30.70 |

<!-- doc-test: run -->
```sh
printf 'x 1 | a 4.12\\nx 2 | a 5.85\\n'
```

<!-- doc-test: expect numbers unordered -->
| x | 1 | 2 |
|---|---|---|
| a | 4.12 | 5.85 |

<!-- doc-test: run -->
```sh
printf 'note on stderr 3.5\\n' >&2
```

<!-- doc-test: expect stderr -->
```
note on stderr 3.5
```

<!-- doc-test: run slow -->
```sh
printf 'slow 9\\n'
```

<!-- doc-test: expect -->
```
slow 9
```
"""


class Runner(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="iosim-run-docs-")
        os.makedirs(os.path.join(self.dir, "docs"))
        for d in ("policies", "src", "analysis", "deploy", "platforms", "test", "traces"):
            os.makedirs(os.path.join(self.dir, d))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_page(self, text, *extra):
        with open(os.path.join(self.dir, "docs", "page.md"), "w", encoding="utf-8") as f:
            f.write(text)
        return subprocess.run([sys.executable, os.path.join(ARGS.source, "test", "docs", "run_docs.py"), "--source",
                               self.dir, "--iosim", ARGS.iosim, "--doc", "docs/page.md", *extra],
                              capture_output=True, text=True)

    def test_page_as_written_passes(self):
        p = self.run_page(PAGE)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("5/5 blocks of docs/page.md ran and matched (1 block(s) not run, slow", p.stdout)
        p = self.run_page(PAGE, "--slow")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("6/6 blocks", p.stdout)
        p = self.run_page(PAGE, "--only-slow")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("1/1 blocks of docs/page.md ran and matched (5 block(s) not run, the others: ctest)", p.stdout)

    def test_a_changed_number_fails(self):
        for old, new, where in (("total 1.25 s\nwall", "total 1.26 s\nwall", "docs/page.md:4"),
                                ("makespan_s 42.5 | min", "makespan_s 42.6 | min", "docs/page.md:11"),
                                ("| 35.55 |", "| 35.56 |", "docs/page.md:23"),
                                ("| 30.70 |", "| 30.80 |", "docs/page.md:23"),
                                ("| 5.85 |", "| 5.86 |", "docs/page.md:35"),
                                ("note on stderr 3.5\n```", "note on stderr 3.6\n```", "docs/page.md:45")):
            text = PAGE.replace(old, new, 1)
            self.assertNotEqual(text, PAGE)
            p = self.run_page(text)
            self.assertEqual(p.returncode, 1, f"{new}: {p.stdout}")
            self.assertIn(f"FAIL {where}:", p.stdout)
        p = self.run_page(PAGE.replace("| 35.55 |", "| 35.56 |"))
        self.assertIn("numbers:  ['23.70', '35.56', '31.65', '40.54', '30.70']", p.stdout)

    def test_excerpts_need_their_marks(self):
        p = self.run_page(PAGE.replace("...\nmakespan_s 42.5 | min_yield 0.99\n...", "makespan_s 42.5 | min_yield 0.99"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("FAIL docs/page.md:11", p.stdout)

    def test_failing_command_and_unknown_word(self):
        p = self.run_page(PAGE.replace("footer 7\\n'", "footer 7\\n'; false"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("exit status 1", p.stdout)
        p = self.run_page(PAGE.replace("doc-test: run slow", "doc-test: run slowly"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown doc-test word(s) slowly", p.stderr + p.stdout)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--iosim", required=True)
    ARGS, rest = ap.parse_known_args()
    ARGS.source = os.path.abspath(ARGS.source)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
