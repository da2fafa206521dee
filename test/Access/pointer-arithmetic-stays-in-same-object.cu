// `h + off`, `&h[i]` and a copy of the pointer all stay inside the
// allocation h points to: a copy from the second half of h and a host write
// to its first element (through the copied pointer) conflict.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=accesses > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

int main() {
  const int n = 1024;
  float *h = (float *)calloc(n, sizeof(float)), *d;
  cudaMalloc(&d, n * sizeof(float));
  const int off = n / 2;
  cudaMemcpy(d, h + off, off * sizeof(float), cudaMemcpyHostToDevice);
  // DUMP: op0 line 19:3 cudaMemcpy effects: h:R, d:W
  // CHECK: cudaMemcpyAsync(d, h + off, off * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  cudaMemcpy(d + off, &h[1], sizeof(float), cudaMemcpyHostToDevice);
  // DUMP-NEXT: op1 line 22:3 cudaMemcpy effects: h:R, d:W
  // CHECK: cudaMemcpyAsync(d + off, &h[1], sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  float *first = h;
  first[0] = 5.0f;
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is written below (read by cudaMemcpy on line 19)
  // CHECK-NEXT: first[0] = 5.0f;
  // DUMP: line 26: host h:W
  printf("%f\n", first[0]);
  cudaFree(d);
  free(h);
  return 0;
}
