// An op spelled once but expanded twice (the macro uses its argument twice)
// would get two rewrites at one place: both expansions stay synchronous and
// the report says why.
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
  // CHECK: TWICE(inc<<<1, 32>>>(d));
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("%d\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 23)
  // CHECK-NEXT: printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:21:9: inc: left synchronous: it is spelled in a macro argument that is expanded more than once
// REPORT-NEXT: {{.*}}:21:9: inc: left synchronous: it is spelled in a macro argument that is expanded more than once
