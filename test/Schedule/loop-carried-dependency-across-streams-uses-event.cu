// A dependency carried by the loop: `mix` (stream 1) reads d_x, which `fill`
// at the top of the next iteration (stream 0) overwrites. The event recorded
// after `mix` is waited for on stream 0 before `fill`; in the first
// iteration it has not been recorded yet, and the wait passes at once.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --cuda-graphs=off --stream-ordered-alloc=off %t.cu --dump=schedule | %FileCheck %s
// RUN: %streamalloc --cuda-graphs=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s --check-prefix=OUT < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }
__global__ void mix(const float *x, float *y) { y[threadIdx.x] += x[threadIdx.x]; }

int main() {
  float h[32], *d_x, *d_y;
  cudaMalloc(&d_x, sizeof h);
  cudaMalloc(&d_y, sizeof h);
  for (int it = 0; it < 4; ++it) {
    fill<<<1, 32>>>(d_x, (float)it);
    // OUT: cudaStreamWaitEvent(sa_stream(0), sa_event({{[0-9]}}), 0);  // streamalloc: order after mix on line {{[0-9]+}} (another stream)
    // OUT-NEXT: fill<<<1, 32, 0, sa_stream(0)>>>(d_x, (float)it);
    fill<<<1, 32>>>(d_y, 1.0f);
    mix<<<1, 32>>>(d_x, d_y);
    // OUT: mix<<<1, 32, 0, sa_stream(1)>>>(d_x, d_y);
    // OUT-NEXT: cudaEventRecord(sa_event({{[0-9]}}), sa_stream(1));  // streamalloc: marks the end of mix for another stream
  }
  cudaMemcpy(h, d_y, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(d_x);
  cudaFree(d_y);
  return 0;
}

// CHECK: function main: 2 stream(s), 2 event(s)
// CHECK-NEXT:   op0 line 21 fill -> stream 0
// CHECK-NEXT:   op1 line 24 fill -> stream 1
// CHECK-NEXT:   op2 line 25 mix -> stream 1
// CHECK:   edge op2 -> op0 on d_x (carried by the loop)
// CHECK:   stream 0 waits for event {{[0-9]}} before op0
