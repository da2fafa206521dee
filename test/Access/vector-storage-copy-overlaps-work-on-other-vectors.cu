// A copy out of a std::vector's elements is pending while the host builds and
// fills other vectors; only touching that vector's elements waits (here a
// push_back, which may reallocate them).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <vector>

int main() {
  std::vector<float> points(1024, 1.0f);
  float *d;
  cudaMalloc(&d, 1024 * sizeof(float));
  cudaMemcpy(d, points.data(), 1024 * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, points.data(), 1024 * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  std::vector<float> stats(16);
  // CHECK: std::vector<float> stats(16);
  for (size_t i = 0; i < stats.size(); ++i)
    stats[i] = 0.5f * i;
  // CHECK: for (size_t i = 0; i < stats.size(); ++i)
  // CHECK: stats[i] = 0.5f * i;
  points.push_back(stats[3]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: points is written below (read by cudaMemcpy on line 15)
  // CHECK-NEXT: points.push_back(stats[3]);
  cudaFree(d);
  return 0;
}
