// A `break` leaves the loop body, whose ops would otherwise be waited for at
// its end: the host waits right before the `break`, inside the branch (the
// single-statement body is put in braces); iterations that do not break keep
// the kernels queued. (The first version waited before the whole `if`, on
// every iteration.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void step(int *x) { x[threadIdx.x] += 1; }

int main(int argc, char **argv) {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemset(d, 0, 32 * sizeof(int));
  for (int it = 0; it < 100; ++it) {
    step<<<1, 32>>>(d);
    // CHECK: step<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
    if (it == argc)
      break;
    // CHECK: if (it == argc) {
    // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the loop or switch
    // CHECK-NEXT: break;
    // CHECK-NEXT: }
    printf("%d\n", it);
  }
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemset on line 19)
  // CHECK-NEXT: cudaFree(d);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:24: wait (leaves-block) for lines 19, 21: finish GPU work before leaving the loop or switch
