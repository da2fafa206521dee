// A macro that always returns (its body is a plain block) ends every path
// through it: the wait, and in main the stream-pool release, go right
// before it, where they run only on that path anyway.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

#define BAIL(msg)                                                              \
  {                                                                            \
    printf("%s\n", msg);                                                       \
    return 3;                                                                  \
  }

int main(int argc, char **argv) {
  int h[8], *d;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  if (argc > 4) {
    puts("too many arguments");
    BAIL("usage");
  }
  // CHECK: if (argc > 4) {
  // CHECK-NEXT: puts("too many arguments");
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the function
  // CHECK-NEXT: sa_release_streams();  // streamalloc: release the streams before CUDA shuts down
  // CHECK-NEXT: BAIL("usage");
  printf("%d\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below {{.*}}
  // CHECK-NEXT: printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}
