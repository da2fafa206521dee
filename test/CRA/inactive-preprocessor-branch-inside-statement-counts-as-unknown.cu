// Fixed bug (unsafe under another configuration): an inactive #ifdef branch in the
// middle of a statement (here, between the arguments of a call) is not
// noticed, although an inactive branch between statements is. Built with
// -DSA_VERBOSE, the transformed program passes h[0] to printf before the
// wait for the copy into h. The statement that contains the inactive branch
// should count as touching anything, so the wait goes before it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
// RUN: %nvcc -DSA_VERBOSE %t.out.cu
#include <cstdio>

int main() {
  int h[8], *d;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("first: %d\n",
#ifdef SA_VERBOSE
         h[0]
#else
         -1
#endif
  );
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: {{.+}}
  // CHECK-NEXT: printf("first: %d\n",
  cudaFree(d);
  return 0;
}
