// CUDA 13 code calls nvcc's __nv_atomic_* builtins with the __NV_ATOMIC_* and
// __NV_THREAD_SCOPE_* constants; Clang declares none of them, the prelude does.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void bump(int *p) {
  int old = __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_add(p + 1, old, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_store_n(p + 2, old, __NV_ATOMIC_RELEASE);
}

int main() {
  int h[3] = {1, 2, 3}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  bump<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[1], h[2]);
  cudaFree(d);
}

// CHECK: {{ *}}bump<<<1, 1, 0, sa_stream(0)>>>(d);
