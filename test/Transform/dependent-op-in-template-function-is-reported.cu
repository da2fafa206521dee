// A GPU op whose arguments depend on a template parameter is not a resolved
// call in the template's body; it is still found, left synchronous and
// reported, and a dependent launch of a kernel template is reported under
// the kernel's name.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

template <typename T> __global__ void scale(T *x, T k) { x[threadIdx.x] *= k; }

template <typename T> void upload(T *d, const T *h, int n) {
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  scale<<<1, 32>>>(d, T(2));
  // CHECK: scale<<<1, 32>>>(d, T(2));
}

int main() {
  float h[32] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  upload(d, h, 32);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}: 0 of 2 GPU ops made asynchronous on 0 stream(s), 0 wait(s) inserted
// REPORT-NEXT: {{.*}}:16:3: cudaMemcpy: left synchronous: inside a template; this version does not transform templated code
// REPORT-NEXT: {{.*}}:18:3: scale: left synchronous: inside a template; this version does not transform templated code
