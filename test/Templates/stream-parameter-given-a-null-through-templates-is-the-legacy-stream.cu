// A stream parameter without a default is the legacy stream when every call
// passes a null, directly or through another template's parameter that is
// one: the launch in the innermost template is an op of the analysis like any
// other, not work on a stream of the program's own, and the file is rewritten.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

template <int N> __global__ void scale(float *x) { x[threadIdx.x] *= N; }

template <int N> void launch(float *d, cudaStream_t stream) {
  scale<N><<<1, 32, 0, stream>>>(d);
  // CHECK: scale<N><<<1, 32, 0, sa_stream(0)>>>(d);
}

template <typename T> void transform(float *d, int which, cudaStream_t stream) {
  if (which == 1)
    launch<1>(d, stream);
  else
    launch<2>(d, stream);
}

int main() {
  float h[32], other[32], *d;
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  transform<float>(d, 1, 0);
  transform<float>(d, 2, nullptr);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i)
    other[i] = 2.0f * i;
  printf("%f %f\n", h[1], other[1]);
  cudaFree(d);
  return 0;
}

// REPORT-NOT: file left unchanged
// REPORT: {{.*}}.cu:16:3: scale: async on stream 0, waited for before line 18
// REPORT: {{.*}}:15: template `launch`: analysed per instantiation (launch<1>, launch<2>), which agree on every edit
