// A variable declared in an if's init-statement lives only until the end of
// the if: a device-to-host copy into it is waited for before the branch's
// closing brace, like a copy into a variable declared inside the braces.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

int main(int argc, char **argv) {
  float *d;
  cudaMalloc(&d, sizeof(float));
  cudaMemset(d, 0, sizeof(float));
  if (float r = 0.0f; argc > 1) {
    cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(&r, d, sizeof r, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  }
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work started in this block
  // CHECK-NEXT: }
  printf("after the if\n");
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemset on line 14)
  // CHECK-NEXT: cudaFree(d);
  return 0;
}
