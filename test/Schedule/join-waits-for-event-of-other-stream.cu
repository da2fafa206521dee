// Join: a kernel reads two buffers uploaded on different streams. It
// continues the stream of the later upload and waits for an event recorded
// right after the other upload; the host thread does not wait.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=schedule | %FileCheck %s
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s --check-prefix=OUT < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void add(const float *a, const float *b, float *c) {
  c[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

int main() {
  float ha[32] = {1}, hb[32] = {2}, hc[32], *da, *db, *dc;
  cudaMalloc(&da, sizeof ha);
  cudaMalloc(&db, sizeof hb);
  cudaMalloc(&dc, sizeof hc);
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  // OUT: cudaMemcpyAsync(da, ha, sizeof ha, cudaMemcpyHostToDevice, sa_stream(0));
  // OUT-NEXT: cudaEventRecord(sa_event(0), sa_stream(0));  // streamalloc: marks the end of cudaMemcpy for another stream
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  // OUT: cudaMemcpyAsync(db, hb, sizeof hb, cudaMemcpyHostToDevice, sa_stream(1));
  add<<<1, 32>>>(da, db, dc);
  // OUT: cudaStreamWaitEvent(sa_stream(1), sa_event(0), 0);  // streamalloc: order after cudaMemcpy on line 21 (another stream)
  // OUT-NEXT: add<<<1, 32, 0, sa_stream(1)>>>(da, db, dc);
  cudaMemcpy(hc, dc, sizeof hc, cudaMemcpyDeviceToHost);
  // OUT: cudaMemcpyAsync(hc, dc, sizeof hc, cudaMemcpyDeviceToHost, sa_stream(1));
  printf("%f\n", hc[0]);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}

// CHECK: function main: 2 stream(s), 1 event(s)
// CHECK-NEXT:   op0 line 21 cudaMemcpy -> stream 0
// CHECK-NEXT:   op1 line 24 cudaMemcpy -> stream 1
// CHECK-NEXT:   op2 line 26 add -> stream 1
// CHECK-NEXT:   op3 line 29 cudaMemcpy -> stream 1
// CHECK: event 0 recorded on stream 0 after op0
// CHECK-NEXT: stream 1 waits for event 0 before op2
