// A template's stream parameter is the legacy stream only if it is in every
// instantiation: one call that passes a stream the program created makes the
// launch work on a stream of the program's own, which the tool does not model
// inside a template, and the file is left as written.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s < %t.report
#include <cstdio>

template <int N> __global__ void scale(float *x) { x[threadIdx.x] *= N; }

template <int N> void launch(float *d, cudaStream_t stream) { scale<N><<<1, 32, 0, stream>>>(d); }

int main() {
  float h[32], *d;
  cudaStream_t mine;
  cudaStreamCreate(&mine);
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  launch<1>(d, 0);
  launch<2>(d, mine);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[1]);
  cudaFree(d);
  cudaStreamDestroy(mine);
  return 0;
}

// CHECK: file left unchanged: line 14: `scale` runs on a stream of the program's own inside a template or a lambda, where the tool does not model it
