// The buffer is used by a kernel that a helper launches. The helper returns
// with its kernel pending on its stream, and the call waits for the pending
// allocation (the helper's work reads the buffer); the stream-ordered release
// after the call goes on the helper's stream, after everything that uses the
// buffer. A helper that frees the buffer itself keeps the whole group
// synchronous.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *p) { p[threadIdx.x] = threadIdx.x; }

static void compute(float *buf) {
  fill<<<1, 32>>>(buf);
  // CHECK: fill<<<1, 32, 0, sa_stream([[H:[0-9]+]])>>>(buf);
}

static void compute_and_release(float *buf) {
  fill<<<1, 32>>>(buf);
  cudaFree(buf);
  // CHECK: cudaFree(buf);
}

int main() {
  float *d, *e, h[32];
  cudaMalloc(&d, sizeof(h));
  // CHECK: cudaMallocAsync(&d, sizeof(h), sa_stream([[S:[0-9]+]]));
  cudaMalloc(&e, sizeof(h));
  // CHECK: cudaMalloc(&e, sizeof(h));
  compute(d);
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: d is written below (written by cudaMalloc on line [[#]])
  // CHECK-NEXT: compute(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(d);
  // CHECK: sa_free_async(d, sa_stream([[H]]));
  compute_and_release(e);
  printf("%f\n", h[31]);
  return 0;
}

// REPORT-DAG: {{.*}}:[[#]]:3: cudaMalloc: async on stream {{.*}}
// REPORT-DAG: {{.*}}:[[#]]:3: cudaFree: async on stream {{.*}}
// REPORT-DAG: {{.*}}:[[#]]:3: cudaMalloc: left synchronous: not stream-ordered: it is released in `compute_and_release` (line [[#]])
