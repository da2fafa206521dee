// The analysis tracks only the ops it makes asynchronous. A launch it keeps
// synchronous (here a launch spelled in a macro body) still runs
// asynchronously to the host on the legacy default stream, so the program's
// sync after it may be what protects the host's read of managed memory: it is
// needed. A later sync after a kept sync at the top level of main is decided
// as usual: the kept sync completed the untracked launch.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(int *x, int v) { x[threadIdx.x] = v; }
#define FILL_ONES(p) fill<<<1, 32>>>(p, 1)

int main(int argc, char **argv) {
  int *m, *d, h[32];
  cudaMallocManaged(&m, 32 * sizeof(int));
  cudaMalloc(&d, sizeof h);
  if (argc > 1) FILL_ONES(m);
  cudaDeviceSynchronize();
  // CHECK: if (argc > 1) FILL_ONES(m);
  // CHECK-NEXT: {{^  }}cudaDeviceSynchronize();
  fill<<<1, 32>>>(d, 2);
  cudaDeviceSynchronize();
  // CHECK: fill<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d, 2);
  // CHECK-NEXT: {{^  }}// streamalloc: removed a redundant cudaDeviceSynchronize() (the tool's own waits cover the 1 op pending here; see the report)
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", m[0], h[0]);
  cudaFree(d);
  cudaFree(m);
  return 0;
}

// REPORT: {{.*}}:23: cudaDeviceSynchronize(): needed: GPU work the tool does not track may be running here (kernel `fill` on line 22 stays on the legacy default stream, where the tool does not track it)
// REPORT-NEXT: {{.*}}:27: cudaDeviceSynchronize(): redundant, removed: no host access before the next sync conflicts with the 1 op pending here (line 26); the tool's own waits cover them
