// Each pass of the timed loop synchronises the device before it reads the
// clock, so the copy still in flight when the loop starts is complete at
// the first clock read, as in the original: no wait before the loop. (The
// sync stays: a helper it calls leaves a kernel on the legacy stream.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <chrono>
#include <cstdio>

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
}

static void step(float *d, int n) { scale<<<n / 256, 256>>>(d, n); }

int main(int argc, char **argv) {
  const int n = 1 << 20;
  float *h, *d, *e;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&e, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  cudaMemcpy(e, h, n * sizeof(float), cudaMemcpyHostToDevice);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += h[i] * h[n - 1 - i];
  double total = 0;
  for (int rep = 0; rep < argc + 2; ++rep) {
    cudaDeviceSynchronize();
    auto start = std::chrono::steady_clock::now();
    step(d, n);
    cudaDeviceSynchronize();
    auto end = std::chrono::steady_clock::now();
    total += std::chrono::duration<double>(end - start).count();
  }
  // CHECK: sum += h[i] * h[n - 1 - i];
  // CHECK-NEXT: double total = 0;
  // CHECK-NEXT: for (int rep = 0; rep < argc + 2; ++rep) {
  // CHECK-NEXT: cudaDeviceSynchronize();
  cudaMemcpy(h, e, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f %f\n", total, sum, h[1]);
  cudaFree(d);
  cudaFree(e);
  cudaFreeHost(h);
  return 0;
}
// REPORT-NOT: wait (timer)
// REPORT: {{.*}}:30:3: cudaMemcpy: async on stream 0{{$}}
