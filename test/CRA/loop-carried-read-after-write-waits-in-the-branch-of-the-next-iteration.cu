// Read after write carried by the loop: a branch at the top of the body reads
// what the previous iteration's copy wrote. The wait goes inside that branch
// (over the back edge), so iterations that skip the branch keep the copies
// queued; the last copy is waited for after the loop, before the read.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void step(float *x, int it) { x[threadIdx.x] += it; }

int main() {
  float *h = (float *)calloc(32, sizeof(float)), *d;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemset(d, 0, 32 * sizeof(float));
  for (int it = 0; it < 8; ++it) {
    if (it % 4 == 3) {
      printf("iteration %d: %f\n", it, h[0]);
  // CHECK: if (it % 4 == 3) {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: printf("iteration %d: %f\n", it, h[0]);
    }
    step<<<1, 32>>>(d, it);
    cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: step<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d, it);
  // CHECK-NEXT: cudaMemcpyAsync(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK: }
  }
  printf("final %f\n", h[0]);
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: printf("final %f\n", h[0]);
  cudaFree(d);
  free(h);
  return 0;
}
