#!/usr/bin/env python3
"""Put several fuzz programs into one translation unit, so that one nvcc call parses the
CUDA and C++ headers once for all of them (fuzz/run-gpu builds its programs this way).

    fuzz/bundle.py -o BUNDLE.cu NAME=FILE.cu [NAME=FILE.cu ...]
    fuzz/bundle.py --project -o PREFIX NAME=FOLDER [NAME=FOLDER ...]
    BUNDLE NAME          runs the program NAME (one program per process, as before)

--project bundles programs of several translation units (folders, fuzz generator v7) unit
by unit: PREFIX-main.cu, PREFIX-part1.cu, ..., to be compiled and linked together (see
make_project_bundle).

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


def split(text, mains_wanted=1):
    """(includes, body_lines, macros, reason): the member's top-level include lines, its
    text with those lines blanked and main renamed, the macros it defines; reason is None
    when it can be bundled, else why not.  mains_wanted: definitions of main it must have
    (0 for the other units of a program of several units)."""
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
    if mains != mains_wanted:
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
    return _bundle([(name, path, text, k) for k, (name, path, text) in enumerate(members)],
                   True)


# -- programs of several translation units (fuzz generator v7) ---------------------------
# Such a program is a folder: main.cu, part1.cu [part2.cu ...] and the headers they share
# (parts.h).  A bundle of them is one translation unit per unit name: main.cu of every
# member in bundle "main.cu" (with the dispatcher), part1.cu of every member in bundle
# "part1.cu", ...; member k is namespace fz_k in each, so its units still call each other
# (fz_k::helper1 is declared in main.cu's bundle and defined in part1.cu's) and the bundles
# are linked together, as the units are.  A header of the member's own folder is pasted
# where it is included (inside the namespace), not moved to the top.

LOCAL_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"/]+)"\s*(//.*)?$')
PRAGMA_ONCE_RE = re.compile(r"^\s*#\s*pragma\s+once\b")


def inline_local_headers(text, folder, path):
    """text with each `#include "H"` of a header H in folder replaced by H's lines
    (without #pragma once), followed by a #line back to `path`."""
    out = []
    for no, line in enumerate(text.split("\n"), 1):
        m = LOCAL_INCLUDE_RE.match(line)
        if m and os.path.isfile(os.path.join(folder, m.group(1))):
            hdr = os.path.join(folder, m.group(1))
            out.append('#line 1 "%s"' % hdr)
            out += ["" if PRAGMA_ONCE_RE.match(h) else h
                    for h in open(hdr).read().rstrip("\n").split("\n")]
            out.append('#line %d "%s"' % (no + 1, path))
            continue
        out.append(line)
    return "\n".join(out)


def project_units(folder):
    """{unit file name: text} of a program folder (its .cu files)."""
    return {n: open(os.path.join(folder, n)).read()
            for n in sorted(os.listdir(folder)) if n.endswith(".cu")}


def project_bundleable(folder):
    """None when the program folder can go into a project bundle, else why not."""
    for unit, text in project_units(folder).items():
        why = split(inline_local_headers(text, folder, os.path.join(folder, unit)),
                    1 if unit == "main.cu" else 0)[3]
        if why:
            return "%s: %s" % (unit, why)
    return None


def make_project_bundle(members):
    """members: [(name, folder)].  Returns {unit file name: bundle text}; compile and link
    all of them into one executable, run as `EXE NAME`."""
    names = sorted({u for _, f in members for u in project_units(f)},
                   key=lambda u: (u != "main.cu", u))
    out = {}
    for unit in names:
        wrapped = []
        for k, (name, folder) in enumerate(members):
            path = os.path.join(folder, unit)
            if os.path.exists(path):
                text = inline_local_headers(open(path).read(), folder, path)
                wrapped.append((name, path, text, k))
        out[unit] = _bundle(wrapped, unit == "main.cu")
    return out


def _bundle(wrapped, with_main):
    """One bundle translation unit of (name, path, text, namespace index) members."""
    includes, parts, table = [], [], []
    for name, path, text, k in wrapped:
        inc, body, macros, why = split(text, 1 if with_main else 0)
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
            % len(wrapped)]
    head += includes
    head += ["#include <cstdio>", "#include <cstring>", ""]
    if not with_main:
        return "\n".join(head) + "\n" + "".join(parts)
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
    ap.add_argument("--project", action="store_true",
                    help="the members are program folders; -o is a prefix")
    a = ap.parse_args()
    if a.project:
        members = []
        for m in a.members:
            name, sep, path = m.partition("=")
            if not sep:
                name, path = os.path.basename(m.rstrip("/")), m
            members.append((name, path))
        try:
            texts = make_project_bundle(members)
        except ValueError as e:
            print("bundle.py: %s" % e, file=sys.stderr)
            return 1
        for unit, text in texts.items():
            with open("%s-%s" % (a.output, unit), "w") as fh:
                fh.write(text)
        return 0
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
