// An array of pointers (also two-dimensional) holds whatever is stored in any
// of its elements (whole-array): `d[t][l]` points to the cudaMalloc'd
// buffers, not Unknown.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
#include <cstdlib>

int main() {
  float *h[2], *d[2][3];
  for (int t = 0; t < 2; ++t) {
    h[t] = (float *)malloc(64);
    for (int l = 0; l < 3; ++l)
      cudaMalloc(&d[t][l], 64);
  }
  cudaMemcpy(d[1][2], h[1], 64, cudaMemcpyHostToDevice);
  // CHECK: op0 line 16:3 cudaMemcpy reads: h; writes: d
  return 0;
}
