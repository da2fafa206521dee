// --pin=auto (the default) weighs the measured costs: for a large buffer,
// registering the malloc'd memory costs less than allocating it page-locked,
// and its copies save more than either; a 256-byte buffer copied once back
// is not worth pinning at all.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

int main() {
  const size_t n = 64 << 20;
  float *big = (float *)malloc(n * sizeof(float));
  // CHECK: float *big = (float *)sa_registered_malloc(n * sizeof(float));
  float *tiny = (float *)malloc(64 * sizeof(float));
  // CHECK: float *tiny = (float *)malloc(64 * sizeof(float));
  for (size_t i = 0; i < n; ++i)
    big[i] = 1.0f;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, big, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(tiny, d, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", tiny[0]);
  cudaFree(d);
  free(big);
  // CHECK: sa_registered_free(big);
  free(tiny);
  return 0;
}

// REPORT: {{.*}}:16: host buffer `big`: registered: so that its 1 copy can run asynchronously at full speed
// REPORT: {{.*}}:18: host buffer `tiny`: pageable: pinning it costs more than its 1 copy would save (measured cost model)
