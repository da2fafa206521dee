// Over-conservative (precision issue, pinned as is): an `if` whose branch
// returns is one statement to this version, so the wait for the pending
// kernel goes before the whole `if`, and runs also when the branch is not
// taken. Ideally it goes right before the `return` inside the braces, and the
// kernel keeps overlapping with the condition on the other path.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void clear(int *x) { x[threadIdx.x] = 0; }

int prepare(int *d, int n) {
  clear<<<1, 32>>>(d);
  // CHECK: clear<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  if (n > 32) {
    n = 32;
    return 1;
  }
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the function
  // CHECK-NEXT: if (n > 32) {
  int blocks = (n + 31) / 32;
  return blocks;
  // CHECK: return blocks;
}

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  printf("%d\n", prepare(d, 32));
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:19: wait (leaves-function) for line 17: finish GPU work before leaving the function
