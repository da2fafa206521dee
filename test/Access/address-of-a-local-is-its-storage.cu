// `&x` points to x's storage: a copy back into a scalar writes that variable
// (and only that one), so reading it waits and reading another does not.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
#include <cstdio>

int main() {
  int *d, count = 0, other = 7;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  int *where = &count;
  cudaMemcpy(where, d, sizeof(int), cudaMemcpyDeviceToHost);
  // CHECK: op1 line 13:3 cudaMemcpy reads: d; writes: count
  printf("%d %d\n", other, count);
  return 0;
}
