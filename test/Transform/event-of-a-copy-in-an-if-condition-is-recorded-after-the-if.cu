// The event that orders a copy in an `if` condition with another stream is
// recorded after the whole `if` (after the braces put around a branch that
// waits): the branches hold no GPU work, so nothing is queued in between.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void scale(float *d) { d[threadIdx.x] *= 2.0f; }
__global__ void add(float *d, const float *e) { d[threadIdx.x] += e[threadIdx.x]; }

int main() {
  float h1[32] = {1}, h2[32] = {2}, *d1, *d2;
  cudaMalloc(&d1, sizeof h1);
  cudaMalloc(&d2, sizeof h2);
  float g[32];
  cudaMemset(d2, 0, sizeof h2);
  cudaMemcpy(g, d2, sizeof g, cudaMemcpyDeviceToHost);
  if (cudaMemcpy(d1, h1, sizeof h1, cudaMemcpyHostToDevice) != cudaSuccess)
    printf("upload failed %f\n", g[0]);
  // CHECK: if (cudaMemcpyAsync(d1, h1, sizeof h1, cudaMemcpyHostToDevice, sa_stream(1)) != cudaSuccess) {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream(0));  // streamalloc: g is read below (written by cudaMemcpy on line 20)
  // CHECK-NEXT: printf("upload failed %f\n", g[0]);
  // CHECK-NEXT: }
  // CHECK-NEXT: cudaEventRecord(sa_event(0), sa_stream(1));  // streamalloc: marks the end of cudaMemcpy for another stream
  cudaMemcpy(d2, h2, sizeof h2, cudaMemcpyHostToDevice);
  scale<<<1, 32>>>(d2);
  // CHECK: cudaStreamWaitEvent(sa_stream([[#S:]]), sa_event(0), 0);  // streamalloc: order after cudaMemcpy on line 21 (another stream)
  // CHECK-NEXT: add<<<1, 32, 0, sa_stream([[#S]])>>>(d2, d1);
  add<<<1, 32>>>(d2, d1);
  cudaMemcpy(h2, d2, sizeof h2, cudaMemcpyDeviceToHost);
  printf("%f %f\n", h2[0], g[1]);
  cudaFree(d1);
  cudaFree(d2);
  return 0;
}
