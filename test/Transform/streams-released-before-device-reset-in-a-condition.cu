// Found by the differential fuzzer (seeds 127 and 166, generator 1): with
// cudaDeviceReset in an if condition, the pool was released only after the
// reset had destroyed its streams, and cudaStreamDestroy on the dead handles
// crashed now and then. The pool is released before any statement that may
// reset the device, also through a helper that does it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

static void teardown() { cudaDeviceReset(); }
// CHECK: static void teardown() { sa_release_streams(); /* streamalloc: release the streams before CUDA shuts down */ cudaDeviceReset(); }

int main(int argc, char **argv) {
  int h[32] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  inc<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
  cudaFree(d);
  if (argc > 1) {
    // CHECK: if (argc > 1) {
    teardown();
    // CHECK: sa_release_streams();  // streamalloc: release the streams before CUDA shuts down
    // CHECK-NEXT: teardown();
    return 0;
  }
  // CHECK: {{^}}  }
  if (cudaDeviceReset() != cudaSuccess) { fprintf(stderr, "reset failed\n"); exit(1); }
  // CHECK: sa_release_streams();  // streamalloc: release the streams before CUDA shuts down
  // CHECK-NEXT: if (cudaDeviceReset() != cudaSuccess) { fprintf(stderr, "reset failed\n"); exit(1); }
  return 0;
}
