#!/usr/bin/env python3
"""Builds and runs original vs transformed CUDA programs on a GPU machine.

usage: compare-on-gpu.py --out DIR [--runs N] ORIGINAL.cu=TRANSFORMED.cu ...

For each pair: compiles both with nvcc (in parallel), runs them N times in
alternating order with CUDA_MODULE_LOADING=EAGER, checks that stdout and the
exit code are identical, and writes a Markdown table of median wall times to
DIR/examples.md (and prints it).
"""
import argparse
import concurrent.futures
import os
import statistics
import subprocess
import sys
import time

NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")


def build(src, exe):
    cmd = [NVCC, "-O2", "-arch=sm_90", "-std=c++17", "-o", exe, src]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"build failed: {' '.join(cmd)}\n{r.stderr}")


def run(exe):
    env = dict(os.environ, CUDA_MODULE_LOADING="EAGER")
    env.pop("CUDA_LAUNCH_BLOCKING", None)
    t = time.perf_counter()
    r = subprocess.run([exe], capture_output=True, text=True, env=env)
    return time.perf_counter() - t, r.stdout, r.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("pairs", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    work = os.path.join("/tmp", "compare-on-gpu")
    os.makedirs(work, exist_ok=True)
    jobs = []
    for pair in a.pairs:
        orig, new = pair.split("=")
        name = os.path.splitext(os.path.basename(orig))[0]
        jobs.append((name, orig, new, os.path.join(work, name + ".orig"), os.path.join(work, name + ".sa")))
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda j: build(*j), [(o, oe) for _, o, _, oe, _ in jobs] + [(n, ne) for _, _, n, _, ne in jobs]))

    rows, ok = [], True
    for name, _, _, oe, ne in jobs:
        times = {oe: [], ne: []}
        outs = {}
        for i in range(a.runs):
            for exe in ((oe, ne) if i % 2 == 0 else (ne, oe)):
                dt, out, rc = run(exe)
                times[exe].append(dt)
                outs.setdefault(exe, set()).add((out, rc))
        same = outs[oe] == outs[ne] and len(outs[oe]) == 1
        ok &= same
        mo, mn = statistics.median(times[oe]), statistics.median(times[ne])
        rows.append(f"| {name} | {mo:.3f} | {mn:.3f} | {mo / mn:.2f}x | {'identical' if same else 'DIFFERENT'} |")
    table = "| program | original (s) | transformed (s) | speed-up | output |\n|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    with open(os.path.join(a.out, "examples.md"), "w") as f:
        f.write(table)
    print(table)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
