// A wait for a conflict syncs only the streams of the conflicting ops; a
// return right after it must still wait for the ops on the other streams
// (here a copy into a stack array that dies with the function). Found by
// fuzz/defer-check (seed 89) once the read/write analysis told the two
// copies apart.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

static float first(const float *d1, const float *d2) {
  float a[32], b[32];
  cudaMemcpy(a, d1, sizeof a, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(a, d1, sizeof a, cudaMemcpyDeviceToHost, sa_stream([[A:[0-9]+]]));
  cudaMemcpy(b, d2, sizeof b, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(b, d2, sizeof b, cudaMemcpyDeviceToHost, sa_stream([[B:[0-9]+]]));
  return a[0];
  // CHECK: cudaStreamSynchronize(sa_stream([[A]]));  // streamalloc: a is read below (written by cudaMemcpy on line 15)
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream([[B]]));  // streamalloc: finish GPU work before leaving the function
  // CHECK-NEXT: return a[0];
}

int main() {
  float *d1, *d2;
  cudaMalloc(&d1, 32 * sizeof(float));
  cudaMalloc(&d2, 32 * sizeof(float));
  cudaMemset(d1, 0, 32 * sizeof(float));
  cudaMemset(d2, 0, 32 * sizeof(float));
  printf("%f\n", first(d1, d2));
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: d1 is read below (written by cudaMemset on line 29)
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream(1));  // streamalloc: d1 is read below (written by cudaMemset on line 29)
  // CHECK-NEXT: printf("%f\n", first(d1, d2));
  cudaFree(d1);
  cudaFree(d2);
  return 0;
}
