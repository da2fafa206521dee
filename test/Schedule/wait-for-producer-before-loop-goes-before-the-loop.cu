// A kernel in a loop reads a buffer uploaded on another stream before the
// loop. The upload cannot run again inside the loop, so its stream is waited
// for once, before the loop, rather than in every iteration.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=schedule | %FileCheck %s
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s --check-prefix=OUT --implicit-check-not=cudaStreamWaitEvent < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void scale(float *y, float v) { y[threadIdx.x] *= v; }
__global__ void axpy(const float *x, float *y) { y[threadIdx.x] += x[threadIdx.x]; }

int main() {
  float hx[32] = {1}, hy[32] = {2}, *dx, *dy;
  cudaMalloc(&dx, sizeof hx);
  cudaMalloc(&dy, sizeof hy);
  cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice);
  // OUT: cudaStreamWaitEvent(sa_stream(1), sa_event(0), 0);  // streamalloc: order after cudaMemcpy on line 19 (another stream)
  // OUT-NEXT: for (int it = 0; it < 100; ++it) {
  for (int it = 0; it < 100; ++it) {
    scale<<<1, 32>>>(dy, 0.5f);
    axpy<<<1, 32>>>(dx, dy);
    // OUT: axpy<<<1, 32, 0, sa_stream(1)>>>(dx, dy);
  }
  cudaMemcpy(hy, dy, sizeof hy, cudaMemcpyDeviceToHost);
  printf("%f\n", hy[0]);
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}

// CHECK: function main: 2 stream(s), 1 event(s)
// CHECK-NEXT:   op0 line 19 cudaMemcpy -> stream 0
// CHECK-NEXT:   op1 line 20 cudaMemcpy -> stream 1
// CHECK-NEXT:   op2 line 24 scale -> stream 1
// CHECK-NEXT:   op3 line 25 axpy -> stream 1
// CHECK:   stream 1 waits for event 0 before op3 (before the loop on line 23)
