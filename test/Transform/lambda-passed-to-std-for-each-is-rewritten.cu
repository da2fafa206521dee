// A lambda given to a standard algorithm that calls it on the caller's
// thread before it returns (std::for_each without an execution policy) is
// rewritten: its work goes after all work enqueued before it (an event on
// the legacy stream that its streams wait for) and is finished before it
// returns. (Its captures may alias: the closure is analysed for any caller,
// so both launches share a stream.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <algorithm>
#include <cstdio>
#include <vector>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[64] = {0}, g[64] = {0}, *d, *e;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&e, sizeof g);
  cudaMemset(d, 0, sizeof h);
  cudaMemset(e, 0, sizeof g);
  std::vector<int> parts = {0, 1};
  std::for_each(parts.begin(), parts.end(), [&](int p) {
    // CHECK: std::for_each(parts.begin(), parts.end(), [&](int p) {
    // CHECK: cudaEventRecord(sa_event([[E:[0-9]+]]), 0);  // streamalloc: lambda in main, line {{[0-9]+}} runs where its callers cannot order it: its work goes after all work enqueued before it, as on the legacy stream
    // CHECK-NEXT: cudaStreamWaitEvent(sa_stream(0), sa_event([[E]]), 0);  // streamalloc: {{.*}}
    inc<<<1, 32>>>(d + 32 * p);
    // CHECK: inc<<<1, 32, 0, sa_stream(0)>>>(d + 32 * p);
    inc<<<1, 32>>>(e + 32 * p);
    // CHECK: inc<<<1, 32, 0, sa_stream(0)>>>(e + 32 * p);
  });
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: finish GPU work before lambda in main, line {{[0-9]+}} returns
  // CHECK-NEXT: });
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(g, e, sizeof g, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[63], g[1]);
  cudaFree(d);
  cudaFree(e);
  return 0;
}

// REPORT: {{.*}}:30:5: inc: async on stream 0, waited for before line {{[0-9]+}}
// REPORT: {{.*}}:32:5: inc: async on stream 0, waited for before line {{[0-9]+}}
