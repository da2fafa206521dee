// A function template instantiated once is analysed through its
// instantiation, and the template's own text is rewritten.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

template <int N> static void fillAndFetch(float *d, float *h, float *other) {
  fill<<<1, N>>>(d, 1.0f);
  // CHECK: fill<<<1, N, 0, sa_stream(0)>>>(d, 1.0f);
  cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, sa_stream(0));
  for (int i = 0; i < N; ++i)
    other[i] = 2.0f * i;
  printf("%f %f\n", h[0], other[1]);
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: *h is read below (written by cudaMemcpy on line 16)
  // CHECK-NEXT: printf("%f %f\n", h[0], other[1]);
}

int main() {
  float h[32], other[32], *d;
  cudaMalloc(&d, sizeof h);
  fillAndFetch<32>(d, h, other);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}: 2 of 2 GPU ops made asynchronous on 1 stream(s), 1 wait(s) inserted
// REPORT-NEXT: {{.*}}:14:3: fill: async on stream 0, waited for before line 20
// REPORT-NEXT: {{.*}}:16:3: cudaMemcpy: async on stream 0, waited for before line 20
// REPORT: {{.*}}:13: template `fillAndFetch`: analysed per instantiation (fillAndFetch<32>), which agree on every edit
