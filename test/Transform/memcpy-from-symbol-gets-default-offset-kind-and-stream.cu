// cudaMemcpyFromSymbol(dst, sym, n) gets its defaulted offset and kind
// spelled out before the stream, and the host waits before reading dst.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__device__ int hits[4];

__global__ void count() { atomicAdd(&hits[threadIdx.x % 4], 1); }

int main() {
  int h[4];
  count<<<1, 64>>>();
  cudaMemcpyFromSymbol(h, hits, sizeof h);
  // CHECK: cudaMemcpyFromSymbolAsync(h, hits, sizeof h, 0, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("%d\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpyFromSymbol on line 18)
  // CHECK-NEXT: printf("%d\n", h[0]);
  return 0;
}

// REPORT: {{.*}}:17:3: count: async on stream {{[0-9]+}}, waited for before line 20
// REPORT-NEXT: {{.*}}:18:3: cudaMemcpyFromSymbol: async on stream {{[0-9]+}}, waited for before line 20
