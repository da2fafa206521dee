// CHECK(cudaDeviceSynchronize()) puts the sync inside `do { ... } while (0)`;
// that body runs exactly once and has no jumps, so the program's own sync
// completes the copy and no wait is inserted before h is read.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=cudaStreamSynchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

int main() {
  int h[16], *d;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemset(d, 0, sizeof h));
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  // CHECK: CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}})));
  CHECK(cudaDeviceSynchronize());
  // CHECK: CHECK(cudaDeviceSynchronize());
  printf("%d\n", h[0]);
  // CHECK: printf("%d\n", h[0]);
  CHECK(cudaFree(d));
  return 0;
}
