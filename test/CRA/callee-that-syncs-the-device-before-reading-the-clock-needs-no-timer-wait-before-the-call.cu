// `timeKernel` synchronises the device before it starts its clock, and the
// tool keeps that sync (outside `main` it may complete work the callers left
// running). So when it reads the clock the upload still in flight in `main`
// is complete, as in the original: the call needs no wait of its own.
// Timers are kept (--timers=keep, the default).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report --dump=summaries > %t.summaries
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=SUMMARY < %t.summaries
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <chrono>
#include <cstdio>

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
}

static double timeKernel(float *d, int n) {
  cudaDeviceSynchronize();
  auto start = std::chrono::steady_clock::now();
  scale<<<n / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(end - start).count();
}
// SUMMARY: {{.*}}timeKernel{{.*}}
// SUMMARY: {{.*}}reads a timer after a device sync{{.*}}

int main() {
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
  double t = timeKernel(d, n);
  // CHECK: cudaMemcpyAsync(e, h, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0));
  // CHECK: sum += h[i] * h[n - 1 - i];
  // CHECK-NEXT: double t = timeKernel(d, n);
  cudaMemcpy(h, e, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f %f\n", t, sum, h[1]);
  cudaFree(d);
  cudaFree(e);
  cudaFreeHost(h);
  return 0;
}
// REPORT-NOT: wait (timer)
