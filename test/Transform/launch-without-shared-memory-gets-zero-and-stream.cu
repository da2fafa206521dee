// `k<<<g, b>>>` has no shared-memory argument to put the stream after: the
// tool adds both, `k<<<g, b, 0, stream>>>`.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(int *x, int v) { x[threadIdx.x] = v; }

int main() {
  int h[64], *d;
  cudaMalloc(&d, sizeof h);
  dim3 grid(2), block(32);
  fill<<<grid, block>>>(d, 7);
  // CHECK: fill<<<grid, block, 0, sa_stream({{[0-9]+}})>>>(d, 7);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("%d\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 19)
  // CHECK-NEXT: printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:17:3: fill: async on stream {{[0-9]+}}, waited for before line 21
