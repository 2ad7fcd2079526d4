#!/usr/bin/env python3
"""docs/extending.md against the code it describes (test `docs_extending`).

1. The C block of "A complete example" compiles with the project's warnings (-Wall -Wextra -Werror, C11), placed as
   policies/sharing/srpt.c would be (its `#include "../ios_policy.h"` resolves to policies/ios_policy.h), and its
   decisions match the hand computation written under it. System: B = 3 GB/s; t0 cap 2 GB/s, 5 GB left, seq 0;
   t1 cap 2 GB/s, 1 GB left, seq 1; t2 cap 1 GB/s, 1 GB left, seq 2. Expectations: fraction 1 (the default):
   rates 0, 2e9, 1e9; fraction 0.5: 0, 1.5e9, 0. The struct is named as the text says (ios_sharing_srpt).
2. Every member of the family structs (ios_allocation_policy_t, ios_placement_policy_t, ios_sharing_policy_t in
   policies/ios_policy.h, ios_storage_policy_t in policies/ios_storage.h, ios_striping_policy_t in
   policies/ios_striping.h), of IOS_POLICY_DESCRIPTOR and of ios_param_spec_t, read from the headers, has a row
   (`member` in the first cell of a table) in the section "Every field of the family structs".
3. Every header and struct name the text gives exists: each `policies/...h` path, each `ios_..._policy_t`.

usage: extending_doc.py --source ROOT --cc CC
Exit 0 when all hold; 1 with the differences.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

MAIN_C = r"""
#include "ios_policy.h"
#include <stdio.h>
extern const ios_sharing_policy_t ios_sharing_srpt;
int main(void) {
  ios_transfer_view_t t[3] = {{.app = 0, .cap = 2e9, .remaining = 5e9, .posted = 0, .seq = 0},
                              {.app = 1, .cap = 2e9, .remaining = 1e9, .posted = 1, .seq = 1},
                              {.app = 2, .cap = 1e9, .remaining = 1e9, .posted = 2, .seq = 2}};
  ios_share_view_t in = {.now = 2, .capacity = 3e9, .ntransfers = 3, .t = t, .t_begin = 0, .t_end = 1e9};
  const ios_sharing_policy_t *s = &ios_sharing_srpt;
  if (s->nparams != 1 || s->params == NULL) return 3;
  double fractions[2] = {s->params[0].def, 0.5};
  for (int k = 0; k < 2; k++) {
    ios_params_t p = {{fractions[k]}};
    double r[3];
    if (s->share(s->ctx, &in, &p, r) != IOS_OK) return 4;
    printf("%s %g %.17g %.17g %.17g\n", s->name, fractions[k], r[0], r[1], r[2]);
  }
  return 0;
}
"""
EXPECTED = "srpt 1 0 2000000000 1000000000\nsrpt 0.5 0 1500000000 0\n"
FAMILY_STRUCTS = {"policies/ios_policy.h": ["ios_allocation_policy_t", "ios_placement_policy_t",
                                            "ios_sharing_policy_t", "ios_param_spec_t"],
                  "policies/ios_storage.h": ["ios_storage_policy_t"],
                  "policies/ios_striping.h": ["ios_striping_policy_t"]}


def struct_members(text, name):
    """The member names of `typedef struct { ... } name;` in a header (IOS_POLICY_DESCRIPTOR expanded)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)  # comments out first: they hold braces and semicolons
    m = re.search(r"\}\s*" + re.escape(name) + r"\s*;", text)
    if m is None:
        raise SystemExit(f"extending_doc.py: struct {name} not found in its header")
    depth, i = 0, m.start()
    while i >= 0:  # back to the brace that opens this struct's body
        depth += {"}": 1, "{": -1}.get(text[i], 0)
        if depth == 0:
            break
        i -= 1
    body = text[i + 1:m.start()]
    members = []
    for decl in body.split(";"):
        decl = " ".join(decl.split())
        if not decl:
            continue
        if decl == "IOS_POLICY_DESCRIPTOR":
            members += ["name", "alias", "description", "source", "nparams", "params"]
            continue
        fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl)
        if fp:
            members.append(fp.group(1))
            continue
        for part in decl.split(","):
            ident = re.findall(r"(\w+)\s*(?:\[[^\]]*\])?\s*$", part.strip())
            if ident:
                members.append(ident[0])
    return members


def documented_fields(doc):
    """Backquoted names in the first cell of the table rows of the section "Every field of the family structs"."""
    start = doc.find("### Every field of the family structs")
    if start < 0:
        return None
    end = doc.find("\n## ", start)
    section = doc[start:end if end > 0 else len(doc)]
    names = set()
    for line in section.splitlines():
        if line.startswith("|"):
            first = line.strip().strip("|").split("|")[0]
            names.update(re.findall(r"`(\w+)`", first))
    return names


def example_block(doc):
    start = doc.find("### A complete example")
    m = re.search(r"```c\n(.*?)```", doc[start:], re.S) if start >= 0 else None
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--cc", default="cc")
    args = ap.parse_args()
    root = os.path.abspath(args.source)
    with open(os.path.join(root, "docs", "extending.md"), encoding="utf-8") as f:
        doc = f.read()
    problems = []

    # 3. names the text gives exist
    for path in sorted(set(re.findall(r"`(policies/[\w/]+\.h)`", doc))):
        if not os.path.isfile(os.path.join(root, path)):
            problems.append(f"docs/extending.md names {path}, which does not exist")
    headers = "".join(open(os.path.join(root, h), encoding="utf-8").read() for h in FAMILY_STRUCTS)
    for name in sorted(set(re.findall(r"`(ios_\w+_policy_t)`", doc))):
        if not re.search(r"\}\s*" + name + r"\s*;", headers):
            problems.append(f"docs/extending.md names {name}, which no family header defines")

    # 2. every member documented
    fields = documented_fields(doc)
    if fields is None:
        problems.append("docs/extending.md has no section \"### Every field of the family structs\"")
    else:
        for header, structs in FAMILY_STRUCTS.items():
            with open(os.path.join(root, header), encoding="utf-8") as f:
                text = f.read()
            for st in structs:
                for member in struct_members(text, st):
                    if member not in fields:
                        problems.append(f"{st}.{member} ({header}) has no row in \"Every field of the family "
                                        "structs\" of docs/extending.md")

    # 1. the example compiles and decides as computed by hand
    code = example_block(doc)
    if code is None:
        problems.append("docs/extending.md has no ```c block under \"### A complete example\"")
    else:
        if "const ios_sharing_policy_t ios_sharing_srpt" not in code:
            problems.append("the example does not define ios_sharing_srpt, the name the text gives")
        with tempfile.TemporaryDirectory(prefix="iosim-extending-") as tmp:
            src, main_c, exe = (os.path.join(tmp, n) for n in ("srpt.c", "main.c", "check"))
            with open(src, "w") as f:
                f.write(code)
            with open(main_c, "w") as f:
                f.write(MAIN_C)
            inc = [f"-I{os.path.join(root, d)}" for d in ("policies/sharing", "policies", "src/base", "src/model")]
            cmd = [args.cc, "-std=c11", "-Wall", "-Wextra", "-Werror", *inc, src, main_c, "-o", exe]
            cc = subprocess.run(cmd, capture_output=True, text=True)
            if cc.returncode != 0:
                problems.append("the example does not compile:\n" + cc.stderr)
            else:
                run = subprocess.run([exe], capture_output=True, text=True)
                if run.returncode != 0 or run.stdout != EXPECTED:
                    problems.append(f"the example decides {run.stdout!r} (exit {run.returncode}), the text says "
                                    f"{EXPECTED!r}")
    for p in problems:
        print(f"FAIL {p}")
    print("docs/extending.md matches the code" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
