// The argument of a CHECK(...)-wrapped copy reads a scalar that a pending
// copy writes: the wait goes before the whole macro (never between its
// tokens). Inside a single-statement `if` body that is one macro expansion
// the body is put in braces, so the wait stays on that path.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
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

__global__ void count(float *x, int *n) {
  x[threadIdx.x] *= 2.0f;
  if (threadIdx.x == 0)
    *n = 16;
}

int main(int argc, char **argv) {
  float *h = (float *)calloc(32, sizeof(float)), *d;
  int n = 0, *d_n;
  CHECK(cudaMalloc(&d, 32 * sizeof(float)));
  CHECK(cudaMalloc(&d_n, sizeof(int)));
  count<<<1, 32>>>(d, d_n);
  CHECK(cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost));
  if (argc > 1)
    CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  // CHECK: if (argc > 1) {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: n is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: cudaStreamWaitEvent(sa_stream({{[0-9]+}}), sa_event({{[0-9]+}}), 0);  // streamalloc: order after count on line {{[0-9]+}} (another stream)
  // CHECK-NEXT: CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}})));
  // CHECK-NEXT: }
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("%d %f\n", n, h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: n is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: cudaStreamWaitEvent(sa_stream({{[0-9]+}}), sa_event({{[0-9]+}}), 0);  // streamalloc: order after count on line {{[0-9]+}} (another stream)
  // CHECK-NEXT: CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}})));
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: printf("%d %f\n", n, h[0]);
  CHECK(cudaFree(d));
  CHECK(cudaFree(d_n));
  free(h);
  return 0;
}
