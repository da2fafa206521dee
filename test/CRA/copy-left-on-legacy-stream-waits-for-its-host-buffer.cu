// What a copy left synchronous touches on the host is not ordered by the
// legacy stream: a copy back into the buffer an asynchronous copy is still
// reading waits for it first.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

int main() {
  float *h = (float *)malloc(32 * sizeof(float));
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  float *d, *e;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMalloc(&e, 32 * sizeof(float));
  cudaMemset(e, 0, 32 * sizeof(float));
  cudaMemcpy(d, h, 32 * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, 32 * sizeof(float), cudaMemcpyHostToDevice, sa_stream([[S:[0-9]+]]));
  if (cudaMemcpy(h, e, 32 * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
    printf("copy failed\n");
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: h is written below (read by cudaMemcpy on line 20)
  // CHECK-NEXT: if (cudaMemcpy(h, e, 32 * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
  printf("%f\n", h[1]);
  cudaFree(d);
  cudaFree(e);
  free(h);
  return 0;
}
