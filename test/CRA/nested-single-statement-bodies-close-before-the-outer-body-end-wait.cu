// Nested single-statement bodies that end at the same `;`: the loop body
// (an if/else) waits at its end because the loop condition reads what its
// copies write. The inner bodies close first, then the loop body's wait, then
// its `}`, so the wait runs on both paths, not only in the else branch.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }
int main(int argc, char **argv) {
  float h[32] = {0}, *d, *e;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&e, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(e, h, sizeof h, cudaMemcpyHostToDevice);
  while (h[0] < 10.0f)
    if (argc > 1) cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost); else cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: while (h[0] < 10.0f) {
  // CHECK-NEXT: if (argc > 1) { {{.*}}cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}})); } else { {{.*}}cudaMemcpyAsync(h, e, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: }
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work started in this block
  // CHECK-NEXT: }
  int k = 0;
  while (h[1] < 20.0f)
    if (argc > 2)
      cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    else
      step<<<1, 32>>>(d), ++k;
  // CHECK: step<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d), ++k;
  // CHECK-NEXT: }
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work started in this block
  // CHECK-NEXT: }
  printf("%f %d\n", h[0], k);
  cudaFree(d);
  cudaFree(e);
  return 0;
}
