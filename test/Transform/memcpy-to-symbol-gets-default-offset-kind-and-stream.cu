// cudaMemcpyToSymbol(sym, src, n) relies on its defaulted offset and kind;
// the asynchronous form needs them spelled out before the stream.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__constant__ float coeff[8];

__global__ void apply(float *x) { x[threadIdx.x] *= coeff[threadIdx.x]; }

int main() {
  float h[8] = {1, 2, 3, 4, 5, 6, 7, 8}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpyToSymbol(coeff, h, sizeof h);
  // CHECK: cudaMemcpyToSymbolAsync(coeff, h, sizeof h, 0, cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  apply<<<1, 8>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[7]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 22)
  // CHECK-NEXT: printf("%f\n", h[7]);
  cudaFree(d);
  // The copy to the symbol ran on a stream of its own; the stream of the
  // copy back waited for it through an event, but the host waits for its
  // stream too before main returns (this version does not follow events).
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the function
  return 0;
}

// REPORT: {{.*}}:18:3: cudaMemcpyToSymbol: async on stream {{[0-9]+}}, waited for before line 31
