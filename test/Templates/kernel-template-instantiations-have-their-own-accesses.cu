// Launches of a kernel template from plain host code (element type deduced,
// one argument given) are ops like any other, and each instantiation's
// accesses come from its own body: `touch<true>` writes `out`, `touch<false>`
// does not, so the copy of `b` after the second launch waits only for the
// first, and not for the kernel just before it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

template <bool WriteOut, typename T> __global__ void touch(T *in, T *out) {
  if constexpr (WriteOut)
    out[threadIdx.x] = in[threadIdx.x];
  else
    in[threadIdx.x] += T(1);
}

int main() {
  float h[32] = {0}, g[32] = {0}, *a, *b;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(b, g, sizeof g, cudaMemcpyHostToDevice);
  touch<true><<<1, 32>>>(a, b);
  // CHECK: touch<true><<<1, 32, 0, sa_stream(1)>>>(a, b);
  // CHECK-NEXT: cudaEventRecord(sa_event(1), sa_stream(1));  // streamalloc: marks the end of touch for another stream
  cudaMemcpy(g, b, sizeof g, cudaMemcpyDeviceToHost);
  touch<false><<<1, 32>>>(a, b);
  cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaStreamWaitEvent(sa_stream(0), sa_event(1), 0);  // streamalloc: order after touch on line 27 (another stream)
  // CHECK-NEXT: touch<false><<<1, 32, 0, sa_stream(0)>>>(a, b);
  // CHECK-NEXT: cudaStreamWaitEvent(sa_stream(2), sa_event(0), 0);  // streamalloc: order after cudaMemcpy on line 25 (another stream)
  // CHECK-NEXT: cudaStreamWaitEvent(sa_stream(2), sa_event(1), 0);  // streamalloc: order after touch on line 27 (another stream)
  // CHECK-NEXT: cudaMemcpyAsync(h, b, sizeof h, cudaMemcpyDeviceToHost, sa_stream(2));
  printf("%f %f\n", h[0], g[0]);
  // CHECK: cudaStreamSynchronize(sa_stream(1));  // streamalloc: g is read below (written by cudaMemcpy on line 30)
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream(2));  // streamalloc: g is read below (written by cudaMemcpy on line 30)
  // CHECK-NEXT: printf("%f %f\n", h[0], g[0]);
  cudaFree(a);
  cudaFree(b);
  return 0;
}

// REPORT: {{.*}}:27:3: touch: async on stream 1, waited for before line 38
// REPORT: {{.*}}:31:3: touch: async on stream 0, waited for before line {{[0-9]+}}
// REPORT-NEXT: {{.*}}:32:3: cudaMemcpy: async on stream 2, waited for before line 38
