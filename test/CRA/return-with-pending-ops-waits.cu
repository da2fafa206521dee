// Control leaves the function with GPU work pending: the host waits right
// before the `return`, after the host work that does not touch the data.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void clear(int *x) { x[threadIdx.x] = 0; }

int reset(int *d, int n) {
  clear<<<1, 32>>>(d);
  // CHECK: clear<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  int blocks = (n + 31) / 32;
  // CHECK: int blocks = (n + 31) / 32;
  return blocks;
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the function
  // CHECK-NEXT: return blocks;
}

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  printf("%d\n", reset(d, 32));
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:18: wait (leaves-function) for line 14: finish GPU work before leaving the function
