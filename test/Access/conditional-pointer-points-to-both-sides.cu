// `c ? a : b` may point to either side: a copy through it reads both.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
#include <cstdlib>

int main(int argc, char **argv) {
  float *a = (float *)malloc(64), *b = (float *)malloc(64), *d;
  cudaMalloc(&d, 64);
  float *src = argc > 1 ? a : b;
  cudaMemcpy(d, src, 64, cudaMemcpyHostToDevice);
  // CHECK: op0 line 11:3 cudaMemcpy reads: a, b; writes: d
  return 0;
}
