// A pragma applies to the statement after it. Parsed without -fopenmp, an
// OpenMP pragma is only text before its loop, and a wait inserted before the
// loop must go above the pragma (and its continuation lines), or the output
// would not compile with OpenMP on: `#pragma omp parallel for` must be
// followed by a loop.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc -Xcompiler -fopenmp %t.out.cu
#include <cstdio>

int main() {
  const int n = 1 << 20;
  float *h, *e = new float[n];
  cudaMallocHost(&h, n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemset(d, 0, n * sizeof(float));
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: h is read below (written by cudaMemcpy on line 20)
  // CHECK-NOT: {{[a-z]}}
  // CHECK: #pragma omp parallel for \
  // CHECK-NEXT: schedule(static)
  // CHECK-NEXT: for (int i = 0; i < n; ++i)
#pragma omp parallel for \
    schedule(static)
  for (int i = 0; i < n; ++i)
    e[i] = h[i];
  printf("%f\n", e[3]);
  cudaFreeHost(h);
  delete[] e;
  cudaFree(d);
  return 0;
}
