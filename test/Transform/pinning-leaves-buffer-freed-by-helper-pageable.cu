// A buffer released by a helper, stored in a global, or passed to code the
// tool cannot see stays pageable: its release would not be rewritten to
// match a page-locked allocation. The report says why.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=sa_pinned
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

float *g_keep;
void external_consume(float *x);

static void release(float *x) { free(x); }

int main() {
  const int n = 1 << 22;
  float *a = (float *)malloc(n * sizeof(float));
  float *b = (float *)malloc(n * sizeof(float));
  float *c = (float *)malloc(n * sizeof(float));
  // CHECK: float *a = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(a, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(b, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(c, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f %f\n", a[0], b[0], c[0]);
  g_keep = b;
  if (n < 0)
    external_consume(c);
  release(a);
  free(b);
  free(c);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:20: host buffer `a`: pageable: it is released in `release` (line 16)
// REPORT: {{.*}}:21: host buffer `b`: pageable: it is stored in `g_keep`, which is not a local pointer of `main`
// REPORT: {{.*}}:22: host buffer `c`: pageable: a pointer into it is passed to `external_consume`, whose body the analysis cannot see (line 32)
