#!/usr/bin/env python3
"""The Python module `iosim` against its documentation (docs/library.md, "Python"): every public name of the module
(dir(iosim), and each class's public members) has a row in the section's reference table and every row names one,
each function's documented parameters are those of its signature, every bad input raises iosim.Error, and
iosim.share says when a policy's rates sum above the capacity.

usage: python_doc.py --module-dir BUILD/python --source SRC
"""
import argparse
import re
import sys
import unittest
import warnings

ARGS = None
iosim = None


def reference_rows():
    """{documented name: [parameter names] or None} from the table of docs/library.md's "### Reference" (Python)."""
    with open(f"{ARGS.source}/docs/library.md", encoding="utf-8") as f:
        text = f.read()
    python = text[text.index("\n## Python\n"):]
    ref = python[python.index("\n### Reference\n"):]
    end = re.search(r"\n## ", ref)
    ref = ref[:end.start()] if end else ref
    rows = {}
    for m in re.finditer(r"^\| `iosim\.([A-Za-z_][\w.]*)(\(([^`]*)\))?` \|", ref, re.M):
        params = None
        if m.group(2) is not None:
            params = [p.split("=")[0].strip() for p in m.group(3).split(",") if p.strip()]
        rows[m.group(1)] = params
    return rows


def signature_params(obj):
    """The parameter names of a pybind11 function from the first line of its docstring, `self` left out."""
    first = (obj.__doc__ or "").splitlines()[0]
    m = re.match(r"^[\w.]+\((.*)\)( -> .*)?$", first)
    if m is None:
        raise AssertionError(f"no signature in the docstring of {obj!r}: {first!r}")
    names = []
    depth, cur = 0, ""
    for ch in m.group(1) + ",":  # split at top-level commas (defaults such as [] or {} hold none here, but lists may)
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            if cur.strip():
                names.append(cur.split(":")[0].split("=")[0].strip())
            cur = ""
        else:
            cur += ch
    return [n for n in names if n != "self"]


def public_names():
    """Every public name of the module, and Class.member for each public member of its classes (not exceptions)."""
    names = set()
    for n in dir(iosim):
        if n.startswith("_"):
            continue
        names.add(n)
        o = getattr(iosim, n)
        if isinstance(o, type) and not issubclass(o, BaseException):
            names.update(f"{n}.{k}" for k in o.__dict__ if not k.startswith("_"))
    return names


class Documented(unittest.TestCase):
    def test_every_public_name_has_a_row(self):
        documented, exported = set(reference_rows()), public_names()
        self.assertEqual(sorted(exported - documented), [], "exported by the module, not in docs/library.md")
        self.assertEqual(sorted(documented - exported), [], "in docs/library.md, not exported by the module")
        # the functions of this issue at least (a table that lost them all would still be equal to an empty module)
        for n in ("allocate", "place", "share", "stripe", "Scenario.run", "Error", "UncappedWarning"):
            self.assertIn(n, documented)

    def test_documented_parameters_are_the_signatures(self):
        for name, params in reference_rows().items():
            obj = iosim
            for part in name.split("."):
                obj = getattr(obj, part)
            if isinstance(obj, type) and not issubclass(obj, BaseException):
                if params is None:
                    continue  # the class itself (made by a function: Results, App)
                obj = obj.__init__
            if params is None:
                self.assertFalse(callable(obj) and not isinstance(obj, type), f"{name}: documented without its "
                                 "parameters")
                continue
            self.assertEqual(params, signature_params(obj), f"iosim.{name}: parameters in docs/library.md")


class TypedErrors(unittest.TestCase):
    APP = {"nodes": 16, "volume": 64e9, "work": 600, "profile": {1: 4e8, 2: 7.5e8, 4: 1.4e9}}

    def raises(self, fn, pattern, cause=None):
        with self.assertRaises(iosim.Error) as cm:
            fn()
        self.assertRegex(str(cm.exception), pattern)
        if cause is not None:
            self.assertIsInstance(cm.exception.__cause__, cause)

    def test_bad_inputs(self):
        no_profile = {k: v for k, v in self.APP.items() if k != "profile"}
        self.raises(lambda: iosim.allocate("bba", [1e9] * 4, 64, [no_profile]), r"apps\[0\]: no 'profile'.*e\.g\.")
        self.raises(lambda: iosim.place("random", [1e9] * 4, 64, [dict(self.APP, profil={1: 1e9})], [1]),
                    r"iosim\.place: apps\[0\]: unknown key 'profil'")
        self.raises(lambda: iosim.allocate("bba", [1e9] * 4, 64, [dict(self.APP, nodes="16")]),
                    r"apps\[0\]\['nodes'\] = '16': give a number")
        self.raises(lambda: iosim.allocate("bba", [1e9] * 4, 64, [dict(self.APP, profile={"two": 1e9})]),
                    r"key 'two': give resource counts")
        self.raises(lambda: iosim.allocate("bba", [1e9] * 4, 64, [self.APP], params={"x": [1]}),
                    r"parameter 'x' = \[1\]")
        self.raises(lambda: iosim.allocate("bba", 1e9, 64, [self.APP]), r"^iosim\.allocate: .*incompatible", TypeError)
        self.raises(lambda: iosim.allocate("no-such", [1e9], 64, []), r"no-such.*unknown")
        self.raises(lambda: iosim.share("fcfs", 1e9, [{"cap": "fast"}]), r"transfers\[0\]\['cap'\] = 'fast'")
        self.raises(lambda: iosim.share("fcfs", 1e9, [{"cap": 1e9}], window=(0,)), r"window = \(0,\)")
        self.raises(lambda: iosim.share("fcfs", 1e9, [{"kap": 1e9}]), r"unknown field 'kap'")
        self.raises(lambda: iosim.stripe("bpio", servers="4", osts_per_server=2, routers=2, clients=8, writers=8,
                                         bytes_per_writer=1e9), r"^iosim\.stripe: ", TypeError)
        self.raises(lambda: iosim.Scenario(no_such=1), r"^iosim\.Scenario: ", TypeError)
        self.raises(lambda: iosim.Scenario(path=f"{ARGS.source}/no-such.json"), r"no-such\.json")
        self.raises(lambda: iosim.app_declare(3), r"^iosim\.app_declare: ", TypeError)
        self.raises(lambda: iosim.register_sharing("x y", lambda v: []), r"x y")

    def test_json_profile_keys(self):
        # {"1": ...} as json.load gives it equals {1: ...}: BBA (RR-9549 §4.1) picks n = 4, the best bandwidth
        app = dict(self.APP, profile={"1": 4e8, "2": 7.5e8, "4": 1.4e9})
        self.assertEqual(iosim.allocate("bba", [1e9] * 4, 64, [app]), [4])


class CapsAndRates(unittest.TestCase):
    def test_maxmin_returns_caps_and_warns(self):
        # caps 2e8, 9e8, 9e8 on B = 1e9: maxmin gives the caps (2e9 in all); SimGrid's max-min would give 2e8 in full,
        # then (1e9 - 2e8) / 2 = 4e8 to each of the other two
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            rates = iosim.share("maxmin", 1e9, [{"cap": 2e8}, {"cap": 9e8}, {"cap": 9e8}])
        self.assertEqual(rates, [2e8, 9e8, 9e8])
        self.assertEqual(len(w), 1)
        self.assertTrue(issubclass(w[0].category, iosim.UncappedWarning))
        self.assertIn("2e+09 B/s in all on a resource of 1e+09 B/s", str(w[0].message))
        self.assertIn("[2e+08, 4e+08, 4e+08] B/s", str(w[0].message))

    def test_capped_policy_is_silent(self):
        # FairShare (RR-9502 §4.1): α = min(1, B / Σ caps) = 1e9 / 1.8e9, so 5e8 each, within B: no warning
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            rates = iosim.share("fairshare", 1e9, [{"cap": 9e8}, {"cap": 9e8}])
        self.assertAlmostEqual(rates[0], 5e8, delta=1e-6)
        self.assertAlmostEqual(rates[1], 5e8, delta=1e-6)
        self.assertEqual(len(w), 0)


class ShareBatch(unittest.TestCase):
    def test_by_hand_and_as_share(self):
        import numpy as np
        # interference (rate_i = cap_i / (1 + L_i / kappa)): caps 8, 4 at kappa 8 -> 8 / 1.5 = 16/3, 4 / 2 = 2;
        # caps 8, 8 at kappa 16 -> 8 / 1.5 = 16/3 each; kappa 0: the caps
        r = iosim.share_batch("interference", 1e12, {"app": [0, 1], "cap": [[8.0, 4.0], [8.0, 8.0], [3.0, 5.0]]},
                              {"kappa": [8.0, 16.0, 0.0]})
        self.assertIsInstance(r, np.ndarray)
        self.assertEqual(r.shape, (3, 2))
        np.testing.assert_allclose(r, [[16 / 3, 2.0], [16 / 3, 16 / 3], [3.0, 5.0]], rtol=0, atol=1e-12)
        # FairShare (RR-9502 §4.1, alpha = min(1, B / sum of caps)) on B = 1e9 and 3e9, caps 9e8 each: 5e8 each, then
        # the caps; each row is iosim.share's decision on the same view
        r = iosim.share_batch("fairshare", [1e9, 3e9], {"cap": [9e8, 9e8]})
        for v, cap in enumerate((1e9, 3e9)):
            self.assertEqual(list(r[v]), iosim.share("fairshare", cap, [{"cap": 9e8}, {"cap": 9e8}]))
        self.assertAlmostEqual(r[0][0], 5e8, delta=1e-6)

    def test_bad_inputs(self):
        with self.assertRaisesRegex(iosim.Error, r"unknown field 'kap'"):
            iosim.share_batch("fcfs", 1e9, {"kap": [1.0]})
        with self.assertRaisesRegex(iosim.Error, r"transfers\['cap'\] has 3 dimensions"):
            iosim.share_batch("fcfs", 1e9, {"cap": [[[1.0]]]})
        with self.assertRaisesRegex(iosim.Error, r"do not broadcast together"):
            iosim.share_batch("fcfs", [1e9, 2e9, 3e9], {"cap": [[1.0, 2.0], [3.0, 4.0]]})
        with self.assertRaisesRegex(iosim.Error, r"view 1: .*cap = nan"):
            iosim.share_batch("fcfs", 1e9, {"cap": [[1.0], [float("nan")]]})
        with self.assertRaisesRegex(iosim.Error, r"view 1: .*kappa"):
            iosim.share_batch("interference", 1e9, {"cap": [1.0, 2.0]}, {"kappa": [1.0, -3.0]})
        with self.assertRaisesRegex(iosim.Error, r"no-such.*unknown"):
            iosim.share_batch("no-such", 1e9, {"cap": [1.0]})


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--module-dir", required=True)
    ap.add_argument("--source", required=True)
    ARGS, rest = ap.parse_known_args()
    sys.path.insert(0, ARGS.module_dir)
    import iosim  # noqa: E402,F811
    iosim.families()  # the compiled module loaded here, not inside a test that records warnings (pybind11's debug
    # builds warn once on loading it)
    unittest.main(argv=[sys.argv[0], "-v"] + rest)
