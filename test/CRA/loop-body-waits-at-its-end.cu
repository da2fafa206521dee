// The loop condition reads what the body's copy writes, and the condition
// runs between iterations: the body waits for its ops at its end (not before
// the unrelated host work inside it).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

int main() {
  float h[64] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  while (h[0] < 10.0f) {
    step<<<1, 64>>>(d);
    // CHECK: step<<<1, 64, 0, sa_stream({{[0-9]+}})>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
    printf("step\n");
    // CHECK: printf("step\n");
  }
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work started in this block
  // CHECK-NEXT: }
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemcpy on line 17)
  // CHECK-NEXT: cudaFree(d);
  return 0;
}

// REPORT: {{.*}}: 3 of 3 GPU ops made asynchronous on {{[0-9]+}} stream(s), 2 wait(s) inserted
// REPORT: {{.*}}:25: wait (block-end) for lines 19, 21: finish GPU work started in this block
