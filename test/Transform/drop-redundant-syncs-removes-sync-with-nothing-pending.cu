// With --drop-redundant-syncs, a cudaDeviceSynchronize() at which no GPU op is
// pending is removed; a comment says why in its place.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --drop-redundant-syncs --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not='{{^ *}}cudaDeviceSynchronize'
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void fill(int *x) { x[threadIdx.x] = threadIdx.x; }

int main() {
  int h[32], *d;
  cudaMalloc(&d, sizeof h);
  cudaDeviceSynchronize();
  // CHECK: cudaMalloc(&d, sizeof h);
  // CHECK-NEXT: {{^  }}// streamalloc: removed a redundant cudaDeviceSynchronize() (no GPU op is pending here; see the report)
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[31]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:17: cudaDeviceSynchronize(): redundant, removed: no GPU op is pending here
// REPORT: note: redundant syncs were removed (--drop-redundant-syncs): timing code around them (e.g. `cudaDeviceSynchronize(); t1 = now();`) no longer waits for the GPU
