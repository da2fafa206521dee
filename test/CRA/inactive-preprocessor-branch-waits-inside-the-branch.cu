// Code in an inactive #ifdef block is not compiled in this build, but may be
// in another one, where it may touch anything. The wait for the pending copy
// goes inside the block, as its first line, so the default build's loop has
// no wait at all, and a build with -DSA_DEBUG waits before its printf. The
// state after the block is unchanged: the read after the loop still waits.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
// RUN: %nvcc -DSA_DEBUG %t.out.cu
// Both builds, preprocessed: the default one never waits in the loop.
// RUN: clang -E -P -x c++ %t.out.cu | %FileCheck %s --check-prefix=DEFAULT
// RUN: clang -E -P -x c++ -DSA_DEBUG %t.out.cu | %FileCheck %s --check-prefix=DEBUG
#include <cstdio>

int main() {
  int h[8], *d;
  cudaMalloc(&d, sizeof h);
  for (int i = 0; i < 4; ++i) {
    cudaMemset(d, i, sizeof h);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
#ifdef SA_DEBUG
    printf("iteration %d: %d\n", i, h[0]);
#endif
  }
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream([[S:[0-9]+]]));
  // CHECK-NEXT: #ifdef SA_DEBUG
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: this branch is not compiled in the analysed build and may use the GPU's results
  // CHECK-NEXT: printf("iteration %d: %d\n", i, h[0]);
  // CHECK-NEXT: #endif
  // CHECK-NEXT: }
  printf("%d\n", h[1]);
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: h is read below (written by cudaMemcpy on line 23)
  // CHECK-NEXT: printf("%d\n", h[1]);
  cudaFree(d);
  return 0;
}

// DEFAULT-LABEL: int main() {
// DEFAULT: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
// DEFAULT-NEXT: }
// DEFAULT-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));
// DEFAULT-NEXT: printf("%d\n", h[1]);

// DEBUG-LABEL: int main() {
// DEBUG: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
// DEBUG-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));
// DEBUG-NEXT: printf("iteration %d: %d\n", i, h[0]);
// DEBUG-NEXT: }

// REPORT: {{.*}}:25: wait (inactive-code) for lines 22, 23: this branch is not compiled in the analysed build and may use the GPU's results
