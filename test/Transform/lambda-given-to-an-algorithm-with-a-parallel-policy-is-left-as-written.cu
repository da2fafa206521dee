// Given a parallel execution policy, std::for_each may call the lambda on
// several threads at once, whose work would share the tool's streams and
// events: the program starts host threads, so every lambda of the file is
// left as written (std::execution::seq alone would not start any).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=sa_stream
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <algorithm>
#include <cstdio>
#include <execution>
#include <vector>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[64] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  std::vector<int> parts = {0, 1};
  std::for_each(std::execution::par, parts.begin(), parts.end(), [&](int p) {
    inc<<<1, 32>>>(d + 32 * p);
    // CHECK: inc<<<1, 32>>>(d + 32 * p);
  });
  std::for_each(std::execution::seq, parts.begin(), parts.end(), [&](int p) {
    cudaMemcpy(h + 32 * p, d + 32 * p, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpy(h + 32 * p, d + 32 * p, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  });
  printf("%d %d\n", h[0], h[63]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:23:5: inc: left synchronous: inside a lambda that may run other than during a call on its caller's thread: it is passed to `std::for_each` with an execution policy, which may run it on other threads (line 22); its work stays on the legacy stream, which orders it with the rest
// REPORT: {{.*}}:27:5: cudaMemcpy: left synchronous: inside a lambda, left as written: the program starts host threads (std::for_each with an execution policy on line 22)
