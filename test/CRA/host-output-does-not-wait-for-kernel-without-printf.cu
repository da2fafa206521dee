// PRECISION (not safety): the kernel writes through a pointer parameter, so
// its effects are Unknown, and Unknown now conflicts with "the program's
// output" too: every host printf waits for every pending op whose effects
// are Unknown (any op on a parameter), and the comment says the kernel
// "read" the output, which it does not. A kernel without printf cannot touch
// the program's output; the printf should overlap with it, and the wait
// comes at the end of the function.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void clear(int *x) { x[threadIdx.x] = 0; }

void reset(int *d) {
  clear<<<1, 32>>>(d);
  // CHECK: clear<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  printf("cleared\n");
  // CHECK: printf("cleared\n");
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before reset returns
  // CHECK-NEXT: }
}

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  reset(d);
  cudaFree(d);
  return 0;
}
