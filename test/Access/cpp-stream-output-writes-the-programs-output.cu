// `std::cout << ...` writes the program's output and reads only what it
// prints: a pending kernel that does not print does not wait for it. One that
// prints does once the original had finished it (the text must stay in
// order); before the original's next sync its text came after the host's, as
// it does without a wait.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <iostream>

__global__ void quiet(float *x) { x[threadIdx.x] = 1.0f; }
__global__ void loud(float *x) { printf("%f\n", x[threadIdx.x]); }

int main() {
  float *d, x;
  cudaMalloc(&d, 64 * sizeof(float));
  quiet<<<1, 64>>>(d);
  // CHECK: quiet<<<1, 64, 0, sa_stream({{[0-9]+}})>>>(d);
  std::cout << "launched " << 64 << std::endl;
  // CHECK: std::cout << "launched " << 64 << std::endl;
  loud<<<1, 1>>>(d);
  // CHECK: loud<<<1, 1, 0, sa_stream({{[0-9]+}})>>>(d);
  std::cout << "running" << std::endl;
  // CHECK: {{^  }}std::cout << "running" << std::endl;
  cudaMemcpy(&x, d, sizeof x, cudaMemcpyDeviceToHost);
  std::cout << "done" << std::endl;
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}})); // streamalloc: the program's output is written below (written by kernel `loud` on line 24)
  // CHECK-NEXT: {{^  }}std::cout << "done" << std::endl;
  std::cout << x << std::endl;
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}})); // streamalloc: x is read below (written by cudaMemcpy on line 28)
  // CHECK-NEXT: {{^  }}std::cout << x << std::endl;
  cudaFree(d);
  return 0;
}
