// Pinning (cudaHostRegister) or unpinning (cudaHostUnregister) a buffer an op
// may be copying is ordered like a write to it: it waits for the copy.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdlib>

int main() {
  float *h = (float *)malloc(64 * sizeof(float)), *other = (float *)malloc(64), *d;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaMemcpy(d, h, 64 * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, 64 * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  cudaHostRegister(other, 64, cudaHostRegisterDefault);
  // CHECK: cudaHostRegister(other, 64, cudaHostRegisterDefault);
  cudaHostUnregister(h);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is written below (read by cudaMemcpy on line 13)
  // CHECK-NEXT: cudaHostUnregister(h);
  cudaFree(d);
  return 0;
}
