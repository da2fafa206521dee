// A loop whose body is a single statement without braces: the body is a
// block of its own to the analysis, so the launch in it runs asynchronously,
// and the rewriter puts the body in braces (`{` after the `)`, `}` on a line
// of its own after the body) so that code can go inside it. The launches
// follow the memset on its stream; the host waits only where it reads.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
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
  // CHECK: for (int it = 0; it < 4; ++it) {
  // CHECK-NEXT: step<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  // CHECK-NEXT: }
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("%d\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 26)
  // CHECK-NEXT: printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}: 3 of 3 GPU ops made asynchronous on 1 stream(s), 1 wait(s) inserted
