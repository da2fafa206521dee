// A lambda passed to a function (here std::for_each) is transformed like any
// other (it waits for its work before it returns), but its captures are not
// followed through the callee: the call may touch anything the lambda
// captured, so the caller waits before it for its pending work on them.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <algorithm>
#include <cstdio>
#include <vector>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[64] = {0}, other[64] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, other, sizeof other, cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, other, sizeof other, cudaMemcpyHostToDevice, sa_stream(0));
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: parts is written below (read by cudaMemcpy on line 19)
  // CHECK-NEXT: std::vector<int> parts = {0, 1};
  std::vector<int> parts = {0, 1};
  std::for_each(parts.begin(), parts.end(), [&](int p) {
    inc<<<1, 32>>>(d + 32 * p);
    // CHECK: inc<<<1, 32, 0, sa_stream(0)>>>(d + 32 * p);
    cudaMemcpy(h + 32 * p, d + 32 * p, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(h + 32 * p, d + 32 * p, 32 * sizeof(int), cudaMemcpyDeviceToHost, sa_stream(0));
    // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: finish GPU work before lambda in main, line 24 returns
  });
  printf("%d %d\n", h[0], h[63]);
  cudaFree(d);
  return 0;
}
