// Pointers stored in the fields of a local struct are followed field by
// field: a copy through `io.in` reads what was stored in `in`, not `out`.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
#include <cstdlib>

struct Pair {
  float *in;
  float *out;
};

int main() {
  Pair io;
  io.in = (float *)malloc(64);
  io.out = (float *)malloc(64);
  float *d;
  cudaMalloc(&d, 64);
  cudaMemcpy(d, io.in, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(io.out, d, 64, cudaMemcpyDeviceToHost);
  // CHECK: op0 line 19:3 cudaMemcpy reads: io.in; writes: d
  // CHECK-NEXT: op1 line 20:3 cudaMemcpy reads: d; writes: io.out
  return 0;
}
