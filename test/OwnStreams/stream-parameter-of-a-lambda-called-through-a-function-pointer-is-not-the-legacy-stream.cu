// A captureless lambda converted to a function pointer is called where the
// unit does not show it (through the pointer), so its stream parameter is not
// known to be the legacy stream, even though no call passes a stream to it
// directly: its launch is work on a stream of the program's own inside a
// lambda, passed through a stream of the program's own, and the file is left as
// written.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s < %t.report
#include <cstdio>

__global__ void add(float *p) { p[threadIdx.x] += 1; }

float *d;

int main() {
  float h[32];
  cudaStream_t mine;
  cudaStreamCreate(&mine);
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  void (*launch)(cudaStream_t) = [](cudaStream_t s) { add<<<1, 32, 0, s>>>(d); };
  cudaStream_t *which = &mine;
  launch(*which);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  return 0;
}

// CHECK: file left unchanged: line 26: passes a stream of the program's own (`call`)
