// Math functions (C and std::) touch no memory: host work that only computes
// with them overlaps a pending copy.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cmath>
#include <cstdio>

int main() {
  float h[64] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  double x = sqrt(2.0) + std::exp(1.0) + fabs(-3.0) + pow(2.0, 8.0) + std::tanh(0.5) + floor(2.5);
  // CHECK: double x = sqrt(2.0) + std::exp(1.0) + fabs(-3.0) + pow(2.0, 8.0) + std::tanh(0.5) + floor(2.5);
  printf("%f %f\n", x, h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 14)
  // CHECK-NEXT: printf("%f %f\n", x, h[0]);
  cudaFree(d);
  return 0;
}
