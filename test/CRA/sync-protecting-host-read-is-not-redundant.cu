// A cudaDeviceSynchronize() that completes a copy whose result the host reads
// next is needed: without it the tool would have to wait there itself. It is
// reported as needed and kept, though redundant syncs are removed by default.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=cudaStreamSynchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(int *x) { x[threadIdx.x] = threadIdx.x; }

int main() {
  int h[32], *d;
  cudaMalloc(&d, sizeof h);
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: {{^  }}cudaDeviceSynchronize();
  printf("%d\n", h[31]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:19: cudaDeviceSynchronize(): needed: without it the tool would wait before line 22: h is read below (written by cudaMemcpy on line 18)
// REPORT-NOT: note: redundant syncs
