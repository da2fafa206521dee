// A loop whose body is a single statement without braces has no block to put
// the end-of-body wait in: this version keeps the op synchronous.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void step(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[32], *d;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  // CHECK: cudaMemsetAsync(d, 0, sizeof h, sa_stream({{[0-9]+}}));
  for (int it = 0; it < 4; ++it)
    step<<<1, 32>>>(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemset on line 16)
  // CHECK-NEXT: for (int it = 0; it < 4; ++it)
  // CHECK-NEXT: step<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("%d\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 23)
  // CHECK-NEXT: printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:19:5: step: left synchronous: not a statement of its own in a block (in a condition, a single-statement body, a try block or a jump); this version keeps such ops synchronous
