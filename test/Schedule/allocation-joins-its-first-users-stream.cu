// A stream-ordered allocation takes no stream of its own: it goes on the
// stream of the first op that uses the buffer, so the buffer's chain needs
// no event. Only the kernel, which joins the two chains, and the release
// of da after it on da's stream wait for one.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=on %t.cu --dump=schedule | %FileCheck %s
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=on %t.cu -o %t.out.cu
// RUN: %FileCheck %s --check-prefix=OUT --implicit-check-not=cudaStreamWaitEvent < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void accumulate(const float *a, float *b) { b[threadIdx.x] += a[threadIdx.x]; }

int main() {
  float ha[32] = {1}, hb[32] = {2}, *da, *db;
  cudaMalloc(&da, sizeof ha);
  // OUT: cudaMallocAsync(&da, sizeof ha, sa_stream(0));
  cudaMalloc(&db, sizeof hb);
  // OUT: cudaMallocAsync(&db, sizeof hb, sa_stream(1));
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  // OUT: cudaMemcpyAsync(da, ha, sizeof ha, cudaMemcpyHostToDevice, sa_stream(0));
  // OUT-NEXT: cudaEventRecord(sa_event(0), sa_stream(0));  // streamalloc: marks the end of cudaMemcpy for another stream
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  // OUT: cudaMemcpyAsync(db, hb, sizeof hb, cudaMemcpyHostToDevice, sa_stream(1));
  accumulate<<<1, 32>>>(da, db);
  // OUT: cudaStreamWaitEvent(sa_stream(1), sa_event(0), 0);  // streamalloc: order after cudaMemcpy on line 21 (another stream)
  // OUT-NEXT: accumulate<<<1, 32, 0, sa_stream(1)>>>(da, db);
  cudaMemcpy(hb, db, sizeof hb, cudaMemcpyDeviceToHost);
  printf("%f\n", hb[0]);
  cudaFree(da);
  // OUT: cudaStreamWaitEvent(sa_stream(0), sa_event(1), 0);  // streamalloc: order after accumulate on line 26 (another stream)
  // OUT-NEXT: sa_free_async(da, sa_stream(0));
  cudaFree(db);
  return 0;
}

// CHECK: function main: 2 stream(s), 2 event(s)
// CHECK-NEXT:   op0 line 17 cudaMalloc -> stream 0
// CHECK-NEXT:   op1 line 19 cudaMalloc -> stream 1
// CHECK-NEXT:   op2 line 21 cudaMemcpy -> stream 0
// CHECK-NEXT:   op3 line 24 cudaMemcpy -> stream 1
// CHECK-NEXT:   op4 line 26 accumulate -> stream 1
// CHECK:   event 0 recorded on stream 0 after op2
// CHECK:   stream 1 waits for event 0 before op4
// CHECK-NEXT:   stream 0 waits for event 1 before op6
