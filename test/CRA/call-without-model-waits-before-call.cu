// A call to a function with no body in this file and no API model (it is
// defined in another translation unit) may touch any memory: the host waits
// for pending GPU work right before the call (not earlier), and the wait's
// comment names the callee.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

void log_progress(const char *stage);

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int *h = (int *)calloc(32, sizeof(int)), *d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemcpy(d, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, 32 * sizeof(int), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  inc<<<1, 32>>>(d);
  // CHECK: inc<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  printf("launched\n");
  // CHECK: printf("launched\n");
  log_progress("kernel");
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: the next statement may touch what cudaMemcpy on line 21 uses (call to `log_progress`, which has no model or body)
  // CHECK-NEXT: log_progress("kernel");
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}:27: wait (conflict) for lines 21, 23: the next statement may touch what cudaMemcpy on line 21 uses (call to `log_progress`, which has no model or body)
