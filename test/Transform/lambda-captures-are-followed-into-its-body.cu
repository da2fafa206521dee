// The captures of a lambda the caller only ever calls are followed into its
// body as the closure's fields: `h`, `z` and `d` are told apart there, so the
// download runs while the host works on `z`, and the host waits only before
// it reads `h` (the expert's version of this loop).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}
double host_work(const float *z, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += z[i];
  return s;
}

int main() {
  const int n = 1 << 20, K = 4;
  float *h = (float *)malloc(n * K * sizeof(float));
  float *z = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n * K; ++i)
    h[i] = i;
  for (int i = 0; i < n; ++i)
    z[i] = i;
  float *d;
  cudaMalloc(&d, n * K * sizeof(float));
  auto step = [&](int c) {
    cudaMemcpy(d + c * n, h + c * n, n * sizeof(float), cudaMemcpyHostToDevice);
    // CHECK: cudaMemcpyAsync(d + c * n, h + c * n, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0));
    scale<<<n / 256, 256>>>(d + c * n, n);
    // CHECK: scale<<<n / 256, 256, 0, sa_stream(0)>>>(d + c * n, n);
    cudaMemcpy(h + c * n, d + c * n, n * sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(h + c * n, d + c * n, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream(0));
    double r = host_work(z, n);
    // CHECK: double r = host_work(z, n);
    // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: *h is read below (written by cudaMemcpy on line 41)
    printf("%f %f\n", h[c * n + 1], r);
  };
  for (int c = 0; c < K; ++c)
    step(c);
  cudaFree(d);
  free(h);
  free(z);
  return 0;
}

// REPORT: {{.*}}:37:5: cudaMemcpy: async on stream 0, waited for before line 46
// REPORT: {{.*}}:39:5: scale: async on stream 0, waited for before line 46
// REPORT: {{.*}}:41:5: cudaMemcpy: async on stream 0, waited for before line 46
