// A copy of pageable memory still pays when GPU work of another engine that
// neither needs it nor is needed by it can run beside it: here the upload of
// `h_a` overlaps the kernel that works on `d_b`, on another stream.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void step(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * 0.5f + 1.0f;
}

static float h_a[1 << 20];

int main() {
  const int n = 1 << 20;
  float *d_a, *d_b, out;
  cudaMalloc(&d_a, n * sizeof(float));
  cudaMalloc(&d_b, n * sizeof(float));
  cudaMemset(d_b, 0, n * sizeof(float));
  step<<<(n + 255) / 256, 256>>>(d_b, n);
  // CHECK: step<<<(n + 255) / 256, 256, 0, sa_stream([[B:[0-9]+]])>>>(d_b, n);
  cudaMemcpy(d_a, h_a, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d_a, h_a, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream([[A:[0-9]+]]));
  step<<<(n + 255) / 256, 256>>>(d_a, n);
  // CHECK: step<<<(n + 255) / 256, 256, 0, sa_stream([[A]])>>>(d_a, n);
  cudaMemcpy(&out, d_b, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", out);
  cudaFree(d_a);
  cudaFree(d_b);
  return 0;
}
