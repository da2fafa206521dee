// Single-statement bodies of if, else and while are blocks of their own: an
// op in one runs asynchronously and a wait can go inside one. The rewriter
// puts such a body in braces: `{` after the `)` or `else`, `}` after the
// body's `;` (on a line of its own when the line ends there). A body that
// needs neither stays as it is.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

int main(int argc, char **argv) {
  float *h = (float *)calloc(32, sizeof(float)), *d, *e;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMalloc(&e, 32 * sizeof(float));
  if (argc > 1)
    cudaMemset(d, 0, 32 * sizeof(float));
  else
    fill<<<1, 32>>>(d, 1.0f);
  // CHECK: if (argc > 1) {
  // CHECK-NEXT: cudaMemsetAsync(d, 0, 32 * sizeof(float), sa_stream({{[0-9]+}}));
  // CHECK-NEXT: }
  // CHECK-NEXT: else {
  // CHECK-NEXT: fill<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d, 1.0f);
  // CHECK-NEXT: }
  int n = argc;
  while (n-- > 0)
    fill<<<1, 32>>>(e, (float)n);
  // CHECK: while (n-- > 0) {
  // CHECK-NEXT: fill<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(e, (float)n);
  // CHECK-NEXT: }
  cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  if (argc > 2) printf("%f\n", h[0]);
  else printf("quiet\n");
  // CHECK: if (argc > 2) { cudaStreamSynchronize(sa_stream({{[0-9]+}})); /* streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}}) */ printf("%f\n", h[0]);
  // CHECK-NEXT: }
  // CHECK-NEXT: else printf("quiet\n");
  float x = 0.0f;
  if (argc > 3)
    x = 1.0f;
  else
    x = h[1];
  // CHECK: if (argc > 3)
  // CHECK-NEXT: x = 1.0f;
  // CHECK-NEXT: else {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line {{[0-9]+}})
  // CHECK-NEXT: x = h[1];
  // CHECK-NEXT: }
  printf("%f\n", x);
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemset on line {{[0-9]+}})
  // CHECK-NEXT: cudaFree(d);
  cudaFree(e);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: e is written below (written by kernel `fill` on line {{[0-9]+}})
  // CHECK-NEXT: cudaFree(e);
  free(h);
  return 0;
}
