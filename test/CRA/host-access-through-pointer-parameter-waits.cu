// What a pointer parameter points to is a symbolic object (`*out`; other files
// may call fetch_first, so it may overlap `*d`): a host read through the
// parameter waits for the copy into it; the host work before it overlaps.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

float fetch_first(float *out, const float *d, int n) {
  cudaMemcpy(out, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  int twice = 2 * n;
  // CHECK: int twice = 2 * n;
  return out[0] + twice;
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: *out (which may overlap *d) is read below (written by cudaMemcpy on line 13)
  // CHECK-NEXT: return out[0] + twice;
}

int main() {
  float h[8], *d;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  printf("%f\n", fetch_first(h, d, 8));
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is read below (written by cudaMemset on line 25)
  // CHECK-NEXT: printf("%f\n", fetch_first(h, d, 8));
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:13:3: cudaMemcpy: async on stream {{[0-9]+}}, waited for before line 17
