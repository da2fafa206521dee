// `scaleOn` takes a stream that defaults to the legacy one, and every call in
// the file leaves it to its default: its launch runs on the legacy stream, so
// the tool may move it like any other legacy-stream op. `scaleOnGiven` is
// also called with a stream of the program's own: its launch stays as
// written and is ordered with the rest.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= f;
}

void scaleOn(float *d, int n, cudaStream_t stream = 0) {
  scale<<<n / 256, 256, 0, stream>>>(d, 2.0f, n);
  // CHECK: scale<<<n / 256, 256, 0, sa_stream(0)>>>(d, 2.0f, n);
}

void scaleOnGiven(float *d, int n, cudaStream_t stream = 0) {
  scale<<<n / 256, 256, 0, stream>>>(d, 3.0f, n);
  // CHECK: scale<<<n / 256, 256, 0, stream>>>(d, 3.0f, n);
}

int main() {
  const int n = 1 << 16;
  float *h, *d;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scaleOn(d, n);
  scaleOnGiven(d, n);
  scaleOnGiven(d, n, s);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[1]);
  cudaStreamDestroy(s);
  return 0;
}

// REPORT: {{.*}}:21:3: scale: async on stream 0, waited for before line 23
// REPORT: {{.*}}:26:3: scale: left synchronous: it already runs on a stream of the program's own
