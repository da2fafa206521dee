// exit() in a branch may abandon pending GPU work, but not a kernel's
// printf output, which the original program always showed (its cudaMemcpy
// synchronised and flushed the text before the branch): the host waits for
// a pending kernel that prints before any path that may exit: right before
// the exit() inside the branch. (Without this, an H200 run with pinned h
// exited with status 3 and printed nothing.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void hello(const float *x) { printf("device %f\n", x[0]); }

int main(int argc, char **argv) {
  float *d, *h;
  cudaMalloc(&d, 16 * sizeof(float));
  cudaMallocHost(&h, 16 * sizeof(float));
  cudaMemset(d, 0, 16 * sizeof(float));
  hello<<<1, 1>>>(d);
  // CHECK: hello<<<1, 1, 0, sa_stream({{[0-9]+}})>>>(d);
  cudaMemcpy(h, d, 16 * sizeof(float), cudaMemcpyDeviceToHost);
  if (argc > 1) {
    exit(3);
  }
  // CHECK: if (argc > 1) {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: the program's output is written below (written by kernel `hello` on line 22)
  // CHECK-NEXT: exit(3);
  h[0] = 1.0f;
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is written below (written by cudaMemcpy on line 24)
  // CHECK-NEXT: h[0] = 1.0f;
  cudaFreeHost(h);
  cudaFree(d);
  // The kernel and the memset are still pending on the path that did not exit.
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemset on line 21)
  // CHECK-NEXT: cudaFree(d);
  return 0;
}
