// The program's own cudaDeviceSynchronize() completes every pending op, so a
// later read of the copied data needs no wait of the tool's.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=cudaStreamSynchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(int *x) { x[threadIdx.x] = threadIdx.x; }

int main() {
  int h[32], *d;
  cudaMalloc(&d, sizeof h);
  fill<<<1, 32>>>(d);
  // CHECK: fill<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("queued\n");
  cudaDeviceSynchronize();
  // CHECK: cudaDeviceSynchronize();
  printf("%d\n", h[31]);
  // CHECK: printf("%d\n", h[31]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}: 2 of 2 GPU ops made asynchronous on {{[0-9]+}} stream(s), 0 wait(s) inserted
// REPORT-NEXT: {{.*}}:16:3: fill: async on stream {{[0-9]+}}
// REPORT-NEXT: {{.*}}:18:3: cudaMemcpy: async on stream {{[0-9]+}}
