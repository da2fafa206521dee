// A program that already manages its own streams is left byte for byte
// unchanged (this version relies on the legacy default stream's implicit
// ordering), and the report says which call blocked it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
#include <cstdio>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[32] = {0}, *d;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  inc<<<1, 32, 0, s>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}: 0 of 3 GPU ops made asynchronous on 0 stream(s), 0 wait(s) inserted
// REPORT-NEXT: file left unchanged: line 16: `cudaStreamCreate`: the program manages its own streams
