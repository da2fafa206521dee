// Two back-to-back syncs before a read of copied data: each is redundant
// while the other stays. Syncs are decided one at a time in program order,
// the dropped ones treated as gone, so the first is dropped and the second,
// which then protects the read, is needed and kept.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=cudaStreamSynchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off --keep-syncs %t.cu -o %t.kept.cu --report-file=%t.kept.report
// RUN: %FileCheck %s --check-prefix=KEPT < %t.kept.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(int *x) { x[threadIdx.x] = threadIdx.x; }

int main() {
  int h[32], *d;
  cudaMalloc(&d, sizeof h);
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
  cudaDeviceSynchronize();
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: {{^  }}// streamalloc: removed a redundant cudaDeviceSynchronize() (the tool's own waits cover the 2 ops pending here; see the report)
  // CHECK-NEXT: {{^  }}cudaDeviceSynchronize();
  printf("%d\n", h[31]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:22: cudaDeviceSynchronize(): redundant, removed: no host access before the next sync conflicts with the 2 ops pending here (lines 20, 21); the tool's own waits cover them
// REPORT-NEXT: {{.*}}:23: cudaDeviceSynchronize(): needed: without it the tool would wait before line 27: h is read below (written by cudaMemcpy on line 21)
// KEPT: {{.*}}:22: cudaDeviceSynchronize(): redundant, kept: no host access before the next sync conflicts with the 2 ops pending here (lines 20, 21); the tool's own waits cover them; kept: --keep-syncs
// KEPT-NEXT: {{.*}}:23: cudaDeviceSynchronize(): needed: without it the tool would wait before line 27: h is read below (written by cudaMemcpy on line 21)
