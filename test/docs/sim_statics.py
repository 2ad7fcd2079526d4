#!/usr/bin/env python3
"""No module state outside the engine object (docs/architecture.md, "The engine as one object"): every writable
file-scope or function-local static (or global) data symbol in the objects of src/sim/ is an error, except the engine's
one instance (`engine` in engine.c, which SimGrid's signals without user data reach) and SimGrid's log categories
(`_simgrid_log_category__*`, which XBT_LOG_NEW_*CATEGORY defines). A module keeps its state in the object engine_t owns
(sim_core.h); a table that never changes is `const`.

Writable means in .data, .bss (and their .data.* / .bss.* variants), thread-local .tdata / .tbss, or COMMON; not
.rodata, and not .data.rel.ro (read-only once relocated: `nm` prints `d` for it too, so the sections are read with
`objdump -t`). Data an object gets from another library's headers (named in SimGrid's, Boost's or the C++ library's
namespaces: their inline functions' statics and variables, their guard variables), the compiler's
DW.ref.__gxx_personality_v0 and AddressSanitizer's one-byte ODR indicators (__odr_asan.*, in the sanitizers' build)
are theirs, not iosim's, and are left out; so are the typeinfo and vtables of lambdas (read-only). Function-local statics appear as NAME.N in C and as `function()::NAME` in C++ (demangled with c++filt).

usage: sim_statics.py BUILD_DIR [LIBRARY]   (default iosim_sim: every object under BUILD_DIR/CMakeFiles/LIBRARY.dir)
       sim_statics.py --objects ROOT OBJ...  (the given objects, named by their path under ROOT without `.o`)
       sim_statics.py --self-test --cc CC [--cxx CXX]
  --self-test compiles small files (a file-scope static, a function-local one, C++ ones, and what is allowed: const
  tables, a log category, engine.c's instance) in a temporary directory and checks that the check rejects the first
  with a message naming the file and the symbol, and accepts the others. Exit 0 when clean, 1 on a finding, 2 on a
  usage or tool error.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ALLOWED_PREFIX = "_simgrid_log_category__"
ENGINE_FILE, ENGINE_SYMBOL = "engine.c", "engine"
FOREIGN = ("simgrid::", "boost::", "std::", "__gnu_cxx::", "__cxxabiv1::")
LINE = re.compile(r"^([0-9a-fA-F]+) (.{7}) (\S+)\t([0-9a-fA-F]+)\s+(.*)$")


def writable(section):
    """Whether a symbol in `section` can change at run time."""
    if section == "*COM*":
        return True
    if section.startswith(".data.rel.ro"):
        return False
    return any(section == s or section.startswith(s + ".") for s in (".data", ".bss", ".tdata", ".tbss"))


def demangle(names):
    """{mangled: demangled} for the C++ names (c++filt, one call)."""
    mangled = sorted(n for n in names if n.startswith("_Z"))
    if not mangled:
        return {}
    out = subprocess.run(["c++filt"], input="\n".join(mangled) + "\n", capture_output=True, text=True, check=True)
    return dict(zip(mangled, out.stdout.splitlines()))


def data_symbols(obj):
    """[(name, flags, section, size)] of the data objects an object file defines (objdump -t)."""
    out = subprocess.run(["objdump", "-t", obj], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        flags, section, size, name = m.group(2), m.group(3), int(m.group(4), 16), m.group(5).split()[-1]
        if flags[6] != "O" or not writable(section):  # data objects only (not sections, files, functions)
            continue
        found.append((name, flags, section, size))
    return found


def foreign(name, pretty):
    """Data that comes from another library's headers (its namespace: an iosim file defines nothing there), or the
    compiler's and the sanitizers' own."""
    if name.startswith(("DW.ref.__gxx_personality", "__odr_asan")):  # ASan's one-byte ODR indicator of each global
        return True
    target = pretty[len("guard variable for "):] if pretty.startswith("guard variable for ") else pretty
    return target.startswith(FOREIGN)


def findings(objects):
    """[(source, message)] for every writable static or global data symbol of the objects ({source: object})."""
    report = []
    for source, obj in sorted(objects.items()):
        symbols = data_symbols(obj)
        pretty = demangle([s[0] for s in symbols])
        for name, flags, section, size in symbols:
            shown = pretty.get(name, name)
            if name.startswith(ALLOWED_PREFIX) or foreign(name, shown):
                continue
            if os.path.basename(source) == ENGINE_FILE and name == ENGINE_SYMBOL and flags[0] == "l":
                continue  # the engine's one instance
            kind = "static" if flags[0] == "l" else "global"
            report.append((source, f"{source}: writable {kind} data `{shown}` ({section}, {size} bytes): module state "
                                   f"belongs in the object engine_t owns (src/sim/sim_core.h, docs/architecture.md); "
                                   f"make it a member of its module's state, or const if it never changes"))
    return report


def library_objects(build, lib):
    root = os.path.join(build, "CMakeFiles", f"{lib}.dir")
    objs = sorted(glob.glob(os.path.join(root, "**", "*.o"), recursive=True))
    return {os.path.relpath(o, root)[:-2]: o for o in objs}


def check(objects, what):
    if not objects:
        print(f"sim_statics.py: no object file for {what}; fix: build it first", file=sys.stderr)
        return 2
    report = findings(objects)
    for _, message in report:
        print(message)
    if report:
        print(f"sim_statics.py: {len(report)} writable static(s) in {what}", file=sys.stderr)
        return 1
    print(f"sim_statics.py: {len(objects)} objects of {what}: no writable static but the engine's instance and "
          f"SimGrid's log categories")
    return 0


# ------------------------------------------------------------------------------------------------ the self-test

REJECTED_C = """
static int counter;                    /* file-scope state */
int next_id(void) {
  static int calls;                    /* function-local state */
  calls++;
  return ++counter + calls;
}
"""
REJECTED_CXX = """
#include <string>
#include <unordered_map>
namespace {
std::unordered_map<int, double> cache; /* file-scope state (anonymous namespace) */
}
double usage(int link) {
  static std::string last;             /* function-local state, with a guard variable */
  last += 'x';
  return cache[link] + double(last.size());
}
"""
ACCEPTED_C = """
struct category { const char *name; int threshold; };
struct category _simgrid_log_category__iosim_selftest = {"iosim_selftest", 0}; /* what XBT_LOG defines */
static const int table[] = {1, 2, 3};                  /* read-only */
static const char *const names[] = {"a", "b"};         /* .data.rel.ro: read-only once relocated */
int lookup(int i) { return table[i % 3] + (int)names[i % 2][0]; }
"""
ENGINE_C = """
static struct { int started; double clock; } engine;   /* the one engine instance */
int engine_started(void) { return engine.started++; }
"""
ACCEPTED_CXX = """
#include <functional>
#include <vector>
static const int widths[] = {4, 8};
int apply(int x) {
  std::vector<std::function<int(int)>> fs{[](int v) { return v + widths[0]; }}; /* a lambda: typeinfo, not state */
  return fs[0](x);
}
"""


def compile_to(cc, src, text, tmp):
    path = os.path.join(tmp, src)
    with open(path, "w") as f:
        f.write(text)
    obj = path + ".o"
    subprocess.run([cc, "-fPIC", "-O2", "-c", path, "-o", obj], check=True)
    return obj


def self_test(cc, cxx):
    failures = []
    with tempfile.TemporaryDirectory(prefix="iosim-sim-statics-") as tmp:
        rejected = {"src/sim/rejected.c": compile_to(cc, "rejected.c", REJECTED_C, tmp)}
        accepted = {"src/sim/accepted.c": compile_to(cc, "accepted.c", ACCEPTED_C, tmp),
                    "src/sim/engine.c": compile_to(cc, "engine.c", ENGINE_C, tmp)}
        expect = [("src/sim/rejected.c", "`counter`"), ("src/sim/rejected.c", "`calls.")]
        if cxx:
            rejected["src/sim/rejected_cxx.cpp"] = compile_to(cxx, "rejected_cxx.cpp", REJECTED_CXX, tmp)
            accepted["src/sim/accepted_cxx.cpp"] = compile_to(cxx, "accepted_cxx.cpp", ACCEPTED_CXX, tmp)
            expect += [("src/sim/rejected_cxx.cpp", "`(anonymous namespace)::cache`"),
                       ("src/sim/rejected_cxx.cpp", "`usage(int)::last`")]
        # the same instance name in another file is state like any other
        rejected["src/sim/other.c"] = compile_to(cc, "other.c", ENGINE_C, tmp)
        expect.append(("src/sim/other.c", "`engine`"))
        found = findings(rejected)
        for source, needle in expect:
            if not any(s == source and needle in m for s, m in found):
                failures.append(f"no finding names {source} and {needle}; found: {[m for _, m in found]}")
        for message in [m for _, m in findings(accepted)]:
            failures.append(f"rejected what is allowed: {message}")
        if check(rejected, "the rejected files") != 1:
            failures.append("the check of the rejected files did not exit 1")
        if check(accepted, "the accepted files") != 0:
            failures.append("the check of the accepted files did not exit 0")
    for f in failures:
        print(f"sim_statics.py --self-test: {f}", file=sys.stderr)
    if not failures:
        print("sim_statics.py --self-test: a file-scope static and function-local statics (C and C++) are rejected "
              "with their file and symbol named; const tables, log categories and engine.c's instance are accepted")
    return 1 if failures else 0


def main(argv):
    if argv and argv[0] == "--self-test":
        args = dict(zip(argv[1::2], argv[2::2]))
        if "--cc" not in args:
            print(__doc__, file=sys.stderr)
            return 2
        return self_test(args["--cc"], args.get("--cxx"))
    if argv and argv[0] == "--objects" and len(argv) >= 3:
        root = argv[1]
        return check({os.path.relpath(o, root)[:-2]: o for o in argv[2:]}, "the given objects")
    if len(argv) in (1, 2) and not argv[0].startswith("-"):
        lib = argv[1] if len(argv) == 2 else "iosim_sim"
        return check(library_objects(argv[0], lib), f"{lib} ({argv[0]})")
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
