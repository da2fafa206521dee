// nvcc defines __NVCC__ and programs test it to pick CUDA over HIP; the tool
// defines it too (in its prelude), and nothing of the prelude reaches the
// output.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s --implicit-check-not=__STREAMALLOC --implicit-check-not=__NV_ATOMIC_RELAXED < %t.out.cu
// RUN: %nvcc %t.out.cu
#ifdef __NVCC__
#include <cuda_runtime.h>
#else
#include <hip/hip_runtime.h>
#endif
#include <cstdio>

__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  int h[32], *d;
  cudaMalloc(&d, sizeof h);
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[31]);
  cudaFree(d);
}

// CHECK: {{ *}}cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream(0));
