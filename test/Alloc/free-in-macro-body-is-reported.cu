// A cudaFree spelled inside a macro body cannot be rewritten: it stays
// synchronous, so its buffer's cudaMalloc stays synchronous too (memory from
// cudaMallocAsync is not freed with cudaFree here, nor the other way round),
// the host waits before the release as before, and the report names the macro.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

#define RELEASE(p) cudaFree(p)

__global__ void fill(float *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  float *d, *e;
  cudaMalloc(&d, 128);
  cudaMalloc(&e, 128);
  // CHECK: cudaMalloc(&d, 128);
  // CHECK-NEXT: cudaMallocAsync(&e, 128, sa_stream({{[0-9]+}}));
  fill<<<1, 32>>>(d);
  fill<<<1, 32>>>(e);
  RELEASE(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by kernel `fill` on line [[#]])
  // CHECK-NEXT: RELEASE(d);
  cudaFree(e);
  // CHECK: sa_free_async(e, sa_stream({{[0-9]+}}));
  printf("done\n");
  return 0;
}

// REPORT-DAG: {{.*}}:[[#]]:3: cudaMalloc: left synchronous: not stream-ordered: its cudaFree on line [[#]] stays synchronous: spelled inside the body of macro `RELEASE`
// REPORT-DAG: {{.*}}:[[#]]:3: cudaFree: left synchronous: not stream-ordered: its cudaFree on line [[#]] stays synchronous: spelled inside the body of macro `RELEASE`
