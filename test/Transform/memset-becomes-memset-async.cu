// cudaMemset becomes cudaMemsetAsync with the stream as its fourth argument;
// a later copy of the same buffer stays ordered after it on the GPU.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

int main() {
  int h[16], *d;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  // CHECK: cudaMemsetAsync(d, 0, sizeof h, sa_stream({{[0-9]+}}));
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("%d\n", h[3]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 16)
  // CHECK-NEXT: printf("%d\n", h[3]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:14:3: cudaMemset: async on stream {{[0-9]+}}, waited for before line 18
