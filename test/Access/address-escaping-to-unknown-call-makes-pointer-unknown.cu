// Once the address of a pointer variable is passed to a function without a
// model, the callee may have stored anything in it: what it points to is
// Unknown, and the report says why.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu --dump=accesses > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump
#include <cstdlib>

void acquire_buffer(float **out, int n);

int main() {
  float *buf = (float *)malloc(64 * sizeof(float)), *d;
  cudaMalloc(&d, 64 * sizeof(float));
  acquire_buffer(&buf, 64);
  cudaMemcpy(buf, d, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  // DUMP: op0 line 16:3 cudaMemcpy effects: <unknown>:W, d:R (unknown: the address of `buf` is taken)
  cudaFree(d);
  return 0;
}
// DUMP: line 15: host <unknown>:RW (unknown: call to `acquire_buffer`, which has no model or body)
