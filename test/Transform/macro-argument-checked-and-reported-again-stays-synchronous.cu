// A checking macro that uses its argument in the condition and again in an
// error branch that goes on (it reports and does not exit) expands the op
// twice, and both run on the normal path: the expansion in the condition
// cannot run asynchronously while the `if` holds other GPU work (its own
// second expansion), so the expansions would not run alike and both stay
// synchronous; the report says which expansion and why.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

#define CHECK(status)                                                     \
  if (status != cudaSuccess) {                                            \
    fprintf(stderr, "error %d: %s\n", status, cudaGetErrorString(status)); \
  }

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[32] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  // CHECK: CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  inc<<<1, 32>>>(d);
  // CHECK: inc<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:26:9: cudaMemcpy: left synchronous: it is spelled in a macro argument that is expanded more than once, and its expansions would not run alike (the one on line 26 stays synchronous: in the condition of an `if` that holds other GPU work {{.*}})
// REPORT-NEXT: {{.*}}:26:9: cudaMemcpy: left synchronous: it is spelled in a macro argument that is expanded more than once, and its expansions would not run alike (the one on line 26 stays synchronous: in the condition of an `if` that holds other GPU work {{.*}})
// REPORT-NEXT: {{.*}}:26:9: cudaMemcpy: left synchronous: it is spelled in a macro argument that is expanded more than once, and its expansions would not run alike (the one on line 26 stays synchronous: in the condition of an `if` that holds other GPU work {{.*}})
