// The elements of a std::vector are a heap object the vector owns, named
// after the vector: `v.data()`, `&v[0]` and `v.begin()` all point into it,
// and two vectors are two objects.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
#include <vector>

int main() {
  std::vector<float> v(64), w(64, 1.0f);
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaMemcpy(d, v.data(), 64 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(&w[0], d, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(d, &*v.begin(), 64 * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: op0 line 13:3 cudaMemcpy reads: v; writes: d
  // CHECK-NEXT: op1 line 14:3 cudaMemcpy reads: d; writes: w
  // CHECK-NEXT: op2 line 15:3 cudaMemcpy reads: v; writes: d
  return 0;
}
