// A `return` inside a branch waits for the pending kernel right before the
// `return`, inside the braces: on the path that does not take the branch the
// kernel keeps running while the host goes on (it is waited for before the
// later `return`). (The first version waited before the whole `if`.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
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
  // CHECK: if (n > 32) {
  // CHECK-NEXT: n = 32;
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the function
  // CHECK-NEXT: return 1;
  int blocks = (n + 31) / 32;
  return blocks;
  // CHECK: int blocks = (n + 31) / 32;
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the function
  // CHECK-NEXT: return blocks;
}

int early(int *d, int n) {
  clear<<<1, 32>>>(d);
  if (n < 0)
    return -1;
  // CHECK: if (n < 0) {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the function
  // CHECK-NEXT: return -1;
  // CHECK-NEXT: }
  return n;
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the function
  // CHECK-NEXT: return n;
}

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  printf("%d\n", prepare(d, 32));
  printf("%d\n", early(d, 32));
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:20: wait (leaves-function) for line 16: finish GPU work before leaving the function
// REPORT: {{.*}}:27: wait (leaves-function) for line 16: finish GPU work before leaving the function
// REPORT: {{.*}}:36: wait (leaves-function) for line 34: finish GPU work before leaving the function
// REPORT: {{.*}}:41: wait (leaves-function) for line 34: finish GPU work before leaving the function
