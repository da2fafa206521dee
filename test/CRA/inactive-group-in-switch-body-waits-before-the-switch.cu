// An inactive group in a switch body may hold a case label, which the switch
// head jumps to past the group's first line: a wait there would not run on
// that path, so the switch waits before it, in active code.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
// RUN: %nvcc -DSA_EXTRA %t.out.cu
#include <cstdio>

int main(int argc, char **argv) {
  int h[8], *d;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  switch (argc) {
  case 1:
    puts("one");
#ifdef SA_EXTRA
  case 2:
    printf("%d\n", h[0]);
#endif
    break;
  }
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: the next statement may touch what cudaMemset on line 15 uses (code in an inactive #if branch on line 21)
  // CHECK-NEXT: switch (argc) {
  printf("%d\n", h[1]);
  cudaFree(d);
  return 0;
}
