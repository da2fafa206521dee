// Two kernels on one stream read a buffer written on another stream. The
// first waits for the producer's event; the second is ordered behind the
// first on its stream and does not wait again. Inside the loop the producer
// runs again in every iteration, so the wait stays in the loop, once. (The
// next iteration's fill of da waits for both readers of the last one.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --cuda-graphs=off --stream-ordered-alloc=off %t.cu --dump=schedule | %FileCheck %s
// RUN: %streamalloc --cuda-graphs=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s --check-prefix=OUT --implicit-check-not=cudaStreamWaitEvent < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }
__global__ void add(const float *a, const float *b, float *c) {
  c[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

int main() {
  float h[32], *da, *db, *dc;
  cudaMalloc(&da, sizeof h);
  cudaMalloc(&db, sizeof h);
  cudaMalloc(&dc, sizeof h);
  for (int it = 0; it < 10; ++it) {
    // OUT: cudaStreamWaitEvent(sa_stream(0), sa_event({{[0-9]}}), 0);  // streamalloc: order after add on line 30 (another stream)
    // OUT-NEXT: cudaStreamWaitEvent(sa_stream(0), sa_event({{[0-9]}}), 0);  // streamalloc: order after add on line 33 (another stream)
    // OUT-NEXT: fill<<<1, 32, 0, sa_stream(0)>>>(da, (float)it);
    fill<<<1, 32>>>(da, (float)it);
    fill<<<1, 32>>>(db, 1.0f);
    add<<<1, 32>>>(da, db, db);
    // OUT: cudaStreamWaitEvent(sa_stream(1), sa_event({{[0-9]}}), 0);  // streamalloc: order after fill on line 28 (another stream)
    // OUT-NEXT: add<<<1, 32, 0, sa_stream(1)>>>(da, db, db);
    add<<<1, 32>>>(da, db, dc);
    // OUT: add<<<1, 32, 0, sa_stream(1)>>>(da, db, dc);
  }
  cudaMemcpy(h, dc, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}

// CHECK: function main: 2 stream(s), 3 event(s)
// CHECK:   edge op0 -> op3 on da
// CHECK:   stream 1 waits for event {{[0-9]}} before op2
// CHECK-NOT: before op3
// CHECK:   1 cross-stream edge(s) ordered by an earlier wait or device sync
