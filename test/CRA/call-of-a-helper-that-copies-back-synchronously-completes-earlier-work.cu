// `residual` is left as written: its kernel and its blocking copy of one
// value back to the host run on the legacy default stream. That copy starts
// only after all the work queued before it on the tool's (blocking) streams
// and returns once it is done, so every call of `residual` completes the
// download `main` queued before it: reading `h` afterwards needs no wait.
// A helper that may return before its copy (an early `return`) completes
// nothing: after `maybeResidual` the host waits.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void sumSquares(const float *d, int n, float *out) {
  __shared__ float part[256];
  float s = 0;
  for (int i = threadIdx.x; i < n; i += 256)
    s += d[i] * d[i];
  part[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 1; i < 256; ++i)
      s += part[i];
    *out = s;
  }
}

static float residual(const float *d, int n, float *scratch) {
  sumSquares<<<1, 256>>>(d, n, scratch);
  float r;
  cudaMemcpy(&r, scratch, sizeof r, cudaMemcpyDeviceToHost);
  return r;
}

static float maybeResidual(const float *d, int n, float *scratch, bool skip) {
  if (skip)
    return 0;
  sumSquares<<<1, 256>>>(d, n, scratch);
  float r;
  cudaMemcpy(&r, scratch, sizeof r, cudaMemcpyDeviceToHost);
  return r;
}

int main(int argc, char **argv) {
  const int n = 1 << 20;
  float *h, *d, *e, *scratch;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&e, n * sizeof(float));
  cudaMalloc(&scratch, sizeof(float));
  cudaMemset(d, 0, n * sizeof(float));
  cudaMemset(e, 0, n * sizeof(float));
  cudaMemcpy(h, e, n * sizeof(float), cudaMemcpyDeviceToHost);
  float *g = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    g[i] = (float)(i % 5);
  float r = residual(d, n, scratch);
  printf("%f %f\n", r, h[0]);
  // CHECK: float r = residual(d, n, scratch);
  // CHECK-NEXT: printf("%f %f\n", r, h[0]);
  cudaMemcpy(h, e, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    g[i] += (float)(i % 3);
  float q = maybeResidual(d, n, scratch, argc > 2);
  printf("%f %f %f\n", q, h[0], g[1]);
  // CHECK: float q = maybeResidual(d, n, scratch, argc > 2);
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]}})); // streamalloc: h is read below (written by cudaMemcpy on line 62)
  // CHECK-NEXT: printf("%f %f %f\n", q, h[0], g[1]);
  free(g);
  cudaFree(d);
  cudaFree(e);
  cudaFree(scratch);
  cudaFreeHost(h);
  return 0;
}
