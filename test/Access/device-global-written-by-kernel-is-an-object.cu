// A __device__ variable written by a kernel is a memory object of its own
// (a device symbol), so the launch that writes it and the cudaMemcpyFromSymbol
// that reads it back are ordered, and the host reads the copy only after a
// wait.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=accesses > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

__device__ int maxSeen;
// DUMP: #{{[0-9]+}} maxSeen (device-symbol, line 14)

__global__ void track(const int *x) { atomicMax(&maxSeen, x[threadIdx.x]); }

int main() {
  int *d, h = 0;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemset(d, 0, 32 * sizeof(int));
  track<<<1, 32>>>(d);
  // DUMP: op1 line 23:3 track effects: d:R, maxSeen:RW
  // CHECK: track<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  cudaMemcpyFromSymbol(&h, maxSeen, sizeof h);
  // DUMP-NEXT: op2 line 26:3 cudaMemcpyFromSymbol effects: {{maxSeen:R, h:W|h:W, maxSeen:R}}
  // CHECK: cudaMemcpyFromSymbolAsync(&h, maxSeen, sizeof h, 0, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("%d\n", h);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpyFromSymbol on line 26)
  // CHECK-NEXT: printf("%d\n", h);
  cudaFree(d);
  return 0;
}
