// `k<<<g, b, smem>>>` keeps its dynamic shared-memory size; the stream is
// added as the fourth configuration argument.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void reverse(int *x) {
  extern __shared__ int tile[];
  tile[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

int main() {
  int h[64], *d;
  for (int i = 0; i < 64; ++i)
    h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  reverse<<<1, 64, 64 * sizeof(int)>>>(d);
  // CHECK: reverse<<<1, 64, 64 * sizeof(int), sa_stream({{[0-9]+}})>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("%d\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 27)
  // CHECK-NEXT: printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:25:3: reverse: async on stream {{[0-9]+}}, waited for before line 29
