#!/usr/bin/env python3
"""Writes one CUDA program whose main() holds N GPU ops and N/40 explicit syncs.

  bench/scaling/gen.py N [-o FILE]

The ops cycle over 16 host/device buffer pairs (copy in, kernel, copy out), a
host statement reads a result after every sync, so the tool has real waits,
dependencies and redundancy decisions to make at every size.
"""
import argparse
import sys

BUFFERS = 16


def program(n):
    out = ["#include <cstdio>", "#include <cstdlib>", "#include <cuda_runtime.h>", "",
           "__global__ void scale(float *d, int n, float f) {",
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
           "  if (i < n)",
           "    d[i] *= f;",
           "}", "",
           "int main() {",
           "  const int n = 1 << 12;",
           "  const size_t bytes = n * sizeof(float);",
           "  float sum = 0;"]
    for b in range(BUFFERS):
        out += [f"  float *h{b} = (float *)malloc(bytes);",
                f"  for (int i = 0; i < n; ++i)",
                f"    h{b}[i] = i + {b};",
                f"  float *d{b};",
                f"  cudaMalloc(&d{b}, bytes);"]
    steps = ("  cudaMemcpy(d{b}, h{b}, bytes, cudaMemcpyHostToDevice);",
             "  scale<<<(n + 255) / 256, 256>>>(d{b}, n, 1.5f);",
             "  cudaMemcpy(h{b}, d{b}, bytes, cudaMemcpyDeviceToHost);")
    for i in range(n):
        b = (i // 3) % BUFFERS
        out.append(steps[i % 3].format(b=b))
        if (i + 1) % 40 == 0:
            out.append("  cudaDeviceSynchronize();")
            out.append(f"  sum += h{b}[{i % 7}];")
    out.append('  printf("%f\\n", sum);')
    for b in range(BUFFERS):
        out += [f"  cudaFree(d{b});", f"  free(h{b});"]
    out += ["  return 0;", "}", ""]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="GPU ops in main()")
    parser.add_argument("-o", "--output", help="file to write (default: stdout)")
    opts = parser.parse_args()
    text = program(opts.n)
    if opts.output:
        with open(opts.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
