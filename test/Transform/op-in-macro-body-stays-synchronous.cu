// A GPU op spelled inside a macro *body* cannot be rewritten without changing
// every use of the macro: it stays synchronous, the report says which macro,
// and ops spelled outside the macro are still made asynchronous.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

#define UPLOAD(dst, src, bytes) cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice)

__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }

int main() {
  float *h = (float *)malloc(32 * sizeof(float)), *d;
  cudaMalloc(&d, 32 * sizeof(float));
  UPLOAD(d, h, 32 * sizeof(float));
  // CHECK: UPLOAD(d, h, 32 * sizeof(float));
  twice<<<1, 32>>>(d);
  // CHECK: twice<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("%f\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 24)
  // CHECK-NEXT: printf("%f\n", h[0]);
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}: 2 of 3 GPU ops made asynchronous on {{[0-9]+}} stream(s), 1 wait(s) inserted
// REPORT-NEXT: {{.*}}:20:3: cudaMemcpy: left synchronous: spelled inside the body of macro `UPLOAD`
// REPORT-NEXT: {{.*}}:22:3: twice: async on stream {{[0-9]+}}, waited for before line 26
// REPORT-NEXT: {{.*}}:24:3: cudaMemcpy: async on stream {{[0-9]+}}, waited for before line 26
