// A clock read on every pass of a timed loop needs the copy that the original
// had finished before the loop: the wait for it goes once before the loop, not
// into the body, where it would run on every pass and find the copy pending
// only on the first. The kernel of the loop itself is not waited for there.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>
#include <ctime>

__global__ void step(float *p, float s) { p[threadIdx.x] *= s; }

int main() {
  float *h = (float *)malloc(32 * sizeof(float)), *d;
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemcpy(d, h, 32 * sizeof(float), cudaMemcpyHostToDevice);
  double total = 0;
  for (int it = 0; it < 4; ++it) {
    total += it * 0.5;
    clock_t t0 = clock();
    step<<<1, 32>>>(d, 1.5f);
    cudaDeviceSynchronize();
    clock_t t1 = clock();
    total += (double)(t1 - t0) * 0;
  }
  // CHECK: cudaMemcpyAsync(d, h, 32 * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0));
  // CHECK-NEXT: double total = 0;
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream(0));  // streamalloc: the original had finished these ops when it read the clock on line 26, on every pass of the loop below: waited for once, before the loop
  // CHECK-NEXT: for (int it = 0; it < 4; ++it) {
  // CHECK-NEXT: total += it * 0.5;
  // CHECK-NEXT: clock_t t0 = clock();
  // CHECK-NEXT: step<<<1, 32, 0, sa_stream(0)>>>(d, 1.5f);
  // CHECK-NEXT: cudaDeviceSynchronize();
  // CHECK-NEXT: clock_t t1 = clock();
  cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f\n", h[1], total);
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}: 3 of 3 GPU ops made asynchronous on 1 stream(s), 2 wait(s) inserted
// REPORT: {{.*}}:24: wait (timer) for line 22: the original had finished these ops when it read the clock on line 26, on every pass of the loop below: waited for once, before the loop
// REPORT-NOT: only the first such pass
