// A lambda passed to a function (here a helper that calls it, as
// std::for_each does) runs where its caller does not see the call, so the
// caller cannot order the lambda's work after its own pending work (the fill
// of d on stream 1 is not waited for before the call). The lambda's body
// orders its work itself: on entry it records an event on the legacy stream,
// which the blocking streams' earlier work precedes, and its stream waits for
// it before its first op; before it returns it waits for its work. (Fuzz v8
// seed 9151 read stale data when such a body was rewritten without that.)
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
  // CHECK: cudaMemsetAsync(d, 1, sizeof h, sa_stream(1));
  auto part = [d, &h](int p) {
    // CHECK: auto part = [d, &h](int p) {
    // CHECK: cudaEventRecord(sa_event(0), 0);  // streamalloc: lambda in main, line 31 runs where its callers cannot order it: its work goes after all work enqueued before it, as on the legacy stream
    // CHECK-NEXT: cudaStreamWaitEvent(sa_stream(0), sa_event(0), 0);  // streamalloc: lambda in main, line 31 runs where its callers cannot order it: its work goes after all work enqueued before it, as on the legacy stream
    cudaMemcpy(h + 32 * p, d + 32 * p, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(h + 32 * p, d + 32 * p, 32 * sizeof(int), cudaMemcpyDeviceToHost, sa_stream(0));
    inc<<<1, 32>>>(d + 32 * p);
    // CHECK: inc<<<1, 32, 0, sa_stream(0)>>>(d + 32 * p);
    // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: finish GPU work before lambda in main, line 31 returns
  };
  // CHECK-NOT: cudaStreamSynchronize(sa_stream(1))
  // CHECK: for_each_index(2, part);
  for_each_index(2, part);
  printf("%d %d\n", h[0], h[63]);
  cudaFree(d);
  cudaFree(e);
  return 0;
}

// REPORT: {{.*}}:35:5: cudaMemcpy: async on stream 0, waited for before line {{[0-9]+}}
// REPORT: {{.*}}:37:5: inc: async on stream 0, waited for before line {{[0-9]+}}
