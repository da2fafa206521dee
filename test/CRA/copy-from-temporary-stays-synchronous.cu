// A temporary dies at the end of its full-expression, before an asynchronous
// copy out of it may have run: a copy that reads a temporary stays
// synchronous, and the report says why. (The analysis once gave temporaries
// no memory object at all, so such a copy read "nothing" and went async.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

struct Coeffs {
  float v[4];
};

int main() {
  float *d;
  cudaMalloc(&d, sizeof(Coeffs));
  cudaMemcpy(d, Coeffs{{1, 2, 3, 4}}.v, sizeof(Coeffs), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpy(d, Coeffs{{[{][{]}}1, 2, 3, 4{{[}][}]}}.v, sizeof(Coeffs), cudaMemcpyHostToDevice);
  printf("uploaded\n");
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:20:3: cudaMemcpy: left synchronous: it uses a temporary object that is destroyed at the end of the statement
