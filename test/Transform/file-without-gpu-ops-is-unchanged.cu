// A file with kernels and CUDA calls but no GPU op to make asynchronous comes
// out byte for byte identical to its input: no pool, no release, no edits.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
#include <cstdio>
#include <cstdlib>

__global__ void never_launched(float *x) { x[0] = 1.0f; }

int main() {
  float *d;
  cudaMalloc(&d, 16);
  cudaDeviceSynchronize();
  int *h = (int *)malloc(4 * sizeof(int));
  for (int i = 0; i < 4; ++i)
    h[i] = i;
  printf("%d\n", h[3]);
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}: 0 of 0 GPU ops made asynchronous on 0 stream(s), 0 wait(s) inserted
// REPORT-NOT: wait
