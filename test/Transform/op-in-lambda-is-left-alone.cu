// A lambda body is another function that this version does not transform:
// its ops stay synchronous and the report says why; the call of the lambda
// is not followed either, so pending work is waited for before it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[32] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  auto step = [](int *d, int *h) {
    inc<<<1, 32>>>(d);
    // CHECK: inc<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  };
  step(d, h);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: the next statement may touch what cudaMemcpy on line 17 uses (a call to a lambda)
  // CHECK-NEXT: step(d, h);
  printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:20:5: inc: left synchronous: inside a lambda; this version does not transform lambda bodies
// REPORT: {{.*}}:22:5: cudaMemcpy: left synchronous: inside a lambda; this version does not transform lambda bodies
