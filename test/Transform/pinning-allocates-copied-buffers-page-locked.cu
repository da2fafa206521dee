// --pin=alloc: host buffers that GPU copies use, made by malloc, calloc and
// new[] and released by free and delete[] in the same function, are allocated
// page-locked (copies from pageable memory block the host); a helper that
// only reads through the pointer does not stop it. A buffer no copy uses is
// left alone.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report --pin=alloc
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

static float sum(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

int main() {
  const int n = 1 << 22;
  float *a = (float *)malloc(n * sizeof(float));
  // CHECK: float *a = (float *)sa_pinned_malloc(n * sizeof(float));
  float *b = (float *)calloc(n, sizeof(float));
  // CHECK: float *b = (float *)sa_pinned_calloc(n, sizeof(float));
  float *c = new float[n];
  // CHECK: float *c = static_cast<float *>(sa_pinned_malloc(sizeof(float) * (n)));
  float *other = (float *)malloc(n * sizeof(float));
  // CHECK: float *other = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    a[i] = other[i] = 1.0f;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, a, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(c, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f %f\n", sum(b, n), sum(c, n), other[0]);
  cudaFree(d);
  free(a);
  // CHECK: sa_pinned_free(a);
  free(b);
  // CHECK: sa_pinned_free(b);
  delete[] c;
  // CHECK: sa_pinned_free(c);
  free(other);
  // CHECK: free(other);
  return 0;
}

// REPORT: {{.*}}:24: host buffer `a`: allocated page-locked: asynchronous copies of pageable memory block the host
// REPORT: {{.*}}:26: host buffer `b`: allocated page-locked: asynchronous copies of pageable memory block the host
// REPORT: {{.*}}:28: host buffer `c`: allocated page-locked: asynchronous copies of pageable memory block the host
