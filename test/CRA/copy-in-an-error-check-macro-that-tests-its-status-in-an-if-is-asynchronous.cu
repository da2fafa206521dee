// An error-check macro that tests a call's status in an `if` and ends the
// program on failure: the copies it wraps become asynchronous in place (the
// macro's argument is rewritten), and the host waits only where it reads
// their results.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>
#define CUDA_CHECK(x)                                                                              \
  if ((x) != cudaSuccess) {                                                                        \
    fprintf(stderr, "failed: %s\n", #x);                                                           \
    exit(1);                                                                                       \
  }

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
}

int main() {
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  float *h = (float *)malloc(bytes), *g = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i)
    h[i] = i;
  float *d;
  CUDA_CHECK(cudaMalloc(&d, bytes));
  for (int r = 0; r < 4; ++r) {
    CUDA_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    // CHECK: CUDA_CHECK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, sa_stream(0)));
    scale<<<(n + 255) / 256, 256>>>(d, n);
    for (int i = 0; i < n; ++i)
      g[i] = i * 0.5f + r;
    CUDA_CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    // CHECK: CUDA_CHECK(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, sa_stream(0)));
    // CHECK: }
  }
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: h is read below (written by cudaMemcpy on line 39)
  printf("%f %f\n", h[1], g[2]);
  // CHECK-NEXT: printf("%f %f\n", h[1], g[2]);
  cudaFree(d);
  free(h);
  free(g);
  return 0;
}

// REPORT: {{.*}}:34:16: cudaMemcpy: async on stream 0, waited for before line 44
// REPORT: {{.*}}:39:16: cudaMemcpy: async on stream 0, waited for before line 44
