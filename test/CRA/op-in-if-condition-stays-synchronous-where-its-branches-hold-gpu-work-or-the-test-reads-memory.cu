// A copy in an `if` condition stays synchronous when the `if` holds other GPU
// work (an op in a branch would be ordered after the whole statement), when
// the condition compares its status with something that is not a constant,
// and in the condition of an `else if` (evaluated only on one path); the
// report says why. (The kernel in the branch runs asynchronously; the
// synchronous copy after it orders with it on the legacy stream.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  int h[16] = {0}, *d;
  cudaError_t expected = cudaSuccess;
  cudaMalloc(&d, sizeof h);
  if (cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess)
    fill<<<1, 16>>>(d);
  // CHECK: if (cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess) {
  // CHECK-NEXT: fill<<<1, 16, 0, sa_stream(0)>>>(d);
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != expected)
    printf("failed\n");
  // CHECK: if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != expected)
  if (h[0] > 100)
    printf("large\n");
  else if (cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess)
    printf("failed\n");
  // CHECK: else if (cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess)
  printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:21:7: cudaMemcpy: left synchronous: in the condition of an `if` that holds other GPU work (it would be ordered after the whole `if`); this version keeps it synchronous
// REPORT: {{.*}}:25:7: cudaMemcpy: left synchronous: in the condition of an `if` that does more than compare its status with a constant; this version keeps it synchronous
// REPORT: {{.*}}:30:12: cudaMemcpy: left synchronous: not a statement of its own in a block (in a condition, {{.*}}
