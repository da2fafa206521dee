// std::copy and std::fill read and write the ranges they are given, through
// pointers or vector iterators: filling another buffer overlaps a pending
// copy, filling the buffer being copied waits.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <algorithm>
#include <vector>

int main() {
  std::vector<float> v(64), w(64);
  float h[64], *d;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaMemcpy(d, v.data(), 64 * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, v.data(), 64 * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  std::fill(w.begin(), w.end(), 1.0f);
  // CHECK: std::fill(w.begin(), w.end(), 1.0f);
  std::copy(w.begin(), w.end(), h);
  // CHECK: std::copy(w.begin(), w.end(), h);
  std::fill(v.begin(), v.end(), 2.0f);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: v is written below (read by cudaMemcpy on line 16)
  // CHECK-NEXT: std::fill(v.begin(), v.end(), 2.0f);
  cudaFree(d);
  return (int)h[0];
}
