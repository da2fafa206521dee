// --stream-ordered-alloc=off keeps every cudaMalloc and cudaFree as it was:
// the release of a buffer a pending kernel writes waits for it first.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --stream-ordered-alloc=off
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=MallocAsync --implicit-check-not=sa_free_async
// RUN: %streamalloc --profitability=off %t.cu -o %t.on.cu --stream-ordered-alloc=on
// RUN: %FileCheck %s --check-prefix=ON < %t.on.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  float *d;
  cudaMalloc(&d, 128);
  // CHECK: cudaMalloc(&d, 128);
  // ON: cudaMallocAsync(&d, 128, sa_stream(0));
  fill<<<1, 32>>>(d);
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: d is written below (written by kernel `fill` on line [[#]])
  // CHECK-NEXT: cudaFree(d);
  // ON: sa_free_async(d, sa_stream(0));
  return 0;
}
