// cudaDeviceReset destroys the context the pool's streams belong to: pending
// work is waited for and the pool released just before it, and a later
// launch creates a fresh stream in the new context.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize --implicit-check-not='sa_release_streams();'
// RUN: %nvcc %t.out.cu
#include <cstdio>
// CHECK: static inline void sa_release_streams() {

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  inc<<<1, 32>>>(d);
  // CHECK: inc<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by kernel `inc` on line 17)
  // CHECK-NEXT: cudaFree(d);
  cudaDeviceReset();
  // CHECK: sa_release_streams();  // streamalloc: release the streams before CUDA shuts down
  // CHECK-NEXT: cudaDeviceReset();
  cudaMalloc(&d, 32 * sizeof(int));
  inc<<<1, 32>>>(d);
  // CHECK: inc<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by kernel `inc` on line 26)
  // CHECK-NEXT: cudaFree(d);
  return 0;
  // CHECK: sa_release_streams();  // streamalloc: release the streams before CUDA shuts down
  // CHECK-NEXT: return 0;
}
