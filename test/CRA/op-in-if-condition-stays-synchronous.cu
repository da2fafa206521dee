// An op in the condition of an `if` is not a statement of its own: this
// version keeps it synchronous (its error code is tested right away) and the
// report says why. Pending work before the `if` is waited for before it, since
// the synchronous copy touches the same buffer.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

int main() {
  int h[16] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  if (cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess) {
    // CHECK: if (cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess) {
    printf("copy failed\n");
    return 1;
  }
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  // CHECK: if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
  printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}: 0 of 2 GPU ops made asynchronous on 0 stream(s), 0 wait(s) inserted
// REPORT-NEXT: {{.*}}:16:7: cudaMemcpy: left synchronous: not a statement of its own in a block (in a condition, a loop header, a jump, a try block, an OpenMP region or a switch with nested case labels); this version keeps such ops synchronous
// REPORT-NEXT: {{.*}}:21:7: cudaMemcpy: left synchronous: not a statement of its own in a block (in a condition, a loop header, a jump, a try block, an OpenMP region or a switch with nested case labels); this version keeps such ops synchronous
