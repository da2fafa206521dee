// `do { } while (cond)` whose condition reads what the body copies back: the
// body waits at its end, after the host work in it, before the condition.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void halve(float *x) { x[threadIdx.x] *= 0.5f; }

int main() {
  float h[32], *d;
  for (int i = 0; i < 32; ++i)
    h[i] = 100.0f;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  int rounds = 0;
  do {
    halve<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("round %d\n", ++rounds);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: printf("round %d\n", ++rounds);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work started in this block
  // CHECK-NEXT: } while (h[0] > 1.0f);
  } while (h[0] > 1.0f);
  printf("%f after %d rounds\n", h[0], rounds);
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: cudaFree(d);
  return 0;
}
