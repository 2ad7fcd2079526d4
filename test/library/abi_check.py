#!/usr/bin/env python3
"""abi_check.py LIBIOSIM_SO INCLUDE_DIR: libiosim exports exactly the functions its installed public headers declare.

Lists the dynamic symbols the library defines (nm -D --defined-only) and the functions the headers under INCLUDE_DIR/iosim
declare with IOSIM_API, each under a doc comment (/** ... */, one comment may cover a group of consecutive
declarations). Fails, naming them, on an export no header documents (an ios_* internal, a C++ symbol from a template,
cJSON or SimGrid), on a documented function not exported, and on an IOSIM_API declaration without a doc comment.
Prints the number of exported functions. docs/library.md, "Stability"."""
import glob
import os
import re
import subprocess
import sys


def documented(include_dir):
    """{name: header} of the IOSIM_API functions, and the undocumented ones."""
    funcs, undocumented = {}, []
    for path in sorted(glob.glob(os.path.join(include_dir, "iosim", "*.h"))):
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"//[^\n]*", "", text)
        text = re.sub(r"#[^\n]*(\\\n[^\n]*)*", "", text)  # preprocessor lines, and the IOSIM_API definition
        last_end, last_documented = 0, False
        for m in re.finditer(r"IOSIM_API\s+[^;{}()]*?\b(iosim_\w+)\s*\([^;{}]*\)\s*;", text):
            between = text[last_end:m.start()]
            has_doc = "/**" in between
            grouped = last_end > 0 and between.strip() == ""
            if not (has_doc or (grouped and last_documented)):
                undocumented.append(f"{os.path.basename(path)}: {m.group(1)}")
            last_documented = has_doc or (grouped and last_documented)
            funcs[m.group(1)] = os.path.basename(path)
            last_end = m.end()
    return funcs, undocumented


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] not in ("A",):  # A: a version node, not code
            syms.add(parts[2].split("@")[0])
    return syms


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    lib, include_dir = sys.argv[1], sys.argv[2]
    funcs, undocumented = documented(include_dir)
    syms = exported(lib)
    extra = sorted(syms - set(funcs))
    missing = sorted(set(funcs) - syms)
    ok = True
    if not funcs:
        print(f"abi_check: no IOSIM_API function found under {include_dir}/iosim: is the install complete?")
        ok = False
    if extra:
        print(f"abi_check: {lib} exports {len(extra)} symbols no public header documents (give the internal ones "
              "hidden visibility, the public ones IOSIM_API and a doc comment): " + ", ".join(extra[:40]))
        ok = False
    if missing:
        print(f"abi_check: {len(missing)} documented functions are not exported (define them, with IOSIM_API): " +
              ", ".join(f"{f} ({funcs[f]})" for f in missing))
        ok = False
    if undocumented:
        print("abi_check: IOSIM_API declarations without a doc comment (/** units, array lengths, ownership, errors, "
              "source */): " + ", ".join(undocumented))
        ok = False
    if not ok:
        sys.exit(1)
    per_header = {}
    for h in funcs.values():
        per_header[h] = per_header.get(h, 0) + 1
    print(f"abi_check: {os.path.basename(lib)} exports {len(syms)} functions, exactly the documented ones (" +
          ", ".join(f"{h}: {n}" for h, n in sorted(per_header.items())) + ")")


if __name__ == "__main__":
    main()
