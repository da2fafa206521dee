#!/usr/bin/env python3
"""Put several fuzz programs into one translation unit, so that one nvcc call parses the
CUDA and C++ headers once for all of them (fuzz/run-gpu builds its programs this way).

    fuzz/bundle.py -o BUNDLE.cu NAME=FILE.cu [NAME=FILE.cu ...]
    BUNDLE NAME          runs the program NAME (one program per process, as before)

Each member keeps its own meaning:
  * its `#include <...>` / `#include "..."` lines (outside any #if) move to the top of the
    bundle, in first-seen order; the line stays, blank, so line numbers do not move;
  * the rest goes inside `namespace fz_<k> { ... }`, after `#line 1 "FILE.cu"` so that
    diagnostics and __FILE__/__LINE__ name the member file exactly as a single build does;
  * its `int main()` becomes `int fz_main()`; the bundle's own `main(argc, argv)` calls
    the member named on the command line, and returns what it returns (exit() and
    static destructors behave as in a single build, since one process runs one member);
  * every macro the member #defines is #undef'd after it, so members cannot see each
    other's CHECK / SYM_N / ... definitions.
A member that cannot be wrapped (no or several `int main()`, a directive this does not
understand at the top level, `extern "C"`, a global `operator new`, ...) is refused with a
reason; the caller builds it on its own instead (see `bundleable`).
"""

import argparse
import os
import re
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"][^>"]+[>"])\s*(//.*)?$')
DEFINE_RE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)")
COND_OPEN_RE = re.compile(r"^\s*#\s*if")
COND_CLOSE_RE = re.compile(r"^\s*#\s*endif")
MAIN_RE = re.compile(r"^(\s*(?:static\s+)?int\s+)main(\s*\(\s*(?:void)?\s*\))")
# things whose meaning changes (or that stop compiling) inside a namespace
UNWRAPPABLE = [
    (re.compile(r'\bextern\s+"C'), 'extern "C" (linkage names would collide)'),
    (re.compile(r"\boperator\s+(new|delete)\b"), "replaces a global operator new/delete"),
    (re.compile(r"^\s*#\s*pragma\s+once"), "#pragma once"),
    (re.compile(r"\bfz_(main|members?\b|\d)"), "uses the bundle's own names (fz_...)"),
]


def split(text):
    """(includes, body_lines, macros, reason): the member's top-level include lines, its
    text with those lines blanked and main renamed, the macros it defines; reason is None
    when it can be bundled, else why not."""
    includes, body, macros = [], [], []
    depth = 0
    mains = 0
    cont = False  # inside a backslash-continued directive
    for line in text.split("\n"):
        if cont:
            body.append(line)
            cont = line.endswith("\\")
            continue
        for pat, why in UNWRAPPABLE:
            if pat.search(line):
                return None, None, None, why
        m = INCLUDE_RE.match(line)
        if m and depth == 0:
            includes.append("#include %s" % m.group(1))
            body.append("")
            continue
        if m:
            return None, None, None, "#include inside #if"
        if COND_OPEN_RE.match(line):
            depth += 1
        elif COND_CLOSE_RE.match(line):
            depth -= 1
        d = DEFINE_RE.match(line)
        if d and d.group(1) not in macros:
            macros.append(d.group(1))
        mm = MAIN_RE.match(line)
        if mm:
            mains += 1
            line = mm.group(1) + "fz_main" + line[mm.start(2):]
        cont = line.lstrip().startswith("#") and line.endswith("\\")
        body.append(line)
    if mains != 1:
        return None, None, None, "%d definitions of int main()" % mains
    if depth != 0:
        return None, None, None, "unbalanced #if/#endif"
    return includes, body, macros, None


def bundleable(text):
    """None when the program can go into a bundle, else the reason it cannot."""
    return split(text)[3]


def make_bundle(members):
    """members: [(name, path, text)]; name is what the bundle is run with (argv[1]).
    Returns the bundle's source text.  Raises ValueError for a member that cannot be
    bundled (check with `bundleable` first)."""
    includes = []
    parts = []
    table = []
    for k, (name, path, text) in enumerate(members):
        inc, body, macros, why = split(text)
        if why:
            raise ValueError("%s: %s" % (path, why))
        for i in inc:
            if i not in includes:
                includes.append(i)
        ns = "fz_%d" % k
        parts.append('namespace %s {\n#line 1 "%s"\n%s\n}  // namespace %s\n'
                     % (ns, path.replace("\\", "\\\\").replace('"', '\\"'), "\n".join(body), ns))
        for m in macros:
            parts.append("#undef %s\n" % m)
        table.append('  {"%s", %s::fz_main},' % (name, ns))
    head = ["// fuzz/bundle.py: %d programs in one translation unit; run as `EXE NAME`."
            % len(members)]
    head += includes
    head += ["#include <cstdio>", "#include <cstring>", ""]
    tail = ["", "struct fz_member { const char *name; int (*run)(); };",
            "static const fz_member fz_members[] = {"] + table + ["};", "",
            "int main(int argc, char **argv) {",
            "  if (argc == 2)",
            "    for (const fz_member &m : fz_members)",
            "      if (std::strcmp(m.name, argv[1]) == 0) return m.run();",
            '  std::fprintf(stderr, "usage: %s NAME (one of the bundled programs)\\n", argv[0]);',
            "  return 125;",
            "}", ""]
    return "\n".join(head) + "\n" + "".join(parts) + "\n".join(tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("members", nargs="+", metavar="NAME=FILE")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    members = []
    for m in a.members:
        name, sep, path = m.partition("=")
        if not sep:
            name, path = os.path.basename(m)[:-3], m
        members.append((name, path, open(path).read()))
    try:
        text = make_bundle(members)
    except ValueError as e:
        print("bundle.py: %s" % e, file=sys.stderr)
        return 1
    with open(a.output, "w") as fh:
        fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
