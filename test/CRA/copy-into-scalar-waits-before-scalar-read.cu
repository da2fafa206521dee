// cudaMemcpy(&x, ...) makes the scalar x a memory object: unrelated host work
// overlaps with the copy, and the first read of x waits for it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void total(const int *x, int *out) {
  int s = 0;
  for (int i = 0; i < 32; ++i)
    s += x[i];
  *out = s;
}

int main() {
  int *d, *dsum;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMalloc(&dsum, sizeof(int));
  cudaMemset(d, 0, 32 * sizeof(int));
  total<<<1, 1>>>(d, dsum);
  int sum = 0, other = 7;
  cudaMemcpy(&sum, dsum, sizeof sum, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(&sum, dsum, sizeof sum, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  other = other * 3;
  // CHECK: other = other * 3;
  printf("%d %d\n", sum, other);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: sum is read below (written by cudaMemcpy on line 25)
  // CHECK-NEXT: printf("%d %d\n", sum, other);
  cudaFree(d);
  cudaFree(dsum);
  return 0;
}

// REPORT: {{.*}}:29: wait (conflict) for lines 22, 23, 25: sum is read below (written by cudaMemcpy on line 25)
