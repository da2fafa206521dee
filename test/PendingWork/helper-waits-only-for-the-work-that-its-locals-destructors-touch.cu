// A helper stages its input in a local std::vector: the copy out of the
// vector must finish before the vector's destructor frees it, so the helper
// waits for that copy (its event) as it returns, and leaves the kernel after
// it pending for its caller.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <vector>

__global__ void inc(float *d, int n) {
  int i = threadIdx.x;
  if (i < n)
    d[i] += 1;
}

static void stage_and_step(float *d, const float *h, int n) {
  std::vector<float> tmp(h, h + n);
  cudaMemcpy(d, tmp.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  inc<<<1, 64>>>(d, n);
  // CHECK: cudaMemcpyAsync(d, tmp.data(), n * sizeof(float), cudaMemcpyHostToDevice, sa_stream([[S:[0-9]+]]));
  // CHECK: cudaEventRecord(sa_event([[E:[0-9]+]]), sa_stream([[S]]));  // streamalloc: marks the end of cudaMemcpy for the host
  // CHECK: inc<<<1, 64, 0, sa_stream([[S]])>>>(d, n);
  // CHECK: cudaEventSynchronize(sa_event([[E]]));  // streamalloc: finish GPU work before stage_and_step returns
  // CHECK: }
}

int main() {
  float h[64] = {1}, *d;
  cudaMalloc(&d, sizeof h);
  stage_and_step(d, h, 64);
  double s = 0;
  for (int i = 0; i < 1000; ++i)
    s += i;
  printf("%f\n", s);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream([[S]]));
  printf("%f\n", h[0]);
  cudaFree(d);
  return 0;
}
