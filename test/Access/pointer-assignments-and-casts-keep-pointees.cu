// A pointer assigned from another (directly, through a cast, or through void*)
// points to what the other points to.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
#include <cstdlib>

int main() {
  float *h = (float *)malloc(64), *d;
  cudaMalloc(&d, 64);
  void *raw = h;
  char *bytes = (char *)raw;
  float *again;
  again = reinterpret_cast<float *>(bytes + 4);
  cudaMemcpy(d, again, 32, cudaMemcpyHostToDevice);
  // CHECK: op0 line 15:3 cudaMemcpy reads: h; writes: d
  return 0;
}
