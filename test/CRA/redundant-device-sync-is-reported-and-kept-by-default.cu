// A cudaDeviceSynchronize() with ops pending whose results no host statement
// reads before the tool's own wait is redundant: the report says so (and that
// --drop-redundant-syncs would remove it), but without the option the output
// keeps it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
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
  // CHECK-NEXT: {{^  }}cudaDeviceSynchronize();
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[1]);
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}:26: cudaDeviceSynchronize(): redundant (--drop-redundant-syncs removes it): no host access before the next sync conflicts with the 2 ops pending here (lines 24, 25); the tool's own waits cover them
// REPORT: note: --drop-redundant-syncs is off by default: removing a sync changes what timing code around it measures (e.g. `cudaDeviceSynchronize(); t1 = now();`)
