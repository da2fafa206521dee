// The loop body of an OpenMP parallel loop runs on several host threads that
// share the stream pool. Its streams are created lazily, so creation must be
// race-free: with a plain `if (!pool[i]) cudaStreamCreate(&pool[i])` two
// threads could each create a stream, enqueue on one and wait on the other
// (seen on an H200: 27 of 30 runs of this loop, with pinned h, 32 threads
// and a slow kernel, read stale data). The pool publishes a stream with a
// compare-and-swap, and each thread's wait covers its own copies.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc -Xcompiler -fopenmp %t.out.cu
#include <cstdio>
#include <cstdlib>
// CHECK: static inline cudaStream_t sa_stream(int i) {
// CHECK: if (sa_streams_[i].compare_exchange_strong(h, fresh))

__global__ void inc(float *x) { x[threadIdx.x] += 1.0f; }

int main() {
  const int n = 8;
  float *h = (float *)calloc(16 * n, sizeof(float)), *d;
  cudaMalloc(&d, 16 * n * sizeof(float));
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    cudaMemcpy(d + 16 * i, h + 16 * i, 16 * sizeof(float), cudaMemcpyHostToDevice);
    // CHECK: cudaMemcpyAsync(d + 16 * i, h + 16 * i, 16 * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
    inc<<<1, 16>>>(d + 16 * i);
    // CHECK: inc<<<1, 16, 0, sa_stream({{[0-9]+}})>>>(d + 16 * i);
    cudaMemcpy(h + 16 * i, d + 16 * i, 16 * sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(h + 16 * i, d + 16 * i, 16 * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
    h[16 * i] *= 2.0f;
    // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is written below (read by cudaMemcpy on line 26)
    // CHECK-NEXT: h[16 * i] *= 2.0f;
  }
  printf("%f\n", h[0]);
  cudaFree(d);
  free(h);
  return 0;
}
