// A statement that needs a wait right after a case label gets it after the
// label, so the wait runs both when the switch jumps to the case and when
// the previous case falls through into it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  int *h = (int *)calloc(8, sizeof(int)), *d;
  cudaMalloc(&d, 8 * sizeof(int));
  cudaMemset(d, 0, 8 * sizeof(int));
  switch (argc) {
  case 1:
    cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
    [[fallthrough]];
  case 2:
    // CHECK: case 2:
    printf("%d\n", h[0]);
    // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 19)
    // CHECK-NEXT: printf("%d\n", h[0]);
    break;
  default:
    break;
  }
  free(h);
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemset on line 16)
  // CHECK-NEXT: cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:24: wait (conflict) for lines 16, 19: h is read below (written by cudaMemcpy on line 19)
