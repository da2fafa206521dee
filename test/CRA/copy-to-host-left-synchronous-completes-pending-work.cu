// A copy to the host that the tool leaves synchronous returns only once it is
// done, and on the legacy stream it ran after everything queued earlier on
// the tool's streams: nothing is pending after it, so the later read of what
// an earlier asynchronous copy wrote needs no wait, and neither does the end
// of the function.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=cudaStreamSynchronize --implicit-check-not=cudaEventSynchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }

int main() {
  float *h = (float *)malloc(32 * sizeof(float)), flag[32];
  float *d, *e;
  cudaError_t expected = cudaSuccess; // compared with a variable: the copy stays synchronous
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMalloc(&e, 32 * sizeof(float));
  fill<<<1, 32>>>(d, 1.0f);
  fill<<<1, 32>>>(e, 2.0f);
  cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  if (cudaMemcpy(flag, e, sizeof flag, cudaMemcpyDeviceToHost) != expected)
    printf("copy failed\n");
  // CHECK: if (cudaMemcpy(flag, e, sizeof flag, cudaMemcpyDeviceToHost) != expected)
  printf("%f %f\n", h[0], flag[0]);
  // CHECK: printf("copy failed\n");
  // CHECK: printf("%f %f\n", h[0], flag[0]);
  cudaFree(d);
  cudaFree(e);
  free(h);
  return 0;
}
