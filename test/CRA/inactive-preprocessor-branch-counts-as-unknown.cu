// Code in an inactive #if branch is invisible to the analysis but may be
// compiled in another configuration, where it could touch anything: pending
// work is waited for before the directive, so the output stays correct when
// built with -DSA_VERBOSE too.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
// RUN: %nvcc -DSA_VERBOSE %t.out.cu
#include <cstdio>

int main() {
  int h[8], *d;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: code in the inactive branch below may use the GPU's results when compiled in
  // CHECK-NEXT: #ifdef SA_VERBOSE
#ifdef SA_VERBOSE
  printf("first value %d\n", h[0]);
#endif
  printf("%d\n", h[1]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:22: wait (inactive-code) for lines 17, 18: code in the inactive branch below may use the GPU's results when compiled in
