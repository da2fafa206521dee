// Write after read: the host may not overwrite a buffer that a pending
// host-to-device copy still reads. The wait goes before the first write;
// reads of the buffer do not need it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

int main() {
  const int n = 256;
  float *h = (float *)malloc(n * sizeof(float)), *d;
  for (int i = 0; i < n; ++i)
    h[i] = i;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  printf("first %f\n", h[0]);
  // CHECK: printf("first %f\n", h[0]);
  h[0] = -1.0f;
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is written below (read by cudaMemcpy on line 19)
  // CHECK-NEXT: h[0] = -1.0f;
  printf("%f\n", h[0]);
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}:23: wait (conflict) for line 19: h is written below (read by cudaMemcpy on line 19)
