// An op spelled once but expanded twice (the macro uses its argument twice)
// shares one text: when both expansions run on the same stream, the text is
// rewritten once and serves both; the report lists each expansion.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

#define TWICE(...) \
  __VA_ARGS__;      \
  __VA_ARGS__

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[32] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  TWICE(inc<<<1, 32>>>(d));
  // CHECK: TWICE(inc<<<1, 32, 0, sa_stream([[S:[0-9]+]])>>>(d));
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream([[S]]));
  printf("%d\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: h is read below (written by cudaMemcpy on line 23)
  // CHECK-NEXT: printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:21:9: inc: async on stream [[S:[0-9]+]], waited for before line 25
// REPORT-NEXT: {{.*}}:21:9: inc: async on stream [[S]], waited for before line 25
