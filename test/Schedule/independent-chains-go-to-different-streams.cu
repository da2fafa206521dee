// Fork: two chains that share no buffer run on two streams, so the upload
// of one overlaps the kernel of the other. The host waits for both streams
// only where it reads both results.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu --dump=schedule | %FileCheck %s
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s --check-prefix=OUT --implicit-check-not=cudaEvent < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }

int main() {
  float ha[32] = {1}, hb[32] = {2}, *da, *db;
  cudaMalloc(&da, sizeof ha);
  cudaMalloc(&db, sizeof hb);
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  // OUT: cudaMemcpyAsync(da, ha, sizeof ha, cudaMemcpyHostToDevice, sa_stream(0));
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  // OUT: cudaMemcpyAsync(db, hb, sizeof hb, cudaMemcpyHostToDevice, sa_stream(1));
  twice<<<1, 32>>>(da);
  // OUT: twice<<<1, 32, 0, sa_stream(0)>>>(da);
  twice<<<1, 32>>>(db);
  // OUT: twice<<<1, 32, 0, sa_stream(1)>>>(db);
  cudaMemcpy(ha, da, sizeof ha, cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, db, sizeof hb, cudaMemcpyDeviceToHost);
  printf("%f %f\n", ha[0], hb[0]);
  // A wait for every stream of main, where no other GPU work can be running,
  // is one device sync.
  // OUT: cudaDeviceSynchronize();  // streamalloc: ha is read below (written by cudaMemcpy on line 26)
  // OUT-NEXT: printf("%f %f\n", ha[0], hb[0]);
  cudaFree(da);
  cudaFree(db);
  return 0;
}

// CHECK: function main: 2 stream(s), 0 event(s)
// CHECK-NEXT:   op0 line 18 cudaMemcpy -> stream 0
// CHECK-NEXT:   op1 line 20 cudaMemcpy -> stream 1
// CHECK-NEXT:   op2 line 22 twice -> stream 0
// CHECK-NEXT:   op3 line 24 twice -> stream 1
// CHECK-NEXT:   op4 line 26 cudaMemcpy -> stream 0
// CHECK-NEXT:   op5 line 27 cudaMemcpy -> stream 1
