// The cost model (bench/pin-cost.cu, docs/results.md) leaves a small buffer
// that only synchronous copies use pageable: pinning it costs more than the
// faster copy saves. --pin=alloc pins it anyway.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.report
// RUN: %streamalloc %t.cu -o %t.alloc.cu --pin=alloc
// RUN: %FileCheck %s --check-prefix=ALLOC < %t.alloc.cu
// RUN: %nvcc %t.alloc.cu
#include <cstdio>
#include <cstdlib>

int main() {
  float *small = (float *)malloc(64 * sizeof(float));
  // ALLOC: float *small = (float *)sa_pinned_malloc(64 * sizeof(float));
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  if (cudaMemcpy(small, d, 64 * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  printf("%f\n", small[0]);
  cudaFree(d);
  free(small);
  return 0;
}

// CHECK: {{.*}}:15: host buffer `small`: pageable: pinning it costs more than its 1 copy would save (measured cost model)
