// A buffer main pins for a helper's copies reaches that helper through
// another one that only passes it on (and has no GPU op of its own): the
// copying helper's parameter is still page-locked at every call, so its
// copies become asynchronous and the host work before the wait overlaps
// them.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>
__global__ void scale(float *d, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= f;
}

static double reference(const float *z, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += z[i];
  return s;
}

static double upload_scale(float *x, float *d, const float *z, int n) {
  cudaMemcpy(d, x, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, x, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0));
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  cudaMemcpy(x, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(x, d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream(0));
  double r = reference(z, n);
  return r + x[0];
}

static double stage(float *x, float *d, const float *z, int n) { return upload_scale(x, d, z, n); }

int main() {
  int n = 1 << 22;
  float *x = (float *)malloc(n * sizeof(float)), *z = (float *)calloc(n, sizeof(float)), *d;
  // CHECK: float *x = (float *)sa_registered_malloc(n * sizeof(float)), *z = (float *)calloc(n, sizeof(float)), *d;
  cudaMalloc(&d, n * sizeof(float));
  for (int i = 0; i < n; i++)
    x[i] = 1;
  printf("%f\n", stage(x, d, z, n));
  cudaFree(d);
  free(x);
  free(z);
  return 0;
}

// REPORT: {{.*}}:{{[0-9]+}}: host buffer `x`: registered: so that its 2 copies run at full speed (all in `upload_scale`, which it is passed to)
