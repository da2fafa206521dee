// A clock read is where the program observes time: the work the original had
// finished there must be finished in the output too, so printed durations
// measure the same work (--timers=keep, the default). The blocking copy back
// finished the upload, the kernel and itself before `t1` was read; a
// `get_time()` wrapper of gettimeofday is a clock read through its summary.
// A kernel still running in the original at a clock read is not waited for;
// std::chrono clocks are read like gettimeofday.
// With --timers=ignore the clock reads touch nothing and the report says once
// that printed times may change meaning.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off --timers=ignore %t.cu -o %t.ignore.cu --report-file=%t.ignore.report
// RUN: %FileCheck %s --check-prefix=IGNORE --implicit-check-not='read the clock' < %t.ignore.cu
// RUN: %FileCheck %s --check-prefix=IGNORE-REPORT < %t.ignore.report
// RUN: %nvcc %t.ignore.cu
#include <chrono>
#include <cstdio>
#include <sys/time.h>

__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }

double get_time() {
  struct timeval tv;
  gettimeofday(&tv, 0);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}

int main() {
  float h[64] = {}, *d;
  cudaMalloc(&d, sizeof h);
  double t0 = get_time();
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  double t1 = get_time();
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: {{^  }}cudaStreamSynchronize(sa_stream({{[0-9]+}})); // streamalloc: the original had finished these ops when it read the clock on line 39
  // CHECK-NEXT: {{^  }}double t1 = get_time();
  // IGNORE: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // IGNORE: {{^  }}double t1 = get_time();
  scale<<<1, 64>>>(d);
  auto t2 = std::chrono::steady_clock::now();
  // CHECK: scale<<<1, 64, 0, sa_stream({{[0-9]+}})>>>(d);
  // CHECK-NEXT: {{^  }}auto t2 = std::chrono::steady_clock::now();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  auto t3 = std::chrono::steady_clock::now();
  // CHECK: {{^  }}cudaStreamSynchronize(sa_stream({{[0-9]+}})); // streamalloc: the original had finished these ops when it read the clock on line 50
  // CHECK-NEXT: {{^  }}auto t3 = std::chrono::steady_clock::now();
  printf("%f %f %d\n", h[1], t1 - t0, (int)((t3 - t2).count() >= 0));
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:39: wait (timer) for lines 36, 37, 38: the original had finished these ops when it read the clock on line 39
// REPORT-NOT: note: --timers=ignore
// IGNORE-REPORT-NOT: wait (timer)
// IGNORE-REPORT: note: --timers=ignore: clock reads do not wait for GPU work, so printed times may change meaning
