// A launch that names the legacy default stream explicitly (`0` or
// `nullptr`) is not on a stream of the program's own: the null stream
// argument is replaced by the tool's stream.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[32] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  inc<<<1, 32, 0, 0>>>(d);
  // CHECK: inc<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  inc<<<1, 32, 0, nullptr>>>(d);
  // CHECK: inc<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 22)
  // CHECK-NEXT: printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}: 4 of 4 GPU ops made asynchronous on {{[0-9]+}} stream(s), 1 wait(s) inserted
// REPORT: {{.*}}:18:3: inc: async on stream {{[0-9]+}}, waited for before line 23
// REPORT-NEXT: {{.*}}:20:3: inc: async on stream {{[0-9]+}}, waited for before line 23
