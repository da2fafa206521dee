// Error, device and timing queries touch only what their out-parameters
// point to: a pending copy into `h` does not wait for them.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

int main() {
  float h[16], *d, ms = 0;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaMalloc(&d, sizeof h);
  cudaEventRecord(start);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  cudaEventRecord(stop);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cudaError_t err = cudaGetLastError();
  printf("%s %s\n", prop.name, cudaGetErrorString(err));
  // CHECK: printf("%s %s\n", prop.name, cudaGetErrorString(err));
  cudaEventSynchronize(stop);
  // CHECK: cudaEventSynchronize(stop);
  cudaEventElapsedTime(&ms, start, stop);
  printf("%f %f\n", ms, h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 17)
  // CHECK-NEXT: printf("%f %f\n", ms, h[0]);
  cudaFree(d);
  return 0;
}
