// A `continue` inside a branch waits for the ops its iteration enqueued,
// right before the `continue` (the single-statement body is put in braces);
// iterations that do not continue go on to the copy and wait before the read.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void step(int *x) { x[threadIdx.x] += 1; }

int main(int argc, char **argv) {
  int *h = (int *)calloc(32, sizeof(int)), *d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemset(d, 0, 32 * sizeof(int));
  for (int it = 0; it < 10; ++it) {
    step<<<1, 32>>>(d);
    if (it % 3 == argc)
      continue;
  // CHECK: if (it % 3 == argc) {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the loop or switch
  // CHECK-NEXT: continue;
  // CHECK-NEXT: }
    cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d: %d\n", it, h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: printf("%d: %d\n", it, h[0]);
  }
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemset on line {{[0-9]+}})
  // CHECK-NEXT: cudaFree(d);
  free(h);
  return 0;
}
