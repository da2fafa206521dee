// A checking macro that uses its argument in the condition and again in an
// error branch that ends the program expands the op twice, but the second
// expansion runs only on the way out: it is not an op of its own. The op in
// the condition runs asynchronously, and the text both expansions share is
// rewritten once; on the error path the status is reported by the op run
// again on the same stream (as an asynchronous op reports errors). The
// report lists the op once.
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
    exit(1);                                                              \
  }

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[32] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  // CHECK: CHECK(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, sa_stream(0)));
  inc<<<1, 32>>>(d);
  // CHECK: inc<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:28:9: cudaMemcpy: async on stream 0, waited for before line {{[0-9]+}}
// REPORT-NEXT: {{.*}}:30:3: inc: async on stream 0, waited for before line {{[0-9]+}}
