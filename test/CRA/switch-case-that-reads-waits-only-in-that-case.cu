// A copy pending before a switch: only the case that reads it waits, after
// its label, so the jump from the switch head and the fallthrough from the
// case above both pass the wait; the other cases keep the copy running. After
// the switch the copy may still be pending (the other cases), so the read
// there waits.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void fill(int *x) { x[threadIdx.x] = threadIdx.x; }

int main(int argc, char **argv) {
  int *h = (int *)calloc(32, sizeof(int)), *d;
  cudaMalloc(&d, 32 * sizeof(int));
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  switch (argc) {
  case 1:
    printf("one argument\n");
  // CHECK: case 1:
  // CHECK-NEXT: printf("one argument\n");
    break;
  case 2:
    printf("two arguments\n");
    [[fallthrough]];
  case 3:
    printf("%d\n", h[3]);
  // CHECK: case 3:
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: printf("%d\n", h[3]);
    break;
  default:
    printf("many arguments\n");
  }
  printf("%d\n", h[31]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: printf("%d\n", h[31]);
  cudaFree(d);
  free(h);
  return 0;
}
