// nvcc puts CUDA 13's include/cccl on the system include path itself
// (nvcc.profile); the tool does too, so cub and thrust headers are found, and
// with __NVCC__ defined CCCL still detects Clang, not nvcc.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cub/cub.cuh>
#include <thrust/device_ptr.h>
#include <cstdio>

__global__ void sum(const int *in, int *out) {
  using Reduce = cub::BlockReduce<int, 32>;
  __shared__ typename Reduce::TempStorage tmp;
  int s = Reduce(tmp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    *out = s;
}

int main() {
  int h[32], r, *d, *o;
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&o, sizeof r);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<1, 32>>>(d, o);
  cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
  printf("%d %d\n", r, thrust::device_ptr<int>(o) != nullptr);
  cudaFree(d);
  cudaFree(o);
}

// CHECK: {{ *}}cudaMemcpyAsync(&r, o, sizeof r, cudaMemcpyDeviceToHost, sa_stream(0));
