// What a copy to the device left synchronous reads on the host is not ordered
// by the legacy stream (a pageable source is staged when the call is made): a
// copy from the buffer an asynchronous copy is still writing waits for it
// first. A copy back to the host needs no such wait: it writes its buffer
// only once it has run, after everything queued before it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

int main() {
  float *h = (float *)malloc(32 * sizeof(float)), *g = (float *)malloc(32 * sizeof(float));
  float *d, *e;
  cudaError_t expected = cudaSuccess; // compared with a variable: the copies stay synchronous
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMalloc(&e, 32 * sizeof(float));
  cudaMemset(d, 0, 32 * sizeof(float));
  cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost, sa_stream([[S:[0-9]+]]));
  if (cudaMemcpy(e, h, 32 * sizeof(float), cudaMemcpyHostToDevice) != expected)
    printf("copy failed\n");
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: h is read below (written by cudaMemcpy on line 21)
  // CHECK-NEXT: if (cudaMemcpy(e, h, 32 * sizeof(float), cudaMemcpyHostToDevice) != expected)
  for (int i = 0; i < 32; ++i)
    g[i] = i;
  cudaMemcpy(d, g, 32 * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, g, 32 * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  // CHECK-NOT: Synchronize
  if (cudaMemcpy(g, e, 32 * sizeof(float), cudaMemcpyDeviceToHost) != expected)
    printf("copy failed\n");
  // CHECK: if (cudaMemcpy(g, e, 32 * sizeof(float), cudaMemcpyDeviceToHost) != expected)
  printf("%f %f\n", h[1], g[1]);
  cudaFree(d);
  cudaFree(e);
  free(h);
  free(g);
  return 0;
}
