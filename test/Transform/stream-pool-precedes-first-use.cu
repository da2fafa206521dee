// When a function that uses the pool comes before a later #include, the
// pool goes after the last #include that precedes the first use, not after
// the last #include of the file.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not='streamalloc: blocking'
// RUN: %nvcc %t.out.cu
#include <cstdio>
// CHECK: #include <cstdio>
// CHECK: // streamalloc: blocking CUDA streams for the work made asynchronous below, created
// CHECK: static inline cudaStream_t sa_stream(int i) {

__global__ void twice(int *x) { x[threadIdx.x] *= 2; }

void run(int *d, int *h) {
  // CHECK-LABEL: void run(int *d, int *h) {
  twice<<<1, 32>>>(d);
  // CHECK: twice<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
}

#include <cstdlib>
// CHECK: #include <cstdlib>
// CHECK-NOT: sa_streams_[

int main() {
  int h[32], *d;
  cudaMalloc(&d, sizeof h);
  run(d, h);
  cudaFree(d);
  return 0;
}
