// Each host allocation site is a memory object of its own, named after what
// it is first assigned to: malloc, calloc, realloc, aligned_alloc,
// posix_memalign (an out-parameter) and new[]. A copy from one of them reads
// that object only.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
#include <cstdlib>

int main() {
  float *a = (float *)malloc(64), *b = (float *)calloc(16, 4), *c = new float[16];
  float *r = (float *)realloc(a, 128);
  float *al = (float *)aligned_alloc(64, 64);
  void *pm;
  posix_memalign(&pm, 64, 64);
  float *d;
  cudaMalloc(&d, 64);
  cudaMemcpy(d, a, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(d, b, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(d, c, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(d, r, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(d, al, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(d, pm, 64, cudaMemcpyHostToDevice);
  // CHECK-LABEL: summary of main (host, line 10)
  // CHECK: op0 line 18:3 cudaMemcpy reads: a; writes: d
  // CHECK-NEXT: op1 line 19:3 cudaMemcpy reads: b; writes: d
  // CHECK-NEXT: op2 line 20:3 cudaMemcpy reads: c; writes: d
  // CHECK-NEXT: op3 line 21:3 cudaMemcpy reads: r; writes: d
  // CHECK-NEXT: op4 line 22:3 cudaMemcpy reads: al; writes: d
  // CHECK-NEXT: op5 line 23:3 cudaMemcpy reads: pm; writes: d
  return 0;
}
