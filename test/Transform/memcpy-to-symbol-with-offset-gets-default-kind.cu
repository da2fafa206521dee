// With an explicit offset but the kind defaulted, only the kind is spelled
// out before the stream.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

__device__ int table[16];

__global__ void sum(int *out) {
  int s = 0;
  for (int i = 0; i < 16; ++i)
    s += table[i];
  *out = s;
}

int main() {
  int h[8] = {1, 1, 1, 1, 1, 1, 1, 1}, *d, r;
  cudaMalloc(&d, sizeof(int));
  cudaMemcpyToSymbol(table, h, sizeof h, 8 * sizeof(int));
  // CHECK: cudaMemcpyToSymbolAsync(table, h, sizeof h, 8 * sizeof(int), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  sum<<<1, 1>>>(d);
  cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost);
  printf("%d\n", r);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: r is read below (written by cudaMemcpy on line 25)
  // CHECK-NEXT: printf("%d\n", r);
  cudaFree(d);
  return 0;
}
