// A function template that this file never instantiates has no body to
// analyse: its GPU ops are left as written, with that reason.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

template <typename T> void download(T *h, const T *d, int n) {
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
}

int main() {
  printf("nothing to do\n");
  return 0;
}

// CHECK: {{.*}}: 0 of 1 GPU ops made asynchronous on 0 stream(s), 0 wait(s) inserted
// CHECK-NEXT: {{.*}}:12:3: cudaMemcpy: left synchronous: inside a template: never instantiated in this file
// CHECK-NEXT: {{.*}}:11: template `download`: left unchanged: never instantiated in this file
