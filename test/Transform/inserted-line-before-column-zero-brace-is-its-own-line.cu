// A wait or release anchored on a `}` in column 0 goes on a line of its own
// before the brace, like every other inserted line (not inline as
// `sa_release_streams(); /* ... */ }`).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

void launch(int *d) {
  inc<<<1, 32>>>(d);
  // CHECK: inc<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
}
// CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before launch returns
// CHECK-NEXT: }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  launch(d);
  cudaFree(d);
}
// CHECK: sa_release_streams();  // streamalloc: release the streams before CUDA shuts down
// CHECK-NEXT: }
