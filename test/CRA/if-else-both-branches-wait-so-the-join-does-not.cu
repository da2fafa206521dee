// Both branches read the copied-back buffer and wait inside (their
// single-statement bodies are put in braces): every path into the join has
// waited, so the read after the if needs no second wait.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *x, float f) { x[threadIdx.x] *= f; }

int main(int argc, char **argv) {
  float *h = (float *)calloc(32, sizeof(float)), *d;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemcpy(d, h, 32 * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<1, 32>>>(d, 2.0f);
  cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  if (argc > 1)
    printf("first %f\n", h[0]);
  // CHECK: if (argc > 1) {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: printf("first %f\n", h[0]);
  // CHECK-NEXT: }
  else
    printf("last %f\n", h[31]);
  // CHECK: else {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: printf("last %f\n", h[31]);
  // CHECK-NEXT: }
  printf("sum %f\n", h[0] + h[31]);
  // CHECK: printf("sum %f\n", h[0] + h[31]);
  cudaFree(d);
  free(h);
  return 0;
}
