// nvcc lets host code call CUDA's min/max overloads; Clang makes them
// device-only. The prelude's host overloads have nvcc's result types (the
// static_asserts hold under both compilers: the output is compiled by nvcc).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu -- -std=c++17
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <type_traits>

static_assert(std::is_same_v<decltype(min(1, 2)), int>);
static_assert(std::is_same_v<decltype(max(1, 2u)), unsigned>);
static_assert(std::is_same_v<decltype(min(1L, 2UL)), unsigned long>);
static_assert(std::is_same_v<decltype(max(1.f, 2.f)), float>);
static_assert(std::is_same_v<decltype(min(1.f, 2.0)), double>);

__global__ void scale(float *p, int n) { p[threadIdx.x] *= min(n, 4); }

int main(int argc, char **) {
  float h[32] = {1}, *d;
  int n = max(argc, 2);
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<1, min(n, 32)>>>(d, n);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f %u\n", h[0], max(n, 3u));
  cudaFree(d);
}

// CHECK: {{ *}}scale<<<1, min(n, 32), 0, sa_stream(0)>>>(d, n);
