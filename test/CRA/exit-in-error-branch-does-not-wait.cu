// exit() in a branch that may not run (an error path) abandons pending GPU
// work just as a CUDA error would, so it does not force a wait before the
// branch: the copy keeps overlapping until its data is read.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  int h[64], *d;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  if (argc > 3) {
    fprintf(stderr, "usage: too many arguments\n");
    exit(1);
  }
  // CHECK: if (argc > 3) {
  printf("%d\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 17)
  // CHECK-NEXT: printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:24: wait (conflict) for lines 16, 17: h is read below (written by cudaMemcpy on line 17)
