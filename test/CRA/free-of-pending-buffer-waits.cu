// free() releases memory a pending device-to-host copy still writes: the host
// waits right before the free, not before the unrelated work ahead of it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report --pin=off
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

int main() {
  int *h = (int *)malloc(64 * sizeof(int)), *d;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("discarding the result\n");
  // CHECK: printf("discarding the result\n");
  free(h);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is written below (written by cudaMemcpy on line 16)
  // CHECK-NEXT: free(h);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:20: wait (conflict) for lines 15, 16: h is written below (written by cudaMemcpy on line 16)
