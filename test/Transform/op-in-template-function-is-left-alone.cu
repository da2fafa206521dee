// GPU ops in a function template are left synchronous (this version does not
// transform templated code) and reported.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

template <int N> void fillAndFetch(float *d, float *h) {
  fill<<<1, N>>>(d, 1.0f);
  // CHECK: fill<<<1, N>>>(d, 1.0f);
  cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);
}

int main() {
  float h[32], *d;
  cudaMalloc(&d, sizeof h);
  fillAndFetch<32>(d, h);
  printf("%f\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}: 0 of 2 GPU ops made asynchronous on 0 stream(s), 0 wait(s) inserted
// REPORT-NEXT: {{.*}}:14:3: fill: left synchronous: inside a template; this version does not transform templated code
// REPORT-NEXT: {{.*}}:16:3: cudaMemcpy: left synchronous: inside a template; this version does not transform templated code
