// Three independent uploads: with --max-streams=2 the third reuses the
// stream idle the longest (stream 0); --max-streams=1 keeps all GPU work in
// program order on one stream; the default bound gives each its own.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --max-streams=2 --dump=schedule | %FileCheck %s --check-prefix=TWO
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --max-streams=1 --dump=schedule | %FileCheck %s --check-prefix=ONE
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=schedule | %FileCheck %s --check-prefix=DEFAULT
// RUN: %not %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --max-streams=0 2>&1 | %FileCheck %s --check-prefix=ZERO
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --max-streams=2 -o %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

int main() {
  float h[96] = {1}, *d0, *d1, *d2;
  cudaMalloc(&d0, 32 * sizeof(float));
  cudaMalloc(&d1, 32 * sizeof(float));
  cudaMalloc(&d2, 32 * sizeof(float));
  cudaMemcpy(d0, h, 32 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d1, h + 32, 32 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d2, h + 64, 32 * sizeof(float), cudaMemcpyHostToDevice);
  h[0] = 0;
  printf("%f\n", h[0]);
  cudaFree(d0);
  cudaFree(d1);
  cudaFree(d2);
  return 0;
}

// TWO: function main: 2 stream(s), 0 event(s)
// TWO-NEXT:   op0 line 19 cudaMemcpy -> stream 0
// TWO-NEXT:   op1 line 20 cudaMemcpy -> stream 1
// TWO-NEXT:   op2 line 21 cudaMemcpy -> stream 0
// ONE: function main: 1 stream(s), 0 event(s)
// ONE-NEXT:   op0 line 19 cudaMemcpy -> stream 0
// ONE-NEXT:   op1 line 20 cudaMemcpy -> stream 0
// ONE-NEXT:   op2 line 21 cudaMemcpy -> stream 0
// DEFAULT: function main: 3 stream(s), 0 event(s)
// ZERO: streamalloc: error: --max-streams must be at least 1
