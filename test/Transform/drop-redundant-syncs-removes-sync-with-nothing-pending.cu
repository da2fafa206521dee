// A cudaDeviceSynchronize() at which no GPU op is pending is removed (the
// default); a comment says why in its place. --drop-redundant-syncs, the old
// opt-in flag, is still accepted and changes nothing; with --keep-syncs it is
// an error.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --drop-redundant-syncs --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not='{{^ *}}cudaDeviceSynchronize'
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.default.cu
// RUN: diff %t.out.cu %t.default.cu
// RUN: %not %streamalloc --stream-ordered-alloc=off %t.cu --keep-syncs --drop-redundant-syncs 2>&1 | %FileCheck %s --check-prefix=BOTH
// BOTH: {{.*}}--keep-syncs and --drop-redundant-syncs contradict each other
#include <cstdio>
#include <cstdlib>

__global__ void fill(int *x) { x[threadIdx.x] = threadIdx.x; }

int main() {
  int h[32], *d;
  cudaMalloc(&d, sizeof h);
  cudaDeviceSynchronize();
  // CHECK: cudaMalloc(&d, sizeof h);
  // CHECK-NEXT: {{^  }}// streamalloc: removed a redundant cudaDeviceSynchronize() (no GPU op is pending here; see the report)
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[31]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:23: cudaDeviceSynchronize(): redundant, removed: no GPU op is pending here
// REPORT: note: redundant syncs were removed (--keep-syncs keeps them); a sync followed by a clock read in the same pass stays, and before every clock read the tool waits for the GPU work the original had finished there (--timers=keep)
