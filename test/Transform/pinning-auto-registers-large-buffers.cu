// --pin=auto (the default): a buffer that an asynchronous copy uses is
// pinned (an asynchronous copy of pageable memory blocks the host), by
// registering it, which the measured costs make cheaper than allocating it
// page-locked. A 256-byte buffer used only by a copy that stays synchronous
// (its status is compared with a variable in an `if`) gains too little to pin.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
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
  cudaError_t expected = cudaSuccess;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, big, n * sizeof(float), cudaMemcpyHostToDevice);
  if (cudaMemcpy(tiny, d, 64 * sizeof(float), cudaMemcpyDeviceToHost) != expected)
    return 1;
  printf("%f\n", tiny[0]);
  cudaFree(d);
  free(big);
  // CHECK: sa_registered_free(big);
  free(tiny);
  return 0;
}

// REPORT: {{.*}}:17: host buffer `big`: registered: asynchronous copies of pageable memory block the host
// REPORT: {{.*}}:19: host buffer `tiny`: pageable: pinning it costs more than its 1 copy would save (measured cost model)
