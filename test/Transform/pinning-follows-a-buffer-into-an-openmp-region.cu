// A host buffer that an OpenMP region uses (captured by reference, read and
// written by its threads) is followed into the region like any other use:
// its threads touch only its elements, so it is still pinned, and a region
// that reads it waits for the copy that writes it. A release in a region of
// the allocating function is a release like any other and is rewritten.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --pin=alloc %t.cu -o %t.out.cu --report-file=%t.report -- -fopenmp
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc -Xcompiler -fopenmp %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void twice(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

static void reference(const float *in, float *out, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    out[i] = 2 * in[i];
}

int main() {
  const int n = 1 << 20;
  float *h = (float *)malloc(n * sizeof(float));
  // CHECK: float *h = (float *)sa_pinned_malloc(n * sizeof(float));
  float *expected = (float *)malloc(n * sizeof(float));
  // CHECK: float *expected = (float *)malloc(n * sizeof(float));
  float *scratch = (float *)malloc(n * sizeof(float));
  // CHECK: float *scratch = (float *)sa_pinned_malloc(n * sizeof(float));
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    h[i] = i % 5;
  reference(h, expected, n);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(d, scratch, n * sizeof(float), cudaMemcpyHostToDevice);
  int bad = 0;
  // CHECK: cudaEventSynchronize(sa_event({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 43)
#pragma omp parallel for reduction(+ : bad)
  for (int i = 0; i < n; ++i)
    bad += h[i] != expected[i];
  printf("%d\n", bad);
#pragma omp parallel
  {
#pragma omp single
    free(scratch);
    // CHECK: sa_pinned_free(scratch);
  }
  free(h);
  // CHECK: sa_pinned_free(h);
  free(expected);
  cudaFree(d);
  return 0;
}

// REPORT-DAG: {{.*}}:29: host buffer `h`: allocated page-locked: {{.*}}
// REPORT-DAG: {{.*}}:33: host buffer `scratch`: allocated page-locked: {{.*}}
