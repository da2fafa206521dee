// Nested loops that read a buffer copied back before them, on every
// iteration: the wait goes once before the outer loop, not into the inner
// body (where it would run rows * cols times). In the second nest the outer
// body launches kernels that write the device buffer only, so the host loop
// over h inside it needs no wait; the copy after the nest follows the
// kernels on their stream.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void fill(float *x, float v) { x[blockIdx.x * blockDim.x + threadIdx.x] = v; }

int main() {
  const int rows = 8, cols = 64;
  float *h = (float *)malloc(rows * cols * sizeof(float)), *d;
  cudaMalloc(&d, rows * cols * sizeof(float));
  fill<<<rows, cols>>>(d, 1.5f);
  cudaMemcpy(h, d, rows * cols * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      sum += h[r * cols + c];
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: for (int r = 0; r < rows; ++r)
  // CHECK-NEXT: for (int c = 0; c < cols; ++c)
  // CHECK-NEXT: sum += h[r * cols + c];
  printf("%f\n", sum);
  for (int r = 0; r < rows; ++r) {
    fill<<<1, cols>>>(d + r * cols, (float)r);
    for (int c = 0; c < cols; ++c)
      h[r * cols + c] += 1.0f;
  // CHECK: fill<<<1, cols, 0, sa_stream({{[0-9]+}})>>>(d + r * cols, (float)r);
  // CHECK-NEXT: for (int c = 0; c < cols; ++c)
  // CHECK-NEXT: h[r * cols + c] += 1.0f;
  }
  cudaMemcpy(h, d, rows * cols * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[rows * cols - 1]);
  // CHECK: cudaMemcpyAsync(h, d, rows * cols * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: printf("%f\n", h[rows * cols - 1]);
  cudaFree(d);
  free(h);
  return 0;
}
