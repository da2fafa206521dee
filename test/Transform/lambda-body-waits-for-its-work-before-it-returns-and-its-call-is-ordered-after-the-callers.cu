// A lambda's body is analysed as a function of its own: its ops run on the
// tool's streams and it waits for them before it returns. A call of a closure
// the caller only ever calls is followed through the lambda's summary, so the
// caller waits before the call for its own pending work that the lambda
// touches (here the upload of h, which the lambda's download overwrites).
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
  // CHECK: cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, sa_stream(0));
  auto step = [](int *d, int *h) {
    inc<<<1, 32>>>(d);
    // CHECK: inc<<<1, 32, 0, sa_stream(0)>>>(d);
    cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost, sa_stream(0));
    // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: finish GPU work before lambda in main, line 21 returns
  };
  step(d, h);
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: h is written below (read by cudaMemcpy on line 19)
  // CHECK-NEXT: step(d, h);
  printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:22:5: inc: async on stream 0, waited for before line 27
// REPORT: {{.*}}:24:5: cudaMemcpy: async on stream 0, waited for before line 27
