// An exit() that always runs ends the program normally: pending GPU work
// must finish first, so the host waits right before it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void fill(int *x) { x[threadIdx.x] = 1; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  fill<<<1, 32>>>(d);
  // CHECK: fill<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  printf("bye\n");
  // CHECK: printf("bye\n");
  exit(0);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: the next statement may touch what kernel `fill` on line 17 uses (`exit` ends the program)
  // CHECK-NEXT: exit(0);
}

// REPORT: {{.*}}:21: wait (conflict) for line 17: the next statement may touch what kernel `fill` on line 17 uses (`exit` ends the program)
