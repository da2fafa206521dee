// --graph=FILE writes the GPU ops, their streams and dependencies as a
// Graphviz digraph (one cluster per function); an unwritable path is an error.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --graph=%t.dot
// RUN: %FileCheck %s < %t.dot
// RUN: %not %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out2.cu --graph=%t.missing/dir/g.dot 2>&1 | %FileCheck %s --check-prefix=ERR
#include <cstdio>

__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }

int main() {
  float h[32] = {1}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  twice<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(d);
  return 0;
}

// CHECK: digraph streamalloc {
// CHECK:   subgraph cluster_0 {
// CHECK-NEXT:     label="main";
// CHECK-NEXT:     f0_op0 [label="cudaMemcpy\nline 15\nstream 0", style=filled, fillcolor=lightblue];
// CHECK-NEXT:     f0_op1 [label="twice\nline 16\nstream 0", style=filled, fillcolor=lightblue];
// CHECK-NEXT:     f0_op2 [label="cudaMemcpy\nline 17\nstream 0", style=filled, fillcolor=lightblue];
// CHECK-NEXT:     f0_op0 -> f0_op1 [label="d"];
// CHECK: }
// ERR: streamalloc: error: cannot write '{{.*}}g.dot': {{.*}}
