// A copy whose status an `if` tests (`if (cudaMemcpy(...) != cudaSuccess)`,
// negated, or the other way round) runs before the branches, as if it were a
// statement of its own before the `if`: it becomes asynchronous in place, and
// the branches wait where they need its result or leave the function (a
// single-statement branch is put in braces for that).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

int main() {
  int h[16] = {0}, g[16], *d;
  cudaMalloc(&d, sizeof h);
  if (cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess) {
    // CHECK: if (cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, sa_stream(0)) != cudaSuccess) {
    printf("copy failed\n");
    // CHECK: printf("copy failed\n");
    // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: finish GPU work before leaving the function
    return 1;
  }
  if (cudaSuccess != cudaMemcpy(g, d, sizeof g, cudaMemcpyDeviceToHost))
    printf("%d\n", g[0]);
  // CHECK: if (cudaSuccess != cudaMemcpyAsync(g, d, sizeof g, cudaMemcpyDeviceToHost, sa_stream(0))) {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream(0));  // streamalloc: g is read below (written by cudaMemcpy on line 24)
  // CHECK-NEXT: printf("%d\n", g[0]);
  // CHECK-NEXT: }
  // The copy into h waits on the GPU for the first one, which reads h, before the `if`.
  // CHECK: cudaStreamWaitEvent(sa_stream(1), sa_event(0), 0);  // streamalloc: order after cudaMemcpy on line 17 (another stream)
  // CHECK-NEXT: if (!cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream(1)))
  if (!cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost))
    printf("copied\n");
  // CHECK: cudaDeviceSynchronize();  // streamalloc: g is read below (written by cudaMemcpy on line 24)
  // CHECK-NEXT: printf("%d %d\n", h[0], g[1]);
  printf("%d %d\n", h[0], g[1]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}: 3 of 3 GPU ops made asynchronous on 2 stream(s), 3 wait(s) inserted
// REPORT-NEXT: {{.*}}:17:7: cudaMemcpy: async on stream 0, waited for before line 22
// REPORT-NEXT: {{.*}}:24:22: cudaMemcpy: async on stream 0, waited for before line 25
// REPORT-NEXT: {{.*}}:33:8: cudaMemcpy: async on stream 1, waited for before line 37
