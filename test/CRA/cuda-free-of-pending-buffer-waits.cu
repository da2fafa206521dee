// cudaFree() of a device buffer that a pending kernel still writes: the host
// waits right before the cudaFree, after the unrelated host work.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void scratch(float *tmp) { tmp[threadIdx.x] = threadIdx.x * 0.5f; }

int main() {
  float *d;
  cudaMalloc(&d, 32 * sizeof(float));
  scratch<<<1, 32>>>(d);
  // CHECK: scratch<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  printf("launched\n");
  // CHECK: printf("launched\n");
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by kernel `scratch` on line 16)
  // CHECK-NEXT: cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:20: wait (conflict) for line 16: d is written below (written by kernel `scratch` on line 16)
