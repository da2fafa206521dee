// A lambda passed to a function (here a helper that calls it, as
// std::for_each does) runs where its caller does not see the call, so the
// caller could not order the work the lambda would put on the tool's streams
// after its own pending work (the fill of d on another stream). Its body
// stays as written: on the legacy stream, which orders it after the tool's
// blocking streams. (Fuzz v8 seed 9151 read stale data when such a body was
// rewritten.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

template <typename F> static void for_each_index(int n, F f) {
  for (int i = 0; i < n; ++i)
    f(i);
}

int main() {
  int h[64] = {0}, other[64] = {0}, *d, *e;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&e, sizeof h);
  cudaMemcpy(e, other, sizeof other, cudaMemcpyHostToDevice);
  cudaMemset(d, 1, sizeof h);
  auto part = [d, &h](int p) {
    cudaMemcpy(h + 32 * p, d + 32 * p, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpy(h + 32 * p, d + 32 * p, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    inc<<<1, 32>>>(d + 32 * p);
    // CHECK: inc<<<1, 32>>>(d + 32 * p);
  };
  for_each_index(2, part);
  printf("%d %d\n", h[0], h[63]);
  cudaFree(d);
  cudaFree(e);
  return 0;
}

// REPORT: {{.*}}:30:5: cudaMemcpy: left synchronous: inside a lambda that runs other than by direct calls of a variable holding it (passed to a function, copied, captured or converted), where its callers could not order its work after theirs; it stays on the legacy stream, which does
// REPORT: {{.*}}:32:5: inc: left synchronous: inside a lambda that runs other than by direct calls of a variable holding it (passed to a function, copied, captured or converted), where its callers could not order its work after theirs; it stays on the legacy stream, which does
