// The destructors of a block's locals run at its closing brace and may read
// anything: a copy still pending there is waited for before the `}`.
// (Without this, an H200 run with pinned h and a slow kernel before the copy
// printed "first 7.000000" instead of "first 1.000000".)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

struct Report {
  const float *p;
  ~Report() { printf("first %f\n", p[0]); }
};

__global__ void produce(float *x) { x[0] = 1.0f; }

int main(int argc, char **argv) {
  float *h, *d;
  cudaMallocHost(&h, 64 * sizeof(float));
  h[0] = 7.0f;
  cudaMalloc(&d, 64 * sizeof(float));
  if (argc > 0) {
    Report r{h};
    produce<<<1, 1>>>(d);
    cudaMemcpy(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  }
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work started in this block
  // CHECK-NEXT: }
  cudaFreeHost(h);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:30: wait (block-end) for lines 27, 28: finish GPU work started in this block
