// nvcc accepts the `register` storage class under C++17, where Clang makes it
// an error (-Wregister); the tool parses with -Wno-register.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu -- -std=c++17 2>&1 | count 0
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void twice(int *p) {
  register int i = threadIdx.x;
  p[i] *= 2;
}

int main() {
  register int n = 32;
  int h[32] = {1}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  twice<<<1, n>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
  cudaFree(d);
}

// CHECK: {{ *}}twice<<<1, n, 0, sa_stream(0)>>>(d);
