// A host write at the top of a loop body conflicts with the copy that the
// previous iteration left pending (write after read, over the back edge).
// The wait goes right before that write and covers the previous
// iteration's copy by its event, not the kernel queued after it. The last
// iteration's ops stay pending after the loop until a statement needs them.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

int main() {
  float *h = (float *)calloc(64, sizeof(float)), *d;
  cudaMalloc(&d, 64 * sizeof(float));
  for (int it = 0; it < 10; ++it) {
    h[0] = it;
    // CHECK: cudaEventSynchronize(sa_event([[E:[0-9]+]]));  // streamalloc: h is written below (read by cudaMemcpy on line 24)
    // CHECK-NEXT: h[0] = it;
    cudaMemcpy(d, h, 64 * sizeof(float), cudaMemcpyHostToDevice);
    // CHECK: cudaMemcpyAsync(d, h, 64 * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
    // CHECK-NEXT: cudaEventRecord(sa_event([[E]]), sa_stream({{[0-9]+}}));  // streamalloc: marks the end of cudaMemcpy for the host
    step<<<1, 64>>>(d);
    // CHECK: step<<<1, 64, 0, sa_stream({{[0-9]+}})>>>(d);
    printf("iteration %d\n", it);
    // CHECK: printf("iteration %d\n", it);
  }
  printf("done\n");
  // CHECK: printf("done\n");
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by kernel `step` on line 27)
  // CHECK-NEXT: cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}:24:5: cudaMemcpy: async on stream {{[0-9]+}}, waited for before line 21
// REPORT: {{.*}}:21: wait (conflict) for line 24: h is written below (read by cudaMemcpy on line 24); it waits for work queued on earlier passes of its loop, which the original completed with its blocking cudaMemcpy on line 24: where that copy blocked the host, this wait does instead, and on a pass before any such copy it finds nothing pending and returns at once
