// Diamond: two kernels read what one upload wrote, a third reads both of
// their results. The second branch goes to a new stream and waits for an
// event recorded right after the upload (not for the first branch); the
// join waits for an event recorded after the first branch.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=schedule | %FileCheck %s
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s --check-prefix=OUT < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void scale(const float *in, float *out, float k) { out[threadIdx.x] = k * in[threadIdx.x]; }
__global__ void add(const float *a, const float *b, float *c) {
  c[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

int main() {
  float h[32] = {1}, *d, *dl, *dr, *dsum;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&dl, sizeof h);
  cudaMalloc(&dr, sizeof h);
  cudaMalloc(&dsum, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  // OUT: cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, sa_stream(0));
  // OUT-NEXT: cudaEventRecord(sa_event(0), sa_stream(0));  // streamalloc: marks the end of cudaMemcpy for another stream
  scale<<<1, 32>>>(d, dl, 2.0f);
  // OUT: scale<<<1, 32, 0, sa_stream(0)>>>(d, dl, 2.0f);
  // OUT-NEXT: cudaEventRecord(sa_event(1), sa_stream(0));  // streamalloc: marks the end of scale for another stream
  scale<<<1, 32>>>(d, dr, 3.0f);
  // OUT: cudaStreamWaitEvent(sa_stream(1), sa_event(0), 0);  // streamalloc: order after cudaMemcpy on line 24 (another stream)
  // OUT-NEXT: scale<<<1, 32, 0, sa_stream(1)>>>(d, dr, 3.0f);
  add<<<1, 32>>>(dl, dr, dsum);
  // OUT: cudaStreamWaitEvent(sa_stream(1), sa_event(1), 0);  // streamalloc: order after scale on line 27 (another stream)
  // OUT-NEXT: add<<<1, 32, 0, sa_stream(1)>>>(dl, dr, dsum);
  cudaMemcpy(h, dsum, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(d);
  cudaFree(dl);
  cudaFree(dr);
  cudaFree(dsum);
  return 0;
}

// CHECK: function main: 2 stream(s), 2 event(s)
// CHECK-NEXT:   op0 line 24 cudaMemcpy -> stream 0
// CHECK-NEXT:   op1 line 27 scale -> stream 0
// CHECK-NEXT:   op2 line 30 scale -> stream 1
// CHECK-NEXT:   op3 line 33 add -> stream 1
