// A call to a function defined in this file touches what its body touches,
// mapped through the arguments: filling an unrelated buffer overlaps with
// the pending copy, filling the buffer being copied back waits right before
// the call.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

void fill(float *p, int n, float v) {
  for (int i = 0; i < n; ++i)
    p[i] = v;
}

int main() {
  float *result = (float *)malloc(64 * sizeof(float));
  float *scratch = (float *)malloc(64 * sizeof(float));
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaMemset(d, 0, 64 * sizeof(float));
  cudaMemcpy(result, d, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(result, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  fill(scratch, 64, 1.0f);
  // CHECK: fill(scratch, 64, 1.0f);
  fill(result, 64, 2.0f);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: result is written below (written by cudaMemcpy on line 25)
  // CHECK-NEXT: fill(result, 64, 2.0f);
  printf("%f %f\n", result[0], scratch[0]);
  free(result);
  free(scratch);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:29: wait (conflict) for lines 24, 25: result is written below (written by cudaMemcpy on line 25)
