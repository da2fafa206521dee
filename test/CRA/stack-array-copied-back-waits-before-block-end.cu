// A stack array dies at the end of the block that declares it: a pending
// device-to-host copy into it is waited for before that `}`, even though no
// statement reads the array.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

int main(int argc, char **argv) {
  float *d;
  cudaMalloc(&d, 16 * sizeof(float));
  cudaMemset(d, 0, 16 * sizeof(float));
  if (argc > 1) {
    float probe[16];
    cudaMemcpy(probe, d, sizeof probe, cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(probe, d, sizeof probe, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  }
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work started in this block
  // CHECK-NEXT: }
  printf("done\n");
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemset on line 15)
  // CHECK-NEXT: cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:20: wait (block-end) for line 18: finish GPU work started in this block
