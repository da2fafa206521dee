// An allocation in an `if` condition (its result is tested right there)
// stays synchronous, and so does the release of its buffer, which waits for
// the kernel as before; the report says why.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  float *d;
  if (cudaMalloc(&d, 128) != cudaSuccess) {
    printf("out of memory\n");
    return 1;
  }
  // CHECK: if (cudaMalloc(&d, 128) != cudaSuccess) {
  fill<<<1, 32>>>(d);
  printf("launched\n");
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by kernel `fill` on line [[#]])
  // CHECK-NEXT: cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:[[#]]:7: cudaMalloc: left synchronous: not stream-ordered: its cudaMalloc on line [[#]] stays synchronous: not a statement of its own in a block {{.*}}
// REPORT: {{.*}}:[[#]]:3: cudaFree: left synchronous: not stream-ordered: its cudaMalloc on line [[#]] stays synchronous: {{.*}}
