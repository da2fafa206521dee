// An if/else runs each branch at most once, so ops started in either branch
// may stay pending after the if: the host work after it overlaps with them,
// and one wait covers whichever branch ran.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void up(float *x) { x[threadIdx.x] += 1.0f; }
__global__ void down(float *x) { x[threadIdx.x] -= 1.0f; }

int main(int argc, char **argv) {
  float *h = (float *)calloc(32, sizeof(float)), *d;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemcpy(d, h, 32 * sizeof(float), cudaMemcpyHostToDevice);
  if (argc > 1) {
    up<<<1, 32>>>(d);
    // CHECK: up<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  } else {
    down<<<1, 32>>>(d);
    // CHECK: down<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  }
  cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  printf("branch taken\n");
  // CHECK: printf("branch taken\n");
  printf("%f\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 27)
  // CHECK-NEXT: printf("%f\n", h[0]);
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}:31: wait (conflict) for lines 19, 21, 24, 27: h is read below (written by cudaMemcpy on line 27)
