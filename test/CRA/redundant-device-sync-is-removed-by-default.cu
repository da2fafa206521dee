// A cudaDeviceSynchronize() with ops pending whose results no host statement
// reads before the tool's own wait is redundant: it is removed by default, a
// comment says why in its place, and the report lists it. --keep-syncs keeps
// it (and the report says so).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off --keep-syncs %t.cu -o %t.keep.cu --report-file=%t.keep.report
// RUN: %FileCheck %s --check-prefix=KEEP < %t.keep.cu
// RUN: %FileCheck %s --check-prefix=KEEP-REPORT < %t.keep.report
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

int main() {
  const int n = 256;
  float *h = (float *)malloc(n * sizeof(float)), *d;
  for (int i = 0; i < n; ++i) h[i] = i;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<1, n>>>(d, n);
  cudaDeviceSynchronize();
  // CHECK: scale<<<1, n, 0, sa_stream({{[0-9]+}})>>>(d, n);
  // CHECK-NEXT: {{^  }}// streamalloc: removed a redundant cudaDeviceSynchronize() (the tool's own waits cover the 2 ops pending here; see the report)
  // KEEP: scale<<<1, n, 0, sa_stream({{[0-9]+}})>>>(d, n);
  // KEEP-NEXT: {{^  }}cudaDeviceSynchronize();
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[1]);
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}:29: cudaDeviceSynchronize(): redundant, removed: no host access before the next sync conflicts with the 2 ops pending here (lines 27, 28); the tool's own waits cover them
// REPORT: note: redundant syncs were removed (--keep-syncs keeps them); a sync followed by a clock read in the same pass stays, and before every clock read the tool waits for the GPU work the original had finished there (--timers=keep)
// KEEP-REPORT: {{.*}}:29: cudaDeviceSynchronize(): redundant, kept: no host access before the next sync conflicts with the 2 ops pending here (lines 27, 28); the tool's own waits cover them; kept: --keep-syncs
// KEEP-REPORT-NOT: note: redundant syncs
