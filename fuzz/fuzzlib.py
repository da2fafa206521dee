"""Shared pieces of the fuzz scripts (standard library only; Python 3.8+)."""

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.dirname(HERE)

NVCC_FLAGS = ["-O2", "-arch=sm_90"]
CLANG = "/usr/lib/llvm-22/bin/clang++"


def parse_seeds(spec):
    """'A..B' (inclusive), 'A,B,C', 'N', or a mix: '0..9,42'."""
    seeds = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        if ".." in part:
            a, b = part.split("..", 1)
            seeds += list(range(int(a), int(b) + 1))
        else:
            seeds.append(int(part))
    return seeds


def find_nvcc(explicit=None):
    if explicit:
        return explicit
    for c in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if c and os.path.exists(c):
            return c
    return None


def find_clang(explicit=None):
    for c in (explicit, os.environ.get("SA_CLANGXX"), CLANG, shutil.which("clang++")):
        if c and os.path.exists(c):
            return c
    return None


def nice_prefix(enabled=True):
    return ["nice", "-n", "10"] if enabled and shutil.which("nice") else []


def run(cmd, timeout=None, env=None, cwd=None, stdin=subprocess.DEVNULL):
    """Run cmd; returns (rc, stdout, stderr).  rc is -SIGNAL when killed by a signal and
    'timeout' when it ran past the limit."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           env=env, cwd=cwd, stdin=stdin)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        err = (e.stderr or b"").decode("utf-8", "replace")
        return "timeout", out, err
    except OSError as e:
        return 127, "", str(e)


def pool_map(jobs, fn, items):
    """fn over items with `jobs` threads (each runs subprocesses); results in order."""
    items = list(items)
    if jobs <= 1:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(fn, items))


def read_header(path):
    """(version, seed, size) from a generated program's header (its main.cu for a
    program folder), or Nones."""
    if os.path.isdir(path):
        path = os.path.join(path, "main.cu")
    try:
        with open(path) as fh:
            head = fh.read(600)
    except OSError:
        return None, None, None
    m = re.search(r"GENERATOR_VERSION (\S+) seed (\d+) size (\w+)", head)
    if not m:
        return None, None, None
    return m.group(1), int(m.group(2)), m.group(3)


LAUNCH_RE = re.compile(r"\b([A-Za-z_]\w*(?:\s*<[^<>;()]*>)?)\s*<<<(.*?)>>>\s*\(")


def emu_rewrite(text):
    """Turn `k<<<cfg>>>(args)` into `sa_emu_launch(k, sa_emu_cfg(cfg), args)` (see
    fuzz/emu/cuda_runtime.h).  Works on one launch per match; the launch's own closing
    parenthesis is reused."""

    def repl(m):
        rest = text[m.end():].lstrip()
        sep = "" if rest.startswith(")") else ", "
        return "sa_emu_launch(%s, sa_emu_cfg(%s)%s" % (m.group(1), m.group(2), sep)

    return LAUNCH_RE.sub(repl, text)


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# -- programs of several translation units (generator v7) ------------------------------
# A program is either one file NAME.cu or a folder NAME/ holding main.cu, part1.cu
# [part2.cu ...] and the headers they share (parts.h); its transformed version is NAME.sa.cu
# or the folder NAME.sa/ (the tool's --out-dir).


def program_path(d, stem, suf=""):
    """The file or folder of program `stem` (suffix '' or '.sa') in d; the file form when
    neither exists."""
    folder = os.path.join(d, stem + suf)
    return folder if os.path.isdir(folder) else folder + ".cu"


def is_project(path):
    return os.path.isdir(path)


def units(path):
    """The translation units to compile and link: [path] for a file; for a folder its
    .cu files, main.cu first."""
    if not os.path.isdir(path):
        return [path]
    names = sorted(n for n in os.listdir(path) if n.endswith(".cu"))
    names.sort(key=lambda n: n != "main.cu")
    return [os.path.join(path, n) for n in names]


def project_files(path):
    """Every file of a program: [(name relative to the program, path)], main.cu first."""
    if not os.path.isdir(path):
        return [(os.path.basename(path), path)]
    names = sorted(os.listdir(path))
    names.sort(key=lambda n: (n != "main.cu", not n.endswith(".cu")))
    return [(n, os.path.join(path, n)) for n in names if os.path.isfile(os.path.join(path, n))]


def write_project(path, files):
    """Write [(name, text)] as the program `path` (a folder; cleared first)."""
    if os.path.isdir(path):
        shutil.rmtree(path)
    os.makedirs(path)
    for name, text in files:
        with open(os.path.join(path, name), "w") as fh:
            fh.write(text)


def remove_program(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)


def emu_build(clang, srcs, exe, emu_dir, flags=()):
    """Build the units `srcs` (one program, linked together) against the CPU emulation in
    emu_dir; each unit is rewritten by emu_rewrite into EXE.uK.cpp and compiled with its
    own folder on the include path (for the `#include "parts.h"` of v7 programs).
    Returns (rc, stdout, stderr)."""
    cpps, incs = [], []
    for k, src in enumerate(srcs):
        cpp = "%s.u%d.cpp" % (exe, k)
        with open(cpp, "w") as fh:
            fh.write('#line 1 "%s"\n' % src)
            fh.write(emu_rewrite(open(src).read()))
        cpps.append(cpp)
        inc = os.path.dirname(os.path.abspath(src))
        if inc not in incs:
            incs.append(inc)
    cmd = [clang, "-std=c++17", "-x", "c++", "-O1", "-w", "-I", emu_dir]
    for inc in incs:
        cmd += ["-iquote", inc]
    rc, so, se = run(cmd + list(flags) + cpps + ["-o", exe])
    for cpp in cpps:
        os.remove(cpp)
    return rc, so, se
