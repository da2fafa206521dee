// `while (residual > eps)` reads a scalar that the body copies back every
// iteration. The condition is never split: the copy made before the loop is
// waited for before the loop, and the body waits at its end for the copy it
// made, before the condition runs again. The host work in the body overlaps.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void relax(float *x, float *residual) {
  x[threadIdx.x] *= 0.5f;
  if (threadIdx.x == 0)
    *residual = x[0];
}

int main() {
  float h[32], *d, *d_res, residual = 0.0f;
  for (int i = 0; i < 32; ++i)
    h[i] = 1.0f;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&d_res, sizeof(float));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  relax<<<1, 32>>>(d, d_res);
  cudaMemcpy(&residual, d_res, sizeof(float), cudaMemcpyDeviceToHost);
  int iterations = 0;
  while (residual > 1e-3f) {
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: residual is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: while (residual > 1e-3f) {
    relax<<<1, 32>>>(d, d_res);
    cudaMemcpy(&residual, d_res, sizeof(float), cudaMemcpyDeviceToHost);
    ++iterations;
  // CHECK: ++iterations;
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work started in this block
  // CHECK-NEXT: }
  }
  printf("%d iterations, residual %g\n", iterations, residual);
  cudaFree(d);
  cudaFree(d_res);
  return 0;
}
