// Launches of a kernel template, with explicit template arguments or with
// deduced ones, get the stream like any other launch.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

template <typename T> __global__ void scale(T *x, T k) { x[threadIdx.x] *= k; }

int main() {
  float h[32], *d;
  for (int i = 0; i < 32; ++i)
    h[i] = 1.0f;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<float><<<1, 32>>>(d, 2.0f);
  // CHECK: scale<float><<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d, 2.0f);
  scale<<<1, 32>>>(d, 3.0f);
  // CHECK: scale<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d, 3.0f);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 23)
  // CHECK-NEXT: printf("%f\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:19:3: scale: async on stream {{[0-9]+}}, waited for before line 24
// REPORT-NEXT: {{.*}}:21:3: scale: async on stream {{[0-9]+}}, waited for before line 24
