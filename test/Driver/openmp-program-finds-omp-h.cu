// Clang's packages ship no omp.h; with -fopenmp the tool searches gcc's
// include folder last, so omp.h is found and Clang's own headers still win.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu -- -fopenmp
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc -Xcompiler -fopenmp %t.out.cu
#include <omp.h>
#include <cstdio>

__global__ void fill(float *p) { p[threadIdx.x] = 1.f; }

int main() {
  float h[32], *d;
  cudaMalloc(&d, sizeof h);
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
#pragma omp parallel for
  for (int i = 0; i < 32; ++i)
    h[i] += omp_get_max_threads() > 0;
  printf("%f\n", h[0]);
  cudaFree(d);
}

// CHECK: {{ *}}cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream(0));
