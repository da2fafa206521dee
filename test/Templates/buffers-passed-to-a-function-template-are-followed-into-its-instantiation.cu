// Buffers passed to a function template are followed into the instantiation
// the call names, like any helper with a body: a device buffer a template
// only copies and launches on becomes stream-ordered, and a host buffer a
// template only reads is still allocated page-locked. An instantiation that
// frees the buffer keeps its group synchronous, with the reason.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --pin=alloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

template <typename T> __global__ void twice(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

template <typename T> void roundTrip(T *d, T *h, int n) {
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  twice<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
}

template <typename T> void roundTripAndRelease(T *d, T *h, int n) {
  roundTrip(d, h, n);
  cudaFree(d);
}

template <typename T> T total(const T *h, int n) {
  T s = 0;
  for (int i = 0; i < n; ++i)
    s += h[i];
  return s;
}

int main() {
  const int n = 1 << 20;
  float *h = (float *)malloc(n * sizeof(float));
  // CHECK: float *h = (float *)sa_pinned_malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = i % 8;
  float *d, *e;
  cudaMalloc(&d, n * sizeof(float));
  // CHECK: cudaMallocAsync(&d, n * sizeof(float), sa_stream({{[0-9]+}}));
  cudaMalloc(&e, n * sizeof(float));
  // CHECK: cudaMalloc(&e, n * sizeof(float));
  roundTrip(d, h, n);
  roundTripAndRelease(e, h, n);
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", total(h, n));
  cudaFree(d);
  // CHECK: sa_free_async(d, sa_stream({{[0-9]+}}));
  free(h);
  // CHECK: sa_pinned_free(h);
  return 0;
}

// REPORT-DAG: {{.*}}:46:3: cudaMalloc: async on stream {{.*}}
// REPORT-DAG: {{.*}}:48:3: cudaMalloc: left synchronous: not stream-ordered: it is released in `roundTripAndRelease` (line 29)
// REPORT-DAG: {{.*}}:41: host buffer `h`: allocated page-locked: {{.*}}
