// An OpenMP region's body is host work like any other statement: its threads
// read and write the program's buffers before the region ends. A region that
// reads what a pending copy writes (here page-locked memory, where the copy
// is truly asynchronous) waits for the copy before it starts; a region that
// touches only other memory overlaps it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report -- -fopenmp
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc -Xcompiler -fopenmp %t.out.cu
#include <cstdio>

__global__ void twice(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

int main() {
  const int n = 1 << 20;
  float *h, *other;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMallocHost(&other, n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemset(d, 0, n * sizeof(float));
  twice<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream([[S:[0-9]+]]));
  // CHECK-NOT: Synchronize
  // CHECK: other[i] = i;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    other[i] = i;
  double sum = 0;
  // CHECK: double sum = 0;
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: h is read below (written by cudaMemcpy on line 28)
  // CHECK-NOT: {{[a-z]}}
  // CHECK: #pragma omp parallel for reduction(+ : sum)
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i)
    sum += h[i] + other[i];
  printf("%f\n", sum);
  cudaFreeHost(h);
  cudaFreeHost(other);
  cudaFree(d);
  return 0;
}
