// A file that calls cudaDeviceReset keeps its allocations synchronous: the
// reset destroys the stream-ordered memory pool.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=sa_free_async
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  float *d;
  cudaMalloc(&d, 128);
  // CHECK: cudaMalloc(&d, 128);
  fill<<<1, 32>>>(d);
  cudaFree(d);
  // CHECK: cudaFree(d);
  cudaDeviceReset();
  return 0;
}

// REPORT: {{.*}}:[[#]]:3: cudaMalloc: left synchronous: not stream-ordered: the file calls cudaDeviceReset, which destroys the stream-ordered memory pool
