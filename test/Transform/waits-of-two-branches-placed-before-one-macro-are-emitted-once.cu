// A macro that expands to a switch whose cases each read a clock: the tool
// cannot put code inside the expansion, so the wait each case needs (for the
// copy the original had finished before its clock read) goes before the whole
// macro. Both land on the same place; the second would wait for nothing, and
// only one is written.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=cudaStreamSynchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *p, float s) { p[threadIdx.x] *= s; }

#define TIMED(mode, d)                                                                             \
  switch (mode) {                                                                                  \
  case 0: {                                                                                        \
    auto t0 = std::chrono::steady_clock::now();                                                    \
    scale<<<1, 32>>>(d, 2.0f);                                                                     \
    auto t1 = std::chrono::steady_clock::now();                                                    \
    printf("%lld\n", (long long)(t1 - t0).count() * 0);                                            \
  } break;                                                                                         \
  default: {                                                                                       \
    auto t0 = std::chrono::steady_clock::now();                                                    \
    scale<<<1, 32>>>(d, 3.0f);                                                                     \
    auto t1 = std::chrono::steady_clock::now();                                                    \
    printf("%lld\n", (long long)(t1 - t0).count() * 0);                                            \
  } break;                                                                                         \
  }

int main(int argc, char **argv) {
  float *h = (float *)malloc(32 * sizeof(float)), *d;
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemcpy(d, h, 32 * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, 32 * sizeof(float), cudaMemcpyHostToDevice, sa_stream([[S:[0-9]+]]));
  TIMED(argc, d)
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: the original had finished these ops when it read the clock on line 41
  // CHECK-NEXT: TIMED(argc, d)
  cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[1]);
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: h is read below (written by cudaMemcpy on line 44)
  // CHECK-NEXT: printf("%f\n", h[1]);
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}:41: wait (timer) for line 39: the original had finished these ops when it read the clock on line 41
// REPORT-NEXT: {{.*}}:41: wait (timer) for line 39: the original had finished these ops when it read the clock on line 41; the same place and calls as a wait above: written once
