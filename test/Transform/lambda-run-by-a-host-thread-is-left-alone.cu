// In a program that starts host threads, another thread may run a lambda (or
// its caller) while the tool's streams are busy, so even a lambda the caller
// only calls directly is left as written, and the report says why.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <thread>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

static void log_progress() { printf("working\n"); }

int main() {
  int h[32] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  auto work = [&]() {
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    // CHECK: cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    inc<<<1, 32>>>(d);
    // CHECK: inc<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  };
  std::thread t(log_progress);
  work();
  t.join();
  printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:21:5: cudaMemcpy: left synchronous: inside a lambda, left as written: the program starts host threads (std::thread on line 28)
