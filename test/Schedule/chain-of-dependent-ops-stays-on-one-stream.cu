// Upload, kernel and download of one buffer depend on each other in turn:
// one stream keeps them in order, and no event is needed.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=schedule | %FileCheck %s
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s --check-prefix=OUT --implicit-check-not=cudaEvent < %t.out.cu
// RUN: %nvcc %t.out.cu
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

// CHECK: function main: 1 stream(s), 0 event(s)
// CHECK-NEXT:   op0 line 16 cudaMemcpy -> stream 0
// CHECK-NEXT:   op1 line 17 twice -> stream 0
// CHECK-NEXT:   op2 line 18 cudaMemcpy -> stream 0
// CHECK-NEXT:   edge op0 -> op1 on d
// CHECK-NEXT:   edge op0 -> op2 on {{d|h}}
// CHECK-NEXT:   edge op1 -> op2 on d
// CHECK-NEXT:   wait 0 syncs stream 0
// OUT: static std::atomic<cudaStream_t> sa_streams_[1];
