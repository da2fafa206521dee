// A host wait that covers every stream of `main` is one cudaDeviceSynchronize
// when nothing else can be running on the device: it then waits for exactly
// what the per-stream syncs would. Elsewhere it stays one sync per stream: in
// a helper, whose callers may have work of their own in flight, and in a
// `main` that leaves a kernel running on the legacy default stream (a device
// sync would also wait for it, which the original did not).
// Profitability is off so that the small copies are made asynchronous.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.legacy.cu -- -DLEGACY_KERNEL
// RUN: %FileCheck %s --check-prefix=LEGACY < %t.legacy.cu
// RUN: %nvcc -DLEGACY_KERNEL %t.legacy.cu
#include <cstdio>

__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }

#define LAUNCH_ON_LEGACY_STREAM(x) twice<<<1, 32>>>(x)

void roundTrip() {
  float ha[32] = {1}, hb[32] = {2}, *da, *db;
  cudaMalloc(&da, sizeof ha);
  cudaMalloc(&db, sizeof hb);
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  twice<<<1, 32>>>(da);
  twice<<<1, 32>>>(db);
  cudaMemcpy(ha, da, sizeof ha, cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, db, sizeof hb, cudaMemcpyDeviceToHost);
  // CHECK: cudaStreamSynchronize(sa_stream(0)); // streamalloc: ha is read below (written by cudaMemcpy on line 30)
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream(1)); // streamalloc: ha is read below (written by cudaMemcpy on line 30)
  // CHECK-NEXT: printf("%f %f\n", ha[0], hb[0]);
  printf("%f %f\n", ha[0], hb[0]);
  cudaFree(da);
  cudaFree(db);
}

int main() {
  float ha[32] = {1}, hb[32] = {2}, *da, *db, *dc;
  cudaMalloc(&da, sizeof ha);
  cudaMalloc(&db, sizeof hb);
  cudaMalloc(&dc, sizeof hb);
#ifdef LEGACY_KERNEL
  LAUNCH_ON_LEGACY_STREAM(dc);
#endif
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  twice<<<1, 32>>>(da);
  twice<<<1, 32>>>(db);
  cudaMemcpy(ha, da, sizeof ha, cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, db, sizeof hb, cudaMemcpyDeviceToHost);
  // CHECK: cudaDeviceSynchronize(); // streamalloc: ha is read below (written by cudaMemcpy on line 52)
  // CHECK-NEXT: printf("%f %f\n", ha[0], hb[0]);
  // LEGACY: cudaStreamSynchronize(sa_stream(0)); // streamalloc: ha is read below (written by cudaMemcpy on line 52)
  // LEGACY-NEXT: cudaStreamSynchronize(sa_stream(1)); // streamalloc: ha is read below (written by cudaMemcpy on line 52)
  // LEGACY-NEXT: printf("%f %f\n", ha[0], hb[0]);
  printf("%f %f\n", ha[0], hb[0]);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}
