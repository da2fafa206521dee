// The stream pool is emitted once, after the last top-level #include (an
// #include inside #if is not top-level), so it follows the headers and
// precedes every use.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not='streamalloc: blocking'
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>
// CHECK: #include <cstdlib>
// CHECK: // streamalloc: blocking CUDA streams for the work made asynchronous below, created
// CHECK: static inline cudaStream_t sa_stream(int i) {
// CHECK: static inline void sa_release_streams() {
// CHECK: #if 1
// CHECK-NEXT: #include <cstring>
#if 1
#include <cstring>
#endif

#define N 32

__global__ void square(float *x) { x[threadIdx.x] *= x[threadIdx.x]; }

int main() {
  float *h = (float *)malloc(N * sizeof(float)), *d;
  memset(h, 0, N * sizeof(float));
  cudaMalloc(&d, N * sizeof(float));
  cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
  square<<<1, N>>>(d);
  cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(d);
  free(h);
  return 0;
}
