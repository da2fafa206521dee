// In an #if/#elif/#else chain, each inactive group that holds code gets its
// own wait as its first line (each is compiled in another configuration);
// the active group, and groups with only directives and comments, get none.
// Nested inactive chains wait once, at the top of the outer group.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
// RUN: %nvcc -DSA_A %t.out.cu
// RUN: %nvcc -DSA_B %t.out.cu
// RUN: %nvcc -DSA_OUTER -DSA_INNER %t.out.cu
#include <cstdio>

int main() {
  int h[8], *d;
  cudaMalloc(&d, sizeof h);
  for (int i = 0; i < 4; ++i) {
    cudaMemset(d, i, sizeof h);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
#if defined(SA_A)
    printf("a %d\n", h[0]);
#elif defined(SA_B)
    printf("b %d\n", h[1]);
#else
    int unused = i;
    (void)unused;
#endif
#ifdef SA_LOG_LEVEL
#define SA_VERBOSE 1
// nothing but a definition and a comment: no wait
#endif
#ifdef SA_OUTER
#ifdef SA_INNER
    h[2] = 0;
#endif
#endif
  }
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: #if defined(SA_A)
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: {{.*}}
  // CHECK-NEXT: printf("a %d\n", h[0]);
  // CHECK-NEXT: #elif defined(SA_B)
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: {{.*}}
  // CHECK-NEXT: printf("b %d\n", h[1]);
  // CHECK-NEXT: #else
  // CHECK-NEXT: int unused = i;
  // CHECK-NEXT: (void)unused;
  // CHECK-NEXT: #endif
  // CHECK-NEXT: #ifdef SA_LOG_LEVEL
  // CHECK-NEXT: #define SA_VERBOSE 1
  // CHECK: #ifdef SA_OUTER
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: {{.*}}
  // CHECK-NEXT: #ifdef SA_INNER
  // CHECK-NEXT: h[2] = 0;
  printf("%d\n", h[3]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below {{.*}}
  // CHECK-NEXT: printf("%d\n", h[3]);
  cudaFree(d);
  return 0;
}
