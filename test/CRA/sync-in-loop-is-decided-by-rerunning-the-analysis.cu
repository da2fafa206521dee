// A sync inside a loop body is decided like any other: with it treated as
// gone, the launches stay pending across iterations (nothing in the loop reads
// their results) and the tool's wait before the read after the loop covers
// them, so it is redundant. One in an `if` branch as well.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void add(int *x, int v) { x[threadIdx.x] += v; }

int main(int argc, char **argv) {
  int h[32], *d;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  for (int i = 0; i < 10; ++i) {
    add<<<1, 32>>>(d, i);
    cudaDeviceSynchronize();
  }
  // CHECK: add<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d, i);
  // CHECK-NEXT: {{^    }}// streamalloc: removed a redundant cudaDeviceSynchronize() ({{.*}}; see the report)
  if (argc > 1) {
    cudaDeviceSynchronize();
  }
  // CHECK: if (argc > 1) {
  // CHECK-NEXT: {{^    }}// streamalloc: removed a redundant cudaDeviceSynchronize() ({{.*}}; see the report)
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below {{.*}}
  printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:21: cudaDeviceSynchronize(): redundant, removed: no host access before the next sync conflicts with the 2 ops pending here (lines 18, 20); the tool's own waits cover them
// REPORT-NEXT: {{.*}}:26: cudaDeviceSynchronize(): redundant, removed: {{.*}}
